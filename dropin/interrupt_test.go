package dropin_test

import (
	"context"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// Ctrl-C in drop-in mode: the Java tool dies without a word; kcg exits 130
// and prints nothing, not "failed due to context canceled".
func TestDropInInterrupted(t *testing.T) {
	e := kafkatest.Cluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := clitest.RunContext(ctx, "--bootstrap-server", e.Bootstrap, "--list").MustCode(t, 130)
	if r.Stdout != "" || r.Stderr != "" {
		t.Fatalf("stdout %q, stderr %q", r.Stdout, r.Stderr)
	}
}

package dropin_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// Texts seen side by side with the Java tool: --type's valid values as
// Java names them, and a --from-file that cannot be read.
func TestDropInJavaTexts(t *testing.T) {
	r := kcg(t, "--bootstrap-server", "127.0.0.1:1", "--list", "--type", "share,bogus").MustCode(t, 64)
	if first := strings.SplitN(r.Stderr, "\n", 2)[0]; first != "Invalid types list 'share,bogus'. Valid types are: Consumer, Classic" {
		t.Fatalf("--type share,bogus: %q", first)
	}

	e := kafkatest.Cluster(t)
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	missing := filepath.Join(t.TempDir(), "missing.csv")
	r = kcg(t, "--bootstrap-server", e.Bootstrap, "--reset-offsets", "--group", group, "--from-file", missing, "--dry-run").MustCode(t, 65)
	if want := "\nError: Executing consumer group command failed due to java.io.IOException: Unable to read file " + missing + "\n"; r.Stdout != want {
		t.Fatalf("missing --from-file: stdout %q, want %q", r.Stdout, want)
	}
}

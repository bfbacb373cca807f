package dropin_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// --reset-offsets --execute goes through kcg apply's path, its watch of
// the written offsets included: a group whose consumer commits without
// joining it (assign()) takes its position back at once, and the reset is
// reported overwritten (exit 4), not done.
// (The drop-in watch is settleFor, 300ms in these tests: TestMain.)
func TestDropInExecuteReportsOverwrittenOffsets(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(6)...)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 3})
	e.AssignCommitter(t, g, topic, map[int32]int64{0: 3}, 50*time.Millisecond)

	r := kcg(t, "--bootstrap-server", e.Bootstrap, "--reset-offsets", "--group", g, "--topic", topic, "--to-earliest", "--execute").MustCode(t, 4)
	for _, want := range []string{"group " + g + ": overwritten after the write", "assign()"} {
		// As the Java tool, drop-in mode prints its errors on stdout.
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, r.Stdout)
		}
	}
}

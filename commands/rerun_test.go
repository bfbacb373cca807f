package commands_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// An apply that failed part way (exit 4) can be re-run once the cause is
// gone: the partitions it wrote are at their targets, which is no drift,
// so the plan is not stale; the re-run writes the rest. A partition that
// moved anywhere else still makes it stale (TestApplyRefusesStalePlan).
// kfake on both tiers (the failure is injected); the real-broker version,
// with a coordinator killed, is TestCoordinatorKilledDuringApply.
func TestApplyRerunAfterPartialFailure(t *testing.T) {
	e := kafkatest.Fake(t)
	topic := kafkatest.UniqueName(t, "t")
	g1, g2 := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(10)...)
	e.Commit(t, g1, topic, map[int32]int64{0: 5})
	e.Commit(t, g2, topic, map[int32]int64{0: 6})
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.yaml")
	kcgOn(t, e, "plan", g1, g2, "--topic", topic, "--to-offset", "2", "--out", plan).MustCode(t, 0)
	h := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: g2, Err: kerr.UnknownServerError, Count: -1})
	r := kcgOn(t, e, "apply", plan, "--rollback-out", filepath.Join(dir, "rb.yaml")).MustCode(t, 4)
	h.Remove()
	if !strings.Contains(r.Stderr, "written: "+g1+";") || !strings.Contains(r.Stderr, "not written: "+g2) {
		t.Fatalf("stderr %q", r.Stderr)
	}
	r = kcgOn(t, e, "apply", plan, "--rollback-out", filepath.Join(dir, "rb2.yaml"), "-o", "json").MustCode(t, 0)
	rep := parseApplyReport(t, r.Stdout)
	if rep.Result != "applied" || len(rep.Groups) != 2 || rep.Groups[0].Partitions[0].Result != "unchanged" || rep.Groups[1].Partitions[0].Result != "written" {
		t.Fatalf("re-run report %+v", rep)
	}
	if c1, c2 := e.Committed(t, g1)[topic][0], e.Committed(t, g2)[topic][0]; c1 != 2 || c2 != 2 {
		t.Fatalf("after the re-run: %d and %d, want 2 and 2", c1, c2)
	}
	// The first rollback plan (written before the first commit) restores both.
	kcgOn(t, e, "apply", filepath.Join(dir, "rb.yaml"), "--rollback-out", filepath.Join(dir, "rb3.yaml")).MustCode(t, 0)
	if c1, c2 := e.Committed(t, g1)[topic][0], e.Committed(t, g2)[topic][0]; c1 != 5 || c2 != 6 {
		t.Fatalf("after the rollback: %d and %d, want 5 and 6", c1, c2)
	}
}

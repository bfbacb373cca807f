package commands_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// plan --to-group: the use cases of docs/workflow.md on one fixture. The
// source f.group has committed 5 on partition 0 only.
func TestPlanToGroup(t *testing.T) {
	f := newResetFixture(t)
	canary := kafkatest.UniqueName(t, "canary")

	// A new group id: SOURCE's commit is copied, partition 1 (never
	// committed by SOURCE) is left out and named on stderr.
	out := f.path("canary.yaml")
	r := kcgOn(t, f.e, "plan", canary, "--topic", f.topic, "--to-group", f.group, "--allow-new-group", "--out", out).MustCode(t, 0)
	if !strings.Contains(r.Stderr, f.group+" has no committed offset on "+f.topic+"-1: left out of the plan for group "+canary) {
		t.Fatalf("no left-out warning: %q", r.Stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	plan := string(data)
	for _, want := range []string{"strategy: {type: to-group, group: " + f.group + "}", "partition: 0, current: null, target: 5", "reason: copied-from-group"} {
		if !strings.Contains(plan, want) {
			t.Fatalf("plan lacks %q:\n%s", want, plan)
		}
	}
	if strings.Contains(plan, "partition: 1,") {
		t.Fatalf("partition 1 is in the plan:\n%s", plan)
	}
	r = kcg(t, "show", out).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "to-group (copied from group "+f.group+")") || !strings.Contains(r.Stdout, "copied-from-group") {
		t.Fatalf("show does not say where the targets came from:\n%s", r.Stdout)
	}
	kcgOn(t, f.e, "apply", out).MustCode(t, 0)
	if got := f.e.Committed(t, canary)[f.topic]; len(got) != 1 || got[0] != 5 {
		t.Fatalf("canary committed %v, want {0: 5}", got)
	}
	// The source is untouched.
	if got := f.committed(t); len(got) != 1 || got[0] != 5 {
		t.Fatalf("source committed %v", got)
	}

	// A source commit beyond the log end is clamped to it.
	f.e.Commit(t, f.group, f.topic, map[int32]int64{1: 50})
	r = kcgOn(t, f.e, "plan", canary, "--topic", f.topic, "--to-group", f.group, "--out", "-").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "partition: 1, current: null, target: 10, logStart: 0, logEnd: 10, reason: clamped-to-end") {
		t.Fatalf("no clamp:\n%s", r.Stdout)
	}
}

func TestPlanToGroupRefusals(t *testing.T) {
	f := newResetFixture(t)
	out := f.path("x.yaml")
	other := kafkatest.UniqueName(t, "other")
	f.e.Commit(t, other, f.topic, map[int32]int64{0: 1})

	// SOURCE as a target, or with --all-groups: usage errors, no network.
	r := kcg(t, "plan", other, f.group, "--topic", f.topic, "--to-group", f.group, "--out", out, "--bootstrap-server", "127.0.0.1:1").MustCode(t, 64)
	oneLine(t, r.Stderr, "--to-group "+f.group, "also a group to reset")
	r = kcg(t, "plan", "--all-groups", "--topic", f.topic, "--to-group", f.group, "--out", out, "--bootstrap-server", "127.0.0.1:1").MustCode(t, 64)
	oneLine(t, r.Stderr, "not --all-groups")
	r = kcg(t, "plan", other, "--topic", f.topic, "--to-group", f.group, "--to-earliest", "--out", out).MustCode(t, 64)
	oneLine(t, r.Stderr, "give one strategy")

	// SOURCE that does not exist: exit 3 naming it.
	missing := "nosuch-" + f.group
	r = kcgOn(t, f.e, "plan", other, "--topic", f.topic, "--to-group", missing, "--out", out).MustCode(t, 3)
	oneLine(t, r.Stderr, `source group "`+missing+`" does not exist`)

	// SOURCE with no commit in the scope: refused, naming the partitions.
	empty := kafkatest.UniqueName(t, "empty")
	f.e.CreateTopic(t, empty, 2)
	r = kcgOn(t, f.e, "plan", other, "--topic", empty, "--to-group", f.group, "--out", out).MustCode(t, 3)
	oneLine(t, r.Stderr, f.group+" has no committed offset on "+empty+"-0, "+empty+"-1")
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a plan was written")
	}
}

package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// diff of a plan that has been applied says "already applied" and exits 0,
// as apply does; before apply it shows the writes, exit 0; after a consumer
// moved an offset again it is drift, exit 2.
func TestDiffAppliedPlan(t *testing.T) {
	f := newResetFixture(t)
	plan := f.path("reset.yaml")
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-earliest")
	r := kcgOn(t, f.e, "diff", plan).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "write") || strings.Contains(r.Stdout, "already applied") {
		t.Fatalf("diff before apply:\n%s", r.Stdout)
	}
	kcgOn(t, f.e, "apply", plan).MustCode(t, 0)

	r = kcgOn(t, f.e, "diff", plan).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "already applied") || strings.Contains(r.Stdout, "drift") {
		t.Fatalf("diff after apply:\n%s", r.Stdout)
	}
	r = kcgOn(t, f.e, "diff", plan, "-o", "json").MustCode(t, 0)
	var doc struct {
		Kind           string `json:"kind"`
		AlreadyApplied bool   `json:"alreadyApplied"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || doc.Kind != "PlanStatus" || !doc.AlreadyApplied {
		t.Fatalf("%v %+v\n%s", err, doc, r.Stdout)
	}

	// A consumer commits again: no longer applied; that is drift.
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 7})
	r = kcgOn(t, f.e, "diff", plan).MustCode(t, 2)
	if !strings.Contains(r.Stdout, "drift") || strings.Contains(r.Stdout, "already applied") {
		t.Fatalf("diff after a new commit:\n%s", r.Stdout)
	}
}

// kcg diff PLAN exits 0 while apply would write exactly the reviewed
// changes (pending writes are what the plan is for, not a difference), and
// its help says so: the "exit 0" of the help covers that case, as
// docs/exit-codes.md does.
func TestDiffHelpSaysWhatExit0Means(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-earliest")
	r := kcgOn(t, f.e, "diff", f.path("reset.yaml"), "-o", "json").MustCode(t, 0)
	var doc struct {
		Writes []any `json:"wouldWrite"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || len(doc.Writes) == 0 {
		t.Fatalf("diff of a plan not yet applied shows no pending write (%v):\n%s", err, r.Stdout)
	}
	help := kcg(t, "diff", "--help").MustCode(t, 0).Stdout
	_, exit0, ok := strings.Cut(help, "exit 0:")
	if !ok {
		t.Fatalf("diff --help says nothing of exit 0:\n%s", help)
	}
	exit0, _, _ = strings.Cut(exit0, "2:")
	if !strings.Contains(exit0, "apply would run the plan as reviewed") {
		t.Errorf("diff --help's exit 0 (%q) does not cover a plan whose writes are pending", exit0)
	}
}

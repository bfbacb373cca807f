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

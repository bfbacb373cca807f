package commands_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A mistyped group is refused (exit 3), naming it and the closest
// existing groups; no plan is written and apply has nothing to create.
func TestPlanRefusesMissingGroup(t *testing.T) {
	f := newResetFixture(t)
	out := f.path("x.yaml")
	typo := f.group[:len(f.group)-1] + "x" // one edit from f.group
	for _, g := range []string{typo, "nosuch-" + f.group} {
		r := kcgOn(t, f.e, "plan", g, "--topic", f.topic, "--to-earliest", "--out", out).MustCode(t, 3)
		oneLine(t, r.Stderr, `"`+g+`" does not exist`, "--allow-new-group")
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: a plan was written", g)
		}
	}
	r := kcgOn(t, f.e, "plan", typo, "--topic", f.topic, "--to-earliest", "--out", out).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "closest: "+f.group) {
		t.Fatalf("no suggestion of %s: %q", f.group, r.Stderr)
	}
	// One missing among several is refused too.
	r = kcgOn(t, f.e, "plan", f.group, typo, "--topic", f.topic, "--to-earliest", "--out", out).MustCode(t, 3)
	oneLine(t, r.Stderr, typo)
	if strings.Contains(r.Stderr, `"`+f.group+`" does not exist`) {
		t.Fatalf("the existing group is named missing: %q", r.Stderr)
	}

	// On purpose: --allow-new-group plans it, and apply creates it.
	kcgOn(t, f.e, "plan", typo, "--topic", f.topic, "--to-earliest", "--out", out, "--allow-new-group").MustCode(t, 0)
	kcgOn(t, f.e, "apply", out).MustCode(t, 0)
	if got := f.e.Committed(t, typo)[f.topic]; len(got) != 2 || got[0] != 0 || got[1] != 0 {
		t.Fatalf("new group committed %v", got)
	}
}

// --all-topics for a group with no commits plans nothing: refused, no
// empty plan written.
func TestPlanRefusesEmptyPlan(t *testing.T) {
	f := newResetFixture(t)
	out := f.path("x.yaml")
	for _, args := range [][]string{
		{"plan", "nosuch-" + f.group, "--all-topics", "--to-earliest", "--out", out},
		{"plan", "nosuch-" + f.group, "--all-topics", "--to-earliest", "--out", out, "--allow-new-group"},
	} {
		r := kcgOn(t, f.e, args...).MustCode(t, 3)
		if !strings.Contains(r.Stderr, "does not exist") && !strings.Contains(r.Stderr, "nothing to reset") {
			t.Fatalf("%q: stderr %q", args, r.Stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q: a plan was written", args)
		}
	}
	r := kcgOn(t, f.e, "plan", "nosuch-"+f.group, "--all-topics", "--to-earliest", "--out", out, "--allow-new-group").MustCode(t, 3)
	oneLine(t, r.Stderr, "nothing to reset")
}

// A group planned with --allow-new-group is marked "new" by show (table
// and document) and by diff (table row and newGroups), and is not drift:
// diff exits 0 as apply would run. A group deleted after planning is new
// and drifted: apply would refuse it as stale, so diff exits 2.
func TestShowAndDiffMarkNewGroups(t *testing.T) {
	f := newResetFixture(t)
	fresh := "new-" + f.group
	plan := f.path("new.yaml")
	kcgOn(t, f.e, "plan", fresh, f.group, "--topic", f.topic, "--to-earliest", "--out", plan, "--allow-new-group").MustCode(t, 0)

	r := kcg(t, "show", plan).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "new group "+fresh+": it did not exist when the plan was made") ||
		strings.Contains(r.Stdout, "new group "+f.group+":") {
		t.Fatalf("show table:\n%s", r.Stdout)
	}
	if tot := rows(r.Stdout, fresh); len(tot) == 0 || !strings.Contains(strings.Join(tot[len(tot)-1], " "), "new group, replay") {
		t.Fatalf("total row of the new group: %v", tot)
	}
	var doc struct {
		Groups []struct {
			Group       string
			StateAtPlan string
			New         *bool
		}
	}
	js := kcg(t, "show", plan, "-o", "json").MustCode(t, 0).Stdout
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Groups) != 2 {
		t.Fatalf("show JSON %v:\n%s", err, js)
	}
	for _, g := range doc.Groups {
		if isNew := g.New != nil && *g.New; isNew != (g.Group == fresh) {
			t.Fatalf("group %s (stateAtPlan %s): new = %v", g.Group, g.StateAtPlan, g.New)
		}
	}
	if y := kcg(t, "show", plan, "-o", "yaml").MustCode(t, 0).Stdout; strings.Count(y, "new: true") != 1 {
		t.Fatalf("show YAML:\n%s", y)
	}

	r = kcgOn(t, f.e, "diff", plan).MustCode(t, 0)
	if got := rows(r.Stdout, "new"); len(got) != 1 || got[0][1] != fresh {
		t.Fatalf("diff table:\n%s", r.Stdout)
	}
	if len(rows(r.Stdout, "drift")) != 0 {
		t.Fatalf("a new group is shown as drift:\n%s", r.Stdout)
	}
	st := diffStatus(t, kcgOn(t, f.e, "diff", plan, "-o", "json").MustCode(t, 0).Stdout)
	if len(st.NewGroups) != 1 || st.NewGroups[0] != fresh || !st.Ready || len(st.Drift) != 0 {
		t.Fatalf("diff JSON: %+v", st)
	}

	// Applied: the group exists now, nothing is new.
	kcgOn(t, f.e, "apply", plan).MustCode(t, 0)
	st = diffStatus(t, kcgOn(t, f.e, "diff", plan, "-o", "json").MustCode(t, 0).Stdout)
	if len(st.NewGroups) != 0 || !st.AlreadyApplied {
		t.Fatalf("after apply: %+v", st)
	}

	// Planned while it existed, deleted since: new, and drift.
	old := f.path("old.yaml")
	kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-latest", "--out", old).MustCode(t, 0)
	kcgOn(t, f.e, "delete", "--yes", f.group).MustCode(t, 0)
	st = diffStatus(t, kcgOn(t, f.e, "diff", old, "-o", "json").MustCode(t, 2).Stdout)
	if len(st.NewGroups) != 1 || st.NewGroups[0] != f.group || len(st.Drift) == 0 || st.Ready {
		t.Fatalf("deleted since planning: %+v", st)
	}
}

type planStatusJSON struct {
	Kind           string
	Ready          bool
	AlreadyApplied bool
	NewGroups      []string
	Drift          []map[string]any
}

func diffStatus(t *testing.T, s string) planStatusJSON {
	t.Helper()
	var st planStatusJSON
	if err := json.Unmarshal([]byte(s), &st); err != nil || st.Kind != "PlanStatus" {
		t.Fatalf("PlanStatus %v:\n%s", err, s)
	}
	if st.NewGroups == nil {
		t.Fatalf("newGroups is not a list:\n%s", s)
	}
	return st
}

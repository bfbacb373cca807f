package commands_test

import (
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

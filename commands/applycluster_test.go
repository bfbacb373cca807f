package commands_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"

	"github.com/kcg-dev/kcg/sandbox"
)

// twoSandboxes starts two sandboxes, two clusters with their own ids,
// closed at the end of the test.
func twoSandboxes(t *testing.T) (a, b *sandbox.Sandbox) {
	t.Helper()
	for _, sb := range []**sandbox.Sandbox{&a, &b} {
		s, err := sandbox.Start(t.Context(), sandbox.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		*sb = s
	}
	return a, b
}

// A plan applied to the wrong cluster is refused for that alone: the other
// cluster's offsets (which differ from the plan's currents) make no "stale,
// re-plan or --force" reason, and --force, which cannot apply a plan to
// another cluster, neither prints "--force: applying…" nor changes the
// refusal. The line says what does work.
func TestApplyWrongClusterSuggestsOnlyWhatWorks(t *testing.T) {
	a, b := twoSandboxes(t)
	dir := t.TempDir()
	planA := filepath.Join(dir, "a.yaml")
	kcg(t, "plan", "billing", "--topic", "payments", "--to-earliest", "--out", planA, "--bootstrap-server", a.Addr()).MustCode(t, 0)
	// billing moves on b: the plan's current (3) is not b's offset.
	planB := filepath.Join(dir, "b.yaml")
	kcg(t, "plan", "billing", "--topic", "payments", "--to-latest", "--out", planB, "--bootstrap-server", b.Addr()).MustCode(t, 0)
	kcg(t, "apply", planB, "--bootstrap-server", b.Addr()).MustCode(t, 0)

	for _, force := range []bool{false, true} {
		args := []string{"apply", planA, "--rollback-out", filepath.Join(dir, "rb.yaml"), "--bootstrap-server", b.Addr()}
		if force {
			args = append(args, "--force")
		}
		r := kcg(t, args...).MustCode(t, 3)
		if strings.Contains(r.Stderr, "--force") || strings.Contains(r.Stderr, "stale") {
			t.Errorf("force=%v: the refusal suggests what cannot work:\n%s", force, r.Stderr)
		}
		for _, want := range []string{"the plan is for cluster " + a.ClusterID() + ", this is cluster " + b.ClusterID(), "only to the cluster it was made on", "--bootstrap-server"} {
			if !strings.Contains(r.Stderr, want) {
				t.Errorf("force=%v: stderr does not say %q:\n%s", force, want, r.Stderr)
			}
		}
		if n := strings.Count(strings.TrimSpace(r.Stderr), "\n"); n != 0 {
			t.Errorf("force=%v: %d lines on stderr, want one:\n%s", force, n+1, r.Stderr)
		}
	}
}

// A group of static members (group.instance.id) stays active for their
// session timeout after their consumers stop: the refusal names static
// membership, the session timeout and --wait-empty, not only "stop its
// consumers first" (which the operator has just done), and --wait-empty
// then applies once the member times out.
func TestApplyRefusalNamesStaticMembers(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	m := f.e.StaticClassicMember(t, f.group, f.topic)
	// Stopped, the static member stays in the group (until its session
	// timeout, 10s here): the refusal must say why, and what to do.
	m.Stop()
	r := kcgOn(t, f.e, "apply", f.path("reset.yaml")).MustCode(t, 3)
	for _, want := range []string{"group " + f.group + " has 1 active member (state Stable), all static (group.instance.id)", "session timeout", "--wait-empty"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.Stderr)
		}
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
	noRollback(t, f)
	// What it advises works: --wait-empty waits out the session timeout.
	defer commands.SetWaitEmptyInterval(200 * time.Millisecond)()
	kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--wait-empty", "60s").MustCode(t, 0)
	f.mustCommitted(t, map[int32]int64{0: 2, 1: 2})
}

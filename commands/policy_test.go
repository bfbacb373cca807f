package commands_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// examplePolicies are the tested example policies of docs/policies.
const examplePolicies = "../docs/policies"

// policyLines are the "policy denied: " and "policy warning: " lines of
// stderr, without their prefix.
func policyLines(stderr, prefix string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if m, ok := strings.CutPrefix(l, prefix); ok {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out
}

func mustPolicyLines(t *testing.T, stderr string, deny, warn []string) {
	t.Helper()
	slices.Sort(deny)
	slices.Sort(warn)
	if got := policyLines(stderr, "policy denied: "); !slices.Equal(got, deny) {
		t.Fatalf("deny lines %q, want %q\nstderr:\n%s", got, deny, stderr)
	}
	if got := policyLines(stderr, "policy warning: "); !slices.Equal(got, warn) {
		t.Fatalf("warning lines %q, want %q\nstderr:\n%s", got, warn, stderr)
	}
}

// conftestAgrees runs the plan file at path through conftest (KCG_CONFTEST,
// set by .ci/policies) with the same policies: its input is what kcg show
// -o json prints, and it must say the same deny and warn messages kcg
// said. KCG_POLICY_PLANS, when set, keeps that JSON for .ci/policies.
func conftestAgrees(t *testing.T, name, path string, deny, warn []string) {
	t.Helper()
	show := kcg(t, "show", path, "-o", "json").MustCode(t, 0)
	input := filepath.Join(t.TempDir(), name+".json")
	if dir := os.Getenv("KCG_POLICY_PLANS"); dir != "" {
		input = filepath.Join(dir, name+".json")
	}
	if err := os.WriteFile(input, []byte(show.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := os.Getenv("KCG_CONFTEST")
	if bin == "" {
		t.Log("KCG_CONFTEST unset: not compared with conftest (.ci/policies does)")
		return
	}
	out, err := exec.Command(bin, "test", "--no-color", "--namespace", "kcg", "--policy", examplePolicies, "--output", "json", input).Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("conftest: %v", err)
	}
	var results []struct {
		Warnings []struct {
			Msg string `json:"msg"`
		} `json:"warnings"`
		Failures []struct {
			Msg string `json:"msg"`
		} `json:"failures"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != 1 {
		t.Fatalf("conftest output %q: %v", out, err)
	}
	var gotDeny, gotWarn []string
	for _, f := range results[0].Failures {
		gotDeny = append(gotDeny, f.Msg)
	}
	for _, w := range results[0].Warnings {
		gotWarn = append(gotWarn, w.Msg)
	}
	slices.Sort(gotDeny)
	slices.Sort(gotWarn)
	d, w := slices.Clone(deny), slices.Clone(warn)
	slices.Sort(d)
	slices.Sort(w)
	if !slices.Equal(gotDeny, d) || !slices.Equal(gotWarn, w) {
		t.Fatalf("conftest says deny %q warn %q; kcg said deny %q warn %q", gotDeny, gotWarn, d, w)
	}
	if (len(deny) > 0) != (err != nil) {
		t.Fatalf("conftest exit: %v, with %d failures", err, len(deny))
	}
}

// A denying policy at plan: no file, exit 3, each deny message on its own
// stderr line; at apply: nothing written, exit 3, the reasons in the
// refused report.
func TestPolicyDenies(t *testing.T) {
	f := newResetFixture(t)
	critical := kafkatest.UniqueName(t, "critical")
	f.e.Commit(t, critical, f.topic, map[int32]int64{0: 2, 1: 4})
	deny := []string{
		"group " + critical + " is critical: --to-latest would skip its unread records; plan --to-datetime or --shift-by instead",
		"the plan has no change ticket: plan again with --ticket ID (e.g. --ticket OPS-123)",
	}
	warn := []string{"the plan has no note: say why with --note"}

	r := kcgOn(t, f.e, "plan", critical, "--all-topics", "--to-latest", "--out", f.path("denied.yaml"), "--policy", examplePolicies).MustCode(t, 3)
	mustPolicyLines(t, r.Stderr, deny, warn)
	if !strings.Contains(r.Stderr, "refused by policy (2 deny messages); no plan was written") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	if _, err := os.Stat(f.path("denied.yaml")); !os.IsNotExist(err) {
		t.Fatalf("a denied plan was written: %v", err)
	}

	// The same plan made without the policy, then applied with it.
	f.plan(t, "p.yaml", critical, "--all-topics", "--to-latest")
	r = kcgOn(t, f.e, "apply", f.path("p.yaml"), "--policy", examplePolicies, "-o", "json").MustCode(t, 3)
	mustPolicyLines(t, r.Stderr, deny, warn)
	var rep struct {
		Result  string   `json:"result"`
		Reasons []string `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil || rep.Result != "refused" || len(rep.Reasons) != 2 || !strings.HasPrefix(rep.Reasons[0], "policy: ") {
		t.Fatalf("report %+v (%v):\n%s", rep, err, r.Stdout)
	}
	schematest.MustMatch(t, "ApplyReport", r.Stdout, false)
	if got := f.e.Committed(t, critical)[f.topic]; got[0] != 2 || got[1] != 4 {
		t.Fatalf("a denied apply wrote: %v", got)
	}
	if entries, _ := filepath.Glob(f.path("p.rollback*")); len(entries) != 0 {
		t.Fatalf("a denied apply wrote a rollback plan: %v", entries)
	}
	conftestAgrees(t, "critical-to-latest", f.path("p.yaml"), deny, warn)
}

// A warning policy: printed on stderr, the plan is written and applied.
func TestPolicyWarns(t *testing.T) {
	f := newResetFixture(t)
	warn := []string{"the plan has no note: say why with --note"}
	r := kcgOn(t, f.e, "plan", f.group, "--all-topics", "--to-earliest", "--ticket", "OPS-42", "--out", f.path("p.yaml"), "--policy", examplePolicies).MustCode(t, 0)
	mustPolicyLines(t, r.Stderr, nil, warn)
	r = kcgOn(t, f.e, "apply", f.path("p.yaml"), "--policy", examplePolicies).MustCode(t, 0)
	mustPolicyLines(t, r.Stderr, nil, warn)
	f.mustCommitted(t, map[int32]int64{0: 0})
	conftestAgrees(t, "ticket-no-note", f.path("p.yaml"), nil, warn)
}

// No plan skips more than 1000 records (max-skipped.rego); over 100 in a
// group is a warning. Also a ticket that is not a ticket id.
func TestPolicyMaxSkipped(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic, group, small := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g"), kafkatest.UniqueName(t, "s")
	dir := t.TempDir()
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(1500)...)
	e.Commit(t, group, topic, map[int32]int64{0: 300})
	e.Commit(t, small, topic, map[int32]int64{0: 1350})
	plan := filepath.Join(dir, "p.yaml")
	r := kcgOn(t, e, "plan", group, small, "--topic", topic, "--to-latest", "--ticket", "ops 7", "--note", "catch up", "--out", plan, "--policy", examplePolicies).MustCode(t, 3)
	deny := []string{"the plan skips 1350 records (more than 1000): split it, or have it approved as an exception", `ticket "ops 7" is not a ticket id like OPS-123`}
	warn := []string{"group " + group + ": the plan skips 1200 records", "group " + small + ": the plan skips 150 records"}
	mustPolicyLines(t, r.Stderr, deny, warn)

	kcgOn(t, e, "plan", group, small, "--topic", topic, "--to-latest", "--ticket", "ops 7", "--note", "catch up", "--out", plan).MustCode(t, 0)
	conftestAgrees(t, "skips-1350", plan, deny, warn)
	r = kcgOn(t, e, "apply", plan, "--policy", examplePolicies).MustCode(t, 3)
	mustPolicyLines(t, r.Stderr, deny, warn)
	if got := e.Committed(t, group)[topic][0]; got != 300 {
		t.Fatalf("a denied apply wrote: %d", got)
	}

	// Within the limits: nothing to say.
	ok := filepath.Join(dir, "ok.yaml")
	r = kcgOn(t, e, "plan", small, "--topic", topic, "--shift-by", "50", "--ticket", "OPS-7", "--note", "catch up", "--out", ok, "--policy", examplePolicies).MustCode(t, 0)
	mustPolicyLines(t, r.Stderr, nil, nil)
	conftestAgrees(t, "allowed", ok, nil, nil)
}

// A policy that does not compile is exit 65 naming its file and line,
// before any network (the bootstrap server is not even dialled).
func TestPolicyCompileError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.rego")
	if err := os.WriteFile(bad, []byte("package kcg\n\ndeny contains msg if {\n\tmsg := unknown_var\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := kcg(t, "plan", "g", "--all-topics", "--to-earliest", "--out", filepath.Join(dir, "p.yaml"), "--policy", bad, "--bootstrap-server", "127.0.0.1:1").MustCode(t, 65)
	if !strings.Contains(r.Stderr, bad+":4: var unknown_var is unsafe") || strings.Contains(r.Stderr, "127.0.0.1:1") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	f := newResetFixture(t)
	f.plan(t, "p.yaml", f.group, "--all-topics", "--to-earliest")
	r = kcg(t, "apply", f.path("p.yaml"), "--policy", bad, "--bootstrap-server", "127.0.0.1:1").MustCode(t, 65)
	if !strings.Contains(r.Stderr, bad+":4:") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
}

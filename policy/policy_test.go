package policy_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/policy"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const rules = `package kcg

deny contains msg if {
	input.strategy.type == "to-latest"
	msg := "no to-latest"
}

deny_ticket contains {"msg": "no ticket"} if not input.annotations.ticket

warn contains sprintf("%d groups", [count(input.groups)]) if true
`

// deny, deny_*, and warn are read as conftest reads them; messages may
// be strings or objects with msg; other packages are helpers.
func TestEval(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "p/rules.rego", rules)
	write(t, dir, "p/helper.rego", "package other\n\nx := 1\n")
	write(t, dir, "p/rules_test.rego", "package kcg\n\ntest_broken if { this does not parse\n")
	set, err := policy.Load(context.Background(), []string{filepath.Join(dir, "p")})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Files) != 2 {
		t.Fatalf("files %v: the _test.rego file is not a policy", set.Files)
	}
	got, err := set.Eval(context.Background(), []byte(`{"strategy": {"type": "to-latest"}, "groups": [{"group": "a"}, {"group": "b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := policy.Result{Deny: []string{"no to-latest", "no ticket"}, Warn: []string{"2 groups"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got, _ = set.Eval(context.Background(), []byte(`{"strategy": {"type": "to-earliest"}, "annotations": {"ticket": "OPS-1"}, "groups": []}`))
	if len(got.Deny) != 0 || len(got.Warn) != 1 {
		t.Fatalf("allowed plan: %+v", got)
	}
}

// A policy that does not compile names its file and line.
func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, text, want string }{
		{"syntax.rego", "package kcg\n\ndeny contains msg if {\n\tinput.x ==\n}\n", "syntax.rego:5: unexpected } token"},
		{"unsafe.rego", "package kcg\n\ndeny contains msg if {\n\tmsg := y\n}\n", "unsafe.rego:4: var y is unsafe"},
		{"v0.rego", "package kcg\n\ndeny[msg] {\n\tmsg := \"x\"\n}\n", "v0.rego:3:"},
		{"other.rego", "package somethingelse\n\ndeny contains \"x\" if true\n", "no file is package kcg"},
	}
	for _, c := range cases {
		p := write(t, dir, c.name, c.text)
		_, err := policy.Load(context.Background(), []string{p})
		var ce *policy.CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a CompileError with %q", c.name, err, c.want)
		}
	}
	for _, p := range []string{filepath.Join(dir, "missing.rego"), t.TempDir()} {
		if _, err := policy.Load(context.Background(), []string{p}); err == nil {
			t.Errorf("%s loaded", p)
		}
	}
}

// A rule named like a deny rule that is not a set of messages is an
// evaluation error, not a silent pass.
func TestEvalBadRule(t *testing.T) {
	p := write(t, t.TempDir(), "bad.rego", "package kcg\n\ndeny_limit := 10\n")
	set, err := policy.Load(context.Background(), []string{p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.Eval(context.Background(), []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "deny_limit must be a set") {
		t.Fatalf("error %v", err)
	}
}

package connconfig

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// policy: is a path or a list of paths, allowedSigners: one path; both
// relative to the config file's directory.
func TestProfilePolicyKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	f, err := ParseProfileFile(path, []byte("profiles:\n  a:\n    bootstrap: h:1\n    policy: [p/, /abs/x.rego]\n    allowedSigners: reviewers\n  b:\n    bootstrap: h:1\n    policy: one.rego\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.Lookup("a")
	if !slices.Equal(a.Policy, []string{filepath.Join(dir, "p"), "/abs/x.rego"}) && !slices.Equal(a.Policy, []string{filepath.Join(dir, "p") + "/", "/abs/x.rego"}) {
		t.Fatalf("policy %q", a.Policy)
	}
	if a.AllowedSigners != filepath.Join(dir, "reviewers") {
		t.Fatalf("allowedSigners %q", a.AllowedSigners)
	}
	if b, _ := f.Lookup("b"); !slices.Equal(b.Policy, []string{filepath.Join(dir, "one.rego")}) {
		t.Fatalf("policy %q", b.Policy)
	}
	for _, bad := range []string{"policy: {a: b}", "policy: [[x]]", "policy:", "allowedSigners: [a, b]"} {
		_, err := ParseProfileFile(path, []byte("profiles:\n  a:\n    bootstrap: h:1\n    "+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), "line 4") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

package commands_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// Options that contradict each other are refused (exit 64), not silently
// ignored.
func TestConflictingOptionsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"list", "--sandbox", "-b", "127.0.0.1:1"},
		{"-b", "127.0.0.1:1", "describe", "billing", "--sandbox"},
		{"describe", "billing", "--sandbox", "--sasl-username", "u"},
	} {
		r := kcg(t, args...).MustCode(t, 64)
		if !strings.HasPrefix(r.Stderr, "kcg: --sandbox runs against its own demo cluster: it cannot be combined with --") || r.Stdout != "" {
			t.Fatalf("%q: stdout %q, stderr %q", args, r.Stdout, r.Stderr)
		}
	}
	// The environment is not a conflict: the flag typed wins over it.
	t.Setenv("KCG_BOOTSTRAP_SERVER", "127.0.0.1:1")
	r := kcg(t, "list", "--sandbox", "--timeout", "20s").MustCode(t, 0)
	if len(rows(r.Stdout, "billing")) != 1 {
		t.Fatalf("list --sandbox with KCG_BOOTSTRAP_SERVER set:\n%s%s", r.Stdout, r.Stderr)
	}
	// A typed -b is refused whatever its value, also the environment's
	// (docs/sandbox.md: any -b).
	for _, args := range [][]string{
		{"list", "--sandbox", "-b", "127.0.0.1:1"},
		{"list", "--sandbox", "--bootstrap-server=127.0.0.1:1"},
		{"-b", "127.0.0.1:1", "describe", "billing", "--sandbox"},
	} {
		r := kcg(t, args...).MustCode(t, 64)
		if r.Stderr != "kcg: --sandbox runs against its own demo cluster: it cannot be combined with --bootstrap-server\n" || r.Stdout != "" {
			t.Fatalf("%q with KCG_BOOTSTRAP_SERVER=127.0.0.1:1: stdout %q, stderr %q", args, r.Stdout, r.Stderr)
		}
	}

	plan := filepath.Join(t.TempDir(), "p.yaml")
	kcg(t, "plan", "billing", "--topic", "payments", "--to-earliest", "--out", plan, "--sandbox").MustCode(t, 0)
	for _, args := range [][]string{
		{"show", plan, "--with-group"},
		{"show", plan, "--with-group", "-o", "json"},
	} {
		r := kcg(t, args...).MustCode(t, 64)
		if r.Stderr != "kcg: --with-group is a column of -o csv: give -o csv, or drop --with-group\n" || r.Stdout != "" {
			t.Fatalf("%q: stdout %q, stderr %q", args, r.Stdout, r.Stderr)
		}
	}
	r = kcg(t, "show", plan, "--with-group", "-o", "csv").MustCode(t, 0)
	if r.Stdout != "billing,payments,0,0\n\n" { // the Java export ends with a blank line
		t.Fatalf("csv --with-group: %q", r.Stdout)
	}
}

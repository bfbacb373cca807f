package commands_test

import (
	"slices"
	"strings"
	"testing"
)

// Connection flags before the command are the command's: native kcg, not
// drop-in mode and not "flag provided but not defined".
func TestGlobalFlagsBeforeTheCommand(t *testing.T) {
	f := newResetFixture(t)
	b := f.e.Bootstrap
	r := kcg(t, "-b", b, "describe", f.group).mustCode(t, 0)
	if len(rows(r.stdout, f.group)) == 0 || !strings.Contains(r.stdout, "GROUP") {
		t.Fatalf("-b H describe G:\n%s%s", r.stdout, r.stderr)
	}
	for _, args := range [][]string{
		{"--bootstrap-server", b, "list"},
		{"--bootstrap-server=" + b, "list"},
		{"--bootstrap-server", b, "--timeout", "20s", "list", "-o", "json"},
	} {
		r := kcg(t, args...).mustCode(t, 0)
		if !strings.Contains(r.stdout, f.group) || strings.Contains(r.stderr, "Option") {
			t.Fatalf("%q:\nstdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
		}
	}
	r = kcg(t, "--bootstrap-server", b, "list", "-o", "json").mustCode(t, 0)
	if !strings.Contains(r.stdout, `"kind": "GroupList"`) {
		t.Fatalf("not kcg's list:\n%s", r.stdout)
	}
	// A Java action option still means the Java command line.
	r = kcg(t, "--bootstrap-server", b, "--list").mustCode(t, 0)
	if strings.Contains(r.stdout, "GroupList") || !slices.Contains(strings.Fields(r.stdout), f.group) {
		t.Fatalf("--list:\n%s", r.stdout)
	}
	r = kcg(t, "--bootstrap-server", b, "--describe", "--group", f.group).mustCode(t, 0)
	if !strings.Contains(r.stdout, "CURRENT-OFFSET") {
		t.Fatalf("--describe:\n%s", r.stdout)
	}
	// Completion sees the command after leading flags.
	if got := words(t, "-b", b, "describe", f.group, "-o", ""); !slices.Equal(got, []string{"table", "json", "yaml"}) {
		t.Fatalf("completion after leading flags: %q", got)
	}
}

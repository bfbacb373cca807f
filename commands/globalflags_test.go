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
	r := kcg(t, "-b", b, "describe", f.group).MustCode(t, 0)
	if len(rows(r.Stdout, f.group)) == 0 || !strings.Contains(r.Stdout, "GROUP") {
		t.Fatalf("-b H describe G:\n%s%s", r.Stdout, r.Stderr)
	}
	for _, args := range [][]string{
		{"--bootstrap-server", b, "list"},
		{"--bootstrap-server=" + b, "list"},
		{"--bootstrap-server", b, "--timeout", "20s", "list", "-o", "json"},
	} {
		r := kcg(t, args...).MustCode(t, 0)
		if !strings.Contains(r.Stdout, f.group) || strings.Contains(r.Stderr, "Option") {
			t.Fatalf("%q:\nstdout:\n%s\nstderr:\n%s", args, r.Stdout, r.Stderr)
		}
	}
	r = kcg(t, "--bootstrap-server", b, "list", "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"kind": "GroupList"`) {
		t.Fatalf("not kcg's list:\n%s", r.Stdout)
	}
	// A Java action option still means the Java command line.
	r = kcg(t, "--bootstrap-server", b, "--list").MustCode(t, 0)
	if strings.Contains(r.Stdout, "GroupList") || !slices.Contains(strings.Fields(r.Stdout), f.group) {
		t.Fatalf("--list:\n%s", r.Stdout)
	}
	r = kcg(t, "--bootstrap-server", b, "--describe", "--group", f.group).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "CURRENT-OFFSET") {
		t.Fatalf("--describe:\n%s", r.Stdout)
	}
	// Completion sees the command after leading flags.
	if got := words(t, "-b", b, "describe", f.group, "-o", ""); !slices.Equal(got, []string{"table", "json", "yaml", "markdown", "prometheus"}) {
		t.Fatalf("completion after leading flags: %q", got)
	}
}

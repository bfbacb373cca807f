package commands_test

import (
	"testing"

	"github.com/kcg-dev/kcg/app"
)

// kcg version, kcg --version and kcg -v print the same line; --version
// with another Java option is the Java tool's --version (the bare version).
func TestVersionFlagsAgree(t *testing.T) {
	want := "kcg " + app.Version() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		if r := kcg(t, args...).MustCode(t, 0); r.Stdout != want || r.Stderr != "" {
			t.Fatalf("%q: stdout %q, stderr %q, want %q", args, r.Stdout, r.Stderr, want)
		}
	}
	r := kcg(t, "--bootstrap-server", "127.0.0.1:1", "--version").MustCode(t, 0)
	if r.Stdout != app.Version()+"\n" {
		t.Fatalf("drop-in --version: %q", r.Stdout)
	}
}

// kcg version shows the commit and build date the release build links in
// (goreleaser's -X ….app.Commit and .app.Date), and only those it has.
func TestVersionShowsCommitAndDate(t *testing.T) {
	defer func(c, d string) { app.Commit, app.Date = c, d }(app.Commit, app.Date)
	for _, tc := range []struct{ commit, date, want string }{
		{"", "", "kcg " + app.Version() + "\n"},
		{"0123abc", "2026-12-01T12:00:00Z", "kcg " + app.Version() + " (commit 0123abc, built 2026-12-01T12:00:00Z)\n"},
		{"0123abc", "", "kcg " + app.Version() + " (commit 0123abc)\n"},
		{"", "2026-12-01T12:00:00Z", "kcg " + app.Version() + " (built 2026-12-01T12:00:00Z)\n"},
	} {
		app.Commit, app.Date = tc.commit, tc.date
		for _, args := range [][]string{{"version"}, {"--version"}} {
			if r := kcg(t, args...).MustCode(t, 0); r.Stdout != tc.want {
				t.Errorf("commit %q date %q: kcg %q printed %q, want %q", tc.commit, tc.date, args, r.Stdout, tc.want)
			}
		}
	}
}

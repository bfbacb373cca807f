package commands_test

import (
	"testing"

	"github.com/kcg-dev/kcg/internal/app"
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

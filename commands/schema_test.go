package commands_test

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// kcg schema lists the kinds; kcg schema KIND prints the file of
// docs/schema byte for byte, whatever the case of KIND; an unknown kind
// or a second argument is a usage error naming the valid kinds.
func TestSchemaCommand(t *testing.T) {
	r := kcg(t, "schema").MustCode(t, 0)
	if got := strings.Fields(r.Stdout); strings.Join(got, ",") != strings.Join(schema.Kinds(), ",") || len(got) < 10 {
		t.Fatalf("kinds: %q", r.Stdout)
	}
	for _, arg := range []string{"GroupList", "grouplist", "OFFSETRESETPLAN"} {
		r := kcg(t, "schema", arg).MustCode(t, 0)
		name := map[string]string{"GroupList": "GroupList", "grouplist": "GroupList", "OFFSETRESETPLAN": "OffsetResetPlan"}[arg]
		want, err := os.ReadFile("../docs/schema/" + name + ".schema.json")
		if err != nil {
			t.Fatal(err)
		}
		if r.Stdout != string(want) || r.Stderr != "" {
			t.Fatalf("kcg schema %s: stdout differs from the file (%d bytes, want %d), stderr %q", arg, len(r.Stdout), len(want), r.Stderr)
		}
	}
	r = kcg(t, "schema", "Grouplistt").MustCode(t, 64)
	if r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, `unknown document kind "Grouplistt"`) ||
		!strings.Contains(r.Stderr, strings.Join(schema.Kinds(), ", ")) {
		t.Fatalf("unknown kind: stdout %q, stderr %q", r.Stdout, r.Stderr)
	}
	r = kcg(t, "schema", "GroupList", "PlanDiff").MustCode(t, 64)
	if r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("two kinds: stdout %q, stderr %q", r.Stdout, r.Stderr)
	}
}

// kcg version -o json|yaml prints the Version document, which matches its
// schema; the table form is the one line kcg --version prints.
func TestVersionDocument(t *testing.T) {
	r := kcg(t, "version", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "Version", r.Stdout, false)
	for _, want := range []string{`"version": "` + app.Version() + `"`, `"commit": "unknown"`, `"date": "unknown"`,
		`"goVersion": "` + runtime.Version() + `"`, `"platform": "` + runtime.GOOS + "/" + runtime.GOARCH + `"`} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("no %s in\n%s", want, r.Stdout)
		}
	}
	schematest.MustMatch(t, "Version", kcg(t, "version", "-o", "yaml").MustCode(t, 0).Stdout, true)
	if r := kcg(t, "version").MustCode(t, 0); r.Stdout != "kcg "+app.Version()+"\n" {
		t.Fatalf("table: %q", r.Stdout)
	}
	if r := kcg(t, "version", "-o", "xml").MustCode(t, 64); r.Stdout != "" || !strings.Contains(r.Stderr, "unknown output format") {
		t.Fatalf("-o xml: %q %q", r.Stdout, r.Stderr)
	}
}

// A commit set at link time shows in the table line and the document.
func TestVersionWithCommit(t *testing.T) {
	saved, savedDate := app.Commit, app.Date
	t.Cleanup(func() { app.Commit, app.Date = saved, savedDate })
	app.Commit, app.Date = "0123abcd", "2026-12-01T10:00:00Z"
	if r := kcg(t, "version").MustCode(t, 0); r.Stdout != "kcg "+app.Version()+" (commit 0123abcd, built 2026-12-01T10:00:00Z)\n" {
		t.Fatalf("table: %q", r.Stdout)
	}
	r := kcg(t, "version", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "Version", r.Stdout, false)
	if !strings.Contains(r.Stdout, `"commit": "0123abcd"`) || !strings.Contains(r.Stdout, `"date": "2026-12-01T10:00:00Z"`) {
		t.Fatalf("document:\n%s", r.Stdout)
	}
}

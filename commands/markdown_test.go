package commands_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checkGolden compares got with testdata/name, or rewrites it with
// -update (this package's flag, docs_test.go).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./commands -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./commands -run %s -update if intended)\n--- got ---\n%s\n--- want ---\n%s", path, t.Name(), got, want)
	}
}

// mdNormalize replaces what changes from run to run in the Markdown of a
// real plan (the test's unique names, the temp folder, the cluster, the
// digests, the times and the kcg version) by fixed words, so the rest is
// compared byte for byte with the golden files.
func mdNormalize(f *resetFixture, s string) string {
	s = strings.ReplaceAll(s, f.dir, "DIR")
	s = strings.ReplaceAll(s, f.topic, "TOPIC")
	s = strings.ReplaceAll(s, f.group, "GROUP")
	s = strings.ReplaceAll(s, f.e.Bootstrap, "BOOTSTRAP")
	for _, r := range []struct{ re, with string }{
		{`sha256:[0-9a-f]{64}`, "sha256:DIGEST"},
		{`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ by kcg \S+`, "TIME by kcg VERSION"},
		{`rollback-\d{8}T\d{6}Z`, "rollback-STAMP"},
		{"\\*\\*(Live cluster|Cluster):\\*\\* `[^`]+`", "**$1:** `CLUSTER`"},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.with)
	}
	return s
}

// TestMarkdownOfARealPlan: show, diff (plan against plan, plan against the
// cluster), apply and describe of one real plan with -o markdown, against
// golden files (testdata/markdown-*.md, volatile fields normalised; go test
// ./commands -run TestMarkdownOfARealPlan -update rewrites them). On the
// real broker in CI, on kfake without one.
func TestMarkdownOfARealPlan(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2", "--ticket", "CHG-42", "--note", "replay | after *the* outage")
	f.plan(t, "later.yaml", f.group, "--topic", f.topic, "--to-latest", "--ticket", "CHG-43")
	check := func(name string, r string) {
		t.Helper()
		checkGolden(t, "markdown-"+name+".md", mdNormalize(f, r))
	}
	check("show", kcg(t, "show", f.path("reset.yaml"), "-o", "markdown").MustCode(t, 0).Stdout)
	check("diff-plans", kcg(t, "diff", f.path("reset.yaml"), f.path("later.yaml"), "-o", "markdown").MustCode(t, 2).Stdout)
	check("diff-live", kcgOn(t, f.e, "diff", f.path("reset.yaml"), "-o", "markdown").MustCode(t, 0).Stdout)
	check("apply", kcgOn(t, f.e, "apply", f.path("reset.yaml"), "-o", "MarkDown").MustCode(t, 0).Stdout)
	f.mustCommitted(t, map[int32]int64{0: 2, 1: 2})
	check("apply-again", kcgOn(t, f.e, "apply", f.path("reset.yaml"), "-o", "markdown").MustCode(t, 0).Stdout)
	check("apply-stale", kcgOn(t, f.e, "apply", f.path("later.yaml"), "-o", "markdown").MustCode(t, 3).Stdout)
	check("describe", kcgOn(t, f.e, "describe", f.group, "-o", "markdown").MustCode(t, 0).Stdout)
}

// TestMarkdownOnlyOnTicketCommands: -o markdown is a format of show,
// diff, apply and describe (TestCompletionWords: completion offers it
// there and nowhere else); every other
// command refuses it as any unknown format (64, one line naming its own
// formats) before doing anything.
func TestMarkdownOnlyOnTicketCommands(t *testing.T) {
	for _, c := range []struct {
		args    []string
		formats string
	}{
		{[]string{"list", "-b", "127.0.0.1:1"}, "table, json, yaml"},
		{[]string{"plan", "g", "--all-topics", "--to-earliest", "--out", "p.yaml", "-b", "127.0.0.1:1"}, "table, json, yaml"},
		{[]string{"delete", "g", "-b", "127.0.0.1:1"}, "table, json, yaml"},
		{[]string{"delete-offsets", "g", "--topic", "t", "-b", "127.0.0.1:1"}, "table, json, yaml"},
		{[]string{"watch", "g", "-b", "127.0.0.1:1"}, "table, json, none"},
		{[]string{"version"}, "table, json, yaml"},
		{[]string{"profile", "list"}, "table, json, yaml"},
	} {
		r := kcg(t, append(c.args, "-o", "markdown")...)
		want := `kcg: unknown output format "markdown": valid formats are ` + c.formats + "\n"
		if r.Code != 64 || r.Stderr != want || r.Stdout != "" {
			t.Errorf("%v -o markdown: exit %d, stderr %q, stdout %q; want 64, %q", c.args, r.Code, r.Stderr, r.Stdout, want)
		}
	}
}

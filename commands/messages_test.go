package commands_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
)

// Error messages are one line in the operator's terms: no Go types, no
// YAML tags, no temporary file names, no "context canceled".
func TestMessagesShowNoInternals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	internals := []string{"!!", "struct {", "interface {}", "int64", "resetplan", ".tmp", "context canceled", "not defined"}
	check := func(r clitest.Result, want string) {
		t.Helper()
		line := strings.TrimSuffix(r.Stderr, "\n")
		if strings.Contains(line, "\n") || !strings.Contains(line, want) {
			t.Fatalf("stderr %q, want one line containing %q", r.Stderr, want)
		}
		for _, bad := range internals {
			if strings.Contains(line, bad) {
				t.Fatalf("stderr %q shows %q", r.Stderr, bad)
			}
		}
	}

	// A plan file holding a word, or a list.
	check(kcg(t, "show", write("foo.yaml", "foo\n")).MustCode(t, 65),
		`not a kcg plan file: the file holds the text "foo", not a mapping with apiVersion: kcg/v1 and kind: OffsetResetPlan`)
	check(kcg(t, "show", write("list.yaml", "- 1\n- 2\n")).MustCode(t, 65), "the file holds a list, not a mapping")

	// A target too large for an offset, in YAML and in JSON.
	plan := `apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-12-01T00:00:00Z"
cluster: {id: c, bootstrap: "h:9092"}
strategy: {type: to-offset, offset: 1}
groups:
  - group: g
    partitions:
      - {topic: t, partition: 0, current: 1, target: 99999999999999999999, logStart: 0, logEnd: 5, reason: resolved}
`
	check(kcg(t, "show", write("huge.yaml", plan)).MustCode(t, 65),
		"line 9: expected a whole number from -9223372036854775808 to 9223372036854775807, got the number")
	check(kcg(t, "show", write("huge.json", `{"apiVersion":"kcg/v1","kind":"OffsetResetPlan","groups":[{"group":"g","partitions":[{"topic":"t","partition":0,"target":1e30}]}]}`)).MustCode(t, 65),
		"groups.partitions.target: expected a whole number from -9223372036854775808 to 9223372036854775807, got the number 1e30")

	// --out in a directory that does not exist, with and without
	// --overwrite: the file the operator named, not kcg's temporary one.
	f := newResetFixture(t)
	for _, extra := range [][]string{nil, {"--overwrite"}} {
		args := append([]string{"plan", f.group, "--topic", f.topic, "--to-earliest", "--out", "/nonexistent/x.yaml"}, extra...)
		check(kcgOn(t, f.e, args...).MustCode(t, 1), "kcg: writing /nonexistent/x.yaml: the directory /nonexistent does not exist")
	}

	// An unknown flag as typed, with the closest one.
	check(kcg(t, "describe", "billing", "--nope").MustCode(t, 64), "kcg: unknown flag --nope (see 'kcg describe --help')")
	check(kcg(t, "describe", "billing", "--membres").MustCode(t, 64), "kcg: unknown flag --membres; did you mean --members? (see 'kcg describe --help')")
	check(kcg(t, "plan", "billing", "--to-earlist").MustCode(t, 64), "did you mean --to-earliest?")

	// Ctrl-C (a cancelled context): exit 130, "interrupted".
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := clitest.RunContext(ctx, "describe", f.group, "--bootstrap-server", f.e.Bootstrap).MustCode(t, 130)
	if r.Stderr != "kcg: interrupted\n" {
		t.Fatalf("stderr %q", r.Stderr)
	}
}

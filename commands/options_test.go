package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// parseOptions runs kcg's real CLI set-up (flag normalisation included)
// for command with args, but stops at the command's options function:
// what each command reads from its flags is checked without a broker.
func parseOptions[T any](t *testing.T, command string, from func(*cli.Context) (T, error), args ...string) (T, error) {
	t.Helper()
	t.Setenv("KCG_BOOTSTRAP_SERVER", "")
	var o T
	var optErr error
	a := newApp(IO{})
	for _, c := range a.Commands {
		if c.Name == command {
			c.Action = func(c *cli.Context) error {
				o, optErr = from(c)
				return nil
			}
		}
	}
	if err := a.RunContext(context.Background(), normalizeArgs(a, append([]string{"kcg", command}, args...))); err != nil {
		t.Fatalf("kcg %s %v: %v", command, args, err)
	}
	return o, optErr
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	if got := app.ExitCode(context.Background(), err); got != code {
		t.Fatalf("error %v: exit %d, want %d", err, got, code)
	}
}

func TestDescribeOptions(t *testing.T) {
	o, err := parseOptions(t, "describe", describeOptionsFrom, "billing", "-o", "json", "--members", "--group", "b2", "--topic", "payments", "--topic", "orders:1,0")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.scope.groups, []string{"billing", "b2"}) || o.scope.all || o.view != output.ViewMembers || o.format != output.FormatJSON ||
		fmt.Sprint(o.topics) != "[payments orders:0,1]" {
		t.Errorf("options = %+v", o)
	}
	for _, bad := range [][]string{
		{"billing", "--offsets", "--state"},
		{"billing", "--all-groups"},
		{},
		{"billing", "-o", "xml"},
		{"billing", "--topic", "orders:x"},
	} {
		_, err := parseOptions(t, "describe", describeOptionsFrom, bad...)
		wantCode(t, err, app.ExitUsage)
	}
}

func TestPlanOptions(t *testing.T) {
	o, err := parseOptions(t, "plan", planOptionsFrom, "billing", "--topic", "payments:0,1", "--shift-by", "-5", "--out", "x.yaml", "--ticket", "CHG-1")
	if err != nil {
		t.Fatal(err)
	}
	r := o.request
	if o.out != "x.yaml" || r.Strategy.Type != resetplan.StrategyShiftBy || r.Strategy.Offset != -5 || r.Annotations == nil || r.Annotations.Ticket != "CHG-1" || r.Scope.IsZero() || r.CreatedBy == "" {
		t.Errorf("options = %+v", o)
	}
	usage := [][]string{
		{"billing", "--all-topics", "--to-earliest"},                              // no --out
		{"billing", "--all-topics", "--to-earliest", "--to-latest", "--out", "x"}, // two strategies
		{"billing", "--all-topics", "--out", "x"},                                 // no strategy
		{"billing", "--to-earliest", "--out", "x"},                                // no scope
		{"billing", "--all-topics", "--to-earliest", "--out", "-", "-o", "json"},  // -o with --out -
		{"billing", "--all-topics", "--to-offset", "x", "--out", "x"},             // bad value
	}
	for _, args := range usage {
		_, err := parseOptions(t, "plan", planOptionsFrom, args...)
		wantCode(t, err, app.ExitUsage)
	}
	_, err = parseOptions(t, "plan", planOptionsFrom, "billing", "--from-file", filepath.Join(t.TempDir(), "missing.csv"), "--out", "x")
	wantCode(t, err, app.ExitBadInput)

	csv := filepath.Join(t.TempDir(), "r.csv")
	if err := os.WriteFile(csv, []byte("payments,0,7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err = parseOptions(t, "plan", planOptionsFrom, "billing", "--from-file", csv, "--out", "x")
	if err != nil || o.request.Strategy.Type != resetplan.StrategyFromFile || len(o.request.Strategy.Targets) == 0 {
		t.Errorf("--from-file: %+v, %v", o.request.Strategy, err)
	}
	// The file is the scope: a --topic beside it would be ignored, so it
	// is refused (issue 20 §2.2); drop-in mode keeps Java's way.
	_, err = parseOptions(t, "plan", planOptionsFrom, "billing", "--topic", "payments", "--from-file", csv, "--out", "x")
	wantCode(t, err, app.ExitUsage)
	if err == nil || !strings.Contains(err.Error(), "--from-file") || !strings.Contains(err.Error(), "drop --topic") {
		t.Errorf("--from-file with --topic: %v", err)
	}
}

func TestApplyShowDiffOptions(t *testing.T) {
	o, err := parseOptions(t, "apply", applyOptionsFrom, "p.yaml", "--expect-digest", " ABC ", "--force", "-o", "yaml")
	if err != nil || o.path != "p.yaml" || o.expectDigest != "sha256:abc" || !o.force || o.format != output.FormatYAML {
		t.Errorf("apply options = %+v, %v", o, err)
	}
	_, err = parseOptions(t, "apply", applyOptionsFrom, "a.yaml", "b.yaml")
	wantCode(t, err, app.ExitUsage)

	s, err := parseOptions(t, "show", showOptionsFrom, "p.yaml", "-o", "csv", "--with-group")
	if err != nil || !s.csv || !s.withGroup {
		t.Errorf("show options = %+v, %v", s, err)
	}
	_, err = parseOptions(t, "show", showOptionsFrom, "p.yaml", "-o", "xml")
	wantCode(t, err, app.ExitUsage)

	d, err := parseOptions(t, "diff", diffOptionsFrom, "a.yaml", "b.yaml")
	if err != nil || len(d.paths) != 2 || d.format != output.FormatTable {
		t.Errorf("diff options = %+v, %v", d, err)
	}
	_, err = parseOptions(t, "diff", diffOptionsFrom, "a", "b", "c")
	wantCode(t, err, app.ExitUsage)
}

func TestListAndDeleteOptions(t *testing.T) {
	l, err := parseOptions(t, "list", listOptionsFrom, "--state", "stable,EMPTY", "--type", "Consumer")
	if err != nil || !slices.Equal(l.states, []string{"Stable", "Empty"}) || !slices.Equal(l.types, []string{"consumer"}) {
		t.Errorf("list options = %+v, %v", l, err)
	}
	for _, bad := range [][]string{{"--state", "Stable,Nope"}, {"--type", "nope"}, {"--type", "all,share"}, {"extra"}} {
		_, err := parseOptions(t, "list", listOptionsFrom, bad...)
		wantCode(t, err, app.ExitUsage)
	}

	d, err := parseOptions(t, "delete", deleteOptionsFrom, "--all-groups", "-o", "json")
	if err != nil || !d.scope.all || d.format != output.FormatJSON {
		t.Errorf("delete options = %+v, %v", d, err)
	}

	do, err := parseOptions(t, "delete-offsets", deleteOffsetsOptionsFrom, "billing", "--topic", "payments:1,0", "--topic", "orders")
	if err != nil || do.group != "billing" || len(do.topics) != 2 || !slices.Equal(do.topics[0].Partitions, []int32{0, 1}) || do.topics[1].Partitions != nil {
		t.Errorf("delete-offsets options = %+v, %v", do, err)
	}
	for _, bad := range [][]string{{"billing"}, {"a", "b", "--topic", "t"}, {"billing", "--topic", "t:x"}} {
		_, err := parseOptions(t, "delete-offsets", deleteOffsetsOptionsFrom, bad...)
		wantCode(t, err, app.ExitUsage)
	}
}

// Default rollback names: a generation counter, never nested, and a
// rollback's own rollback never has its name, even in the same second
// (issue 20 §2.5).
func TestDefaultRollbackPath(t *testing.T) {
	now := time.Date(2026, 11, 29, 8, 3, 40, 0, time.UTC)
	for _, c := range []struct{ plan, want string }{
		{"dir/reset.yaml", "dir/reset.rollback-20261129T080340Z.yaml"},
		{"dir/reset.json", "dir/reset.rollback-20261129T080340Z.yaml"},
		{"dir/reset.rollback-20261129T080340Z.yaml", "dir/reset.rollback2-20261129T080340Z.yaml"},
		{"dir/reset.rollback2-20261129T080340Z.yaml", "dir/reset.rollback3-20261129T080340Z.yaml"},
		{"dir/reset.rollback9-20200101T000000Z.json", "dir/reset.rollback10-20261129T080340Z.yaml"},
		{"dir/rb.yaml", "dir/rb.rollback-20261129T080340Z.yaml"},
		{"-", "kcg-rollback-20261129T080340Z.yaml"},
		{"kcg-rollback-20261129T080340Z.yaml", "kcg-rollback-20261129T080340Z.rollback-20261129T080340Z.yaml"},
	} {
		if got := defaultRollbackPath(c.plan, now); got != c.want {
			t.Errorf("defaultRollbackPath(%s) = %s, want %s", c.plan, got, c.want)
		}
	}
	p := "reset.yaml"
	seen := map[string]bool{p: true}
	for range 5 {
		p = defaultRollbackPath(p, now)
		if seen[p] {
			t.Fatalf("the chain repeats %s", p)
		}
		seen[p] = true
	}
}

// --rollback-out - would write a file named "-": refused (issue 20 §2.6).
func TestApplyRollbackOutDash(t *testing.T) {
	_, err := parseOptions(t, "apply", applyOptionsFrom, "p.yaml", "--rollback-out", "-")
	wantCode(t, err, app.ExitUsage)
	if err == nil || !strings.Contains(err.Error(), "--rollback-out -") {
		t.Errorf("--rollback-out -: %v", err)
	}
}

package commands_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/output"
)

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docs/sandbox.md names the commands that take --sandbox: exactly those
// whose help lists it.
func TestDocsSandboxCommands(t *testing.T) {
	m := regexp.MustCompile("(?m)^(.*) also take `--sandbox`").FindStringSubmatch(readDoc(t, "sandbox.md"))
	if m == nil {
		t.Fatal("docs/sandbox.md does not say which commands take --sandbox")
	}
	var documented []string
	for _, w := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(m[1], -1) {
		documented = append(documented, w[1])
	}
	flag := regexp.MustCompile(`(?m)^\s+--sandbox\s`)
	var actual []string
	for _, cmd := range []string{"list", "describe", "plan", "show", "diff", "apply", "delete", "delete-offsets", "version", "completion", "sandbox"} {
		if flag.MatchString(kcg(t, cmd, "--help").MustCode(t, 0).Stdout) {
			actual = append(actual, cmd)
		}
	}
	if !slices.Equal(documented, actual) {
		t.Fatalf("docs/sandbox.md: %q take --sandbox; the help says %q", documented, actual)
	}
}

// The analytics row of docs/sandbox.md: partition 2 has no describe row,
// and a plan shows it with no current offset.
func TestDocsSandboxAnalyticsRow(t *testing.T) {
	if !strings.Contains(readDoc(t, "sandbox.md"), "so `describe` has no row for it; `plan analytics --topic orders` covers it with current `-` (`current: null` in the plan file)") {
		t.Fatal("docs/sandbox.md: the analytics row changed; check it against the code")
	}
	r := kcg(t, "describe", "analytics", "--sandbox").MustCode(t, 0)
	for _, row := range rows(r.Stdout, "analytics") {
		if row[1] == "orders" && row[2] == "2" {
			t.Fatalf("describe shows partition 2:\n%s", r.Stdout)
		}
	}
	r = kcg(t, "plan", "analytics", "--topic", "orders", "--to-latest", "--out", "-", "--sandbox").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "{topic: orders, partition: 2, current: null,") || !slices.ContainsFunc(rows(r.Stderr, "analytics"), func(row []string) bool {
		return row[1] == "orders" && row[2] == "2" && row[3] == "-"
	}) {
		t.Fatalf("plan:\n%s%s", r.Stdout, r.Stderr)
	}
}

// docs/output.md: a member's host is the broker's text, "/10.0.0.7" on
// Apache Kafka and "127.0.0.1:PORT" on kfake.
func TestDocsMemberHostForm(t *testing.T) {
	if !strings.Contains(readDoc(t, "output.md"), "Apache Kafka writes `/10.0.0.7` (a slash, no port), the sandbox (kfake) `127.0.0.1:54321`") {
		t.Fatal("docs/output.md: the host row changed; check it against the code")
	}
	f := newResetFixture(t)
	f.e.ClassicMember(t, f.group, f.topic)
	r := kcgOn(t, f.e, "describe", f.group, "--members", "-o", "json").MustCode(t, 0)
	var d struct {
		Groups []struct {
			Members []struct {
				Host string `json:"host"`
			} `json:"members"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil || len(d.Groups) != 1 || len(d.Groups[0].Members) != 1 {
		t.Fatalf("describe --members: %v\n%s", err, r.Stdout)
	}
	want := regexp.MustCompile(`^127\.0\.0\.1:[0-9]+$`)
	if f.e.Real {
		want = regexp.MustCompile(`^/[0-9a-fA-F.:]+$`)
	}
	if h := d.Groups[0].Members[0].Host; !want.MatchString(h) {
		t.Fatalf("%s: host %q, want %s", f.e.Name(), h, want)
	}
}

// docs/output.md names the size above which -o markdown folds a table
// into <details>: the number it gives is output.MarkdownFoldRows (whose
// behaviour output's TestMarkdownFolds pins).
func TestDocsMarkdownFoldRows(t *testing.T) {
	doc := strings.Join(strings.Fields(readDoc(t, "output.md")), " ")
	m := regexp.MustCompile(`more than \*\*([0-9]+) rows\*\* \(.output\.MarkdownFoldRows.\)`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/output.md no longer says \"more than **N rows** (`output.MarkdownFoldRows`)\"; say it, or change this test")
	}
	if m[1] != strconv.Itoa(output.MarkdownFoldRows) {
		t.Fatalf("docs/output.md folds above %s rows; output.MarkdownFoldRows is %d", m[1], output.MarkdownFoldRows)
	}
}

// docs/migration.md's rule for drop-in mode: a first argument with two
// dashes starts it (not --help, not --version alone); one dash never does.
func TestDocsDropInRule(t *testing.T) {
	doc := readDoc(t, "migration.md")
	for _, want := range []string{
		"its first argument starts with `--` (not `--help`, and not `--version`\n  alone)",
		"(`kcg --nope` is the Java tool's \"nope is not a recognized option\")",
		"A first\nargument with one dash (`-b`) is never drop-in mode",
	} {
		if !strings.Contains(doc, want) {
			t.Fatalf("docs/migration.md lacks %q", want)
		}
	}
	if r := kcg(t, "--nope").MustCode(t, 64); r.Stderr != "joptsimple.UnrecognizedOptionException: nope is not a recognized option\n" {
		t.Fatalf("kcg --nope: %q", r.Stderr)
	}
	if r := kcg(t, "-x", "--list").MustCode(t, 64); !strings.HasPrefix(r.Stderr, "kcg: unknown flag -x") {
		t.Fatalf("kcg -x --list: %q", r.Stderr)
	}
}

// docs/plan-format.md's groups[].type row names every group type kcg
// plans (share and streams included), and the sentences from before share
// and streams groups were managed do not come back.
func TestDocsGroupTypesPlanned(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `type` \\| string \\| (.*)$").FindStringSubmatch(readDoc(t, "plan-format.md"))
	if row == nil {
		t.Fatal("docs/plan-format.md has no groups[].type row")
	}
	for _, typ := range []string{"classic", "consumer", "share", "streams"} {
		if !strings.Contains(row[1], "`"+typ+"`") {
			t.Errorf("docs/plan-format.md: the type row does not name %s: %s", typ, row[1])
		}
	}
	for doc, stale := range map[string]string{
		"plan-format.md":   "Share and streams groups are never planned",
		"compatibility.md": "kcg's commands do not\nmanage them",
	} {
		if strings.Contains(readDoc(t, doc), stale) {
			t.Errorf("docs/%s says again %q; kcg plans, applies and deletes share and streams groups", doc, stale)
		}
	}
}

package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/golden"
	"github.com/kcg-dev/kcg/resetplan"
)

// TestWriteMarkdown pins -o markdown of every document that has it
// against golden files (go test ./output -update rewrites them).
func TestWriteMarkdown(t *testing.T) {
	a, b := planA(t), decodePlan(t, planB)
	status := fixturePlanStatus()
	status.plan = a
	// Ready: the live offsets are the planned ones, so the plan's time
	// span is the span of what apply would replay (plan-status has drift,
	// and no span).
	ready := NewPlanStatus("reset.yaml", a, a.Cluster.ID)
	ready.Ready = true
	ready.WouldWrite = []PendingEntry{
		{Group: "analytics", Topic: "payments", Partition: 0, From: Ptr[int64](5), To: Ptr[int64](2)},
		{Group: "billing", Topic: "payments", Partition: 0, From: Ptr[int64](3), To: Ptr[int64](0)},
		{Group: "billing", Topic: "payments", Partition: 1, To: Ptr[int64](6)},
	}
	refused := NewRefusedApplyReport("reset.yaml", "sha256:0123abcd", "cluster-a",
		[]string{"group billing has 2 active members (state Stable): stop its consumers first"}).WithPlan(a)
	cases := []struct {
		name string
		doc  Document
	}{
		{"plan", PlanDocument{Plan: a}},
		{"plan-delete", PlanDocument{Plan: decodePlan(t, planDelete)}},
		{"plan-folded", PlanDocument{Plan: decodePlan(t, widePlan(25))}},
		{"plan-status", status},
		{"plan-status-ready", ready},
		{"plan-status-applied", NewPlanStatus("reset.yaml", a, a.Cluster.ID)},
		{"plan-diff", NewPlanDiff("a.yaml", "b.yaml", resetplan.Diff(a, b)).WithPlans(a, b)},
		{"plan-diff-equal", NewPlanDiff("a.yaml", "a2.yaml", resetplan.Diff(a, a)).WithPlans(a, a)},
		{"apply", fixtureApplyReport().WithPlan(a)},
		{"apply-refused", refused},
		{"apply-overwritten", fixtureOverwrittenApplyReport().WithPlan(a)},
		{"describe", DescribeView{Doc: fixtureDescriptions()}},
		{"describe-timelag", DescribeView{Doc: fixtureDescriptions(), TimeLag: true, ReadCommitted: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden.Check(t, c.name+".md", golden.Render(t, func(buf *bytes.Buffer) error { return Write(buf, FormatMarkdown, c.doc) }))
		})
	}
}

// widePlan is a one-group plan of n partitions, to fold its table.
func widePlan(n int) string {
	var b strings.Builder
	b.WriteString(`apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-11-30T08:00:00Z"
createdBy: kcg 0.1.0
cluster: {id: c1, bootstrap: "broker-1:9092"}
strategy: {type: to-earliest}
annotations: {ticket: CHG-9}
groups:
  - group: wide
    type: classic
    stateAtPlan: Empty
    partitions:
`)
	for i := range n {
		fmt.Fprintf(&b, "      - {topic: events, partition: %d, current: 10, target: 0, logStart: 0, logEnd: 10, reason: resolved}\n", i)
	}
	return b.String()
}

// TestMarkdownFolds: a table of more than MarkdownFoldRows rows is inside
// <details> (with the empty line GitHub needs), a smaller one is not.
func TestMarkdownFolds(t *testing.T) {
	render := func(n int) string {
		var buf bytes.Buffer
		if err := Write(&buf, FormatMarkdown, PlanDocument{Plan: decodePlan(t, widePlan(n))}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if got := render(MarkdownFoldRows); strings.Contains(got, "<details>") {
		t.Errorf("%d rows folded:\n%s", MarkdownFoldRows, got)
	}
	got := render(MarkdownFoldRows + 1)
	want := fmt.Sprintf("<details>\n<summary>%d partitions</summary>\n\n| Group |", MarkdownFoldRows+1)
	if !strings.Contains(got, want) || !strings.HasSuffix(got, "|\n\n</details>\n") {
		t.Errorf("%d rows not folded as %q:\n%s", MarkdownFoldRows+1, want, got)
	}
	// The summary per group stays outside the fold.
	if i, j := strings.Index(got, "| Group | Partitions |"), strings.Index(got, "<details>"); i < 0 || i > j {
		t.Errorf("the summary is not above the fold:\n%s", got)
	}
}

// TestMarkdownEscapesNames: a name or note holding a pipe, a newline,
// a terminal escape, backticks or Markdown punctuation keeps the table's
// shape (every row has as many cells as the header) and shows as typed.
func TestMarkdownEscapesNames(t *testing.T) {
	for _, c := range []struct{ in, code, text string }{
		{"plain", "`plain`", "plain"},
		{"a|b", "`a\\|b`", `a\|b`},
		{"x\ny", "`x\\ny`", `x\\ny`},
		{"e\x1b[2K", "`e\\x1b[2K`", `e\\x1b\[2K`},
		{"tick`s", "``tick`s``", "tick\\`s"},
		{"`edge", "`` `edge ``", "\\`edge"},
		{"*bold* _u_ <b>", "`*bold* _u_ <b>`", `\*bold\* \_u\_ \<b\>`},
		{"", `""`, ""},
		{`back\|slash`, `back\\\|slash`, `back\\\|slash`},
	} {
		if got := mdCode(c.in); got != c.code {
			t.Errorf("mdCode(%q) = %q, want %q", c.in, got, c.code)
		}
		if got := mdText(c.in); got != c.text {
			t.Errorf("mdText(%q) = %q, want %q", c.in, got, c.text)
		}
	}
	p := decodePlan(t, planB)
	p.Groups[0].Group = "evil|group\n| x | y |"
	p.Groups[0].Partitions[0].Topic = "t\x1b[1A|\\|"
	p.Annotations = &resetplan.Annotations{Ticket: "CHG-1 | x", Note: "line one\nline two <script>"}
	var buf bytes.Buffer
	if err := Write(&buf, FormatMarkdown, PlanDocument{Plan: p}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.ContainsAny(out, "\x1b") || strings.Contains(out, "<script>") {
		t.Errorf("an escape or raw HTML got through:\n%s", out)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "### ") || len(strings.Split(out, "### ")) != 2 {
		t.Errorf("the note broke the heading:\n%s", out)
	}
	checkTableShapes(t, out)
}

// checkTableShapes fails when a table row of md has more or fewer cells
// than its header: it splits rows as GitHub's cmark-gfm does, a backslash
// escaping the character after it (so "\\|" ends a cell, "\|" does not).
func checkTableShapes(t testing.TB, md string) {
	t.Helper()
	want := -1
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") {
			want = -1
			continue
		}
		if want < 0 {
			want = cellCount(l)
			continue
		}
		if got := cellCount(l); got != want {
			t.Errorf("row %q has %d cells, the header %d", l, got, want)
		}
	}
}

// cellCount counts the cells of a table row "| a | b |": its unescaped
// pipes less one.
func cellCount(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}

// TestMarkdownOnlyWhereItExists: a document without a Markdown view is an
// error that writes nothing (the commands never ask for it: their -o
// lists say which accept markdown).
func TestMarkdownOnlyWhereItExists(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, FormatMarkdown, fixtureGroupList())
	if err == nil || !strings.Contains(err.Error(), `"markdown"`) || buf.Len() != 0 {
		t.Errorf("err = %v, wrote %q", err, buf.String())
	}
}

// FuzzMarkdown renders a plan whose group, topic, ticket and note are
// arbitrary strings: the output never holds a control character other
// than its own newlines, the heading stays one line, and every table row
// has its header's number of cells.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"billing", "a|b", `a\|b`, "x\ny", "\x1b[2K", "`", "<b>", "\\", "\u202e", "\xff"} {
		f.Add(s, s, s)
	}
	base, err := resetplan.Decode([]byte(planB))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, group, topic, note string) {
		p := *base
		p.Groups = []resetplan.Group{base.Groups[0]}
		p.Groups[0].Group = group
		p.Groups[0].Partitions = []resetplan.Partition{base.Groups[0].Partitions[0]}
		p.Groups[0].Partitions[0].Topic = topic
		p.Annotations = &resetplan.Annotations{Ticket: group, Note: note}
		var buf bytes.Buffer
		if err := Write(&buf, FormatMarkdown, PlanDocument{Plan: &p}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, r := range out {
			if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u202e' {
				t.Fatalf("control character %U in\n%s", r, out)
			}
		}
		if lines := strings.SplitN(out, "\n", 3); !strings.HasPrefix(lines[0], "### ") || lines[1] != "" {
			t.Fatalf("the heading is not one line:\n%s", out)
		}
		checkTableShapes(t, out)
	})
}

package output

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/resetplan"
)

// renderPlain must lay out plain ASCII tables byte for byte as tablewriter
// does (renderTable picks it for speed, not for a different look).
func TestRenderPlainMatchesTablewriter(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []rune("ab-_.:()/ 0123456789XYZ" + narrowSymbols)
	cell := func() string {
		n := rng.Intn(12)
		if rng.Intn(6) == 0 {
			n = 0
		}
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	tables := []struct {
		header []string
		rows   [][]string
	}{
		{[]string{"GROUP", "TOPIC", "LAG"}, [][]string{{"billing", "payments", "3"}, {"billing", totalMarker, ""}}},
		{[]string{"A", "B"}, [][]string{{"", ""}, {"x", ""}, {"", "y"}}},
		{[]string{"A", "B", "C"}, [][]string{{" lead", "trail ", "  "}}},
		{[]string{"GROUP", "DETAIL", "TREND"}, [][]string{{"billing", "12 → 7", "▁▂▃▅▇"}, {"b", "offset 3 → none", "…"}}},
	}
	for i := 0; i < 300; i++ {
		cols := 1 + rng.Intn(9)
		header := make([]string, cols)
		for c := range header {
			header[c] = strings.ToUpper(cell())
			if header[c] == "" {
				header[c] = "H"
			}
		}
		rows := make([][]string, 1+rng.Intn(20))
		for r := range rows {
			rows[r] = make([]string, cols)
			for c := range rows[r] {
				rows[r][c] = cell()
			}
		}
		tables = append(tables, struct {
			header []string
			rows   [][]string
		}{header, rows})
	}
	for i, tc := range tables {
		if !plainCells(tc.header, tc.rows) {
			t.Fatalf("table %d: not plain", i)
		}
		var want bytes.Buffer
		if err := renderTablewriter(&want, tc.header, tc.rows); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := renderPlain(&buf, tc.header, tc.rows); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != want.String() {
			t.Fatalf("table %d: header %q rows %q\nrenderPlain:\n%s\ntablewriter:\n%s", i, tc.header, tc.rows, got, want.String())
		}
	}
}

func TestPlainCells(t *testing.T) {
	for _, s := range []string{"grüppe", "a\tb", "a\nb", "\x1b[31mred", "组"} {
		if plainCells([]string{"H"}, [][]string{{s}}) {
			t.Errorf("%q counted as plain", s)
		}
	}
	if plainCells([]string{"A", "B"}, [][]string{{"x"}}) {
		t.Error("a short row counted as plain")
	}
}

func BenchmarkOffsetsTable17000Rows(b *testing.B) {
	header := []string{"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"}
	var rows [][]string
	for g := 0; g < 1000; g++ {
		for p := 0; p < 17; p++ {
			rows = append(rows, []string{"bench-group-0000", "bench-payments", "12", "97", "100", "3", "-", "-", "-"})
		}
	}
	for _, impl := range []struct {
		name string
		fn   func() error
	}{
		{"plain", func() error { return renderPlain(io.Discard, header, rows) }},
		{"tablewriter", func() error { var buf bytes.Buffer; return renderTablewriter(&buf, header, rows) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			for b.Loop() {
				if err := impl.fn(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPlanSummaryStreams: a large plan's summary goes out in writes of
// whole lines of about plainChunk bytes, never as one buffer of the whole
// table (15 MB at 128,000 partitions: docs/benchmarks.md), and reads the
// same as the table renderTable makes of the same rows.
func TestPlanSummaryStreams(t *testing.T) {
	p := &resetplan.Plan{Strategy: resetplan.Strategy{Type: resetplan.StrategyShiftBy}}
	for g := range 40 {
		grp := resetplan.Group{Group: fmt.Sprintf("g-%03d", g)}
		for i := range 200 {
			cur, target := int64(100+i), int64(95+i)
			if i == 7 {
				target = 10_000 // outside the log: left out of the totals
			}
			grp.Partitions = append(grp.Partitions, resetplan.Partition{Topic: "payments", Partition: int32(i), Current: &cur, Target: &target, LogEnd: 1000, Reason: resetplan.ReasonResolved})
		}
		p.Groups = append(p.Groups, grp)
	}
	var writes []int
	var got bytes.Buffer
	err := writePlanSummary(writerFunc(func(b []byte) (int, error) {
		writes = append(writes, len(b))
		if len(b) > 1000 && b[len(b)-1] != '\n' {
			t.Errorf("a write ends inside a line: %q", b[max(0, len(b)-20):])
		}
		return got.Write(b)
	}), p)
	if err != nil {
		t.Fatal(err)
	}
	if n := slices.Max(writes); n > plainChunk+4096 || len(writes) < got.Len()/(plainChunk+4096) {
		t.Errorf("%d bytes in %d writes, the largest %d: want writes of about %d", got.Len(), len(writes), n, plainChunk)
	}
	// The same rows held whole, through renderTable.
	var rows [][]string
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			effect := "replay 5"
			if pt.Partition == 7 {
				effect = "outside the log: apply refuses"
			}
			rows = append(rows, []string{g.Group, pt.Topic, strconv.Itoa(int(pt.Partition)), strconv.FormatInt(*pt.Current, 10), strconv.FormatInt(*pt.Target, 10), "0", "1000", "resolved", effect})
		}
		rows = append(rows, []string{g.Group, totalMarker, "", "", "", "", "", "", "replay 995, skip 0, 1 outside the log"})
	}
	rows = append(rows, []string{"(all groups)", "", "", "", "", "", "", "", "replay 39800, skip 0, 40 outside the log"})
	var want bytes.Buffer
	fmt.Fprintf(&want, "cluster  (), strategy shift-by\n")
	if err := renderTable(&want, []string{"GROUP", "TOPIC", "PARTITION", "CURRENT", "TARGET", "LOG-START", "LOG-END", "REASON", "IMPACT"}, rows); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("summary differs from renderTable's table:\n%.600s\nwant:\n%.600s", got.String(), want.String())
	}
}

// TestRenderRowsNotPlain: a table renderRows cannot lay out itself (a
// wide rune) is collected and goes through tablewriter, each row whole
// although the iterator reuses one slice.
func TestRenderRowsNotPlain(t *testing.T) {
	renderRowsAsTable(t, [][]string{{"grüppe-组", "a"}, {"b", "\x1b[2K"}, {"c", "d"}})
}

// A plain table whose cells need escaping (a name holding a terminal
// escape, escaped into plain ASCII) is escaped by renderRows as by
// renderTable.
func TestRenderRowsEscapesPlain(t *testing.T) {
	out := renderRowsAsTable(t, [][]string{{"g\x1b[2K", "a"}, {"b", "c\x07"}})
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("renderRows wrote a control character:\n%q", out)
	}
}

// renderRowsAsTable checks that renderRows over rows (one reused slice)
// writes what renderTable writes of them, and returns it.
func renderRowsAsTable(t *testing.T, rows [][]string) string {
	t.Helper()
	var want, got bytes.Buffer
	// renderTable escapes its rows in place: a copy of each row.
	own := make([][]string, len(rows))
	for i, r := range rows {
		own[i] = slices.Clone(r)
	}
	if err := renderTable(&want, []string{"A", "B"}, own); err != nil {
		t.Fatal(err)
	}
	err := renderRows(&got, []string{"A", "B"}, func(yield func([]string) bool) {
		row := make([]string, 2)
		for _, r := range rows {
			copy(row, r)
			if !yield(row) {
				return
			}
		}
	})
	if err != nil || got.String() != want.String() {
		t.Errorf("renderRows = %v\n%s\nwant\n%s", err, got.String(), want.String())
	}
	return got.String()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

package output

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
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
		got := string(renderPlain(tc.header, tc.rows))
		if got != want.String() {
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
		{"plain", func() error { _ = renderPlain(header, rows); return nil }},
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

package output

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// canonical is text parsed by the Prometheus parser and written again by
// prometheus/common's expfmt, family by family in the order text names
// them: text in expfmt's own encoding (escaping of label values and HELP,
// the float format, the order of labels and samples) is its own canonical
// form.
func canonical(t *testing.T, text string) string {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the Prometheus parser: %v", err)
	}
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	for _, line := range strings.Split(text, "\n") {
		name, ok := strings.CutPrefix(line, "# TYPE ")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, " ")
		if _, err := expfmt.MetricFamilyToText(bw, fams[name]); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The text writer writes what expfmt writes, byte for byte, for label
// values that need escaping (quotes, backslashes, newlines, UTF-8) and
// every kind of value (0, 1, negative, fractions, large offsets, a time
// lag, a timestamp).
func TestWritePrometheusIsExpfmtText(t *testing.T) {
	doc := benchDescriptions(3, 4)
	odd := []string{`quo"te`, `back\slash`, "new\nline", "ünïcödé-группа", `all\"of"\n"them` + "\n"}
	for i, name := range odd {
		g := doc.Groups[i%3]
		g.Group = name
		g.State = Ptr("Stable \"x\"\\")
		host, member, client := "h\\1", "m\"1", "c\n1"
		offs := make([]PartitionOffset, len(g.Offsets))
		copy(offs, g.Offsets)
		for j := range offs {
			offs[j].Topic = name
			offs[j].TimeLagMs = Ptr(int64(1500*j - 1000))
			offs[j].RetentionHeadroomMs = Ptr(int64(123456789012))
			offs[j].Host, offs[j].MemberID, offs[j].ClientID = &host, &member, &client
		}
		g.Offsets = offs
		doc.Groups = append(doc.Groups, g)
	}
	doc.Groups[0].Error = Ptr("boom")
	for _, m := range []Metrics{
		{Doc: doc, Cluster: `c"l\u` + "\n", TimeLag: true, Up: true, Took: 1234567 * time.Microsecond, At: time.UnixMilli(1764758400123)},
		{Doc: doc, Up: false},
		{Doc: benchDescriptions(20, 8), Up: true, Took: time.Second},
	} {
		var got bytes.Buffer
		if err := m.WritePrometheus(&got); err != nil {
			t.Fatal(err)
		}
		want := canonical(t, got.String())
		if got.String() != want {
			gl, wl := strings.Split(got.String(), "\n"), strings.Split(want, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Fatalf("line %d: kcg writes %q, expfmt %q", i+1, gl[i], wl[i])
				}
			}
			t.Fatalf("kcg writes %d lines, expfmt %d", len(gl), len(wl))
		}
		if !strings.Contains(got.String(), `\"`) && m.TimeLag {
			t.Fatal("no escaped label value in the text: the test checks nothing")
		}
	}
}

// BenchmarkWritePrometheus is one /metrics rendering of kcg watch
// --metrics-listen at 2,000 groups × 64 partitions (128,000 series of
// each per-partition family), as each sample renders it.
func BenchmarkWritePrometheus(b *testing.B) {
	m := Metrics{Doc: benchDescriptions(2000, 64), Up: true, Took: time.Second, At: time.Now()}
	b.ReportAllocs()
	var w countingWriter
	for b.Loop() {
		w = countingWriter{}
		if err := m.WritePrometheus(&w); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.n)/(1<<20), "out-MB")
}

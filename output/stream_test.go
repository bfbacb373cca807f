package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// wholeJSON and wholeYAML are writeJSON and writeYAML as they were before
// the describe document was written group by group: the whole document
// encoded at once. They are the reference the streaming writers must
// match byte for byte.
func wholeJSON(w *bytes.Buffer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(prepare(doc))
}

func wholeYAML(w *bytes.Buffer, doc any) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(prepare(doc)); err != nil {
		return err
	}
	return enc.Close()
}

// oddStrings are strings YAML must quote, fold into block scalars or
// escape, and JSON must escape: keywords, numbers, indicators, line
// breaks (with and without trailing ones), blanks at either end, unicode,
// control characters and invalid UTF-8.
var oddStrings = []string{
	"", "billing", "null", "Null", "~", "yes", "no", "on", "off", "true", "False",
	"0", "-1", "123", "1.5", "1e3", "0x1F", "0o17", ".inf", "-.Inf", ".nan", "NaN",
	"2026-12-01", "2026-12-01T08:00:00Z", "-", "- a", "-a", ": ", "a: b", "a:b", "key:",
	"#c", "a #b", "a# b", "?", "? x", "|", "|-", ">", ">+", "!tag", "!!str", "&anchor",
	"*alias", "%YAML", "@at", "`tick", "{", "}", "[", "]", ",", "a,b", "[0, 1]", "{a: 1}",
	"'", "''", "\"", "it's", `say "hi"`, "\\", "a\\nb", "---", "...", "--- x", "<<", "=",
	" lead", "trail ", "  both  ", "\t", "tab\tin", "a\nb", "a\n", "a\n\n", "\n", "\n\n",
	"\nlead", "a\n\nb", "a \nb", "a\n b", "  \n  ", " \n x", "a\r\nb", "\r", "x\n\n\n",
	"ünïcødé", "日本語のグループ", "emoji 😀 group", "\u00a0nbsp", "line\u2028sep",
	"para\u2029sep", "nel\u0085x", "\u2028", "a\u2028\u2028b", "a\u2028\nb",
	"a\n\u2029b", "x\u0085 y", "a\r b\rc", "\r\n\r\n", "\ufeffbom", "zero\u200bwidth", "\x00nul", "bell\x07", "esc\x1b[0m",
	"del\x7f", "\xff\xfeinvalid", "a\xc3", "a<b&c>", "/10.0.0.7", "consumer-1-5f0c0e6e",
	strings.Repeat("long ", 40), strings.Repeat("x", 200) + "\n" + strings.Repeat("y", 200),
	"café\n  indented\n\tand tab", "#!/bin/sh\necho hi\n",
	// the name writeGroupsJSON finds a group's offsets by
	`"offsets": []`, `x"offsets": []`, `"offsets"`, "offsets",
}

type docGen struct{ r *rand.Rand }

func (g docGen) str() string {
	if g.r.IntN(3) == 0 {
		return fmt.Sprintf("name-%d", g.r.IntN(1000))
	}
	return oddStrings[g.r.IntN(len(oddStrings))]
}

func (g docGen) strp() *string {
	if g.r.IntN(3) == 0 {
		return nil
	}
	return Ptr(g.str())
}

func (g docGen) i64p() *int64 {
	switch g.r.IntN(4) {
	case 0:
		return nil
	case 1:
		return Ptr(g.r.Int64() - 1<<62)
	}
	return Ptr(int64(g.r.IntN(200) - 20))
}

func (g docGen) i32p() *int32 {
	if g.r.IntN(2) == 0 {
		return nil
	}
	return Ptr(g.r.Int32N(1<<31-1) - 1<<30)
}

func (g docGen) assignments() []TopicPartitions {
	if g.r.IntN(4) == 0 {
		return nil
	}
	as := make([]TopicPartitions, g.r.IntN(3))
	for i := range as {
		as[i].Topic = g.str()
		if g.r.IntN(4) > 0 {
			as[i].Partitions = make([]int32, g.r.IntN(5))
			for j := range as[i].Partitions {
				as[i].Partitions[j] = g.r.Int32N(100)
			}
		}
	}
	return as
}

func (g docGen) group() GroupDescription {
	d := GroupDescription{
		Group: g.str(), State: g.strp(), Type: g.strp(), ProtocolType: g.str(),
		Assignor: g.strp(), GroupEpoch: g.i32p(), TargetAssignmentEpoch: g.i32p(),
		TotalLag: g.i64p(), MaxTimeLagMs: g.i64p(), MinRetentionHeadroomMs: g.i64p(), Error: g.strp(),
	}
	if g.r.IntN(3) > 0 {
		d.Coordinator = &Coordinator{ID: g.r.Int32N(10), Host: g.str(), Port: g.r.Int32N(65536)}
	}
	if g.r.IntN(3) > 0 {
		d.Members = make([]Member, g.r.IntN(3))
		for i := range d.Members {
			m := Member{MemberID: g.str(), ClientID: g.str(), Host: g.str(),
				GroupInstanceID: g.strp(), MemberEpoch: g.i32p(), Assignments: g.assignments()}
			if g.r.IntN(2) == 0 {
				m.Upgraded = Ptr(g.r.IntN(2) == 0)
			}
			if g.r.IntN(2) == 0 {
				t := g.assignments()
				m.TargetAssignments = &t
			}
			d.Members[i] = m
		}
	}
	if g.r.IntN(4) > 0 {
		d.Offsets = make([]PartitionOffset, g.r.IntN(4))
		for i := range d.Offsets {
			o := PartitionOffset{Topic: g.str(), Partition: g.r.Int32N(64), StreamsTopic: g.strp(),
				CommittedOffset: g.i64p(), StartOffset: g.i64p(), CommittedLeaderEpoch: g.i32p(),
				LogStartOffset: g.i64p(), LogEndOffset: g.i64p(), LastStableOffset: g.i64p(),
				Lag: g.i64p(), CommittedTimestamp: g.strp(), TimeLagMs: g.i64p(), RetentionHeadroomMs: g.i64p(), RetentionHeadroomBytes: g.i64p(),
				MemberID: g.strp(), ClientID: g.strp(), Host: g.strp(), Metadata: g.strp()}
			if g.r.IntN(3) == 0 {
				o.TimeLagFlags = []string{}
				for range g.r.IntN(3) {
					o.TimeLagFlags = append(o.TimeLagFlags, g.str())
				}
			}
			d.Offsets[i] = o
		}
	}
	return d
}

func (g docGen) list() GroupDescriptionList {
	l := NewGroupDescriptionList(nil)
	if g.r.IntN(10) == 0 {
		l.APIVersion, l.Kind = g.str(), g.str()
	}
	switch g.r.IntN(5) {
	case 0: // nil groups
	case 1:
		l.Groups = []GroupDescription{}
	default:
		l.Groups = make([]GroupDescription, 1+g.r.IntN(4))
		for i := range l.Groups {
			l.Groups[i] = g.group()
		}
	}
	return l
}

// TestStreamIdentical pins that the describe document written group by
// group is byte for byte the whole document's encoding, in both formats,
// for the fixture, for every odd string as a group id and in the last
// field of the last group, and for 3,000 generated documents.
func TestStreamIdentical(t *testing.T) {
	docs := []GroupDescriptionList{fixtureDescriptions(), NewGroupDescriptionList(nil), {}}
	for _, s := range oddStrings {
		docs = append(docs, NewGroupDescriptionList([]GroupDescription{
			{Group: s, Error: Ptr(s)}, {Group: "z", Error: Ptr(s),
				Offsets: []PartitionOffset{{Topic: s, Metadata: Ptr(s)}}}}))
	}
	g := docGen{rand.New(rand.NewPCG(10, 64))}
	for range 3000 {
		docs = append(docs, g.list())
	}
	for i, l := range docs {
		for _, doc := range []any{l, DescribeView{Doc: l, View: ViewMembers}}[:1+i%2] {
			check := func(name string, stream func(*bytes.Buffer, any) error, whole func(*bytes.Buffer, any) error) {
				var got, want bytes.Buffer
				if err := whole(&want, doc); err != nil {
					t.Fatalf("doc %d: whole %s: %v", i, name, err)
				}
				if err := stream(&got, doc); err != nil {
					t.Fatalf("doc %d: stream %s: %v", i, name, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("doc %d: %s written group by group differs\n--- got ---\n%q\n--- want ---\n%q", i, name, got.String(), want.String())
				}
			}
			check("json", func(b *bytes.Buffer, d any) error { return writeJSON(b, d) }, wholeJSON)
			check("yaml", func(b *bytes.Buffer, d any) error { return writeYAML(b, d) }, wholeYAML)
		}
	}
}

// benchDescriptions is a describe --all-groups document of groups ×
// partitions, shaped like bench/seed's: Empty classic groups with a commit
// on every partition and no members.
func benchDescriptions(groups, partitions int) GroupDescriptionList {
	gs := make([]GroupDescription, groups)
	for i := range gs {
		offs := make([]PartitionOffset, partitions)
		for p := range offs {
			c, end := int64(1000+p), int64(1000+p+i%50)
			offs[p] = PartitionOffset{Topic: "bench-payments", Partition: int32(p),
				CommittedOffset: Ptr(c), CommittedLeaderEpoch: Ptr(int32(0)),
				LogStartOffset: Ptr(int64(0)), LogEndOffset: Ptr(end), LastStableOffset: Ptr(end),
				Lag: Lag(&c, &end), Metadata: Ptr("")}
		}
		gs[i] = GroupDescription{Group: fmt.Sprintf("bench-group-%04d", i), State: Ptr("Empty"),
			Type: Ptr(TypeClassic), ProtocolType: "consumer",
			Coordinator: &Coordinator{ID: 1, Host: "localhost", Port: 9092},
			Offsets:     offs, TotalLag: SumLag(offs)}
	}
	return NewGroupDescriptionList(gs)
}

// benchWrite runs write over the 2,000 × 64 document and reports, besides
// ns/op and allocations, the peak heap in use during one write above the
// document itself (sampled with runtime.ReadMemStats from a second
// goroutine) and the output size.
func benchWrite(b *testing.B, write func(*countingWriter, any) error) {
	doc := DescribeView{Doc: benchDescriptions(2000, 64)}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := samplePeakHeap()
	b.ReportAllocs()
	b.ResetTimer()
	var w countingWriter
	for b.Loop() {
		w = countingWriter{}
		if err := write(&w, doc); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	p := stop()
	b.ReportMetric(float64(p-base.HeapAlloc)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(w.n)/(1<<20), "out-MB")
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// samplePeakHeap samples HeapAlloc every millisecond until stop, which
// returns the highest value seen.
func samplePeakHeap() func() uint64 {
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-done:
				return
			default:
			}
			// ReadMemStats stops the world; sampling it in a tight loop
			// would slow the benchmark down more than a short sleep.
			time.Sleep(time.Millisecond)
		}
	}()
	return func() uint64 { close(done); <-finished; return peak }
}

func BenchmarkWriteDescribeJSON(b *testing.B) {
	benchWrite(b, func(w *countingWriter, d any) error { return writeJSON(w, d) })
}

func BenchmarkWriteDescribeYAML(b *testing.B) {
	benchWrite(b, func(w *countingWriter, d any) error { return writeYAML(w, d) })
}

// The whole-document encoders (before), for the before/after table.
func BenchmarkWriteDescribeJSONWhole(b *testing.B) {
	benchWrite(b, func(w *countingWriter, d any) error {
		var buf bytes.Buffer
		if err := wholeJSON(&buf, d); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	})
}

func BenchmarkWriteDescribeYAMLWhole(b *testing.B) {
	benchWrite(b, func(w *countingWriter, d any) error {
		var buf bytes.Buffer
		if err := wholeYAML(&buf, d); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// appendOffsetJSON writes PartitionOffset's fields by name: a field added
// to the type must be added there too (and to docGen, which fills every
// field for TestStreamIdentical).
func TestOffsetsJSONFields(t *testing.T) {
	if n := reflect.TypeFor[PartitionOffset]().NumField(); n != offsetFields {
		t.Fatalf("PartitionOffset has %d fields, appendOffsetJSON writes %d: add the new one to it (output/offsetsjson.go)", n, offsetFields)
	}
}

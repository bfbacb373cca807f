package resetplan

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Hostile sizes (docs/reliability.md, "Hostile input"): every input is
// generated here, none is committed. Each test checks the error and that
// the memory the refusal costs stays bounded: the total allocated during
// the call (an upper bound of its peak) is measured with
// runtime.ReadMemStats.

// allocated runs f and returns the bytes allocated meanwhile.
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const mib = 1 << 20

// repeatReader yields head, then body repeated until n bytes in all, and
// counts what was read.
type repeatReader struct {
	head, body []byte
	n, read    int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.read >= r.n {
		return 0, io.EOF
	}
	i := 0
	for i < len(p) && r.read < r.n {
		var c byte
		if r.read < int64(len(r.head)) {
			c = r.head[r.read]
		} else {
			c = r.body[(r.read-int64(len(r.head)))%int64(len(r.body))]
		}
		p[i] = c
		i++
		r.read++
	}
	return i, nil
}

const planHead = "apiVersion: kcg/v1\nkind: OffsetResetPlan\ncreatedAt: \"2026-11-29T07:10:00Z\"\ncreatedBy: x\n" +
	"cluster: {id: c, bootstrap: \"b:9092\"}\nstrategy: {type: to-offset, offset: 1}\ngroups:\n  - group: g\n    type: consumer\n    stateAtPlan: Empty\n    partitions:\n"

const planLine = "      - {topic: payments, partition: 0, current: 5, target: 1, logStart: 0, logEnd: 6, reason: resolved}\n"

func checkTooLarge(t *testing.T, err error, limit int64, what string) {
	t.Helper()
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrBadInput) || tl.Limit != limit {
		t.Fatalf("got %v, want a *TooLargeError at %d bytes", err, limit)
	}
	if msg := err.Error(); !strings.Contains(msg, sizeText(limit)) || !strings.Contains(msg, what) || strings.Contains(msg, "\n") {
		t.Fatalf("message %q: want one line naming the %s limit for a %s", msg, sizeText(limit), what)
	}
}

// A 100 MB plan, as a stream: ReadLimited stops one byte past the limit.
func TestHostile100MBPlanStream(t *testing.T) {
	r := &repeatReader{head: []byte(planHead), body: []byte(planLine), n: 100 * mib}
	var err error
	alloc := allocated(func() { _, err = ReadLimited(r, MaxPlanBytes, "plan file") })
	checkTooLarge(t, err, MaxPlanBytes, "plan file")
	if r.read != MaxPlanBytes+1 {
		t.Errorf("read %d bytes of the stream, want %d (the limit + 1)", r.read, MaxPlanBytes+1)
	}
	if alloc > 4*MaxPlanBytes {
		t.Errorf("refusing a 100 MB plan allocated %d MiB, want at most %d", alloc/mib, 4*MaxPlanBytes/mib)
	}
}

// Decode and ParseResetFile refuse data over the limit before parsing.
func TestHostileOverLimitBytes(t *testing.T) {
	data := append([]byte(planHead), bytes.Repeat([]byte(planLine), MaxPlanBytes/len(planLine)+1)...)
	start := time.Now()
	var err error
	alloc := allocated(func() { _, err = Decode(data) })
	checkTooLarge(t, err, MaxPlanBytes, "plan file")
	_, _, err2 := ParseResetFile(data, "")
	checkTooLarge(t, err2, MaxResetFileBytes, "--from-file")
	_, _, err3 := parseCSV(data, "")
	checkTooLarge(t, err3, MaxResetFileBytes, "--from-file")
	if d := time.Since(start); d > 5*time.Second || alloc > mib {
		t.Errorf("refusing took %v and %d bytes: it parsed", d, alloc)
	}
}

func checkDecodeRefused(t *testing.T, name string, data []byte, want string, maxAlloc uint64) {
	t.Helper()
	var err error
	start := time.Now()
	alloc := allocated(func() { _, err = Decode(data) })
	var de *DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: got %v, want a *DecodeError containing %q", name, err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: message not one line: %q", name, err)
	}
	if alloc > maxAlloc || time.Since(start) > 20*time.Second {
		t.Errorf("%s: refusing allocated %d MiB in %v, want at most %d MiB", name, alloc/mib, time.Since(start), maxAlloc/mib)
	}
	t.Logf("%s (%d bytes): %v; %d MiB allocated in %v", name, len(data), err, alloc/mib, time.Since(start))
}

// Deeply nested documents: yaml.v3 and encoding/json stop at a depth of
// 10,000.
func TestHostileDeepNesting(t *testing.T) {
	const depth = 1_000_000
	checkDecodeRefused(t, "yaml flow", []byte("apiVersion: "+strings.Repeat("[", depth)), "max depth", 64*mib)
	// Block style: "- - - ..." nests a sequence in a sequence on one line.
	checkDecodeRefused(t, "yaml block", []byte("apiVersion: kcg/v1\nkind: OffsetResetPlan\ngroups:\n"+strings.Repeat("- ", 20_000)+"x\n"), "max depth", 256*mib)
	checkDecodeRefused(t, "json", []byte(`{"apiVersion":`+strings.Repeat("[", depth)), "max depth", 64*mib)
	checkDecodeRefused(t, "json in groups", []byte(`{"groups":`+strings.Repeat(`[{"a":`, depth)), "max depth", 64*mib)
}

// Billion laughs: nine levels of ten aliases each would expand to 10^9
// nodes; yaml.v3 refuses excessive aliasing.
func TestHostileBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: kcg/v1\nkind: OffsetResetPlan\na0: &a0 [lol]\n")
	for i := 1; i <= 9; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	// apiVersion and kind are first decoded into interface values, which
	// would hold the whole expansion.
	doc := strings.Replace(b.String(), "a9: &a9", "kind: &a9", 1)
	doc = strings.Replace(doc, "kind: OffsetResetPlan\n", "", 1)
	checkDecodeRefused(t, "billion laughs", []byte(doc), "excessive aliasing", 64*mib)
	// The same in a field of the plan.
	doc = strings.Replace(b.String(), "a9: &a9", "createdBy: &a9", 1)
	checkDecodeRefused(t, "billion laughs in a field", []byte(doc), "", 64*mib)
}

// A CSV of 10^7 lines is over the size limit however short its rows; as a
// stream it is read only to the limit.
func TestHostileCSV10MLines(t *testing.T) {
	r := &repeatReader{body: []byte("g,t,0,1\n"), n: 10_000_000 * 8}
	var err error
	alloc := allocated(func() { _, err = ReadLimited(r, MaxResetFileBytes, "--from-file") })
	checkTooLarge(t, err, MaxResetFileBytes, "--from-file")
	if r.read != MaxResetFileBytes+1 || alloc > 4*MaxResetFileBytes {
		t.Errorf("read %d bytes, allocated %d MiB", r.read, alloc/mib)
	}
}

// Under the size limit, more than MaxCSVRows rows are refused, at the row
// after the limit.
func TestHostileCSVRows(t *testing.T) {
	data := bytes.Repeat([]byte("g,t,0,1\n"), MaxCSVRows+1)
	var err error
	alloc := allocated(func() { _, _, err = ParseResetFile(data, "") })
	var de *DecodeError
	if !errors.As(err, &de) || de.Line != MaxCSVRows+1 || !strings.Contains(err.Error(), "more than 1000000 rows") {
		t.Fatalf("got %v, want the row limit at line %d", err, MaxCSVRows+1)
	}
	t.Logf("%v; %d MiB allocated", err, alloc/mib)
	if alloc > 512*mib {
		t.Errorf("refusing %d rows allocated %d MiB, want at most 512", MaxCSVRows+1, alloc/mib)
	}
	// Blank lines cost nothing and do not count.
	blank := bytes.Repeat([]byte("\n"), MaxResetFileBytes-8)
	blank = append(blank, "g,t,0,1\n"...)
	ft, _, err := ParseResetFile(blank, "")
	if err != nil || ft["g"][TopicPartition{Topic: "t"}] != 1 {
		t.Fatalf("16 MiB of blank lines and one row: %v, %v", ft, err)
	}
}

// kcg reads the plans it writes: the 10,000 groups × 16 partitions of
// bench/run (19 MiB of YAML) are over the 16 MiB that a plan in another
// layout may have, and decode by the fast path; the same plan as JSON is
// refused, and kcg plan would not write it (CheckWritable).
func TestLargeCanonicalPlanReads(t *testing.T) {
	p := benchPlan(10000, 16)
	data, err := EncodeYAML(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) <= MaxOtherPlanBytes || len(data) > MaxPlanBytes {
		t.Fatalf("the plan is %d bytes: not between the two limits", len(data))
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatalf("kcg's own %d-byte plan: %v", len(data), err)
	}
	if Digest(got) != Digest(p) {
		t.Fatal("decoded to another plan")
	}
	if err := CheckWritable(data, FormatYAML); err != nil {
		t.Fatalf("CheckWritable refuses the YAML: %v", err)
	}
	js := EncodeJSON(p)
	_, err = Decode(js)
	checkTooLarge(t, err, MaxOtherPlanBytes, "not in kcg's own YAML layout")
	if err := CheckWritable(js, FormatJSON); err == nil || !strings.Contains(err.Error(), "write it as YAML") {
		t.Fatalf("CheckWritable of %d bytes of JSON: %v", len(js), err)
	}
	// The same YAML once edited (a comment at the top) leaves the fast
	// path and meets the lower limit.
	_, err = Decode(append([]byte("# reviewed\n"), data...))
	checkTooLarge(t, err, MaxOtherPlanBytes, "not in kcg's own YAML layout")
	if err := CheckWritable(make([]byte, MaxPlanBytes+1), FormatYAML); err == nil || !strings.Contains(err.Error(), "plan fewer groups") {
		t.Fatalf("CheckWritable over the limit: %v", err)
	}
}

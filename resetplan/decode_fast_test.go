package resetplan

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// checkDecodeSame decodes data with and without the fast path and fails
// unless both give the same plan or the same error (message, format,
// line, and what it wraps, so the same exit code).
func checkDecodeSame(t *testing.T, data []byte) {
	t.Helper()
	want, werr := decode(data, false)
	got, gerr := decode(data, true)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("yaml.v3 path: %v; fast path: %v\n%s", werr, gerr, data)
	}
	if werr != nil {
		var wd, gd *DecodeError
		if !errors.As(werr, &wd) || !errors.As(gerr, &gd) || !reflect.DeepEqual(wd, gd) || werr.Error() != gerr.Error() {
			t.Fatalf("errors differ:\nyaml.v3: %#v\nfast:    %#v\n%s", werr, gerr, data)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plans differ:\nyaml.v3: %+v\nfast:    %+v\n%s", want, got, data)
	}
}

// mutate changes data at random the ways a hand edit or corruption
// would: a byte changed, inserted or dropped, a line repeated, dropped
// or swapped, a value replaced by a tricky one.
func mutate(r *rand.Rand, data []byte) []byte {
	d := append([]byte(nil), data...)
	lines := bytes.SplitAfter(d, []byte("\n"))
	tricky := []string{"null", "~", "yes", "007", "0x10", "1_000", "-0", "+5", "9223372036854775808", "2147483648",
		"-1", `""`, `"a\"b"`, "'q'", "a b", "a: b", "[]", "{}", "x # c", " ", "Null", "True", "<<", "é", "\t"}
	switch r.IntN(7) {
	case 0:
		if len(d) > 0 {
			d[r.IntN(len(d))] = " -:{},\"'#\n0aZ\t"[r.IntN(14)]
		}
		return d
	case 1:
		i := r.IntN(len(d) + 1)
		return append(d[:i:i], append([]byte{" -:{},\"'#\n0aZ"[r.IntN(13)]}, d[i:]...)...)
	case 2:
		if len(d) > 0 {
			i := r.IntN(len(d))
			return append(d[:i:i], d[i+1:]...)
		}
	case 3:
		i := r.IntN(len(lines))
		lines = append(lines[:i+1:i+1], lines[i:]...)
	case 4:
		i := r.IntN(len(lines))
		lines = append(lines[:i:i], lines[i+1:]...)
	case 5:
		i, j := r.IntN(len(lines)), r.IntN(len(lines))
		lines[i], lines[j] = lines[j], lines[i]
	default:
		// Replace one value (after ": ") by a tricky one.
		i := r.IntN(len(lines))
		if k := bytes.Index(lines[i], []byte(": ")); k >= 0 {
			rest := lines[i][k+2:]
			end := bytes.IndexAny(rest, ",}\n")
			if end < 0 {
				end = len(rest)
			}
			l := append([]byte(nil), lines[i][:k+2]...)
			l = append(l, tricky[r.IntN(len(tricky))]...)
			lines[i] = append(l, rest[end:]...)
		}
	}
	return bytes.Join(lines, nil)
}

func benchShapedPlan() *Plan {
	p := benchPlan(3, 4)
	p.Groups[1].Partitions[2].Current = nil
	p.Groups = append(p.Groups, Group{Group: "empty", Type: "consumer", StateAtPlan: "Empty", Partitions: []Partition{}})
	return p
}

// TestDecodeFastPath pins that the fast path decodes every canonical plan
// as yaml.v3 does, and that on mutated plans both paths agree: the same
// plan or the same refusal.
func TestDecodeFastPath(t *testing.T) {
	var seeds [][]byte
	plans := []*Plan{benchShapedPlan(), samplePlan(), oddPlan()}
	for _, p := range plansForGolden() {
		plans = append(plans, p)
	}
	r := rand.New(rand.NewPCG(65, 10))
	for range 500 {
		plans = append(plans, randomPlan(r))
	}
	for _, p := range plans {
		data, err := EncodeYAML(p)
		if err != nil {
			continue // invalid UTF-8: not a plan EncodeYAML writes
		}
		checkDecodeSame(t, data)
		seeds = append(seeds, data)
	}
	// The canonical bench-shaped plan must take the fast path.
	data, _ := EncodeYAML(benchShapedPlan())
	if _, ok := fastWire(data); !ok {
		t.Fatalf("fastWire refused a canonical plan:\n%s", data)
	}
	for range 20000 {
		d := seeds[r.IntN(len(seeds))]
		for range 1 + r.IntN(3) {
			d = mutate(r, d)
		}
		checkDecodeSame(t, d)
	}
}

// FuzzDecodeFastPath compares the fast path with the yaml.v3 path on
// fuzzed files, seeded with canonical plans.
func FuzzDecodeFastPath(f *testing.F) {
	for _, p := range []*Plan{benchShapedPlan(), samplePlan(), oddPlan()} {
		data, _ := EncodeYAML(p)
		f.Add(data)
	}
	rb := Rollback(samplePlan(), LiveOffsets{"billing": {tp("payments", 0): 3}}, time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC))
	data, _ := EncodeYAML(rb)
	f.Add(data)
	// A translate-from plan: its partition lines have two more keys, read
	// by the flow-mapping path.
	if tf, err := os.ReadFile("testdata/plan-translate-from.yaml"); err == nil {
		f.Add(tf)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeSame(t, data) })
}

// TestCanonicalPartitionLine pins that canonicalPartition, which reads a
// partition line in EncodeYAML's key order as it stands, cuts the values
// parseFlow cuts, and refuses every line parseFlow would read otherwise
// (reordered, missing or extra keys) or not at all: the lines of
// generated plans and 20,000 mutations of them.
func TestCanonicalPartitionLine(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	var lines []string
	for range 300 {
		data, err := EncodeYAML(randomPlan(r))
		if err != nil {
			continue // a string yaml.v3 cannot write (invalid UTF-8)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l, ok := strings.CutPrefix(l, "      - "); ok {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) < 100 {
		t.Fatalf("only %d partition lines", len(lines))
	}
	for range 20000 {
		lines = append(lines, string(mutate(r, []byte(lines[r.IntN(len(lines))]))))
	}
	lines = append(lines, "{partition: 0, topic: a, current: 1, target: 1, logStart: 0, logEnd: 1, reason: resolved}",
		"{topic: a, partition: 0, current: 1, target: 1, logStart: 0, logEnd: 1}",
		"{topic: a, partition: 0, current: 1, target: 1, logStart: 0, logEnd: 1, reason: resolved, x: 1}",
		"{topic: a, partition: 0, current: 1, target: 1, logStart: 0, logEnd: 1, reason: resolved}")
	canonical := 0
	for _, l := range lines {
		var vals [len(partitionOrder)]string
		got := canonicalPartition(l, &vals)
		m, ok := parseFlow(l, partitionKeys)
		ok = ok && m.has(partitionOrder[:]...)
		if got && !ok {
			t.Fatalf("canonicalPartition read %q, parseFlow does not", l)
		}
		if !got {
			continue
		}
		canonical++
		for i, k := range partitionOrder {
			if vals[i] != m[k] {
				t.Fatalf("%q: %s is %q, parseFlow cuts %q", l, k, vals[i], m[k])
			}
		}
	}
	if canonical < 1000 {
		t.Fatalf("only %d of %d lines were canonical", canonical, len(lines))
	}
}

// TestDecodeDuplicateAfterDisorder pins that a partition repeated after
// the partitions stop being in order is still refused, on both paths.
func TestDecodeDuplicateAfterDisorder(t *testing.T) {
	p := benchPlan(1, 4)
	data, err := EncodeYAML(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var idx []int
	for i, l := range lines {
		if strings.HasPrefix(l, "      - ") {
			idx = append(idx, i)
		}
	}
	// partitions 0 1 2 3 → 0 2 1 3 2: out of order, then 2 again.
	a, b := lines[idx[1]], lines[idx[2]]
	lines[idx[1]], lines[idx[2]] = b, a
	lines = slices.Insert(lines, idx[3]+1, b)
	bad := []byte(strings.Join(lines, "\n"))
	for _, fast := range []bool{true, false} {
		_, err := decode(bad, fast)
		if err == nil || !strings.Contains(err.Error(), `partition bench-payments-2 appears twice`) {
			t.Fatalf("fast %v: %v", fast, err)
		}
	}
	checkDecodeSame(t, bad)
}

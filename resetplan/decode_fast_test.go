package resetplan

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
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
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeSame(t, data) })
}

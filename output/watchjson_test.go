package output

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomLagSample is a sample with every field nil, empty or set at random,
// odd strings and floats of every magnitude among them.
func randomLagSample(r *rand.Rand) LagSample {
	strs := []string{"", "billing", "a<b>&c", "quote\"back\\slash", "tab\tnl\n", "\x00\x1f\x7f", "é日本\u2028\u2029", "\xff\xfe", "payments.v2_x-y"}
	str := func() string { return strs[r.IntN(len(strs))] }
	ints := []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64, 1 << 40}
	i64 := func() *int64 {
		if r.IntN(4) == 0 {
			return nil
		}
		return Ptr(ints[r.IntN(len(ints))] + int64(r.IntN(3)))
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 123.45, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 1.2345e25, -3e-9, math.MaxFloat64, math.SmallestNonzeroFloat64}
	f64 := func() *float64 {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return Ptr(r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)))
		}
		return Ptr(floats[r.IntN(len(floats))])
	}
	s := LagSample{APIVersion: str(), Kind: str(), Time: str()}
	if r.IntN(8) > 0 {
		s.Groups = []WatchedGroup{}
	}
	for range r.IntN(4) {
		g := WatchedGroup{Group: str(), Members: r.IntN(5) - 1, Lag: i64(), MaxTimeLagMs: i64(), MinRetentionHeadroomMs: i64(), ConsumeRate: f64(), ProduceRate: f64(), EtaSeconds: f64(), Status: str()}
		if r.IntN(2) == 0 {
			g.State = Ptr(str())
		}
		if r.IntN(2) == 0 {
			g.Error = Ptr(str())
		}
		if r.IntN(6) > 0 {
			g.Trend = []*int64{}
			for range r.IntN(6) {
				g.Trend = append(g.Trend, i64())
			}
		}
		if r.IntN(6) > 0 {
			g.Partitions = []WatchedPartition{}
		}
		for range r.IntN(4) {
			g.Partitions = append(g.Partitions, WatchedPartition{Topic: str(), Partition: int32(r.IntN(100) - 1), CommittedOffset: i64(), EndOffset: i64(), Lag: i64(), TimeLagMs: i64(), RetentionHeadroomMs: i64(),
				ConsumeRate: f64(), ProduceRate: f64(), EtaSeconds: f64(), Status: str()})
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

// The direct writer gives the bytes of encoding/json, for every shape of
// sample.
func TestLagSampleJSONIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	for i := range 20000 {
		s := randomLagSample(r)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got, ok := appendLagSample(nil, s)
		if !ok || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("sample %d (ok %v):\n got %s\nwant %s", i, ok, got, want.Bytes())
		}
	}
}

// A rate that is not finite is refused as encoding/json refuses it.
func TestLagSampleJSONNotFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		s := LagSample{Groups: []WatchedGroup{{Partitions: []WatchedPartition{{EtaSeconds: Ptr(v)}}}}}
		if _, ok := appendLagSample(nil, s); ok {
			t.Errorf("%v: written", v)
		}
		var out bytes.Buffer
		if err := WriteJSONLine(&out, s); err == nil || !strings.Contains(err.Error(), "encoding JSON") || out.Len() != 0 {
			t.Errorf("%v: err %v, wrote %q", v, err, out.String())
		}
	}
}

func BenchmarkWriteLagSampleJSON(b *testing.B) {
	s := LagSample{APIVersion: APIVersion, Kind: KindLagSample, Time: "2026-12-01T12:00:00.000Z", Groups: []WatchedGroup{}}
	for g := range 200 {
		wg := WatchedGroup{Group: "bench-group-" + strings.Repeat("x", g%7), State: Ptr("Empty"), Lag: Ptr(int64(g)), ConsumeRate: Ptr(12.5), ProduceRate: Ptr(3.25), Status: "OK", Trend: []*int64{Ptr(int64(1)), Ptr(int64(2))}}
		for p := range 64 {
			wg.Partitions = append(wg.Partitions, WatchedPartition{Topic: "bench-payments", Partition: int32(p), CommittedOffset: Ptr(int64(p)), EndOffset: Ptr(int64(100)), Lag: Ptr(int64(100 - p)), ConsumeRate: Ptr(1.5), ProduceRate: Ptr(0.25), EtaSeconds: Ptr(80.0), Status: "OK"})
		}
		s.Groups = append(s.Groups, wg)
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if err := WriteJSONLine(&bytes.Buffer{}, s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			enc := json.NewEncoder(&bytes.Buffer{})
			enc.SetEscapeHTML(false)
			if err := enc.Encode(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

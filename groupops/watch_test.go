package groupops

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// sample is a one-partition snapshot of group g: committed (nil: none),
// log end, and whether the group has a member.
func sample(committed *int64, end int64, active bool) *Snapshot {
	tp := TopicPartition{Topic: "t", Partition: 0}
	g := Group{Desc: kafkaadmin.GroupDescription{Group: "g", Exists: true}, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}}
	if committed != nil {
		g.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: *committed}
	} else {
		g.Invalid = []TopicPartition{tp}
	}
	if active {
		g.Desc.Members = []kafkaadmin.Member{{MemberID: "m"}}
	}
	return &Snapshot{Groups: []Group{g}, Bounds: map[TopicPartition]LogBounds{tp: {End: &end}}}
}

func TestWatcherStatuses(t *testing.T) {
	p := func(v int64) *int64 { return &v }
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		samples [][2]int64 // committed, end
		active  bool
		want    string
	}{
		{"one sample", [][2]int64{{0, 10}}, false, StatusUnknown},
		{"caught up", [][2]int64{{10, 10}, {12, 12}}, false, StatusOK},
		{"catching up", [][2]int64{{0, 100}, {50, 110}, {100, 120}}, true, StatusOK},
		{"falling behind", [][2]int64{{0, 100}, {10, 200}}, true, StatusWarn},
		{"stalled with members", [][2]int64{{5, 100}, {5, 110}}, true, StatusStall},
		{"stopped, no members", [][2]int64{{5, 100}, {5, 100}}, false, StatusStop},
		{"rewound", [][2]int64{{50, 100}, {10, 100}, {20, 100}}, false, StatusRewind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := NewWatcher()
			var got []GroupWatch
			for i, s := range tc.samples {
				got = w.Add(sample(p(s[0]), s[1], tc.active), t0.Add(time.Duration(i)*5*time.Second))
			}
			if got[0].Status != tc.want || got[0].Partitions[0].Status != tc.want {
				t.Errorf("status %s (partition %s), want %s", got[0].Status, got[0].Partitions[0].Status, tc.want)
			}
		})
	}
}

func TestWatcherRatesAndETA(t *testing.T) {
	p := func(v int64) *int64 { return &v }
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w := NewWatcher()
	first := w.Add(sample(p(0), 1000, true), t0)[0]
	if first.ConsumeRate != nil || first.ProduceRate != nil || first.ETASeconds != nil {
		t.Errorf("first sample: rates %v %v eta %v, want nulls", first.ConsumeRate, first.ProduceRate, first.ETASeconds)
	}
	// 5 s later: 500 consumed (100/s), 50 produced (10/s), lag 550 → 550/90 s.
	g := w.Add(sample(p(500), 1050, true), t0.Add(5*time.Second))[0]
	if *g.ConsumeRate != 100 || *g.ProduceRate != 10 || g.ETASeconds == nil || *g.ETASeconds < 6.11 || *g.ETASeconds > 6.12 {
		t.Errorf("rates %v %v eta %v, want 100, 10, 6.11", *g.ConsumeRate, *g.ProduceRate, g.ETASeconds)
	}
	if len(g.Trend) != 2 || *g.Trend[0] != 1000 || *g.Trend[1] != 550 {
		t.Errorf("trend %v", g.Trend)
	}
	// Falling behind: no ETA.
	g = w.Add(sample(p(510), 2000, true), t0.Add(10*time.Second))[0]
	if g.ETASeconds != nil || g.Status != StatusWarn {
		t.Errorf("falling behind: eta %v status %s, want null and WARN", g.ETASeconds, g.Status)
	}
	// The window holds WatchWindow samples.
	for i := range 10 {
		g = w.Add(sample(p(510), 2000, true), t0.Add(time.Duration(15+i)*time.Second))[0]
	}
	if len(g.Trend) != WatchWindow {
		t.Errorf("trend of %d samples, want %d", len(g.Trend), WatchWindow)
	}
}

// A group that leaves the samples (deleted, or no longer listed by
// --all-groups) is forgotten: a long watch of a changing cluster does not
// grow, and a group that comes back starts a new window.
func TestWatcherForgetsGroups(t *testing.T) {
	p := func(v int64) *int64 { return &v }
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w := NewWatcher()
	w.Add(sample(p(1), 10, false), t0)
	w.Add(sample(p(2), 10, false), t0.Add(time.Second))
	if len(w.history) != 1 || len(w.lags) != 1 {
		t.Fatalf("history %d, lags %d after two samples of one group", len(w.history), len(w.lags))
	}
	w.Add(&Snapshot{}, t0.Add(2*time.Second))
	if len(w.history) != 0 || len(w.lags) != 0 {
		t.Errorf("history %d, lags %d after a sample without the group, want 0", len(w.history), len(w.lags))
	}
	g := w.Add(sample(p(3), 10, false), t0.Add(3*time.Second))[0]
	if g.Status != StatusUnknown || g.ConsumeRate != nil || len(g.Trend) != 1 {
		t.Errorf("a returning group: status %s, rate %v, trend %d; want a new window", g.Status, g.ConsumeRate, len(g.Trend))
	}
}

// Each partition's window is kept in place: after the window is full a
// sample allocates no history.
func BenchmarkWatcherAdd(b *testing.B) {
	const groups, partitions = 200, 64
	s := &Snapshot{Bounds: map[TopicPartition]LogBounds{}}
	for p := range partitions {
		end := int64(1000)
		s.Bounds[TopicPartition{Topic: "t", Partition: int32(p)}] = LogBounds{End: &end}
	}
	for g := range groups {
		grp := Group{Desc: kafkaadmin.GroupDescription{Group: fmt.Sprintf("g%04d", g), Exists: true}, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}}
		for p := range partitions {
			grp.Offsets[TopicPartition{Topic: "t", Partition: int32(p)}] = kafkaadmin.CommittedOffset{Offset: int64(p)}
		}
		s.Groups = append(s.Groups, grp)
	}
	w := NewWatcher()
	t0 := time.Now()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w.Add(s, t0.Add(time.Duration(i)*time.Second))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(groups*partitions), "ns/partition")
}

// multiSample is a snapshot of group g with one partition per (committed,
// end) pair, on topic t.
func multiSample(offsets ...[2]int64) *Snapshot {
	g := Group{Desc: kafkaadmin.GroupDescription{Group: "g", Exists: true, Members: []kafkaadmin.Member{{MemberID: "m"}}}, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}}
	s := &Snapshot{Bounds: map[TopicPartition]LogBounds{}}
	for i, o := range offsets {
		tp := TopicPartition{Topic: "t", Partition: int32(i)}
		g.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: o[0]}
		end := o[1]
		s.Bounds[tp] = LogBounds{End: &end}
	}
	s.Groups = []Group{g}
	return s
}

// Issue 30 item 3, the case of the report: a consumer that keeps pace with
// its producer (586.64 records/s each, lag 78) had etaSeconds
// 686095255732224 — 78 ÷ 2^-43, one rounding step of the difference of the
// two rates summed over the partitions in float. The records committed
// equal the records written (2,933 over 4.999698426 s), so there is no
// ETA: the group is not catching up.
func TestWatcherKeepingPaceHasNoETA(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w := NewWatcher()
	// Between the samples partitions 0, 1, 2 commit 281, 2357, 295 records
	// and receive 295, 2357, 281: the same 2,933 in all.
	w.Add(multiSample([2]int64{1000, 1012}, [2]int64{2000, 2026}, [2]int64{3000, 3040}), t0)
	g := w.Add(multiSample([2]int64{1281, 1307}, [2]int64{4357, 4383}, [2]int64{3295, 3321}), t0.Add(4999698426))[0]
	if g.TotalLag == nil || *g.TotalLag != 78 {
		t.Fatalf("total lag %v, want 78", g.TotalLag)
	}
	if g.ConsumeRate == nil || g.ProduceRate == nil || *g.ConsumeRate != *g.ProduceRate || math.Round(*g.ConsumeRate*100) != 58664 {
		t.Errorf("rates %v and %v, want both 586.64 and equal", g.ConsumeRate, g.ProduceRate)
	}
	if g.ETASeconds != nil {
		t.Errorf("a consumer at its producer's pace has an ETA of %v s, want none", *g.ETASeconds)
	}
	for _, p := range g.Partitions {
		if p.ETASeconds == nil && p.ConsumeRate != nil && *p.ConsumeRate > *p.ProduceRate {
			t.Errorf("partition %d gains on its producer and has no ETA", p.TP.Partition)
		}
	}
}

// Offsets at the ends of int64 (no Kafka log has them, but a sample is
// input): the lag of end − committed beyond int64 is unknown, the total
// saturates, rates and ETAs stay finite.
func TestWatcherExtremeOffsets(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w := NewWatcher()
	w.Add(multiSample([2]int64{math.MinInt64, math.MaxInt64}, [2]int64{0, math.MaxInt64}, [2]int64{0, math.MaxInt64}), t0)
	g := w.Add(multiSample([2]int64{math.MaxInt64, math.MinInt64}, [2]int64{0, math.MaxInt64}, [2]int64{1, math.MaxInt64}), t0.Add(time.Nanosecond))[0]
	if p := g.Partitions[0]; p.Lag != nil {
		t.Errorf("partition 0: lag %d of offsets 2^64 apart, want unknown", *p.Lag)
	}
	if g.TotalLag == nil || *g.TotalLag != math.MaxInt64 {
		t.Errorf("total lag %v, want math.MaxInt64 (saturated)", g.TotalLag)
	}
	for _, v := range []*float64{g.ConsumeRate, g.ProduceRate, g.ETASeconds} {
		if v == nil || math.IsInf(*v, 0) || math.IsNaN(*v) {
			t.Errorf("rate or ETA %v, want finite", v)
		}
	}
}

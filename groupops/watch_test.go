package groupops

import (
	"fmt"
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

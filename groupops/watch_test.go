package groupops

import (
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

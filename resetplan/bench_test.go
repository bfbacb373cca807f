package resetplan

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// benchPlan is the plan of `kcg plan --all-groups --all-topics --shift-by
// -5` over bench/seed's cluster: groups × partitions, one topic.
func benchPlan(groups, partitions int) *Plan {
	p := &Plan{
		APIVersion: APIVersion, Kind: Kind,
		CreatedAt: time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), CreatedBy: "kcg 0.1.0",
		Cluster:  Cluster{ID: "4L6g3nShT-eMCtK--X86sw", Bootstrap: "localhost:9092"},
		Strategy: Strategy{Type: StrategyShiftBy, ShiftBy: i64(-5)},
	}
	for g := range groups {
		gr := Group{Group: fmt.Sprintf("bench-group-%04d", g), Type: "classic", StateAtPlan: "Empty"}
		for i := range partitions {
			c := int64(1000 + i + g%50)
			gr.Partitions = append(gr.Partitions, Partition{Topic: "bench-payments", Partition: int32(i),
				Current: i64(c), Target: i64(c - 5), LogStart: 0, LogEnd: c + 10, Reason: ReasonResolved})
		}
		p.Groups = append(p.Groups, gr)
	}
	return p
}

// benchPeak runs f b.N times and reports the peak heap in use above what
// was live before (the plan, the input bytes), sampled every millisecond
// with runtime.ReadMemStats.
func benchPeak(b *testing.B, f func() error) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(done)
	<-finished
	b.ReportMetric(float64(peak-min(peak, base.HeapAlloc))/(1<<20), "peak-heap-MB")
}

const benchGroups, benchPartitions = 2000, 64

func BenchmarkEncodeYAML(b *testing.B) {
	p := benchPlan(benchGroups, benchPartitions)
	benchPeak(b, func() error { _, err := EncodeYAML(p); return err })
}

func BenchmarkEncodeJSON(b *testing.B) {
	p := benchPlan(benchGroups, benchPartitions)
	benchPeak(b, func() error { EncodeJSON(p); return nil })
}

func BenchmarkDigest(b *testing.B) {
	p := benchPlan(benchGroups, benchPartitions)
	benchPeak(b, func() error { Digest(p); return nil })
}

func BenchmarkDecodeYAML(b *testing.B) {
	data, err := EncodeYAML(benchPlan(benchGroups, benchPartitions))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	benchPeak(b, func() error { _, err := Decode(data); return err })
}

func BenchmarkDecodeJSON(b *testing.B) {
	data := EncodeJSON(benchPlan(benchGroups, benchPartitions))
	b.SetBytes(int64(len(data)))
	benchPeak(b, func() error { _, err := Decode(data); return err })
}

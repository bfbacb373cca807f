package resetplan

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fakeLog is one partition of the fake cluster: log bounds and the
// timestamp of each record (index i is offset start+i).
type fakeLog struct {
	start, end int64
	stamps     []int64
}

// fakeLookup is an in-memory cluster. It counts calls so tests can assert
// batching.
type fakeLookup struct {
	mu    sync.Mutex // Build asks the bounds concurrently
	logs  map[TopicPartition]fakeLog
	calls map[string]int
	// order is every call, in the order Build made them.
	order []string
	// lastTimeMs is the timestamp OffsetsForTime was asked for.
	lastTimeMs int64
	// missingEnd drops a partition from EndOffsets' answer.
	missingEnd *TopicPartition
}

func newFake() *fakeLookup {
	return &fakeLookup{logs: map[TopicPartition]fakeLog{}, calls: map[string]int{}}
}

func (f *fakeLookup) add(topic string, p int32, start, end int64, stamps ...int64) *fakeLookup {
	f.logs[TopicPartition{Topic: topic, Partition: p}] = fakeLog{start, end, stamps}
	return f
}

func (f *fakeLookup) called(method string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[method]++
	f.order = append(f.order, method)
}

func (f *fakeLookup) Partitions(_ context.Context, topics []string) (map[string][]int32, error) {
	f.called("Partitions")
	out := map[string][]int32{}
	for _, t := range topics {
		for tp := range f.logs {
			if tp.Topic == t {
				out[t] = append(out[t], tp.Partition)
			}
		}
	}
	return out, nil
}

func (f *fakeLookup) StartOffsets(_ context.Context, tps []TopicPartition) (map[TopicPartition]int64, error) {
	f.called("StartOffsets")
	out := map[TopicPartition]int64{}
	for _, tp := range tps {
		if l, ok := f.logs[tp]; ok {
			out[tp] = l.start
		}
	}
	return out, nil
}

func (f *fakeLookup) EndOffsets(_ context.Context, tps []TopicPartition) (map[TopicPartition]int64, error) {
	f.called("EndOffsets")
	out := map[TopicPartition]int64{}
	for _, tp := range tps {
		if l, ok := f.logs[tp]; ok && (f.missingEnd == nil || *f.missingEnd != tp) {
			out[tp] = l.end
		}
	}
	return out, nil
}

func (f *fakeLookup) OffsetsForTime(_ context.Context, tps []TopicPartition, ms int64) (map[TopicPartition]TimeOffset, error) {
	f.called("OffsetsForTime")
	f.lastTimeMs = ms
	out := map[TopicPartition]TimeOffset{}
	for _, tp := range tps {
		l := f.logs[tp]
		r := TimeOffset{}
		for i, ts := range l.stamps {
			if ts >= ms {
				r = TimeOffset{Offset: l.start + int64(i), Timestamp: ts, Found: true}
				break
			}
		}
		out[tp] = r
	}
	return out, nil
}

var testNow = time.Date(2026, 11, 29, 7, 10, 0, 123456789, time.UTC)

func tp(t string, p int32) TopicPartition { return TopicPartition{Topic: t, Partition: p} }

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./resetplan/ -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from golden file (run with -update if intended)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

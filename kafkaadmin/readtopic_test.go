package kafkaadmin_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
)

// TestReadRange reads a partition larger than one Fetch answer (about
// 200 KB over the 64 KB per-partition limit: several rounds) whole and in
// part, with keys, values and a tombstone, and an empty range.
func TestReadRange(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 2)
	pad := strings.Repeat("x", 200)
	n := 0
	for b := range 20 {
		rs := make([]kafkatest.Record, 50)
		for i := range rs {
			rs[i] = kafkatest.Record{Key: fmt.Sprintf("k%d", n), Value: fmt.Sprintf("%d-%s", n, pad)}
			n++
		}
		if b == 19 {
			rs[49] = kafkatest.Record{Key: "gone", Tombstone: true}
		}
		e.Produce(t, topic, 0, rs...)
	}
	tp0 := kafkaadmin.TopicPartition{Topic: topic, Partition: 0}
	tp1 := kafkaadmin.TopicPartition{Topic: topic, Partition: 1}
	got, err := cl.ReadRange(ctx, map[kafkaadmin.TopicPartition]int64{}, map[kafkaadmin.TopicPartition]int64{tp0: int64(n), tp1: 0})
	if err != nil {
		t.Fatal(err)
	}
	recs := got[tp0]
	if len(recs) != n || len(got[tp1]) != 0 {
		t.Fatalf("read %d records of partition 0 (want %d) and %d of the empty range", len(recs), n, len(got[tp1]))
	}
	for i, r := range recs[:n-1] {
		if r.Offset != int64(i) || string(r.Key) != fmt.Sprintf("k%d", i) || !strings.HasPrefix(string(r.Value), fmt.Sprintf("%d-", i)) {
			t.Fatalf("record %d: offset %d key %q", i, r.Offset, r.Key)
		}
	}
	if last := recs[n-1]; string(last.Key) != "gone" || last.Value != nil {
		t.Fatalf("the tombstone reads as key %q value %q", last.Key, last.Value)
	}
	got, err = cl.ReadRange(ctx, map[kafkaadmin.TopicPartition]int64{tp0: 507}, map[kafkaadmin.TopicPartition]int64{tp0: 530})
	if err != nil {
		t.Fatal(err)
	}
	if r := got[tp0]; len(r) != 23 || r[0].Offset != 507 || r[22].Offset != 529 {
		t.Fatalf("range [507, 530): %d records", len(r))
	}
}

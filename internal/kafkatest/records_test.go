package kafkatest

import (
	"context"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
)

// DeleteRecords moves the log start on both tiers; -1 empties a partition
// up to its log end; the log end does not move.
func TestDeleteRecords(t *testing.T) {
	e := Cluster(t)
	topic := UniqueName(t, "t")
	e.CreateTopic(t, topic, 2)
	recs := make([]Record, 6)
	for i := range recs {
		recs[i] = Record{Value: "v"}
	}
	e.Produce(t, topic, 0, recs...)
	e.Produce(t, topic, 1, recs[:4]...)
	e.DeleteRecords(t, topic, map[int32]int64{0: 4, 1: -1})

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{
		topic: {kafka.FirstOffsetOf(0), kafka.LastOffsetOf(0), kafka.FirstOffsetOf(1), kafka.LastOffsetOf(1)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	type bounds struct{ start, end int64 }
	got := map[int]bounds{}
	for _, p := range res.Topics[topic] {
		if p.Error != nil {
			t.Fatalf("partition %d: %v", p.Partition, p.Error)
		}
		got[p.Partition] = bounds{p.FirstOffset, p.LastOffset}
	}
	want := map[int]bounds{0: {4, 6}, 1: {4, 4}}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("partition %d: log [%d, %d], want [%d, %d]", p, got[p].start, got[p].end, w.start, w.end)
		}
	}
}

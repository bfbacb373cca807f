package kafkatest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DeleteRecords moves the log start offset of topic's partitions up to the
// given offsets, as kafka-delete-records.sh does (a DeleteRecords request,
// sent to each partition's leader), so a test can have partitions whose log
// does not start at 0. An offset of -1 deletes everything up to the log
// end. It waits until ListOffsets(EARLIEST) reports the new log start and
// fails the test otherwise. kafka-go has no DeleteRecords, so the request
// is franz-go's (kmsg), on both tiers.
func (e *Env) DeleteRecords(t testing.TB, topic string, before map[int32]int64) {
	t.Helper()
	parts := make([]int32, 0, len(before))
	for p := range before {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	cl := e.kgoClient(t)
	lowWatermarks := map[int32]int64{}
	retry(t, fmt.Sprintf("delete records %s %v", topic, before), func(ctx context.Context) error {
		req := kmsg.NewPtrDeleteRecordsRequest()
		req.TimeoutMillis = 15000
		rt := kmsg.NewDeleteRecordsRequestTopic()
		rt.Topic = topic
		for _, p := range parts {
			rp := kmsg.NewDeleteRecordsRequestTopicPartition()
			rp.Partition, rp.Offset = p, before[p]
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
		res, err := req.RequestWith(ctx, cl)
		if err != nil {
			return err
		}
		for _, rt := range res.Topics {
			for _, p := range rt.Partitions {
				if p.ErrorCode != 0 {
					return fmt.Errorf("%s/%d: %w", rt.Topic, p.Partition, kafka.Error(p.ErrorCode))
				}
				lowWatermarks[p.Partition] = p.LowWatermark
			}
		}
		for _, p := range parts {
			if _, ok := lowWatermarks[p]; !ok {
				return fmt.Errorf("%s/%d: no answer to DeleteRecords", topic, p)
			}
		}
		return nil
	})
	// The log start is what the code under test reads: wait until
	// ListOffsets(EARLIEST) agrees with the low watermarks.
	reqs := make([]kafka.OffsetRequest, len(parts))
	for i, p := range parts {
		reqs[i] = kafka.FirstOffsetOf(int(p))
	}
	retry(t, "wait for the log start of "+topic, func(ctx context.Context) error {
		res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{topic: reqs}})
		if err != nil {
			return err
		}
		got := map[int32]int64{}
		for _, p := range res.Topics[topic] {
			if p.Error != nil {
				return p.Error
			}
			got[int32(p.Partition)] = p.FirstOffset
		}
		for _, p := range parts {
			if got[p] != lowWatermarks[p] {
				return kafka.OffsetNotAvailable // not yet: retried
			}
		}
		return nil
	})
}

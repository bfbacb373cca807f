package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kcg-dev/kcg/kafkaadmin/recordbatch"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// readStuckRounds bounds the rounds in a row in which a partition's read
// makes no progress (only a cut-off batch, or an open transaction below
// the end asked for) before ReadRange gives up on it.
const readStuckRounds = 4

// ReadRange reads every data record of each partition of to from from[tp]
// (the log start when absent or below it) up to, not including, to[tp],
// as a read-committed consumer would receive them (recordbatch.Decode):
// one Fetch per partition leader per round, each partition read on from
// where its last answer ended until it reaches its end. Records come back
// per partition in offset order. Unlike RecordTimes it fails as a whole
// on any partition it cannot read: its callers (the MM2 checkpoints) need
// every record.
func (c *Client) ReadRange(ctx context.Context, from, to map[TopicPartition]int64) (map[TopicPartition][]recordbatch.Record, error) {
	out := map[TopicPartition][]recordbatch.Record{}
	pending := map[TopicPartition]*rangeRead{}
	for tp, end := range to {
		if at := from[tp]; at < end {
			pending[tp] = &rangeRead{at: at, end: end}
		}
	}
	if len(pending) == 0 {
		return out, nil
	}
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrFetchRequest(), 12)
	if err != nil {
		return nil, err
	}
	if !ok || v < 4 {
		return nil, errors.New("the broker does not support Fetch v4 or later")
	}
	for len(pending) > 0 {
		if err := c.readRangeRound(ctx, v, pending, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rangeRead is one partition's read in progress.
type rangeRead struct {
	at, end int64
	stuck   int
	solo    bool
	done    bool
	err     error
}

// readRangeRound fetches every pending partition once and moves each on.
func (c *Client) readRangeRound(ctx context.Context, v int16, pending map[TopicPartition]*rangeRead, out map[TopicPartition][]recordbatch.Record) error {
	tps := make([]TopicPartition, 0, len(pending))
	for tp := range pending {
		tps = append(tps, tp)
	}
	var mu sync.Mutex
	api := &sharded[TopicPartition, struct{}]{
		split: func(tps []TopicPartition) [][]TopicPartition {
			var reqs [][]TopicPartition
			var shared []TopicPartition
			for _, tp := range tps {
				if pending[tp].solo {
					reqs = append(reqs, []TopicPartition{tp})
				} else {
					shared = append(shared, tp)
				}
			}
			if len(shared) > 0 {
				reqs = append(reqs, shared)
			}
			return reqs
		},
		request: func(batch []TopicPartition) kmsg.Request {
			return fetchRequest(v, batch, func(tp TopicPartition) int64 { return pending[tp].at })
		},
		decode: func(_ context.Context, _ int32, _ []TopicPartition, resp kmsg.Response, r *reply[TopicPartition, struct{}]) error {
			mu.Lock()
			defer mu.Unlock()
			for _, t := range resp.(*kmsg.FetchResponse).Topics {
				for i := range t.Partitions {
					p := &t.Partitions[i]
					tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
					rr := pending[tp]
					if rr == nil || rr.done {
						continue
					}
					if e := kerr("Fetch", tp.String(), p.ErrorCode, nil); e != nil && retriable(e) {
						r.retry(tp, e)
						continue
					}
					rr.answer(tp, p, out)
					r.set(tp, struct{}{})
				}
			}
			return nil
		},
	}
	_, errs, err := shard(ctx, c, c.leaderRouter("Fetch"), api, tps)
	if err != nil {
		return err
	}
	for i, tp := range tps {
		rr := pending[tp]
		switch {
		case errs[i] != nil:
			return fmt.Errorf("reading %s: %w", tp, errs[i])
		case rr.err != nil:
			return rr.err
		case rr.at >= rr.end:
			delete(pending, tp)
		case rr.stuck >= readStuckRounds:
			return fmt.Errorf("reading %s: no progress at offset %d after %d reads (an open transaction, or a batch larger than the fetch limit)", tp, rr.at, rr.stuck)
		}
		rr.done = false
	}
	return nil
}

// answer takes one Fetch answer for the partition.
func (rr *rangeRead) answer(tp TopicPartition, p *kmsg.FetchResponseTopicPartition, out map[TopicPartition][]recordbatch.Record) {
	rr.done = true
	if e := kerr("Fetch", tp.String(), p.ErrorCode, nil); e != nil {
		if errors.Is(e, kafka.OffsetOutOfRange) && p.LogStartOffset > rr.at {
			// Retention or compaction cleaned the log below its start.
			rr.at = p.LogStartOffset
			return
		}
		rr.err = fmt.Errorf("reading %s: %w", tp, e)
		return
	}
	d, err := recordbatch.Decode(p.RecordBatches, p.AbortedTransactions)
	if err != nil {
		rr.err = fmt.Errorf("reading %s: %w", tp, err)
		return
	}
	for _, rec := range d.Records(rr.at) {
		if rec.Offset < rr.end {
			out[tp] = append(out[tp], rec)
		}
	}
	if next := d.Next(); next > rr.at {
		rr.at, rr.stuck, rr.solo = next, 0, false
		return
	}
	rr.stuck++
	rr.solo = rr.solo || d.Cut()
}

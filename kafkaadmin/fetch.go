package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kcg-dev/kcg/kafkaadmin/recordbatch"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Byte limits of the time-lag Fetch: the record wanted is the first data
// record at or after an offset, so a few batches are enough. A batch
// bigger than fetchPartitionBytes comes back cut off; that partition is
// asked again alone, where the broker returns at least one whole batch
// (KIP-74).
const (
	fetchPartitionBytes = 64 << 10
	fetchMaxBytes       = 8 << 20
	// fetchRounds bounds the reads of one partition: the first, and the
	// follow-ups when the bytes read held only control records, aborted
	// data or a cut-off batch.
	fetchRounds = 4
)

// RecordAt names an offset of a partition.
type RecordAt struct {
	TP     TopicPartition
	Offset int64
}

// RecordTime is the first data record at or after an offset, as a
// read-committed consumer would see it: control records (transaction
// markers) and aborted transactional data are skipped, and records a
// compaction removed are simply not there.
type RecordTime struct {
	// Found is false when there is no such record below the last stable
	// offset: only markers or aborted data follow the offset, or an open
	// transaction blocks the read (LastStableOffset < HighWatermark).
	Found bool
	// Offset and Timestamp (milliseconds) are the record's; LogAppendTime
	// tells that the timestamp is the broker's append time, not the
	// producer's CreateTime.
	Offset        int64
	Timestamp     int64
	LogAppendTime bool
	// FromLogStart is set when the offset was below the log start (retention
	// deleted it) and the read began at the log start instead.
	FromLogStart bool
	// HighWatermark and LastStableOffset as the leader reported them.
	HighWatermark, LastStableOffset int64
	Err                             error
}

// RecordTimes reads, for each query, the first data record at or after
// its offset: one Fetch per partition leader (read committed, no wait, at
// most fetchPartitionBytes per partition), each partition read once from
// the lowest offset asked of it, so the groups committed at different
// offsets of one partition share the read. Follow-ups go only to the
// partitions whose bytes did not reach an answer (see fetchRounds). A
// partition that cannot be read carries Err; the call fails only when the
// cluster cannot be reached.
func (c *Client) RecordTimes(ctx context.Context, queries []RecordAt) (map[RecordAt]RecordTime, error) {
	out := make(map[RecordAt]RecordTime, len(queries))
	if len(queries) == 0 {
		return out, nil
	}
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrFetchRequest(), 12) // v13 names topics by id
	if err != nil {
		return nil, err
	}
	if !ok || v < 4 {
		return nil, errors.New("the broker does not support Fetch v4 or later")
	}
	parts := map[TopicPartition]*partRead{}
	for _, q := range vocab.Dedupe(queries) {
		pr := parts[q.TP]
		if pr == nil {
			pr = &partRead{tp: q.TP}
			parts[q.TP] = pr
		}
		pr.reads = append(pr.reads, &read{q: q, at: q.Offset})
	}
	for len(parts) > 0 {
		if err := c.fetchRound(ctx, v, parts, out); err != nil {
			return nil, err
		}
	}
	for _, q := range queries {
		if _, ok := out[q]; !ok {
			out[q] = RecordTime{Err: fmt.Errorf("Fetch %s: no answer from the partition leader", q.TP)}
		}
	}
	return out, nil
}

// fetchRound reads every partition of parts once, through the engine
// (one Fetch per leader, retried while leaders move), and settles what
// the answers decide into out. It leaves in parts the partitions with
// reads still to go: those get another round.
func (c *Client) fetchRound(ctx context.Context, v int16, parts map[TopicPartition]*partRead, out map[RecordAt]RecordTime) error {
	tps := make([]TopicPartition, 0, len(parts))
	for tp := range parts {
		tps = append(tps, tp)
	}
	var mu sync.Mutex
	done := map[TopicPartition]bool{}
	api := &sharded[TopicPartition, struct{}]{
		// A partition whose batch came back cut off goes alone, first in
		// its request, to get one whole batch.
		split: func(tps []TopicPartition) [][]TopicPartition {
			var reqs [][]TopicPartition
			var shared []TopicPartition
			for _, tp := range tps {
				if parts[tp].solo {
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
			return fetchRequest(v, batch, func(tp TopicPartition) int64 { return parts[tp].from() })
		},
		decode: func(_ context.Context, _ int32, _ []TopicPartition, resp kmsg.Response, r *reply[TopicPartition, struct{}]) error {
			mu.Lock()
			defer mu.Unlock()
			for _, t := range resp.(*kmsg.FetchResponse).Topics {
				for i := range t.Partitions {
					p := &t.Partitions[i]
					pr := parts[TopicPartition{Topic: t.Topic, Partition: p.Partition}]
					if pr == nil || done[pr.tp] {
						continue
					}
					if e := kerr("Fetch", pr.tp.String(), p.ErrorCode, nil); e != nil && retriable(e) {
						r.retry(pr.tp, e)
						continue
					}
					pr.answer(p, out)
					done[pr.tp] = true
					r.set(pr.tp, struct{}{})
				}
			}
			return nil
		},
		// A partition the leader did not answer for is left out of the
		// next round; its reads end without an answer.
		missing: nil,
	}
	_, errs, err := shard(ctx, c, c.leaderRouter("Fetch"), api, tps)
	if err != nil {
		return err
	}
	for i, tp := range tps {
		if errs[i] != nil {
			parts[tp].fail(errs[i], out)
		}
	}
	for tp, pr := range parts {
		if !done[tp] || len(pr.reads) == 0 {
			delete(parts, tp)
		}
	}
	return nil
}

// read is one query being answered; it moves on (to the next offset, or
// the log start) until it finds a record or runs out of rounds.
type read struct {
	q      RecordAt
	at     int64
	fromS  bool // at is the log start: the offset was below it
	rounds int  // reads that reached this one's offset without an answer
}

// partRead is the reads of one partition, fetched together from the
// lowest of their offsets.
type partRead struct {
	tp    TopicPartition
	reads []*read // unanswered
	solo  bool    // the first batch came back cut off: ask alone for a whole one
}

// fail settles every read of the partition with err.
func (pr *partRead) fail(err error, out map[RecordAt]RecordTime) {
	for _, r := range pr.reads {
		out[r.q] = RecordTime{Err: err}
	}
	pr.reads = nil
}

func (pr *partRead) from() int64 {
	m := pr.reads[0].at
	for _, r := range pr.reads[1:] {
		m = min(m, r.at)
	}
	return m
}

// answer settles the reads that p, the partition's Fetch answer, decides,
// into out, and keeps the others for another round.
func (pr *partRead) answer(p *kmsg.FetchResponseTopicPartition, out map[RecordAt]RecordTime) {
	settle := func(rt RecordTime) {
		for _, r := range pr.reads {
			rt.FromLogStart = r.fromS
			out[r.q] = rt
		}
		pr.reads = nil
	}
	from := pr.from()
	if e := kerr("Fetch", pr.tp.String(), p.ErrorCode, nil); e != nil {
		if errors.Is(e, kafka.OffsetOutOfRange) && p.LogStartOffset > from {
			// Retention passed the offsets below the log start: those
			// are read from there.
			for _, r := range pr.reads {
				if r.at < p.LogStartOffset {
					r.at, r.fromS = p.LogStartOffset, true
					r.rounds++
				}
			}
			pr.nextRound(out)
			return
		}
		settle(RecordTime{Err: e})
		return
	}
	d, err := recordbatch.Decode(p.RecordBatches, p.AbortedTransactions)
	if err != nil {
		settle(RecordTime{Err: fmt.Errorf("Fetch %s: %w", pr.tp, err)})
		return
	}
	var left []*read
	for _, r := range pr.reads {
		s := d.Scan(max(r.at, from))
		rt := RecordTime{FromLogStart: r.fromS, HighWatermark: p.HighWatermark, LastStableOffset: p.LastStableOffset}
		switch {
		case s.Found:
			rt.Found, rt.Offset, rt.Timestamp, rt.LogAppendTime = true, s.Offset, s.Timestamp, s.LogAppendTime
		case s.Incomplete:
			pr.solo = true
			if r.at <= from {
				r.rounds++
			}
			left = append(left, r)
			continue
		case s.Next < p.LastStableOffset:
			// The bytes ran out before a data record below the stable
			// offset: read on. A read the bytes did not reach has not
			// used a round.
			if s.Next > r.at {
				r.rounds++
			}
			r.at = s.Next
			left = append(left, r)
			continue
		}
		out[r.q] = rt
	}
	pr.reads = left
	pr.nextRound(out)
}

// nextRound fails the reads left that have used fetchRounds reads; the
// others go to the next round.
func (pr *partRead) nextRound(out map[RecordAt]RecordTime) {
	left := pr.reads[:0]
	for _, r := range pr.reads {
		if r.rounds < fetchRounds {
			left = append(left, r)
			continue
		}
		out[r.q] = RecordTime{Err: fmt.Errorf("Fetch %s: no data record found after %d reads from offset %d", pr.tp, fetchRounds, r.q.Offset)}
	}
	pr.reads = left
}

// fetchRequest is a read-committed Fetch of parts from offset at(tp),
// answered at once (no wait), within the byte limits above.
func fetchRequest(v int16, parts []TopicPartition, at func(TopicPartition) int64) *kmsg.FetchRequest {
	req := kmsg.NewPtrFetchRequest()
	req.Version = v
	req.ReplicaID = -1
	req.MaxWaitMillis = 0
	req.MinBytes = 0
	req.MaxBytes = fetchMaxBytes
	req.IsolationLevel = 1
	req.SessionEpoch = -1 // no fetch session
	byTopic := map[string]int{}
	for _, tp := range parts {
		i, ok := byTopic[tp.Topic]
		if !ok {
			i = len(req.Topics)
			byTopic[tp.Topic] = i
			rt := kmsg.NewFetchRequestTopic()
			rt.Topic = tp.Topic
			req.Topics = append(req.Topics, rt)
		}
		rp := kmsg.NewFetchRequestTopicPartition()
		rp.Partition = tp.Partition
		rp.CurrentLeaderEpoch = -1
		rp.FetchOffset = at(tp)
		rp.LogStartOffset = -1
		rp.PartitionMaxBytes = fetchPartitionBytes
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, rp)
	}
	return req
}

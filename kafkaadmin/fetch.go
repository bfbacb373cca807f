package kafkaadmin

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/compress"
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
// most fetchPartitionBytes per partition) for each distinct offset asked
// of the same partition, plus follow-ups for the partitions whose first
// bytes held no data record (see fetchRounds). A partition that cannot be
// read carries Err; the call fails only when the cluster cannot be
// reached.
func (c *Client) RecordTimes(ctx context.Context, queries []RecordAt) (map[RecordAt]RecordTime, error) {
	out := make(map[RecordAt]RecordTime, len(queries))
	if len(queries) == 0 {
		return out, nil
	}
	v, ok, err := c.pickVersion(ctx, 1, 12) // v13 names topics by id
	if err != nil {
		return nil, err
	}
	if !ok || v < 4 {
		return nil, errors.New("the broker does not support Fetch v4 or later")
	}
	// One read per query; a read moves on (next offset, or the log start)
	// until it finds a record or runs out of rounds.
	type read struct {
		q     RecordAt
		at    int64
		solo  bool // cut-off batch: ask alone for a whole one
		fromS bool // at is the log start, the offset was below it
		round int
	}
	var pending []*read
	for _, q := range vocab.Dedupe(queries) {
		pending = append(pending, &read{q: q, at: q.Offset})
	}
	var mu sync.Mutex
	for len(pending) > 0 {
		// One batch of requests per partition at a time: a Fetch names a
		// partition once.
		var now, later []*read
		seen := map[TopicPartition]bool{}
		for _, r := range pending {
			if seen[r.q.TP] {
				later = append(later, r)
				continue
			}
			seen[r.q.TP] = true
			now = append(now, r)
		}
		byTP := map[TopicPartition]*read{}
		var tps []TopicPartition
		for _, r := range now {
			byTP[r.q.TP] = r
			tps = append(tps, r.q.TP)
		}
		var retryTP []TopicPartition
		var lastErr, fatal error
		err := retry(ctx, listOffsetsRetries, func(attempt int) bool {
			byLeader, failed, noLeader, err := c.partitionLeaders(ctx, tps, attempt)
			if err != nil {
				fatal = err
				return false
			}
			for tp, e := range failed {
				out[byTP[tp].q] = RecordTime{Err: e}
			}
			retryTP = noLeader
			if len(noLeader) > 0 {
				lastErr = &KafkaError{Op: "Fetch", What: noLeader[0].String(), Code: kafka.LeaderNotAvailable}
			}
			var wg sync.WaitGroup
			for leader, parts := range byLeader {
				// A partition whose batch came back cut off goes alone,
				// first in its request, to get one whole batch.
				var groups [][]TopicPartition
				var shared []TopicPartition
				for _, tp := range parts {
					if byTP[tp].solo {
						groups = append(groups, []TopicPartition{tp})
					} else {
						shared = append(shared, tp)
					}
				}
				if len(shared) > 0 {
					groups = append(groups, shared)
				}
				for _, parts := range groups {
					wg.Go(func() {
						req := fetchRequest(v, parts, func(tp TopicPartition) int64 { return byTP[tp].at })
						resp, err := c.roundTrip(ctx, leader, req)
						mu.Lock()
						defer mu.Unlock()
						if err != nil {
							if retriable(err) || isNetwork(err) {
								retryTP = append(retryTP, parts...)
								lastErr = err
								return
							}
							for _, tp := range parts {
								out[byTP[tp].q] = RecordTime{Err: err}
							}
							return
						}
						for _, t := range resp.(*kmsg.FetchResponse).Topics {
							for _, p := range t.Partitions {
								tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
								r := byTP[tp]
								if r == nil {
									continue
								}
								e := kerr("Fetch", tp.String(), p.ErrorCode, nil)
								switch {
								case e == nil:
								case errors.Is(e, kafka.OffsetOutOfRange) && p.LogStartOffset > r.at:
									// Retention passed the offset: read from
									// the log start.
									r.at, r.fromS = p.LogStartOffset, true
									later = append(later, r)
									continue
								case retriable(e):
									retryTP = append(retryTP, tp)
									lastErr = e
									continue
								default:
									out[r.q] = RecordTime{Err: e}
									continue
								}
								s, err := scanBatches(p.RecordBatches, r.at, p.AbortedTransactions)
								rt := RecordTime{FromLogStart: r.fromS, HighWatermark: p.HighWatermark, LastStableOffset: p.LastStableOffset}
								switch {
								case err != nil:
									rt.Err = fmt.Errorf("Fetch %s: %w", tp, err)
								case s.found:
									rt.Found, rt.Offset, rt.Timestamp, rt.LogAppendTime = true, s.offset, s.timestamp, s.logAppendTime
								case s.next < p.LastStableOffset || s.incomplete:
									// Bytes ran out before a data record
									// below the stable offset: read on.
									r.round++
									if r.round >= fetchRounds {
										rt.Err = fmt.Errorf("Fetch %s: no data record found after %d reads from offset %d", tp, fetchRounds, r.q.Offset)
										break
									}
									if s.incomplete {
										r.solo = true
									} else {
										r.at = s.next
									}
									later = append(later, r)
									continue
								}
								out[r.q] = rt
							}
						}
					})
				}
			}
			wg.Wait()
			if len(retryTP) == 0 {
				return false
			}
			tps = retryTP
			return true
		})
		switch {
		case fatal != nil:
			return nil, fatal
		case errors.Is(err, errRetriesExhausted):
			for _, tp := range retryTP {
				out[byTP[tp].q] = RecordTime{Err: lastErr}
			}
		case err != nil:
			return nil, c.ctxErr(ctx)
		}
		pending = later
	}
	for _, q := range queries {
		if _, ok := out[q]; !ok {
			out[q] = RecordTime{Err: fmt.Errorf("Fetch %s: no answer from the partition leader", q.TP)}
		}
	}
	return out, nil
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

// scanned is what scanBatches found in a partition's record bytes.
type scanned struct {
	found         bool
	offset        int64
	timestamp     int64
	logAppendTime bool
	// next is the offset after the last whole batch read (the fetch
	// offset when none was); incomplete is set when not even one whole
	// batch was there (cut off by the byte limit).
	next       int64
	incomplete bool
}

// Record batch attributes (v2 format).
const (
	attrCompression   = 0x07
	attrLogAppendTime = 0x08
	attrTransactional = 0x10
	attrControl       = 0x20
)

// scanBatches finds the first data record at offset target or after it in
// data, the RecordBatches of one Fetch partition. It skips batches wholly
// before target (the broker starts at the batch holding target), control
// batches, and transactional batches of the producers whose aborted
// transactions the broker listed (the read-committed consumer's rule: an
// aborted transaction starts at its FirstOffset and ends at the producer's
// ABORT marker). A record of a LogAppendTime batch has the batch's
// MaxTimestamp.
func scanBatches(data []byte, target int64, aborted []kmsg.FetchResponseTopicPartitionAbortedTransaction) (scanned, error) {
	s := scanned{next: target}
	abortedBy := map[int64]bool{} // producers inside an aborted transaction
	pendingAborts := aborted      // not yet reached, by FirstOffset (sorted by the broker)
	whole := 0
	for len(data) > 0 {
		if len(data) < 12 {
			break
		}
		length := int64(int32(binary.BigEndian.Uint32(data[8:12])))
		if length < 49 || int64(len(data)) < 12+length {
			break // cut off by the byte limit
		}
		raw := data[:12+length]
		data = data[12+length:]
		if magic := raw[16]; magic != 2 {
			return s, fmt.Errorf("record format v%d is not supported (only v2)", magic)
		}
		var b kmsg.RecordBatch
		if err := b.ReadFrom(raw); err != nil {
			return s, fmt.Errorf("decoding a record batch: %w", err)
		}
		whole++
		last := b.FirstOffset + int64(b.LastOffsetDelta)
		s.next = max(s.next, last+1)
		for len(pendingAborts) > 0 && pendingAborts[0].FirstOffset <= last {
			abortedBy[pendingAborts[0].ProducerID] = true
			pendingAborts = pendingAborts[1:]
		}
		if last < target {
			continue
		}
		if b.Attributes&attrControl != 0 {
			recs, err := batchRecords(&b)
			if err != nil {
				return s, err
			}
			for _, r := range recs {
				// Control record key: version int16, type int16 (0 ABORT, 1 COMMIT).
				if len(r.Key) >= 4 && binary.BigEndian.Uint16(r.Key[2:4]) == 0 {
					delete(abortedBy, b.ProducerID)
				}
			}
			continue
		}
		if b.Attributes&attrTransactional != 0 && abortedBy[b.ProducerID] {
			continue
		}
		recs, err := batchRecords(&b)
		if err != nil {
			return s, err
		}
		for _, r := range recs {
			off := b.FirstOffset + int64(r.OffsetDelta)
			if off < target {
				continue
			}
			s.found, s.offset = true, off
			s.timestamp = b.FirstTimestamp + r.TimestampDelta64
			if b.Attributes&attrLogAppendTime != 0 {
				s.timestamp, s.logAppendTime = b.MaxTimestamp, true
			}
			return s, nil
		}
	}
	s.incomplete = whole == 0 && len(data) > 0
	return s, nil
}

// batchRecords decompresses and decodes the records of a v2 batch.
func batchRecords(b *kmsg.RecordBatch) ([]kmsg.Record, error) {
	raw := b.Records
	if codec := compress.Compression(b.Attributes & attrCompression); codec != compress.None {
		c := codec.Codec()
		if c == nil {
			return nil, fmt.Errorf("record batch compressed with unknown codec %d", codec)
		}
		rd := c.NewReader(bytes.NewReader(raw))
		var err error
		raw, err = io.ReadAll(rd)
		rd.Close()
		if err != nil {
			return nil, fmt.Errorf("decompressing a %s record batch: %w", codec, err)
		}
	}
	recs := make([]kmsg.Record, 0, max(b.NumRecords, 0))
	for i := int32(0); i < b.NumRecords && len(raw) > 0; i++ {
		n, used := binary.Varint(raw)
		if used <= 0 || n < 0 || int64(len(raw)-used) < n {
			return nil, errors.New("malformed record in a record batch")
		}
		var r kmsg.Record
		if err := r.ReadFrom(raw[:used+int(n)]); err != nil {
			return nil, fmt.Errorf("decoding a record: %w", err)
		}
		raw = raw[used+int(n):]
		recs = append(recs, r)
	}
	return recs, nil
}

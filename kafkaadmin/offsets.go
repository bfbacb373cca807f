package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// CommittedOffset is a group's committed offset for one partition: the
// next offset the group will read.
type CommittedOffset struct {
	Offset      int64
	LeaderEpoch *int32 // nil when none was committed (-1 on the wire)
	Metadata    string
}

// GroupOffsets is a group's committed offsets. A partition without a
// commit is absent from Offsets.
type GroupOffsets struct {
	Group   string
	Offsets map[TopicPartition]CommittedOffset
	// Invalid are the partitions the broker lists for the group with a
	// negative offset (someone committed -1): no usable commit, so they
	// are not in Offsets, but the Java tool's admin client keeps them as
	// keys (with a null offset), which puts them in --reset-offsets
	// --all-topics' scope. Sorted.
	Invalid []TopicPartition
	Err     error
}

// offsetFetchBatch bounds the groups of one multi-group OffsetFetch (v8+).
const offsetFetchBatch = 100

// FetchOffsets returns the committed offsets of each group, in the order
// given. On brokers with OffsetFetch v8+ the groups of one coordinator are
// fetched in batched requests; older brokers get one request per group.
// A group that does not exist has no offsets (and no error): Kafka answers
// such a fetch with no commits, kfake with GROUP_ID_NOT_FOUND; both mean
// the same here.
func (c *Client) FetchOffsets(ctx context.Context, groups []string) ([]GroupOffsets, error) {
	if len(groups) == 0 {
		return nil, nil
	}
	// v10 names topics by id; v9 is the newest version that names them.
	v, ok, err := c.pickVersion(ctx, 9, 9)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the OffsetFetch API")
	}
	var mu sync.Mutex
	results := map[string]*GroupOffsets{}
	record := func(g *GroupOffsets) {
		mu.Lock()
		results[g.Group] = g
		mu.Unlock()
	}
	failed, err := c.forCoordinators(ctx, groups, func(ctx context.Context, broker int32, gs []string) ([]string, error) {
		var batches [][]string
		if v >= 8 {
			batches = chunks(gs, offsetFetchBatch)
		} else {
			for _, g := range gs {
				batches = append(batches, []string{g})
			}
		}
		var bmu sync.Mutex
		var retry []string
		var retryErr, fatal error
		var wg sync.WaitGroup
		for _, batch := range batches {
			wg.Go(func() {
				req := kmsg.NewPtrOffsetFetchRequest()
				req.Version = v
				if v >= 8 {
					for _, g := range batch {
						rg := kmsg.NewOffsetFetchRequestGroup()
						rg.Group = g
						rg.Topics = nil // all partitions with commits
						req.Groups = append(req.Groups, rg)
					}
				} else {
					req.Group = batch[0]
					req.Topics = nil
				}
				resp, err := c.roundTrip(ctx, broker, req)
				bmu.Lock()
				defer bmu.Unlock()
				if err != nil {
					if fatal == nil {
						fatal = err
					}
					return
				}
				r := resp.(*kmsg.OffsetFetchResponse)
				if v < 8 {
					// Pre-v8 responses carry one group at the top level.
					g := kmsg.NewOffsetFetchResponseGroup()
					g.Group = batch[0]
					g.ErrorCode = r.ErrorCode
					for _, t := range r.Topics {
						gt := kmsg.NewOffsetFetchResponseGroupTopic()
						gt.Topic = t.Topic
						for _, p := range t.Partitions {
							gp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
							gp.Partition, gp.Offset, gp.LeaderEpoch, gp.Metadata, gp.ErrorCode = p.Partition, p.Offset, p.LeaderEpoch, p.Metadata, p.ErrorCode
							gt.Partitions = append(gt.Partitions, gp)
						}
						g.Topics = append(g.Topics, gt)
					}
					r.Groups = []kmsg.OffsetFetchResponseGroup{g}
				}
				for i := range r.Groups {
					g := &r.Groups[i]
					e := kerr("OffsetFetch", "group "+g.Group, g.ErrorCode, nil)
					switch {
					case e == nil, errors.Is(e, kafka.GroupIdNotFound):
					case retriable(e):
						retry = append(retry, g.Group)
						retryErr = e
						continue
					default:
						record(&GroupOffsets{Group: g.Group, Err: e})
						continue
					}
					out := &GroupOffsets{Group: g.Group, Offsets: map[TopicPartition]CommittedOffset{}}
					for _, t := range g.Topics {
						for _, p := range t.Partitions {
							tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
							if pe := partitionErr("OffsetFetch", g.Group, tp, p.ErrorCode); pe != nil {
								if retriable(pe) {
									retry = append(retry, g.Group)
									retryErr = pe
									out = nil
									break
								}
								out.Err = pe
								continue
							}
							if p.Offset < 0 {
								out.Invalid = append(out.Invalid, tp) // -1: no commit
								continue
							}
							co := CommittedOffset{Offset: p.Offset}
							if p.LeaderEpoch >= 0 {
								le := p.LeaderEpoch
								co.LeaderEpoch = &le
							}
							if p.Metadata != nil {
								co.Metadata = *p.Metadata
							}
							out.Offsets[tp] = co
						}
						if out == nil {
							break
						}
					}
					if out != nil {
						vocab.SortPartitions(out.Invalid)
						record(out)
					}
				}
			})
		}
		wg.Wait()
		if fatal != nil {
			return nil, fatal
		}
		return retry, retryErr
	})
	if err != nil {
		return nil, err
	}
	out := make([]GroupOffsets, 0, len(groups))
	for _, g := range groups {
		if r, ok := results[g]; ok {
			out = append(out, *r)
			continue
		}
		e := failed[g]
		if e == nil {
			e = fmt.Errorf("group %s: no offsets returned", g)
		}
		out = append(out, GroupOffsets{Group: g, Err: e})
	}
	return out, nil
}

// Offset lookups for ListOffsets.
const (
	// Earliest asks for the log-start offset.
	Earliest int64 = -2
	// Latest asks for the log-end offset (high watermark).
	Latest int64 = -1
)

// ListedOffset is the answer of ListOffsets for one partition.
type ListedOffset struct {
	Offset int64
	// Timestamp is the record's timestamp for time lookups (-1 otherwise).
	Timestamp int64
	// Found is false for a time lookup with no record at or after the time.
	Found bool
	Err   error
}

// ListOffsets looks up offsets for tps: Earliest, Latest, or a timestamp in
// milliseconds (the first offset whose record timestamp is at or after it).
// It sends one request per partition leader, retrying partitions whose
// leader moved. A partition that does not exist or has no leader carries
// Err; the call fails only when the cluster cannot be reached.
func (c *Client) ListOffsets(ctx context.Context, tps []TopicPartition, spec int64) (map[TopicPartition]ListedOffset, error) {
	return c.ListOffsetsIsolated(ctx, tps, spec, ReadUncommitted)
}

// Isolation levels of ListOffsets (and Fetch).
const (
	// ReadUncommitted: Latest is the high watermark.
	ReadUncommitted int8 = 0
	// ReadCommitted: Latest is the last stable offset (below the first
	// open transaction).
	ReadCommitted int8 = 1
)

// ListOffsetsIsolated is ListOffsets at an isolation level: with
// ReadCommitted, Latest is the last stable offset. It needs ListOffsets v2
// or later for ReadCommitted.
func (c *Client) ListOffsetsIsolated(ctx context.Context, tps []TopicPartition, spec int64, isolation int8) (map[TopicPartition]ListedOffset, error) {
	out := make(map[TopicPartition]ListedOffset, len(tps))
	if len(tps) == 0 {
		return out, nil
	}
	v, ok, err := c.pickVersion(ctx, 2, 7)
	if err != nil {
		return nil, err
	}
	if !ok || v < 1 {
		return nil, errors.New("the broker does not support ListOffsets v1 or later")
	}
	if isolation != ReadUncommitted && v < 2 {
		return nil, errors.New("the broker does not support read-committed ListOffsets (v2 or later)")
	}
	pending := vocab.Dedupe(tps)
	var fatal, lastErr error
	var again []TopicPartition
	err = retry(ctx, listOffsetsRetries, func(attempt int) bool {
		byLeader, failed, noLeader, err := c.partitionLeaders(ctx, pending, attempt)
		if err != nil {
			fatal = err
			return false
		}
		for tp, e := range failed {
			out[tp] = ListedOffset{Err: e}
		}
		lastErr, again = nil, noLeader
		if len(noLeader) > 0 {
			lastErr = &KafkaError{Op: "ListOffsets", What: noLeader[0].String(), Code: kafka.LeaderNotAvailable}
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for leader, parts := range byLeader {
			wg.Go(func() {
				req := kmsg.NewPtrListOffsetsRequest()
				req.Version = v
				req.ReplicaID = -1
				req.IsolationLevel = isolation
				byTopic := map[string][]int32{}
				for _, tp := range parts {
					byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
				}
				for t, ps := range byTopic {
					rt := kmsg.NewListOffsetsRequestTopic()
					rt.Topic = t
					for _, p := range ps {
						rp := kmsg.NewListOffsetsRequestTopicPartition()
						rp.Partition = p
						rp.CurrentLeaderEpoch = -1
						rp.Timestamp = spec
						rt.Partitions = append(rt.Partitions, rp)
					}
					req.Topics = append(req.Topics, rt)
				}
				resp, err := c.roundTrip(ctx, leader, req)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					if retriable(err) || isNetwork(err) {
						again = append(again, parts...)
						lastErr = err
					} else if fatal == nil {
						fatal = err
					}
					return
				}
				r := resp.(*kmsg.ListOffsetsResponse)
				for _, t := range r.Topics {
					for _, p := range t.Partitions {
						tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
						if e := kerr("ListOffsets", tp.String(), p.ErrorCode, nil); e != nil {
							if retriable(e) {
								again = append(again, tp)
								lastErr = e
							} else {
								out[tp] = ListedOffset{Err: e}
							}
							continue
						}
						lo := ListedOffset{Offset: p.Offset, Timestamp: p.Timestamp, Found: true}
						if spec >= 0 && p.Offset < 0 {
							lo.Found = false
						}
						out[tp] = lo
					}
				}
			})
		}
		wg.Wait()
		if fatal != nil || len(again) == 0 {
			return false
		}
		pending = again
		return true
	})
	switch {
	case fatal != nil:
		return nil, fatal
	case errors.Is(err, errRetriesExhausted):
		for _, tp := range again {
			out[tp] = ListedOffset{Err: lastErr}
		}
	case err != nil:
		return nil, c.ctxErr(ctx)
	}
	for _, tp := range tps {
		if _, ok := out[tp]; !ok {
			out[tp] = ListedOffset{Err: fmt.Errorf("ListOffsets %s: no answer from the partition leader", tp)}
		}
	}
	return out, nil
}

// partitionLeaders groups pending by partition leader.
// Partitions of a topic that does not exist, or that the topic does not
// have, are in failed; partitions without a leader right now are in
// noLeader, for the caller to retry. The first attempt reuses leaders seen
// a moment ago (a leader that moved answers NOT_LEADER_OR_FOLLOWER, and
// the retry asks Metadata again); err is set only when Metadata fails.
func (c *Client) partitionLeaders(ctx context.Context, pending []TopicPartition, attempt int) (byLeader map[int32][]TopicPartition, failed map[TopicPartition]error, noLeader []TopicPartition, err error) {
	var meta map[string]TopicInfo
	if attempt == 0 {
		meta = c.cachedTopics(pending)
	}
	if meta == nil {
		topics := map[string]bool{}
		for _, tp := range pending {
			topics[tp.Topic] = true
		}
		names := make([]string, 0, len(topics))
		for t := range topics {
			names = append(names, t)
		}
		slices.Sort(names)
		if meta, err = c.Topics(ctx, names); err != nil {
			return nil, nil, nil, err
		}
	}
	byLeader = map[int32][]TopicPartition{}
	failed = map[TopicPartition]error{}
	for _, tp := range pending {
		ti := meta[tp.Topic]
		if ti.Err != nil {
			failed[tp] = ti.Err
			continue
		}
		leader := int32(-2)
		for _, p := range ti.Partitions {
			if p.Partition == tp.Partition {
				leader = p.Leader
			}
		}
		switch leader {
		case -2:
			failed[tp] = &UnknownPartitionError{TP: tp}
		case -1:
			noLeader = append(noLeader, tp)
		default:
			byLeader[leader] = append(byLeader[leader], tp)
		}
	}
	return byLeader, failed, noLeader, nil
}

// UnknownPartitionError means a topic exists but has no such partition.
type UnknownPartitionError struct{ TP TopicPartition }

func (e *UnknownPartitionError) Error() string {
	return fmt.Sprintf("partition %s does not exist", e.TP)
}

// Is makes errors.Is(err, kafka.UnknownTopicOrPartition) true.
func (e *UnknownPartitionError) Is(target error) bool {
	return target == kafka.UnknownTopicOrPartition
}

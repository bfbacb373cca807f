package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
const offsetFetchBatch = 500

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
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrOffsetFetchRequest(), 9)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the OffsetFetch API")
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), offsetFetch(v), groups)
	if err != nil {
		return nil, err
	}
	for i, e := range errs {
		if e != nil {
			out[i] = GroupOffsets{Group: groups[i], Err: e}
		}
	}
	return out, nil
}

// offsetFetch is OffsetFetch at version v for the engine: v8+ fetches
// offsetFetchBatch groups per request, older versions one.
func offsetFetch(v int16) *sharded[string, GroupOffsets] {
	size := 1
	if v >= 8 {
		size = offsetFetchBatch
	}
	return &sharded[string, GroupOffsets]{
		split: func(groups []string) [][]string { return chunks(groups, size) },
		request: func(batch []string) kmsg.Request {
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
			return req
		},
		decode: func(_ context.Context, _ int32, batch []string, resp kmsg.Response, r *reply[string, GroupOffsets]) error {
			fr := resp.(*kmsg.OffsetFetchResponse)
			if v < 8 {
				fr.Groups = []kmsg.OffsetFetchResponseGroup{offsetFetchV7Group(batch[0], fr)}
			}
			for i := range fr.Groups {
				decodeGroupOffsets(&fr.Groups[i], r)
			}
			return nil
		},
		missing: func(g string) error { return fmt.Errorf("group %s: no offsets returned", g) },
	}
}

// offsetFetchV7Group is the answer of OffsetFetch before v8, which
// carries one group at the top level, as a v8 group.
func offsetFetchV7Group(group string, r *kmsg.OffsetFetchResponse) kmsg.OffsetFetchResponseGroup {
	g := kmsg.NewOffsetFetchResponseGroup()
	g.Group = group
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
	return g
}

// decodeGroupOffsets settles one group of an OffsetFetch answer: its
// offsets, its error, or a retry when it or one of its partitions is
// loading or moving.
func decodeGroupOffsets(g *kmsg.OffsetFetchResponseGroup, r *reply[string, GroupOffsets]) {
	e := kerr("OffsetFetch", "group "+g.Group, g.ErrorCode, nil)
	switch {
	case e == nil, errors.Is(e, kafka.GroupIdNotFound):
	case retriable(e):
		r.retry(g.Group, e)
		return
	default:
		r.set(g.Group, GroupOffsets{Group: g.Group, Err: e})
		return
	}
	n := 0
	for _, t := range g.Topics {
		n += len(t.Partitions)
	}
	// Sized once: grown entry by entry, the maps of 2,000 groups × 64
	// partitions left as much garbage as they hold (plan's peak memory).
	out := GroupOffsets{Group: g.Group, Offsets: make(map[TopicPartition]CommittedOffset, n)}
	for _, t := range g.Topics {
		for _, p := range t.Partitions {
			tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
			if pe := partitionErr("OffsetFetch", g.Group, tp, p.ErrorCode); pe != nil {
				if retriable(pe) {
					r.retry(g.Group, pe)
					return
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
	}
	vocab.SortPartitions(out.Invalid)
	r.set(g.Group, out)
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
	if len(tps) == 0 {
		return make(map[TopicPartition]ListedOffset), nil
	}
	qs := []OffsetQuery{{Spec: spec, Isolation: isolation}}
	v, err := c.listOffsetsVersion(ctx, qs)
	if err != nil {
		return nil, err
	}
	if got, ok, err := c.fanOut(ctx, tps, qs, v); ok {
		if err != nil {
			return nil, err
		}
		return got[0], nil
	}
	return c.listOffsetsRouted(ctx, tps, qs[0], v, nil)
}

// listOffsetsVersion is the ListOffsets version for the queries qs, or
// why the broker cannot answer one of them.
func (c *Client) listOffsetsVersion(ctx context.Context, qs []OffsetQuery) (int16, error) {
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrListOffsetsRequest(), 7)
	if err != nil {
		return 0, err
	}
	if !ok || v < 1 {
		return 0, errors.New("the broker does not support ListOffsets v1 or later")
	}
	for _, q := range qs {
		if q.Isolation != ReadUncommitted && v < 2 {
			return 0, errors.New("the broker does not support read-committed ListOffsets (v2 or later)")
		}
	}
	return v, nil
}

// listOffsetsRouted is one ListOffsets phase at version v through the
// engine: one request per partition leader, the leaders from known (when
// not nil), a Metadata answer of a moment ago, or a Metadata request.
func (c *Client) listOffsetsRouted(ctx context.Context, tps []TopicPartition, q OffsetQuery, v int16, known map[string]TopicInfo) (map[TopicPartition]ListedOffset, error) {
	out := make(map[TopicPartition]ListedOffset, len(tps))
	if len(tps) == 0 {
		return out, nil
	}
	listed, errs, err := shard(ctx, c, c.leaderRouterKnown("ListOffsets", known), listOffsets(v, q.Spec, q.Isolation), tps)
	if err != nil {
		return nil, err
	}
	for i, tp := range tps {
		if errs[i] != nil {
			out[tp] = ListedOffset{Err: errs[i]}
		} else {
			out[tp] = listed[i]
		}
	}
	return out, nil
}

// listOffsets is ListOffsets at version v for the engine: one request per
// leader, every partition looked up at spec. A failed request that is not
// retried fails the call.
func listOffsets(v int16, spec int64, isolation int8) *sharded[TopicPartition, ListedOffset] {
	return &sharded[TopicPartition, ListedOffset]{
		request: func(parts []TopicPartition) kmsg.Request {
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
			return req
		},
		decode: func(_ context.Context, _ int32, _ []TopicPartition, resp kmsg.Response, r *reply[TopicPartition, ListedOffset]) error {
			for _, t := range resp.(*kmsg.ListOffsetsResponse).Topics {
				for _, p := range t.Partitions {
					tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
					if e := kerr("ListOffsets", tp.String(), p.ErrorCode, nil); e != nil {
						if retriable(e) {
							r.retry(tp, e)
						} else {
							r.set(tp, ListedOffset{Err: e})
						}
						continue
					}
					r.set(tp, listed(spec, &p))
				}
			}
			return nil
		},
		missing: func(tp TopicPartition) error {
			return fmt.Errorf("ListOffsets %s: no answer from the partition leader", tp)
		},
		fatal: true,
	}
}

// listed is a partition's successful ListOffsets answer to a lookup at
// spec.
func listed(spec int64, p *kmsg.ListOffsetsResponseTopicPartition) ListedOffset {
	lo := ListedOffset{Offset: p.Offset, Timestamp: p.Timestamp, Found: true}
	if spec >= 0 && p.Offset < 0 {
		lo.Found = false
	}
	return lo
}

// topicsOf is the topics of tps, each once, sorted.
func topicsOf(tps []TopicPartition) []string {
	names := make(map[string]bool, len(tps))
	for _, tp := range tps {
		names[tp.Topic] = true
	}
	return slices.Sorted(maps.Keys(names))
}

// partitionLeaders groups pending by partition leader.
// Partitions of a topic that does not exist, or that the topic does not
// have, are in failed; partitions without a leader right now are in
// noLeader, for the caller to retry. The first attempt reuses leaders seen
// a moment ago (a leader that moved answers NOT_LEADER_OR_FOLLOWER, and
// the retry asks Metadata again); err is set only when Metadata fails.
// meta, when not nil, is the answer to route by (the fan-out's, fanout.go).
func (c *Client) partitionLeaders(ctx context.Context, pending []TopicPartition, attempt int, meta map[string]TopicInfo) (byLeader map[int32][]TopicPartition, failed map[TopicPartition]error, noLeader []TopicPartition, err error) {
	if meta == nil && attempt == 0 {
		meta = c.cachedTopics(pending)
	}
	if meta == nil {
		if meta, err = c.Topics(ctx, topicsOf(pending)); err != nil {
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

// DescribeAndFetch is DescribeGroups and FetchOffsets of the same groups,
// sent at once: after one coordinator lookup for both, the describe and
// the offset-fetch requests are in flight together rather than one phase
// after the other (the client's in-flight bound still applies). Each
// result is as that call returns it.
func (c *Client) DescribeAndFetch(ctx context.Context, groups []string) ([]GroupDescription, []GroupOffsets, error) {
	if len(groups) == 0 {
		return nil, nil, nil
	}
	// One FindCoordinator phase, cached for both: two lookups racing
	// would each ask for every group.
	if _, _, err := c.coordinators(ctx, groups); err != nil {
		return nil, nil, err
	}
	var (
		descs   []GroupDescription
		descErr error
		wg      sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		descs, descErr = c.DescribeGroups(ctx, groups)
	}()
	offs, offErr := c.FetchOffsets(ctx, groups)
	wg.Wait()
	if descErr != nil {
		return nil, nil, descErr
	}
	if offErr != nil {
		return nil, nil, offErr
	}
	return descs, offs, nil
}

// OffsetQuery is one ListOffsets phase: Earliest, Latest or a timestamp,
// at an isolation level.
type OffsetQuery struct {
	Spec      int64
	Isolation int8
}

// ListOffsetsAll is ListOffsetsIsolated for each query, the phases in
// flight together. On a small cluster whose brokers are known (fanOut)
// every phase goes to every broker beside the Metadata of the topics: one
// round trip. Otherwise one Metadata answer names the partitions' leaders
// for all of them (asked first unless a moment-old answer does), then
// each phase sends its request per leader. Three phases one after the
// other were three round trips to each leader. The results are in the
// order of qs; the call fails when any phase fails.
func (c *Client) ListOffsetsAll(ctx context.Context, tps []TopicPartition, qs []OffsetQuery) ([]map[TopicPartition]ListedOffset, error) {
	out := make([]map[TopicPartition]ListedOffset, len(qs))
	if len(tps) == 0 {
		for i := range out {
			out[i] = map[TopicPartition]ListedOffset{}
		}
		return out, nil
	}
	v, err := c.listOffsetsVersion(ctx, qs)
	if err != nil {
		return nil, err
	}
	if got, ok, err := c.fanOut(ctx, tps, qs, v); ok {
		return got, err
	}
	if len(qs) > 1 && c.cachedTopics(tps) == nil {
		if _, err := c.Topics(ctx, topicsOf(tps)); err != nil {
			return nil, err
		}
	}
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Go(func() { out[i], errs[i] = c.listOffsetsRouted(ctx, tps, q, v, nil) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

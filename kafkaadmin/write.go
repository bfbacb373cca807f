package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// OffsetToCommit is one partition's new committed offset.
type OffsetToCommit struct {
	TopicPartition
	Offset   int64
	Metadata string
}

// CommitOffsets commits offsets for group as an admin: generation -1, no
// member id, leader epoch -1 (so consumers do not validate the position
// against an epoch that never existed), and the given metadata. Kafka
// accepts this only for groups without active members; the refusal
// (UNKNOWN_MEMBER_ID) is reported as "the group has active members".
//
// The request goes to the group's coordinator from the client's cache,
// which the reads before a write (apply's preflight) have filled with one
// batched FindCoordinator: no lookup per commit. A coordinator that moved
// or went away is forgotten and looked up again.
//
// It returns the per-partition outcome (nil: committed). The error is set
// when the request itself failed, in which case the outcome is unknown.
func (c *Client) CommitOffsets(ctx context.Context, group string, offsets []OffsetToCommit) (map[TopicPartition]error, error) {
	// v8 is the newest version before KIP-848's member epochs (v9), which
	// an admin commit (generation -1, no member) does not use; every
	// broker kcg supports has it.
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrOffsetCommitRequest(), 8)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the OffsetCommit API at a version kcg speaks")
	}
	byTopic := map[string][]kmsg.OffsetCommitRequestTopicPartition{}
	for _, o := range offsets {
		p := kmsg.NewOffsetCommitRequestTopicPartition()
		p.Partition = o.Partition
		p.Offset = o.Offset
		p.LeaderEpoch = -1
		p.Metadata = kmsg.StringPtr(o.Metadata)
		byTopic[o.Topic] = append(byTopic[o.Topic], p)
	}
	topics := make([]string, 0, len(byTopic))
	for t := range byTopic {
		topics = append(topics, t)
	}
	slices.Sort(topics)
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Version = v
	req.Group = group
	req.Generation = -1
	req.MemberID = ""
	for _, t := range topics {
		rt := kmsg.NewOffsetCommitRequestTopic()
		rt.Topic = t
		rt.Partitions = byTopic[t]
		req.Topics = append(req.Topics, rt)
	}

	var result map[TopicPartition]error
	// Committing the same offsets again is harmless, and apply reads them
	// back: a connection lost to a coordinator that went down is retried
	// until it moves, within --timeout.
	err = withRetryCoordinator(ctx, func() error {
		coords, cerrs, err := c.coordinators(ctx, []string{group})
		if err != nil {
			return err
		}
		if e := cerrs[group]; e != nil {
			return e
		}
		m, err := c.roundTrip(ctx, coords[group], req)
		if err != nil {
			if ctx.Err() == nil {
				c.forgetCoordinator(group)
			}
			return err
		}
		resp := m.(*kmsg.OffsetCommitResponse)
		result = map[TopicPartition]error{}
		var retry error
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
				e := partitionErr("OffsetCommit", group, tp, p.ErrorCode)
				if e != nil && retriable(e) {
					retry = e
					if errors.Is(e, kafka.NotCoordinatorForGroup) || errors.Is(e, kafka.GroupCoordinatorNotAvailable) {
						c.forgetCoordinator(group)
					}
				}
				result[tp] = e
			}
		}
		return retry
	})
	if err != nil {
		// The request failed, or retries ran out on a coordinator error:
		// the outcome is unknown.
		return nil, err
	}
	for _, o := range offsets {
		if _, ok := result[o.TopicPartition]; !ok {
			result[o.TopicPartition] = fmt.Errorf("OffsetCommit group %s partition %s: no answer for this partition", group, o.TopicPartition)
		}
	}
	return result, nil
}

// DeleteGroups deletes groups, one request per coordinator (kafka-go sends
// a multi-group request to the first group's coordinator only). It returns
// each group's outcome: nil, or why it was not deleted (e.g. the group is
// not empty, or does not exist).
func (c *Client) DeleteGroups(ctx context.Context, groups []string) (map[string]error, error) {
	if _, err := c.Cluster(ctx); err != nil {
		return nil, err
	}
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrDeleteGroupsRequest(), 2)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the DeleteGroups API")
	}
	api := &sharded[string, error]{
		request: func(gs []string) kmsg.Request {
			req := kmsg.NewPtrDeleteGroupsRequest()
			req.Version = v
			req.Groups = gs
			return req
		},
		decode: func(_ context.Context, _ int32, _ []string, resp kmsg.Response, r *reply[string, error]) error {
			for _, g := range resp.(*kmsg.DeleteGroupsResponse).Groups {
				e := kerr("DeleteGroups", "group "+g.Group, g.ErrorCode, nil)
				if e != nil && retriable(e) {
					r.retry(g.Group, e)
					continue
				}
				r.set(g.Group, e)
			}
			return nil
		},
		missing: func(g string) error { return fmt.Errorf("DeleteGroups group %s: no answer", g) },
	}
	deleted, errs, err := shard(ctx, c, c.coordinatorRouter(), api, groups)
	if err != nil {
		return nil, err
	}
	out := make(map[string]error, len(groups))
	for i, g := range groups {
		if out[g] = deleted[i]; errs[i] != nil {
			out[g] = errs[i]
		}
	}
	return out, nil
}

// DeleteOffsetsResult is the outcome of OffsetDelete for one group.
type DeleteOffsetsResult struct {
	// Err is the group-level error (e.g. the group does not exist, or is
	// not empty); nil when the request succeeded at the group level.
	Err error
	// Partitions holds each requested partition's outcome (nil: deleted).
	Partitions map[TopicPartition]error
}

// DeleteOffsets deletes group's committed offsets for tps. Kafka allows it
// for groups without members, and for topics the group is not subscribed
// to.
func (c *Client) DeleteOffsets(ctx context.Context, group string, tps []TopicPartition) (DeleteOffsetsResult, error) {
	var res DeleteOffsetsResult
	if _, err := c.Cluster(ctx); err != nil {
		return res, err
	}
	req := offsetDeleteRequest(group, tps)
	if _, ok, err := c.pickVersion(ctx, req, 0); err != nil {
		return res, err
	} else if !ok {
		return res, errors.New("the broker does not support the OffsetDelete API")
	}
	api := &sharded[string, DeleteOffsetsResult]{
		request: func([]string) kmsg.Request { return req },
		decode: func(_ context.Context, _ int32, _ []string, resp kmsg.Response, r *reply[string, DeleteOffsetsResult]) error {
			od := resp.(*kmsg.OffsetDeleteResponse)
			e := kerr("OffsetDelete", "group "+group, od.ErrorCode, nil)
			if e != nil && retriable(e) {
				r.retry(group, e)
				return nil
			}
			res := DeleteOffsetsResult{Err: e, Partitions: map[TopicPartition]error{}}
			for _, t := range od.Topics {
				for _, p := range t.Partitions {
					tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
					res.Partitions[tp] = partitionErr("OffsetDelete", group, tp, p.ErrorCode)
				}
			}
			r.set(group, res)
			return nil
		},
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), api, []string{group})
	if err != nil {
		return res, err
	}
	if errs[0] != nil {
		return res, errs[0]
	}
	return out[0], nil
}

// offsetDeleteRequest is OffsetDelete v0 of group's partitions tps, in
// the order of their topics' first appearance.
func offsetDeleteRequest(group string, tps []TopicPartition) *kmsg.OffsetDeleteRequest {
	req := kmsg.NewPtrOffsetDeleteRequest()
	req.Version = 0
	req.Group = group
	byTopic := map[string][]int32{}
	var topics []string
	for _, tp := range vocab.Dedupe(tps) {
		if _, ok := byTopic[tp.Topic]; !ok {
			topics = append(topics, tp.Topic)
		}
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	for _, t := range topics {
		rt := kmsg.NewOffsetDeleteRequestTopic()
		rt.Topic = t
		for _, p := range byTopic[t] {
			rp := kmsg.NewOffsetDeleteRequestTopicPartition()
			rp.Partition = p
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	}
	return req
}

// IsActiveGroupError reports whether err is the broker refusing a write
// because the group has active members.
func IsActiveGroupError(err error) bool {
	return errors.Is(err, kafka.UnknownMemberId) || errors.Is(err, kafka.NonEmptyGroup) ||
		errors.Is(err, kafka.IllegalGeneration)
}

// CoordinatorIDs returns the coordinator broker id of each group that has
// one, from the cache (which the preflight's reads have filled) or from
// batched FindCoordinator requests; a group whose coordinator cannot be
// found is left out. Apply uses it to bound how many commits go to one
// coordinator at a time.
func (c *Client) CoordinatorIDs(ctx context.Context, groups []string) (map[string]int32, error) {
	coords, _, err := c.coordinators(ctx, vocab.Dedupe(groups))
	return coords, err
}

package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/protocol/offsetcommit"
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
// It returns the per-partition outcome (nil: committed). The error is set
// when the request itself failed, in which case the outcome is unknown.
func (c *Client) CommitOffsets(ctx context.Context, group string, offsets []OffsetToCommit) (map[TopicPartition]error, error) {
	byTopic := map[string][]offsetcommit.RequestPartition{}
	for _, o := range offsets {
		byTopic[o.Topic] = append(byTopic[o.Topic], offsetcommit.RequestPartition{
			PartitionIndex:       o.Partition,
			CommittedOffset:      o.Offset,
			CommittedLeaderEpoch: -1,
			CommittedMetadata:    o.Metadata,
		})
	}
	topics := make([]string, 0, len(byTopic))
	for t := range byTopic {
		topics = append(topics, t)
	}
	slices.Sort(topics)
	req := &offsetcommit.Request{GroupID: group, GenerationID: -1, MemberID: ""}
	for _, t := range topics {
		req.Topics = append(req.Topics, offsetcommit.RequestTopic{Name: t, Partitions: byTopic[t]})
	}

	var result map[TopicPartition]error
	// Committing the same offsets again is harmless, and apply reads them
	// back: a connection lost to a coordinator that went down is retried
	// until it moves, within --timeout.
	err := withRetryCoordinator(ctx, func() error {
		// kafka-go's low-level OffsetCommit is routed to the group's
		// coordinator by the Transport (it implements GroupMessage).
		m, err := c.transport.RoundTrip(ctx, c.bootstrapAddr(ctx), req)
		if err != nil {
			if ctx.Err() != nil {
				return c.ctxErr(ctx)
			}
			return c.networkErr(err)
		}
		resp, ok := m.(*offsetcommit.Response)
		if !ok {
			return fmt.Errorf("unexpected OffsetCommit response %T", m)
		}
		result = map[TopicPartition]error{}
		var retry error
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				tp := TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}
				e := kerr("OffsetCommit", "group "+group+" partition "+tp.String(), p.ErrorCode, nil)
				if e != nil && retriable(e) {
					retry = e
				}
				result[tp] = e
			}
		}
		return retry
	})
	if err != nil && result == nil {
		return nil, err
	}
	if err != nil {
		// Retries ran out on a coordinator error: the outcome is unknown.
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
	v, ok, err := c.pickVersion(ctx, 42, 2)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the DeleteGroups API")
	}
	var mu sync.Mutex
	out := map[string]error{}
	failed, err := c.forCoordinators(ctx, groups, func(ctx context.Context, broker int32, gs []string) ([]string, error) {
		req := kmsg.NewPtrDeleteGroupsRequest()
		req.Version = v
		req.Groups = gs
		resp, err := c.roundTrip(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		var retry []string
		var retryErr error
		for _, g := range resp.(*kmsg.DeleteGroupsResponse).Groups {
			e := kerr("DeleteGroups", "group "+g.Group, g.ErrorCode, nil)
			if e != nil && retriable(e) {
				retry = append(retry, g.Group)
				retryErr = e
				continue
			}
			mu.Lock()
			out[g.Group] = e
			mu.Unlock()
		}
		return retry, retryErr
	})
	if err != nil {
		return nil, err
	}
	for g, e := range failed {
		out[g] = e
	}
	for _, g := range groups {
		if _, ok := out[g]; !ok {
			out[g] = fmt.Errorf("DeleteGroups group %s: no answer", g)
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
	if _, ok, err := c.pickVersion(ctx, 47, 0); err != nil {
		return res, err
	} else if !ok {
		return res, errors.New("the broker does not support the OffsetDelete API")
	}
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
	failed, err := c.forCoordinators(ctx, []string{group}, func(ctx context.Context, broker int32, _ []string) ([]string, error) {
		resp, err := c.roundTrip(ctx, broker, req)
		if err != nil {
			return nil, err
		}
		r := resp.(*kmsg.OffsetDeleteResponse)
		if e := kerr("OffsetDelete", "group "+group, r.ErrorCode, nil); e != nil && retriable(e) {
			return []string{group}, e
		} else {
			res.Err = e
		}
		res.Partitions = map[TopicPartition]error{}
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
				res.Partitions[tp] = kerr("OffsetDelete", "group "+group+" partition "+tp.String(), p.ErrorCode, nil)
			}
		}
		return nil, nil
	})
	if err != nil {
		return res, err
	}
	if e := failed[group]; e != nil {
		return res, e
	}
	return res, nil
}

// IsActiveGroupError reports whether err is the broker refusing a write
// because the group has active members.
func IsActiveGroupError(err error) bool {
	return errors.Is(err, kafka.UnknownMemberId) || errors.Is(err, kafka.NonEmptyGroup) ||
		errors.Is(err, kafka.IllegalGeneration)
}

package kafkaadmin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kcg-dev/kcg/vocab"
)

// Share groups (KIP-932): ShareGroupDescribe (77), DescribeShareGroupOffsets
// (90; v1, Kafka 4.2+, has the lag), AlterShareGroupOffsets (91) and
// DeleteShareGroupOffsets (92), all routed to the group's coordinator by
// the sharded-request engine (shard.go).

// NoShareGroupsError is a broker without the share-group APIs (before
// Kafka 4.1, or with share groups off).
type NoShareGroupsError struct {
	// API is the request the broker lacks.
	API string
}

func (e *NoShareGroupsError) Error() string {
	return fmt.Sprintf("the cluster has no share groups: its brokers do not support %s (share groups need Kafka 4.1 or later); nothing was written", e.API)
}

// ShareGroupDescription is one share group's membership.
type ShareGroupDescription struct {
	Group string
	// Exists is false when the broker knows no share group by that id.
	Exists          bool
	State           string
	Assignor        string
	Coordinator     Broker
	GroupEpoch      int32
	AssignmentEpoch int32
	Members         []ShareMember // sorted by member id
	Err             error
}

// ShareMember is one share-group member.
type ShareMember struct {
	MemberID    string
	RackID      *string
	ClientID    string
	ClientHost  string
	MemberEpoch int32
	Subscribed  []string
	Assignment  []TopicPartitions // sorted
}

// ShareOffset is one share-partition's start offset; Lag is nil when the
// broker does not give it (DescribeShareGroupOffsets v0, or -1).
type ShareOffset struct {
	StartOffset int64
	LeaderEpoch int32
	Lag         *int64
}

// ShareGroupOffsets are one share group's start offsets.
type ShareGroupOffsets struct {
	Group   string
	Offsets map[TopicPartition]ShareOffset
	// Invalid are partitions the broker answered with an error.
	Invalid map[TopicPartition]error
	// Uninitialized are share-partitions the group has but whose start
	// offset is not set yet (-1: no record fetched since it joined);
	// the Java tool shows them with "-". Sorted.
	Uninitialized []TopicPartition
	Err           error
}

func (c *Client) sharePick(ctx context.Context, req kmsg.Request, max int16, api string) (int16, error) {
	return c.pickOr(ctx, req, max, &NoShareGroupsError{API: api})
}

// pickOr is pickVersion for an API a cluster may lack altogether (the
// share and streams group APIs): missing when the broker offers no
// version kcg speaks.
func (c *Client) pickOr(ctx context.Context, req kmsg.Request, max int16, missing error) (int16, error) {
	v, ok, err := c.pickVersion(ctx, req, max)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, missing
	}
	return v, nil
}

// HasShareGroups reports whether the cluster has the share-group APIs.
func (c *Client) HasShareGroups(ctx context.Context) (bool, error) {
	return c.offers(ctx, kmsg.NewPtrShareGroupDescribeRequest())
}

// HasConsumerGroups reports whether the cluster has KIP-848 consumer
// groups: it offers ConsumerGroupDescribe (Kafka 3.9 with the consumer
// protocol on, 4.0 and later).
func (c *Client) HasConsumerGroups(ctx context.Context) (bool, error) {
	_, ok, err := c.pickVersion(ctx, kmsg.NewPtrConsumerGroupDescribeRequest(), 0)
	return ok, err
}

// offers reports whether the cluster offers req's API at a version kcg
// speaks (v1 and later, as the share and streams group APIs need).
func (c *Client) offers(ctx context.Context, req kmsg.Request) (bool, error) {
	_, ok, err := c.pickVersion(ctx, req, 1)
	return ok, err
}

// DescribeShareGroups describes share groups, in the order given. A group
// that cannot be described carries Err; a group the broker does not know
// (or that is not a share group) has Exists false.
func (c *Client) DescribeShareGroups(ctx context.Context, groups []string) ([]ShareGroupDescription, error) {
	if _, err := c.RecentCluster(ctx); err != nil {
		return nil, err
	}
	v, err := c.sharePick(ctx, kmsg.NewPtrShareGroupDescribeRequest(), 1, "ShareGroupDescribe")
	if err != nil {
		return nil, err
	}
	api := &sharded[string, ShareGroupDescription]{
		split: describeGroupBatches,
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrShareGroupDescribeRequest()
			req.Version = v
			req.GroupIDs = batch
			return req
		},
		decode: func(ctx context.Context, broker int32, _ []string, resp kmsg.Response, r *reply[string, ShareGroupDescription]) error {
			for i := range resp.(*kmsg.ShareGroupDescribeResponse).Groups {
				g := &resp.(*kmsg.ShareGroupDescribeResponse).Groups[i]
				e := kerr("ShareGroupDescribe", "group "+g.GroupID, g.ErrorCode, g.ErrorMessage)
				switch {
				case e == nil:
					d, err := c.shareGroupDescription(ctx, broker, g)
					if err != nil {
						return err
					}
					r.set(g.GroupID, d)
				case errors.Is(e, kafka.GroupIdNotFound):
					r.set(g.GroupID, ShareGroupDescription{Group: g.GroupID, State: vocab.StateDead, Coordinator: c.brokerOrID(broker)})
				case retriable(e):
					r.retry(g.GroupID, e)
				default:
					r.set(g.GroupID, ShareGroupDescription{Group: g.GroupID, Err: e})
				}
			}
			return nil
		},
		missing: noDescription,
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), api, groups)
	if err != nil {
		return nil, err
	}
	for i, e := range errs {
		if e != nil {
			out[i] = ShareGroupDescription{Group: groups[i], Err: e}
		}
	}
	return out, nil
}

func (c *Client) shareGroupDescription(ctx context.Context, broker int32, g *kmsg.ShareGroupDescribeResponseGroup) (ShareGroupDescription, error) {
	d := ShareGroupDescription{
		Group: g.GroupID, Exists: g.GroupState != vocab.StateDead, State: g.GroupState, Assignor: g.Assignor,
		Coordinator: c.brokerOrID(broker), GroupEpoch: g.GroupEpoch, AssignmentEpoch: g.AssignmentEpoch,
	}
	var names map[[16]byte]string
	for _, m := range g.Members {
		mem := ShareMember{MemberID: m.MemberID, RackID: m.RackID, ClientID: m.ClientID, ClientHost: m.ClientHost,
			MemberEpoch: m.MemberEpoch, Subscribed: slices.Sorted(slices.Values(m.SubscribedTopicNames))}
		for _, tp := range m.Assignment.TopicPartitions {
			name := tp.Topic
			if name == "" {
				if names == nil {
					ts, err := c.Topics(ctx, nil)
					if err != nil {
						return d, err
					}
					names = map[[16]byte]string{}
					for n, t := range ts {
						names[t.ID] = n
					}
				}
				name = names[tp.TopicID]
			}
			mem.Assignment = append(mem.Assignment, TopicPartitions{Topic: name, Partitions: slices.Sorted(slices.Values(tp.Partitions))})
		}
		slices.SortFunc(mem.Assignment, func(a, b TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
		d.Members = append(d.Members, mem)
	}
	slices.SortFunc(d.Members, func(a, b ShareMember) int { return cmp.Compare(a.MemberID, b.MemberID) })
	return d, nil
}

// ShareGroupStartOffsets reads every share-partition start offset of
// groups (DescribeShareGroupOffsets with all topics), in the order given.
func (c *Client) ShareGroupStartOffsets(ctx context.Context, groups []string) ([]ShareGroupOffsets, error) {
	v, err := c.sharePick(ctx, kmsg.NewPtrDescribeShareGroupOffsetsRequest(), 1, "DescribeShareGroupOffsets")
	if err != nil {
		return nil, err
	}
	api := &sharded[string, ShareGroupOffsets]{
		split: describeGroupBatches,
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrDescribeShareGroupOffsetsRequest()
			req.Version = v
			for _, g := range batch {
				// Topics nil (null): every topic-partition of the group.
				req.Groups = append(req.Groups, kmsg.DescribeShareGroupOffsetsRequestGroup{GroupID: g})
			}
			return req
		},
		decode: func(_ context.Context, _ int32, _ []string, resp kmsg.Response, r *reply[string, ShareGroupOffsets]) error {
			for _, g := range resp.(*kmsg.DescribeShareGroupOffsetsResponse).Groups {
				e := kerr("DescribeShareGroupOffsets", "group "+g.GroupID, g.ErrorCode, g.ErrorMessage)
				switch {
				case e == nil:
					r.set(g.GroupID, shareOffsetsOf(v, g))
				case errors.Is(e, kafka.GroupIdNotFound):
					r.set(g.GroupID, ShareGroupOffsets{Group: g.GroupID, Offsets: map[TopicPartition]ShareOffset{}})
				case retriable(e):
					r.retry(g.GroupID, e)
				default:
					r.set(g.GroupID, ShareGroupOffsets{Group: g.GroupID, Err: e})
				}
			}
			return nil
		},
		missing: func(g string) error { return fmt.Errorf("group %s: no share offsets returned", g) },
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), api, groups)
	if err != nil {
		return nil, err
	}
	for i, e := range errs {
		if e != nil {
			out[i] = ShareGroupOffsets{Group: groups[i], Err: e}
		}
	}
	return out, nil
}

func shareOffsetsOf(v int16, g kmsg.DescribeShareGroupOffsetsResponseGroup) ShareGroupOffsets {
	o := ShareGroupOffsets{Group: g.GroupID, Offsets: map[TopicPartition]ShareOffset{}, Invalid: map[TopicPartition]error{}}
	for _, t := range g.Topics {
		for _, p := range t.Partitions {
			tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
			if e := kerr("DescribeShareGroupOffsets", tp.String(), p.ErrorCode, p.ErrorMessage); e != nil {
				o.Invalid[tp] = e
				continue
			}
			// -1: the share-partition is not initialised.
			if p.StartOffset < 0 {
				o.Uninitialized = append(o.Uninitialized, tp)
				continue
			}
			so := ShareOffset{StartOffset: p.StartOffset, LeaderEpoch: p.LeaderEpoch}
			if v >= 1 && p.Lag >= 0 {
				lag := p.Lag
				so.Lag = &lag
			}
			o.Offsets[tp] = so
		}
	}
	return o
}

// AlterShareGroupStartOffsets sets group's share-partition start offsets
// (AlterShareGroupOffsets; the broker accepts it only for an Empty group).
// It returns each partition's error (nil: altered); the error is set for
// the whole request (a group-level error applies to every partition).
func (c *Client) AlterShareGroupStartOffsets(ctx context.Context, group string, offsets map[TopicPartition]int64) (map[TopicPartition]error, error) {
	v, err := c.sharePick(ctx, kmsg.NewPtrAlterShareGroupOffsetsRequest(), 0, "AlterShareGroupOffsets")
	if err != nil {
		return nil, err
	}
	tps := make([]TopicPartition, 0, len(offsets))
	for tp := range offsets {
		tps = append(tps, tp)
	}
	tps = vocab.SortedPartitions(tps)
	api := &sharded[string, map[TopicPartition]error]{
		request: func([]string) kmsg.Request {
			req := kmsg.NewPtrAlterShareGroupOffsetsRequest()
			req.Version = v
			req.GroupID = group
			for _, tp := range tps {
				if n := len(req.Topics); n == 0 || req.Topics[n-1].Topic != tp.Topic {
					req.Topics = append(req.Topics, kmsg.AlterShareGroupOffsetsRequestTopic{Topic: tp.Topic})
				}
				t := &req.Topics[len(req.Topics)-1]
				t.Partitions = append(t.Partitions, kmsg.AlterShareGroupOffsetsRequestTopicPartition{Partition: tp.Partition, StartOffset: offsets[tp]})
			}
			return req
		},
		decode: func(_ context.Context, _ int32, _ []string, resp kmsg.Response, r *reply[string, map[TopicPartition]error]) error {
			res := resp.(*kmsg.AlterShareGroupOffsetsResponse)
			out := map[TopicPartition]error{}
			ge := kerr("AlterShareGroupOffsets", "group "+group, res.ErrorCode, res.ErrorMessage)
			if ge != nil && retriable(ge) {
				r.retry(group, ge)
				return nil
			}
			for _, tp := range tps {
				out[tp] = ge
			}
			for _, t := range res.Topics {
				for _, p := range t.Partitions {
					tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
					if e := kerr("AlterShareGroupOffsets", tp.String(), p.ErrorCode, p.ErrorMessage); e != nil || ge == nil {
						out[tp] = e
					}
				}
			}
			r.set(group, out)
			return nil
		},
		missing: func(g string) error { return fmt.Errorf("group %s: AlterShareGroupOffsets answered nothing", g) },
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), api, []string{group})
	if err != nil {
		return nil, err
	}
	if errs[0] != nil {
		return nil, errs[0]
	}
	return out[0], nil
}

// DeleteShareGroupStartOffsets deletes group's share-partition state of
// whole topics (DeleteShareGroupOffsets; Empty groups only). It returns
// each topic's error (nil: deleted); a group-level error is the error.
func (c *Client) DeleteShareGroupStartOffsets(ctx context.Context, group string, topics []string) (map[string]error, error) {
	v, err := c.sharePick(ctx, kmsg.NewPtrDeleteShareGroupOffsetsRequest(), 0, "DeleteShareGroupOffsets")
	if err != nil {
		return nil, err
	}
	api := &sharded[string, map[string]error]{
		request: func([]string) kmsg.Request {
			req := kmsg.NewPtrDeleteShareGroupOffsetsRequest()
			req.Version = v
			req.GroupID = group
			for _, t := range topics {
				req.Topics = append(req.Topics, kmsg.DeleteShareGroupOffsetsRequestTopic{Topic: t})
			}
			return req
		},
		decode: func(_ context.Context, _ int32, _ []string, resp kmsg.Response, r *reply[string, map[string]error]) error {
			res := resp.(*kmsg.DeleteShareGroupOffsetsResponse)
			if ge := kerr("DeleteShareGroupOffsets", "group "+group, res.ErrorCode, res.ErrorMessage); ge != nil {
				if retriable(ge) {
					r.retry(group, ge)
				} else {
					r.fail(group, ge)
				}
				return nil
			}
			out := map[string]error{}
			for _, t := range res.Topics {
				out[t.Topic] = kerr("DeleteShareGroupOffsets", "topic "+t.Topic, t.ErrorCode, t.ErrorMessage)
			}
			r.set(group, out)
			return nil
		},
		missing: func(g string) error { return fmt.Errorf("group %s: DeleteShareGroupOffsets answered nothing", g) },
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), api, []string{group})
	if err != nil {
		return nil, err
	}
	if errs[0] != nil {
		return nil, errs[0]
	}
	return out[0], nil
}

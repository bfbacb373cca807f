package commands

import (
	"context"
	"fmt"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

// clusterLookup is resetplan.Lookup over the admin client: each method is
// one batched phase (ListOffsets per leader), whatever the number of
// groups.
type clusterLookup struct{ cl *kafkaadmin.Client }

func toAdminTPs(tps []resetplan.TopicPartition) []kafkaadmin.TopicPartition {
	out := make([]kafkaadmin.TopicPartition, len(tps))
	for i, tp := range tps {
		out[i] = kafkaadmin.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
	}
	return out
}

// Partitions leaves topics that do not exist out of the map, so Build can
// name every missing partition at once.
func (l clusterLookup) Partitions(ctx context.Context, topics []string) (map[string][]int32, error) {
	ts, err := l.cl.Topics(ctx, topics)
	if err != nil {
		return nil, err
	}
	out := map[string][]int32{}
	for name, t := range ts {
		if t.Err != nil {
			if _, unknown := t.Err.(*kafkaadmin.UnknownTopicError); unknown {
				continue
			}
			return nil, t.Err
		}
		for _, p := range t.Partitions {
			out[name] = append(out[name], p.Partition)
		}
	}
	return out, nil
}

func (l clusterLookup) list(ctx context.Context, tps []resetplan.TopicPartition, spec int64, what string) (map[resetplan.TopicPartition]kafkaadmin.ListedOffset, error) {
	res, err := l.cl.ListOffsets(ctx, toAdminTPs(tps), spec)
	if err != nil {
		return nil, err
	}
	out := make(map[resetplan.TopicPartition]kafkaadmin.ListedOffset, len(res))
	for _, tp := range tps {
		r := res[kafkaadmin.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}]
		if r.Err != nil {
			return nil, fmt.Errorf("getting the %s offset of %s/%d: %w", what, tp.Topic, tp.Partition, r.Err)
		}
		out[tp] = r
	}
	return out, nil
}

// offsets is StartOffsets and EndOffsets: one ListOffsets phase for spec.
func (l clusterLookup) offsets(ctx context.Context, tps []resetplan.TopicPartition, spec int64, what string) (map[resetplan.TopicPartition]int64, error) {
	res, err := l.list(ctx, tps, spec, what)
	if err != nil {
		return nil, err
	}
	out := make(map[resetplan.TopicPartition]int64, len(res))
	for tp, r := range res {
		out[tp] = r.Offset
	}
	return out, nil
}

func (l clusterLookup) StartOffsets(ctx context.Context, tps []resetplan.TopicPartition) (map[resetplan.TopicPartition]int64, error) {
	return l.offsets(ctx, tps, kafkaadmin.Earliest, "log start")
}

func (l clusterLookup) EndOffsets(ctx context.Context, tps []resetplan.TopicPartition) (map[resetplan.TopicPartition]int64, error) {
	return l.offsets(ctx, tps, kafkaadmin.Latest, "log end")
}

func (l clusterLookup) OffsetsForTime(ctx context.Context, tps []resetplan.TopicPartition, ms int64) (map[resetplan.TopicPartition]resetplan.TimeOffset, error) {
	res, err := l.list(ctx, tps, ms, "by-time")
	if err != nil {
		return nil, err
	}
	out := make(map[resetplan.TopicPartition]resetplan.TimeOffset, len(res))
	for tp, r := range res {
		out[tp] = resetplan.TimeOffset{Offset: r.Offset, Timestamp: r.Timestamp, Found: r.Found}
	}
	return out, nil
}

// groupSnapshots gathers the plan-time view of groups: type, state,
// members and committed offsets (one describe and one offset-fetch phase).
// A group that cannot be described fails the whole plan: a plan must not
// silently leave out a group the operator named.
func groupSnapshots(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]resetplan.GroupSnapshot, error) {
	descs, err := cl.DescribeGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	offs, err := cl.FetchOffsets(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make([]resetplan.GroupSnapshot, 0, len(groups))
	for i, g := range groups {
		d := descs[i]
		if d.Err != nil {
			return nil, fmt.Errorf("group %s: %w", g, d.Err)
		}
		if offs[i].Err != nil {
			return nil, fmt.Errorf("group %s: %w", g, offs[i].Err)
		}
		snap := resetplan.GroupSnapshot{Group: g, Type: d.Type, State: d.State, Members: len(d.Members), Committed: map[resetplan.TopicPartition]int64{}}
		if !d.Exists {
			// A group that does not exist yet can be planned: apply
			// creates its offsets, as the Java tool's --execute does.
			snap.State = "Dead"
			if snap.Type == "" {
				snap.Type = kafkaadmin.TypeClassic
			}
		}
		for tp, c := range offs[i].Offsets {
			snap.Committed[resetplan.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}] = c.Offset
		}
		for _, tp := range offs[i].Invalid {
			snap.Uncommitted = append(snap.Uncommitted, resetplan.TopicPartition{Topic: tp.Topic, Partition: tp.Partition})
		}
		out = append(out, snap)
	}
	return out, nil
}

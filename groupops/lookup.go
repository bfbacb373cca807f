package groupops

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// Lookup is resetplan.Lookup over the admin client: each method is one
// batched phase (ListOffsets per leader), whatever the number of groups.
type Lookup struct{ Client *kafkaadmin.Client }

var _ resetplan.Lookup = Lookup{}

// Partitions leaves topics that do not exist out of the map, so Build can
// name every missing partition at once.
func (l Lookup) Partitions(ctx context.Context, topics []string) (map[string][]int32, error) {
	ts, err := l.Client.Topics(ctx, topics)
	if err != nil {
		return nil, err
	}
	return partitionsOf(ts, topics)
}

// partitionsOf is Partitions' answer for topics from ts, a Metadata
// answer that described each of them.
func partitionsOf(ts map[string]kafkaadmin.TopicInfo, topics []string) (map[string][]int32, error) {
	if topics == nil {
		topics = slices.Sorted(maps.Keys(ts))
	}
	out := map[string][]int32{}
	for _, name := range topics {
		t := ts[name]
		if t.Err != nil {
			var unknown *kafkaadmin.UnknownTopicError
			if errors.As(t.Err, &unknown) {
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

func (l Lookup) list(ctx context.Context, tps []TopicPartition, spec int64, what string) (map[TopicPartition]kafkaadmin.ListedOffset, error) {
	res, err := l.Client.ListOffsets(ctx, tps, spec)
	if err != nil {
		return nil, err
	}
	return checked(res, tps, what)
}

// checked is res, or the error of the first of tps it has one for.
func checked(res map[TopicPartition]kafkaadmin.ListedOffset, tps []TopicPartition, what string) (map[TopicPartition]kafkaadmin.ListedOffset, error) {
	for _, tp := range tps {
		if r := res[tp]; r.Err != nil {
			return nil, fmt.Errorf("getting the %s offset of %s: %w", what, tp, r.Err)
		}
	}
	return res, nil
}

// offsets is StartOffsets and EndOffsets: one ListOffsets phase for spec.
func (l Lookup) offsets(ctx context.Context, tps []TopicPartition, spec int64, what string) (map[TopicPartition]int64, error) {
	res, err := l.list(ctx, tps, spec, what)
	if err != nil {
		return nil, err
	}
	return offsetsOf(res, tps), nil
}

func offsetsOf(res map[TopicPartition]kafkaadmin.ListedOffset, tps []TopicPartition) map[TopicPartition]int64 {
	out := make(map[TopicPartition]int64, len(tps))
	for _, tp := range tps {
		out[tp] = res[tp].Offset
	}
	return out
}

// StartOffsets are the log-start offsets of tps.
func (l Lookup) StartOffsets(ctx context.Context, tps []TopicPartition) (map[TopicPartition]int64, error) {
	return l.offsets(ctx, tps, kafkaadmin.Earliest, "log start")
}

// EndOffsets are the log-end offsets of tps.
func (l Lookup) EndOffsets(ctx context.Context, tps []TopicPartition) (map[TopicPartition]int64, error) {
	return l.offsets(ctx, tps, kafkaadmin.Latest, "log end")
}

// OffsetsForTime is the first offset of each of tps whose timestamp is at
// or after ms.
func (l Lookup) OffsetsForTime(ctx context.Context, tps []TopicPartition, ms int64) (map[TopicPartition]resetplan.TimeOffset, error) {
	res, err := l.list(ctx, tps, ms, "by-time")
	if err != nil {
		return nil, err
	}
	out := make(map[TopicPartition]resetplan.TimeOffset, len(tps))
	for _, tp := range tps {
		r := res[tp]
		out[tp] = resetplan.TimeOffset{Offset: r.Offset, Timestamp: r.Timestamp, Found: r.Found}
	}
	return out, nil
}

// prefetchedLookup is Lookup with the log starts and ends of a plan's
// likely partitions, and their topics' Metadata, read before Build asks
// (prefetchBounds): Build's Partitions, StartOffsets and EndOffsets are
// answered from them when they cover what it asks, and by Lookup when not.
type prefetchedLookup struct {
	Lookup
	topics map[string]kafkaadmin.TopicInfo
	starts map[TopicPartition]kafkaadmin.ListedOffset
	ends   map[TopicPartition]kafkaadmin.ListedOffset
}

// prefetchBounds reads, in one round trip where the client's ListOffsets
// fan-out applies (kafkaadmin/fanout.go), the Metadata of the topics an
// --all-topics plan of groups covers and the log bounds of those
// partitions; Build then checks the topics and reads the bounds from it,
// where it asked for the Metadata and only then for the bounds. nil when
// the fan-out does not apply or failed: Lookup then asks as before, and
// meets any error itself, so a plan's results and errors stay Lookup's.
func prefetchBounds(ctx context.Context, cl *kafkaadmin.Client, groups []resetplan.GroupSnapshot, r PlanRequest) resetplan.Lookup {
	if !r.Scope.AllTopics || r.Strategy.Type == resetplan.StrategyFromFile || r.Strategy.Type == resetplan.StrategyTranslateFrom {
		return nil
	}
	var tps []TopicPartition
	for _, g := range groups {
		for tp := range g.Committed {
			tps = append(tps, tp)
		}
		tps = append(tps, g.Uncommitted...)
	}
	qs := []kafkaadmin.OffsetQuery{{Spec: kafkaadmin.Earliest}, {Spec: kafkaadmin.Latest}}
	topics, got, ok, err := cl.ListOffsetsAndTopics(ctx, vocab.SortedPartitions(tps), qs)
	if !ok || err != nil {
		return nil
	}
	return prefetchedLookup{Lookup: Lookup{cl}, topics: topics, starts: got[0], ends: got[1]}
}

func (p prefetchedLookup) Partitions(ctx context.Context, topics []string) (map[string][]int32, error) {
	for _, t := range topics {
		if _, ok := p.topics[t]; !ok {
			return p.Lookup.Partitions(ctx, topics)
		}
	}
	return partitionsOf(p.topics, topics)
}

// bounds answers tps from res, or says it does not cover them all.
func (p prefetchedLookup) bounds(res map[TopicPartition]kafkaadmin.ListedOffset, tps []TopicPartition, what string) (map[TopicPartition]int64, bool, error) {
	for _, tp := range tps {
		if _, ok := res[tp]; !ok {
			return nil, false, nil
		}
	}
	if _, err := checked(res, tps, what); err != nil {
		return nil, true, err
	}
	return offsetsOf(res, tps), true, nil
}

func (p prefetchedLookup) StartOffsets(ctx context.Context, tps []TopicPartition) (map[TopicPartition]int64, error) {
	if out, ok, err := p.bounds(p.starts, tps, "log start"); ok {
		return out, err
	}
	return p.Lookup.StartOffsets(ctx, tps)
}

func (p prefetchedLookup) EndOffsets(ctx context.Context, tps []TopicPartition) (map[TopicPartition]int64, error) {
	if out, ok, err := p.bounds(p.ends, tps, "log end"); ok {
		return out, err
	}
	return p.Lookup.EndOffsets(ctx, tps)
}

package groupops

import (
	"context"
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
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
	out := map[string][]int32{}
	for name, t := range ts {
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
	out := make(map[TopicPartition]int64, len(res))
	for _, tp := range tps {
		out[tp] = res[tp].Offset
	}
	return out, nil
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

package groupops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kcg-dev/kcg/internal/mm2"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

// CheckpointsTopicMissingError is a --translate-from whose checkpoints
// topic the cluster does not have (exit 3): the wrong cluster (it must be
// the target), the wrong alias, or no MirrorMaker 2 checkpoint connector.
type CheckpointsTopicMissingError struct{ Topic string }

func (e *CheckpointsTopicMissingError) Error() string {
	return fmt.Sprintf("checkpoints topic %s does not exist on this cluster: run kcg against the target cluster of MirrorMaker 2, check the alias (or give --checkpoints-topic for a custom replication policy), and that emit.checkpoints.enabled is on; no plan was written", e.Topic)
}

// CheckpointRecordError is a record of the checkpoints topic kcg cannot
// decode, or of a version it does not know (bad input, exit 65).
type CheckpointRecordError struct{ Err *mm2.RecordError }

func (e *CheckpointRecordError) Error() string {
	return e.Err.Error() + "; no plan was written"
}

func (e *CheckpointRecordError) Unwrap() error { return e.Err }

// ReadCheckpoints reads MirrorMaker 2's checkpoints topic on the target
// cluster whole: every partition from its log start to its end (the last
// stable offset) as taken before the read, so checkpoints written during
// the read are not waited for. It returns, per group and (remote)
// partition, the newest checkpoint as compaction keeps it (mm2.Collect).
func ReadCheckpoints(ctx context.Context, cl *kafkaadmin.Client, topic string) (map[string]map[TopicPartition]resetplan.Checkpoint, error) {
	ts, err := cl.Topics(ctx, []string{topic})
	if err != nil {
		return nil, err
	}
	t, ok := ts[topic]
	var unknown *kafkaadmin.UnknownTopicError
	if !ok || errors.As(t.Err, &unknown) {
		return nil, &CheckpointsTopicMissingError{Topic: topic}
	}
	if t.Err != nil {
		return nil, fmt.Errorf("checkpoints topic %s: %w", topic, t.Err)
	}
	tps := make([]TopicPartition, 0, len(t.Partitions))
	for _, p := range t.Partitions {
		tps = append(tps, TopicPartition{Topic: topic, Partition: p.Partition})
	}
	l := Lookup{cl}
	starts, err := l.StartOffsets(ctx, tps)
	if err != nil {
		return nil, err
	}
	ends, err := cl.ListOffsetsIsolated(ctx, tps, kafkaadmin.Latest, kafkaadmin.ReadCommitted)
	if err != nil {
		return nil, err
	}
	to := make(map[TopicPartition]int64, len(tps))
	for _, tp := range tps {
		if ends[tp].Err != nil {
			return nil, fmt.Errorf("getting the end offset of %s: %w", tp, ends[tp].Err)
		}
		to[tp] = ends[tp].Offset
	}
	byPart, err := cl.ReadRange(ctx, starts, to)
	if err != nil {
		return nil, fmt.Errorf("reading checkpoints topic %s: %w", topic, err)
	}
	var recs []mm2.Record
	for _, tp := range tps {
		for _, r := range byPart[tp] {
			recs = append(recs, mm2.Record{Partition: tp.Partition, Offset: r.Offset, Timestamp: r.Timestamp, Key: r.Key, Value: r.Value})
		}
	}
	cps, err := mm2.Collect(topic, recs)
	var re *mm2.RecordError
	if errors.As(err, &re) {
		return nil, &CheckpointRecordError{Err: re}
	}
	if err != nil {
		return nil, err
	}
	out := map[string]map[TopicPartition]resetplan.Checkpoint{}
	for k, c := range cps {
		g := out[k.Group]
		if g == nil {
			g = map[TopicPartition]resetplan.Checkpoint{}
			out[k.Group] = g
		}
		g[TopicPartition{Topic: k.Topic, Partition: k.Partition}] = resetplan.Checkpoint{
			Upstream: c.Upstream, Downstream: c.Downstream, Time: time.UnixMilli(c.Timestamp).UTC()}
	}
	return out, nil
}

package groupops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/groupops/mm2"
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

// SourcePosition is the source cluster's side of one partition of a
// translate-from plan, for kcg show.
type SourcePosition struct {
	// SourceTopic is the topic's name on the source: the plan's remote
	// topic less "ALIAS." (DefaultReplicationPolicy), or the same name
	// (IdentityReplicationPolicy).
	SourceTopic string
	// Committed is the source group's committed offset there; nil: none.
	Committed *int64
	// Span is the time from the record at the checkpoint's upstream offset
	// to the last record before Committed (the records consumed twice);
	// nil when unknown or when there are none.
	Span *time.Duration
	Err  error
}

// SourceTopic is a remote topic's name on the source cluster.
func SourceTopic(alias, remote string) string {
	if rest, ok := strings.CutPrefix(remote, alias+"."); ok && rest != "" {
		return rest
	}
	return remote
}

// ReadSourcePositions reads, on the source cluster cl of a translate-from
// plan, each group's committed offsets (one describe and offset-fetch
// phase) and the timestamps bounding the records committed past each
// checkpoint (one Fetch phase, as the time lags of describe).
func ReadSourcePositions(ctx context.Context, cl *kafkaadmin.Client, p *resetplan.Plan) (map[string]map[TopicPartition]SourcePosition, error) {
	names := make([]string, len(p.Groups))
	for i, g := range p.Groups {
		names[i] = g.Group
	}
	gs, err := ReadGroups(ctx, cl, names)
	if err != nil {
		return nil, err
	}
	out := map[string]map[TopicPartition]SourcePosition{}
	var queries []kafkaadmin.RecordAt
	for i, g := range p.Groups {
		m := map[TopicPartition]SourcePosition{}
		out[g.Group] = m
		for _, pt := range g.Partitions {
			src := TopicPartition{Topic: SourceTopic(p.Strategy.Alias, pt.Topic), Partition: pt.Partition}
			sp := SourcePosition{SourceTopic: src.Topic, Err: gs[i].Err}
			if c, ok := gs[i].Offsets[src]; ok && sp.Err == nil {
				sp.Committed = &c.Offset
				if pt.Upstream != nil && c.Offset > *pt.Upstream {
					queries = append(queries, kafkaadmin.RecordAt{TP: src, Offset: *pt.Upstream}, kafkaadmin.RecordAt{TP: src, Offset: c.Offset - 1})
				}
			}
			m[pt.TP()] = sp
		}
	}
	times, err := cl.RecordTimes(ctx, queries)
	if err != nil {
		return nil, err
	}
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			sp := out[g.Group][pt.TP()]
			if sp.Committed == nil || pt.Upstream == nil || *sp.Committed <= *pt.Upstream {
				continue
			}
			src := TopicPartition{Topic: sp.SourceTopic, Partition: pt.Partition}
			from, to := times[kafkaadmin.RecordAt{TP: src, Offset: *pt.Upstream}], times[kafkaadmin.RecordAt{TP: src, Offset: *sp.Committed - 1}]
			if from.Found && to.Found && from.Err == nil && to.Err == nil {
				d := time.Duration(to.Timestamp-from.Timestamp) * time.Millisecond
				sp.Span = &d
				out[g.Group][pt.TP()] = sp
			}
		}
	}
	return out, nil
}

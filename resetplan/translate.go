package resetplan

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kcg-dev/kcg/vocab"
)

// The --translate-from steps of Build (docs/plan-format.md, "translate-from").

// Warning kinds of --translate-from.
const (
	// WarnCheckpointOld: the group's newest checkpoint is older than
	// --max-checkpoint-age: MM2 may be down or lagging, and the group
	// will re-process what it consumed since.
	WarnCheckpointOld WarningKind = "checkpoint-old"
	// WarnRewind: the group has already committed on the target past its
	// translation; the plan moves it back (it re-processes the gap).
	WarnRewind WarningKind = "rewind"
	// WarnNoCheckpoint: the group has committed on the target on
	// partitions without a checkpoint; the plan leaves them as they are.
	WarnNoCheckpoint WarningKind = "no-checkpoint"
	// WarnCheckpointNoPartition: a checkpoint names a partition the
	// target cluster does not have; it is left out of the plan.
	WarnCheckpointNoPartition WarningKind = "checkpoint-no-partition"
)

// checkpointTopics are the topics of the groups' checkpoints, for the one
// Partitions call.
func checkpointTopics(st StrategySpec, groups []GroupSnapshot, topics map[string]bool) {
	for _, g := range groups {
		for tp := range st.Checkpoints[g.Group] {
			topics[tp.Topic] = true
		}
	}
}

// checkpointPartitions is a group's part of a --translate-from plan: the
// partitions it has checkpoints for, narrowed by --topic when given
// (--all-topics, or no scope, is all of them), and only those the target
// has.
func checkpointPartitions(req Request, g GroupSnapshot, existing topicPartitions) ([]TopicPartition, []Warning) {
	var tps []TopicPartition
	var warnings []Warning
	for _, tp := range vocab.SortedPartitions(slices.Collect(maps.Keys(req.Strategy.Checkpoints[g.Group]))) {
		if !InScope(req.Scope, tp) {
			continue
		}
		if !existing.has(tp) {
			warnings = append(warnings, Warning{Kind: WarnCheckpointNoPartition, Group: g.Group, Topic: tp.Topic, Partition: tp.Partition,
				Message: fmt.Sprintf("group %s has a checkpoint for %s, which the target cluster does not have; it is left out of the plan", g.Group, tp.KafkaName())})
			continue
		}
		tps = append(tps, tp)
	}
	return tps, warnings
}

// InScope reports whether a translate-from plan with scope s covers tp:
// no scope and --all-topics cover every checkpointed partition, --topic
// those it names.
func InScope(s Scope, tp TopicPartition) bool {
	return s.AllTopics || len(s.Topics) == 0 || inTopicScope(s.Topics, tp)
}

func inTopicScope(specs []TopicSpec, tp TopicPartition) bool {
	for _, ts := range specs {
		if ts.Topic == tp.Topic && (ts.Partitions == nil || slices.Contains(ts.Partitions, tp.Partition)) {
			return true
		}
	}
	return false
}

// requireCheckpoints refuses a --translate-from plan in which a group has
// no checkpoint in scope, naming every such group.
func requireCheckpoints(req Request, groups []GroupSnapshot, perGroup [][]TopicPartition) error {
	var missing []string
	for i, g := range groups {
		if len(perGroup[i]) == 0 {
			missing = append(missing, g.Group)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &NoCheckpointError{Topic: req.Strategy.CheckpointsTopic, Groups: missing}
}

// translateWarnings are the failover reviewer's warnings for one planned
// group: checkpoints older than the limit (one per group, the oldest),
// commits on the target ahead of the translation (rewinds), and target
// commits on partitions without a checkpoint.
func translateWarnings(st StrategySpec, g GroupSnapshot, pg Group, now time.Time) []Warning {
	var ws []Warning
	var oldest time.Time
	var rewinds, uncovered []TopicPartition
	planned := map[TopicPartition]bool{}
	for _, p := range pg.Partitions {
		planned[p.TP()] = true
		if oldest.IsZero() || p.CheckpointTime.Before(oldest) {
			oldest = p.CheckpointTime
		}
		if p.Current != nil && p.Target != nil && *p.Current > *p.Target {
			rewinds = append(rewinds, p.TP())
		}
	}
	if age := now.Sub(oldest); st.MaxCheckpointAge > 0 && !oldest.IsZero() && age > st.MaxCheckpointAge {
		ws = append(ws, Warning{Kind: WarnCheckpointOld, Group: g.Group,
			Message: fmt.Sprintf("group %s: its oldest checkpoint is %s old (written %s), older than --max-checkpoint-age %s: MirrorMaker 2 may be down or behind, and the group will re-process what it consumed since",
				g.Group, age.Truncate(time.Second), formatTime(oldest), st.MaxCheckpointAge)})
	}
	if len(rewinds) > 0 {
		ws = append(ws, Warning{Kind: WarnRewind, Group: g.Group, partitions: rewinds,
			Message: fmt.Sprintf("group %s has already committed on the target past its translation on %s: the plan moves it back (those records are consumed again)", g.Group, partitionNames(rewinds))})
	}
	for tp := range g.Committed {
		if !planned[tp] {
			uncovered = append(uncovered, tp)
		}
	}
	if len(uncovered) > 0 {
		uncovered = vocab.SortedPartitions(uncovered)
		ws = append(ws, Warning{Kind: WarnNoCheckpoint, Group: g.Group, partitions: uncovered,
			Message: fmt.Sprintf("group %s has committed on the target on %s, which have no checkpoint: the plan leaves them as they are", g.Group, partitionNames(uncovered))})
	}
	return ws
}

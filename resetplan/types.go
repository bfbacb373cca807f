package resetplan

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/kcg-dev/kcg/vocab"
)

// APIVersion is the plan file's schema version. Additive fields keep v1; a
// change that alters the meaning of an existing field bumps the major.
const APIVersion = "kcg/v1"

// Kind identifies a plan file among kcg's documents.
const Kind = "OffsetResetPlan"

// TopicPartition names one partition. It is the vocabulary's type, so
// every layer shares one name for a partition. Its String is kcg's
// "topic/partition"; this package's messages follow the Java tool and use
// KafkaName's "topic-partition".
type TopicPartition = vocab.TopicPartition

// Lookup is what planning needs from the cluster. The commands layer
// implements it over kafkaadmin; tests use a fake. Build calls each method
// at most once per plan, with every partition of every group, so an
// implementation should batch (one ListOffsets per broker, not per group).
// Build asks StartOffsets, EndOffsets and OffsetsForTime at the same time:
// an implementation is safe for concurrent use.
type Lookup interface {
	// Partitions returns the partition numbers of each topic. A topic that
	// does not exist is left out of the map (preferred: Build then names
	// every missing partition at once), or reported as an error wrapping
	// ErrUnknownTopic.
	Partitions(ctx context.Context, topics []string) (map[string][]int32, error)
	// StartOffsets returns each partition's log start offset (ListOffsets
	// EARLIEST).
	StartOffsets(ctx context.Context, tps []TopicPartition) (map[TopicPartition]int64, error)
	// EndOffsets returns each partition's log end offset (ListOffsets
	// LATEST, the high watermark, as the Java tool uses).
	EndOffsets(ctx context.Context, tps []TopicPartition) (map[TopicPartition]int64, error)
	// OffsetsForTime returns, per partition, the first offset whose record
	// timestamp is >= ms; Found is false when there is no such record
	// (Kafka answers -1).
	OffsetsForTime(ctx context.Context, tps []TopicPartition, ms int64) (map[TopicPartition]TimeOffset, error)
}

// TimeOffset is one partition's answer to a ListOffsets-by-timestamp.
type TimeOffset struct {
	Offset    int64
	Timestamp int64
	// Found is false when no record has a timestamp >= the one asked for.
	Found bool
}

// GroupSnapshot is a consumer group as seen at plan time, gathered by the
// commands layer. Committed holds only partitions with a committed offset:
// an absent key means "no commit", which several strategies treat
// specially.
type GroupSnapshot struct {
	Group string
	// Type is the group type as Kafka names it (vocab.TypeClassic,
	// vocab.TypeConsumer).
	Type string
	// State is Kafka's group state (vocab.StateEmpty, vocab.StateStable,
	// ...). A group that does not exist yet is vocab.StateDead (what
	// pre-4.0 brokers report), or "".
	State     string
	Members   int
	Committed map[TopicPartition]int64
	// Uncommitted are partitions the group's offsets list without a usable
	// offset (a committed -1, which clients read as "no commit"). They are
	// in --all-topics' scope, as in the Java tool, whose admin client keeps
	// them as keys with a null offset; they have no current offset.
	Uncommitted []TopicPartition
	// InputTopics, when set (a streams group whose topology is known),
	// are the only topics --all-topics covers: the topology's input
	// topics, as kafka-streams-groups --all-input-topics; the group's
	// commits on its repartition topics are left alone.
	InputTopics []string
}

// allTopicsScope returns the partitions --all-topics covers for the group:
// those with a committed offset and those listed with none.
func (g GroupSnapshot) allTopicsScope() []TopicPartition {
	out := make([]TopicPartition, 0, len(g.Committed)+len(g.Uncommitted))
	for tp := range g.Committed {
		out = append(out, tp)
	}
	for _, tp := range g.Uncommitted {
		if _, dup := g.Committed[tp]; !dup {
			out = append(out, tp)
		}
	}
	if g.InputTopics != nil {
		out = slices.DeleteFunc(out, func(tp TopicPartition) bool { return !slices.Contains(g.InputTopics, tp.Topic) })
	}
	vocab.SortPartitions(out)
	return out
}

// Inactive reports whether the group may be reset: the Java tool's rule
// (state Empty or Dead, or the group does not exist) plus no members, which
// is the same thing for classic and consumer-protocol groups. Planning an
// active group is allowed (Build warns); apply refuses it.
func (g GroupSnapshot) Inactive() bool {
	return vocab.MayReset(g.State) && g.Members == 0
}

// Plan is an offset-reset plan: the file `kcg plan` writes and `kcg apply`
// executes. Every target is already resolved, so apply never re-resolves
// "latest" or a timestamp. Encode and Decode give it its file form; Digest
// its identity.
type Plan struct {
	// APIVersion is "kcg/v1"; Kind is "OffsetResetPlan". Both are checked on
	// decode so a script can tell what it reads.
	APIVersion string
	Kind       string
	// CreatedAt is when the plan was made (UTC, whole seconds from Build).
	CreatedAt time.Time
	// CreatedBy names the tool that made the plan, e.g. "kcg 0.1.0".
	CreatedBy string
	Cluster   Cluster
	Strategy  Strategy
	// Annotations are the change-ticket fields; nil when none were given.
	Annotations *Annotations
	// Connector is the Kafka Connect sink connector whose group the plan
	// resets (plan --connector); nil for every other plan.
	Connector *Connector
	// Groups is sorted by group id; each group's partitions by (topic,
	// partition).
	Groups []Group
}

// Cluster identifies the cluster a plan was made against; apply refuses a
// plan whose ID differs from the live cluster's.
type Cluster struct {
	ID        string
	Bootstrap string
}

// Annotations travel from --ticket/--note into the offset-commit metadata
// on apply, so the change is visible on the group itself.
type Annotations struct {
	Ticket string
	Note   string
}

// IsZero reports whether no annotation is set; such annotations are not
// written to the file.
func (a *Annotations) IsZero() bool { return a == nil || (a.Ticket == "" && a.Note == "") }

// StrategyType names a reset strategy; the values are the Java tool's
// option names without the dashes.
type StrategyType string

// The strategies. StrategyRollback is kcg's own: the plan that undoes an
// applied plan (see Rollback).
const (
	StrategyToEarliest StrategyType = "to-earliest"
	StrategyToLatest   StrategyType = "to-latest"
	StrategyToCurrent  StrategyType = "to-current"
	StrategyToOffset   StrategyType = "to-offset"
	StrategyShiftBy    StrategyType = "shift-by"
	StrategyToDatetime StrategyType = "to-datetime"
	StrategyByDuration StrategyType = "by-duration"
	StrategyFromFile   StrategyType = "from-file"
	// StrategyToGroup is kcg's own: another group's committed offsets.
	StrategyToGroup StrategyType = "to-group"
	// StrategyTranslateFrom is kcg's own: MirrorMaker 2's checkpoints
	// (the downstream offsets of <alias>.checkpoints.internal), run
	// against the target cluster to fail consumers over.
	StrategyTranslateFrom StrategyType = "translate-from"
	StrategyRollback      StrategyType = "rollback"
	// StrategyDeleteGroup is kcg's own: delete the groups (DeleteGroups).
	// Every partition lists the committed offset that goes with the group,
	// target null (delete the offset), reason delete-offset.
	StrategyDeleteGroup StrategyType = "delete-group"
	// StrategyDeleteOffsets is kcg's own: delete the committed offsets of
	// the scoped partitions (OffsetDelete), entries as for delete-group.
	StrategyDeleteOffsets StrategyType = "delete-offsets"
)

// strategyTypes lists the types a user can ask for, in the Java tool's
// order of checking, then kcg's own to-group; rollback is produced, never
// typed.
var strategyTypes = []StrategyType{
	StrategyToOffset, StrategyToDatetime, StrategyByDuration, StrategyToEarliest,
	StrategyToLatest, StrategyToCurrent, StrategyShiftBy, StrategyFromFile,
	StrategyToGroup, StrategyTranslateFrom,
}

func knownStrategy(t StrategyType) bool {
	return t == StrategyRollback || t.IsDelete() || slices.Contains(strategyTypes, t)
}

// IsDelete reports whether t is one of the delete plans (delete-group,
// delete-offsets): every entry deletes an offset, none commits one.
func (t StrategyType) IsDelete() bool {
	return t == StrategyDeleteGroup || t == StrategyDeleteOffsets
}

// Strategy records how the targets were chosen: the type and the one
// parameter that type takes. It is for the reviewer; apply uses only the
// resolved targets.
type Strategy struct {
	Type StrategyType
	// Offset is --to-offset's N.
	Offset *int64
	// ShiftBy is --shift-by's N.
	ShiftBy *int64
	// Datetime is --to-datetime's resolved instant (millisecond precision,
	// the value sent to ListOffsets).
	Datetime time.Time
	// Duration is --by-duration's value as typed; ResolvedTime is now-D,
	// the instant sent to ListOffsets.
	Duration     string
	ResolvedTime time.Time
	// File is --from-file's path as given.
	File string
	// RollbackOf is the digest of the plan a rollback plan undoes.
	RollbackOf string
	// Group is --to-group's SOURCE: the group whose commits were copied.
	Group string
	// Alias is --translate-from's ALIAS (the source cluster's alias in
	// MirrorMaker 2) and CheckpointsTopic the topic its checkpoints were
	// read from (ALIAS.checkpoints.internal unless --checkpoints-topic).
	Alias            string
	CheckpointsTopic string
}

// IsNew reports whether g did not exist when p was made: planned with
// --allow-new-group. kcg records a group the cluster does not know as stateAtPlan
// Dead, and Kafka reports no existing group as Dead. A rollback plan's
// groups are never new: the plan it undoes created them. The plan file
// says it as "new: true" (derived, not part of the digest); kcg show and
// kcg diff mark such groups.
func (p *Plan) IsNew(g Group) bool {
	return g.StateAtPlan == vocab.StateDead && p.Strategy.Type != StrategyRollback && !p.Strategy.Type.IsDelete()
}

// Group is one consumer group's part of a plan.
type Group struct {
	Group string
	Type  string
	// StateAtPlan is the group state when the plan was made.
	StateAtPlan string
	Partitions  []Partition
}

// Partition is one partition's planned reset.
type Partition struct {
	Topic     string
	Partition int32
	// Current is the committed offset at plan time; nil: no commit. Apply
	// refuses the plan (stale) if the live commit differs.
	Current *int64
	// Target is what apply commits. nil means "delete the offset", always
	// with reason delete-offset: in a rollback plan, the partition had no
	// commit before the applied plan; in a delete-group or delete-offsets
	// plan, every entry (Current is then the offset that is lost).
	Target *int64
	// LogStart and LogEnd are the log bounds at plan time.
	LogStart int64
	LogEnd   int64
	Reason   Reason
	// Upstream and CheckpointTime are set in translate-from plans only:
	// the checkpoint's upstream offset (the group's commit on the source
	// cluster) and the checkpoint record's timestamp, so a reviewer sees
	// what was translated and how old the translation is.
	Upstream       *int64
	CheckpointTime time.Time
}

// TP returns the partition's TopicPartition.
func (p Partition) TP() TopicPartition { return TopicPartition{Topic: p.Topic, Partition: p.Partition} }

// TargetOffset returns the target and true, or 0 and false for a
// delete-offset entry.
func (p Partition) TargetOffset() (int64, bool) {
	if p.Target == nil {
		return 0, false
	}
	return *p.Target, true
}

// Reason says why a partition got its target.
type Reason string

// The reasons. ReasonRestore appears only in rollback plans,
// ReasonDeleteOffset only in rollback and delete plans.
const (
	// ReasonResolved: the strategy's value, unchanged.
	ReasonResolved Reason = "resolved"
	// ReasonClampedToStart: the requested offset was below the log start;
	// the target is the log start (Java: "Value will be set to ...").
	ReasonClampedToStart Reason = "clamped-to-start"
	// ReasonClampedToEnd: the requested offset was above the log end.
	ReasonClampedToEnd Reason = "clamped-to-end"
	// ReasonNoRecordAfterTime: --to-datetime/--by-duration found no record
	// at or after the time; the target is the log end, as in the Java tool.
	ReasonNoRecordAfterTime Reason = "no-record-after-time"
	// ReasonNoCommitUsedEnd: --to-current on a partition without a commit
	// uses the log end, as the Java tool does.
	ReasonNoCommitUsedEnd Reason = "no-commit-used-end"
	// ReasonFromFile: the offset from --from-file, within the log bounds.
	// A file offset outside them is clamped and says clamped-to-*.
	ReasonFromFile Reason = "from-file"
	// ReasonCopiedFromGroup: --to-group's source group's committed
	// offset, within the log bounds. One outside them is clamped and says
	// clamped-to-*.
	ReasonCopiedFromGroup Reason = "copied-from-group"
	// ReasonTranslated: --translate-from's checkpoint downstream offset,
	// within the log bounds. One outside them is clamped and says
	// clamped-to-*.
	ReasonTranslated Reason = "translated"
	// ReasonRestore: rollback to the offset committed before apply.
	ReasonRestore Reason = "restore"
	// ReasonDeleteOffset: target is null and apply deletes the offset: a
	// rollback of a partition that had no commit before apply, or every
	// entry of a delete plan.
	ReasonDeleteOffset Reason = "delete-offset"
)

var reasons = map[Reason]bool{
	ReasonResolved: true, ReasonClampedToStart: true, ReasonClampedToEnd: true,
	ReasonNoRecordAfterTime: true, ReasonNoCommitUsedEnd: true, ReasonFromFile: true,
	ReasonRestore: true, ReasonDeleteOffset: true, ReasonCopiedFromGroup: true,
	ReasonTranslated: true,
}

// normalize sorts groups and partitions, the one order every encoding and
// the digest use.
func (p *Plan) normalize() {
	slices.SortFunc(p.Groups, compareGroups)
	for _, g := range p.Groups {
		slices.SortFunc(g.Partitions, comparePartitions)
	}
}

// FindGroup returns the named group, or nil.
func (p *Plan) FindGroup(name string) *Group {
	for i := range p.Groups {
		if p.Groups[i].Group == name {
			return &p.Groups[i]
		}
	}
	return nil
}

func compareGroups(a, b Group) int { return cmp.Compare(a.Group, b.Group) }

func comparePartitions(a, b Partition) int { return a.TP().Compare(b.TP()) }

func i64(v int64) *int64 { return &v }

package groupops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// GroupDeletion is one group's result of a delete: nil Err when it was
// deleted.
type GroupDeletion struct {
	Group string
	Err   error
}

// DeleteGroups deletes groups (one DeleteGroups request per coordinator)
// and returns each group's outcome, sorted by group id. The error is set
// only when the cluster could not be asked at all.
func DeleteGroups(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]GroupDeletion, error) {
	groups = vocab.Dedupe(groups)
	if len(groups) == 0 {
		return nil, nil
	}
	// DeleteGroups deletes groups of any type: only the groups of a
	// registered family go.
	if _, err := Classify(ctx, cl, groups, OpDelete); err != nil {
		return nil, err
	}
	res, err := cl.DeleteGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	checkLostDeletes(ctx, cl, res)
	out := make([]GroupDeletion, 0, len(groups))
	for _, g := range groups {
		out = append(out, GroupDeletion{Group: g, Err: res[g]})
	}
	slices.SortFunc(out, func(a, b GroupDeletion) int { return strings.Compare(a.Group, b.Group) })
	return out, nil
}

// ErrOutcomeUnknown marks a write whose request may have reached Kafka
// although its answer was lost (a connection cut, a deadline), and whose
// effect could not be read back: it may or may not have happened.
var ErrOutcomeUnknown = errors.New("the request may have reached Kafka but its answer was lost, and reading the result back failed")

// lostAnswer reports an error after which a request may have been
// carried out: the connection failed or the deadline passed.
func lostAnswer(err error) bool {
	var ue *kafkaadmin.UnreachableError
	var te *kafkaadmin.TimeoutError
	return errors.As(err, &ue) || errors.As(err, &te)
}

// checkLostDeletes asks the coordinators whether the groups whose delete
// lost its answer still exist: a group that is gone was deleted (its
// error is cleared), one that is still there was not (its error stays),
// and when the check fails too the error says the outcome is unknown.
func checkLostDeletes(ctx context.Context, cl *kafkaadmin.Client, res map[string]error) {
	var lost []string
	for g, e := range res {
		if e != nil && lostAnswer(e) {
			lost = append(lost, g)
		}
	}
	if len(lost) == 0 {
		return
	}
	slices.Sort(lost)
	gs, err := listCoordinated(ctx, cl, lost)
	if err != nil {
		for _, g := range lost {
			res[g] = fmt.Errorf("%w: %w (check with kcg list)", ErrOutcomeUnknown, res[g])
		}
		return
	}
	listed := map[string]bool{}
	for _, g := range gs {
		listed[g.Group] = true
	}
	for _, g := range lost {
		if !listed[g] {
			res[g] = nil
		}
	}
}

// OffsetDeletion is the outcome of one OffsetDelete request.
type OffsetDeletion struct {
	Group string
	// GroupErr is the group-level error (the group does not exist, is not
	// empty, ...); nil when Kafka accepted the request.
	GroupErr   error
	Partitions []PartitionDeletion
}

// PartitionDeletion is one partition's outcome; Partition is nil for a
// topic whose partitions could not be listed.
type PartitionDeletion struct {
	Topic     string
	Partition *int32
	Err       error
}

// Name is "topic/partition", or the topic alone.
func (p PartitionDeletion) Name() string {
	if p.Partition == nil {
		return p.Topic
	}
	return fmt.Sprintf("%s/%d", p.Topic, *p.Partition)
}

// DeleteOffsets deletes group's offsets of the partitions specs name, as
// its family deletes them (consumer and streams groups: the committed
// offsets, OffsetDelete; share groups: the start offsets of whole topics).
// The request is sent even when nothing is left to delete, as the Java
// tool does, so a group that does not exist is still reported.
func DeleteOffsets(ctx context.Context, cl *kafkaadmin.Client, group string, specs []resetplan.TopicSpec) (OffsetDeletion, error) {
	typed, err := Classify(ctx, cl, []string{group}, OpDeleteOffsets)
	if err != nil {
		return OffsetDeletion{Group: group}, err
	}
	return familyOf(typed.FamilyOf(group)).deleteOffsets(ctx, cl, group, specs)
}

// WholeTopicsOnly refuses a partition list for the delete-offsets of a
// group whose family deletes whole topics only (share groups:
// *ShareWholeTopicsError): plan --delete-offsets and the delete-offsets
// shortcut, before anything is deleted.
func WholeTopicsOnly(snaps []resetplan.GroupSnapshot, specs []resetplan.TopicSpec) error {
	for _, g := range snaps {
		if err := familyOfType(g.Type).refusePartitions(g.Group, specs); err != nil {
			return err
		}
	}
	return nil
}

// readBackDeletes is the outcome of an OffsetDelete whose answer was lost
// (lost is why), read from the group's committed offsets: a partition
// without one was deleted, one that still has one was not. When the
// offsets cannot be read either, the outcome is unknown.
func readBackDeletes(ctx context.Context, cl *kafkaadmin.Client, group string, tps []TopicPartition, lost error) (kafkaadmin.DeleteOffsetsResult, error) {
	res := kafkaadmin.DeleteOffsetsResult{Partitions: map[TopicPartition]error{}}
	offs, err := cl.FetchOffsets(ctx, []string{group})
	if err == nil && offs[0].Err != nil && !errors.Is(offs[0].Err, vocab.ErrGroupNotFound) {
		err = offs[0].Err
	}
	if err != nil {
		return res, fmt.Errorf("deleting offsets of group %s: %w: %w (check with kcg describe %s)", group, ErrOutcomeUnknown, lost, group)
	}
	for _, tp := range tps {
		if _, ok := offs[0].Offsets[tp]; ok {
			res.Partitions[tp] = lost
		}
	}
	return res, nil
}

// KeepDeletedGroups narrows the delete plan of a delete shortcut to the
// groups its DeleteGroups may have deleted (res): a group Kafka refused
// (active members, does not exist) keeps its offsets, and an undo plan
// that still named it would be refused as stale. A group whose outcome is
// unknown stays. It reports whether any group was dropped.
func KeepDeletedGroups(plan *resetplan.Plan, res []GroupDeletion) bool {
	refused := map[string]bool{}
	for _, d := range res {
		if d.Err != nil && !errors.Is(d.Err, ErrOutcomeUnknown) {
			refused[d.Group] = true
		}
	}
	n := len(plan.Groups)
	plan.Groups = slices.DeleteFunc(plan.Groups, func(g resetplan.Group) bool { return refused[g.Group] })
	return len(plan.Groups) != n
}

// KeepDeletedOffsets is KeepDeletedGroups for delete-offsets: the
// partitions whose OffsetDelete failed (r) are dropped, all of them when
// the group was refused as a whole. It reports whether any was dropped.
func KeepDeletedOffsets(plan *resetplan.Plan, r OffsetDeletion) bool {
	failed := map[TopicPartition]bool{}
	for _, p := range r.Partitions {
		if p.Err != nil && p.Partition != nil {
			failed[TopicPartition{Topic: p.Topic, Partition: *p.Partition}] = true
		}
	}
	dropped := false
	for i := range plan.Groups {
		g := &plan.Groups[i]
		if g.Group != r.Group {
			continue
		}
		n := len(g.Partitions)
		g.Partitions = slices.DeleteFunc(g.Partitions, func(pt resetplan.Partition) bool {
			return r.GroupErr != nil || failed[pt.TP()]
		})
		dropped = dropped || len(g.Partitions) != n
	}
	return dropped
}

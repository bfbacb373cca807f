package groupops

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// Apply of share-group entries (type share): the FamilyShare branch of
// Preflight, of the writes and of the read-back. The checks are the
// consumer groups' ones (stale plan, active members: exit 3, nothing
// written); the writes are AlterShareGroupOffsets (and
// DeleteShareGroupOffsets for whole topics), read back with
// DescribeShareGroupOffsets.

// TypeMismatchError is a plan entry whose group has become another
// family since the plan (deleted and reused): exit 3, nothing written.
type TypeMismatchError struct {
	Group, Planned, Live string
}

func (e *TypeMismatchError) Error() string {
	return fmt.Sprintf("group %s was planned as a %s group and is a %s group now: make a new plan; nothing was written", e.Group, e.Planned, e.Live)
}

// shareGroupsOf are the plan's share-group entries.
func shareGroupsOf(plan *resetplan.Plan) map[string]bool {
	out := map[string]bool{}
	for _, g := range plan.Groups {
		if g.Type == vocab.TypeShare {
			out[g.Group] = true
		}
	}
	return out
}

// readLive reads the plan's groups for Preflight, dispatching on the
// family: consumer groups as ReadGroups, share groups as ReadShareGroups
// with their start offsets as the live offsets. A group whose live family
// differs from the plan's is a *TypeMismatchError (an unknown family an
// *OtherTypeError).
func readLive(ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan, groups []string) ([]Group, error) {
	share := shareGroupsOf(plan)
	plannedFamily := make(map[string]Family, len(plan.Groups))
	for _, g := range plan.Groups {
		plannedFamily[g.Group] = FamilyOf(g.Type)
	}
	typed, err := Classify(ctx, cl, groups, OpApply)
	if err != nil {
		return nil, err
	}
	for _, id := range groups {
		planned := plannedFamily[id]
		if planned == "" {
			planned = FamilyConsumer
		}
		// A share group that is gone lists as nothing: FamilyOf says
		// consumer; it is missing, not mismatched.
		if live := typed.FamilyOf(id); live != planned && typed.listed(id) {
			return nil, &TypeMismatchError{Group: id, Planned: string(planned), Live: string(live)}
		}
	}
	var consumer, shares []string
	for _, id := range groups {
		if share[id] {
			shares = append(shares, id)
		} else {
			consumer = append(consumer, id)
		}
	}
	var out []Group
	if len(consumer) > 0 {
		if out, err = ReadGroups(ctx, cl, consumer); err != nil {
			return nil, err
		}
	}
	if len(shares) == 0 {
		return out, nil
	}
	sg, err := ReadShareGroups(ctx, cl, shares)
	if err != nil {
		return nil, err
	}
	for _, g := range sg {
		out = append(out, g.asGroup())
	}
	return out, nil
}

// asGroup is a share group in Group's shape for the checks: members,
// state, and the start offsets as offsets.
func (g ShareGroup) asGroup() Group {
	d := kafkaadmin.GroupDescription{Group: g.Desc.Group, Exists: g.Exists(), Type: vocab.TypeShare, State: g.Desc.State, Coordinator: g.Desc.Coordinator}
	for _, m := range g.Desc.Members {
		d.Members = append(d.Members, kafkaadmin.Member{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost, Assignment: m.Assignment})
	}
	out := Group{Desc: d, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}, Err: g.Err}
	for tp, o := range g.Offsets {
		out.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: o.StartOffset}
	}
	for tp := range g.Invalid {
		out.Invalid = append(out.Invalid, tp)
	}
	return out
}

// sendShare writes a share group's pending writes: the start offsets with
// AlterShareGroupOffsets, then the deletes (a rollback's partitions that
// had no start offset before) with DeleteShareGroupOffsets, which deletes
// whole topics only: a topic whose other partitions keep a start offset
// (live, or set by this write) is not deleted, and its partitions fail.
func sendShare(ctx context.Context, cl *kafkaadmin.Client, c *Check, group string, commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) (map[TopicPartition]error, error) {
	perr := map[TopicPartition]error{}
	var groupErr error
	if len(commits) > 0 {
		offs := make(map[TopicPartition]int64, len(commits))
		for _, w := range commits {
			offs[w.TopicPartition] = w.Offset
		}
		res, err := cl.AlterShareGroupStartOffsets(ctx, group, offs)
		if err != nil {
			return nil, err
		}
		for _, tp := range vocab.SortedPartitions(slices.Collect(maps.Keys(res))) {
			if e := res[tp]; e != nil {
				perr[tp] = e
				if groupErr == nil {
					groupErr = e
				}
			}
		}
	}
	if len(deletes) == 0 || groupErr != nil {
		return perr, groupErr
	}
	byTopic := map[string][]TopicPartition{}
	for _, tp := range deletes {
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp)
	}
	kept := map[string]bool{}
	for _, w := range commits {
		kept[w.Topic] = true
	}
	for tp := range c.Live[group] {
		if !slices.Contains(deletes, tp) {
			kept[tp.Topic] = true
		}
	}
	var topics []string
	for t, tps := range byTopic {
		if kept[t] {
			e := fmt.Errorf("topic %s: share groups delete the start offsets of whole topics only, and other partitions of it keep theirs: not deleted", t)
			for _, tp := range tps {
				perr[tp] = e
			}
			if groupErr == nil {
				groupErr = e
			}
			continue
		}
		topics = append(topics, t)
	}
	if len(topics) == 0 {
		return perr, groupErr
	}
	slices.Sort(topics)
	res, err := cl.DeleteShareGroupStartOffsets(ctx, group, topics)
	if err != nil {
		return perr, err
	}
	for t, e := range res {
		if e == nil {
			continue
		}
		for _, tp := range byTopic[t] {
			perr[tp] = e
		}
		if groupErr == nil {
			groupErr = e
		}
	}
	return perr, groupErr
}

// readBackShare reads share groups' start offsets after their writes, in
// the read-back's shape.
func readBackShare(ctx context.Context, cl *kafkaadmin.Client, groups []string) (map[string]kafkaadmin.GroupOffsets, error) {
	offs, err := cl.ShareGroupStartOffsets(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make(map[string]kafkaadmin.GroupOffsets, len(offs))
	for _, o := range offs {
		g := kafkaadmin.GroupOffsets{Group: o.Group, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}, Err: o.Err}
		for tp, so := range o.Offsets {
			g.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: so.StartOffset}
		}
		out[o.Group] = g
	}
	return out, nil
}

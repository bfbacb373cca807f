package groupops

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// Share groups (KIP-932): the FamilyShare code of the dispatch
// (dispatch.go). A share group has no committed offsets: each
// share-partition has a start offset (the first record not yet
// delivered-and-acknowledged), which kcg reads, plans and resets as the
// Java kafka-share-groups.sh does.

// NoShareGroupsError is a cluster without the share-group APIs (3.9, 4.0,
// or share groups off). Exit 3: nothing was written.
type NoShareGroupsError = kafkaadmin.NoShareGroupsError

// NoShareNote is the one line `kcg list --type share` (or any --type
// naming share) prints on stderr on a cluster without share groups
// (Kafka 3.9, 4.0: no ShareGroupDescribe v1), as NoStreamsNote does for
// streams groups; "" when the cluster has them or types do not ask for
// them.
func NoShareNote(ctx context.Context, cl *kafkaadmin.Client, types []string) (string, error) {
	if !slices.Contains(types, vocab.TypeShare) {
		return "", nil
	}
	ok, err := cl.HasShareGroups(ctx)
	if err != nil || ok {
		return "", err
	}
	return "note: the broker has no share groups (KIP-932, Kafka 4.1 and later: it does not offer ShareGroupDescribe)", nil
}

// ShareGroup is one share group as describe, plan and apply read it.
type ShareGroup struct {
	Desc    kafkaadmin.ShareGroupDescription
	Offsets map[TopicPartition]kafkaadmin.ShareOffset
	Invalid map[TopicPartition]error
	// Uninitialized are share-partitions without a start offset yet.
	Uninitialized []TopicPartition
	// Err is why the group could not be read.
	Err error
}

// Name is the group id.
func (g ShareGroup) Name() string { return g.Desc.Group }

// Exists reports whether the cluster has the group: described, or with
// share-partition state.
func (g ShareGroup) Exists() bool { return g.Desc.Exists || len(g.Offsets) > 0 }

// ShareSnapshot is what describe shows of share groups: the groups and
// the log bounds of their partitions.
type ShareSnapshot struct {
	Cluster kafkaadmin.ClusterInfo
	Groups  []ShareGroup
	Bounds  map[TopicPartition]LogBounds
}

// ReadShareGroups describes groups (ShareGroupDescribe) and reads their
// start offsets (DescribeShareGroupOffsets): two coordinator-routed
// phases, in the order given.
func ReadShareGroups(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]ShareGroup, error) {
	descs, err := cl.DescribeShareGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	offs, err := cl.ShareGroupStartOffsets(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make([]ShareGroup, len(groups))
	for i := range groups {
		g := ShareGroup{Desc: descs[i], Offsets: offs[i].Offsets, Invalid: offs[i].Invalid, Uninitialized: offs[i].Uninitialized}
		switch {
		case descs[i].Err != nil:
			g.Err = descs[i].Err
		case offs[i].Err != nil:
			g.Err = offs[i].Err
		}
		if g.Desc.Group == "" {
			g.Desc.Group = groups[i]
		}
		out[i] = g
	}
	return out, nil
}

// Partitions are the partitions a share group is assigned or has a start
// offset for, sorted.
func (g ShareGroup) Partitions() []TopicPartition {
	tps := append([]TopicPartition(nil), g.Uninitialized...)
	for tp := range g.Offsets {
		tps = append(tps, tp)
	}
	for _, m := range g.Desc.Members {
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				tps = append(tps, TopicPartition{Topic: a.Topic, Partition: p})
			}
		}
	}
	return vocab.SortedPartitions(tps)
}

// DescribeShare reads share groups and the log bounds of their
// partitions: what describe shows of them.
func DescribeShare(ctx context.Context, cl *kafkaadmin.Client, groups []string, progress func(string)) (*ShareSnapshot, error) {
	info, err := cl.Cluster(ctx)
	if err != nil {
		return nil, err
	}
	progress("describing share groups")
	gs, err := ReadShareGroups(ctx, cl, groups)
	if err != nil {
		return nil, err
	}
	var tps []TopicPartition
	for _, g := range gs {
		tps = append(tps, g.Partitions()...)
	}
	progress("listing log offsets")
	bounds, err := listBounds(ctx, cl, vocab.SortedPartitions(tps), false)
	if err != nil {
		return nil, err
	}
	return &ShareSnapshot{Cluster: info, Groups: gs, Bounds: bounds}, nil
}

// ShareStrategyError is a strategy share groups do not have: --to-group
// copies committed offsets, and a share group has none. Exit 64.
type ShareStrategyError struct {
	Group, Strategy string
}

func (e *ShareStrategyError) Error() string {
	return fmt.Sprintf("group %s is a share group: --%s copies committed offsets, and share groups have start offsets instead; use --to-offset, --from-file or another strategy; no plan was written", e.Group, e.Strategy)
}

// sharePlanInputs reads the groups of a plan that holds share groups:
// the share groups' start offsets are their "current" offsets. The
// consumer groups among them are read as usual (one plan may hold both,
// each entry with its type).
func sharePlanInputs(ctx context.Context, cl *kafkaadmin.Client, typed Typed) ([]resetplan.GroupSnapshot, error) {
	consumer := typed.Committed()
	var snaps []resetplan.GroupSnapshot
	if len(consumer) > 0 {
		if err := RefuseOtherTypes(ctx, cl, consumer); err != nil {
			return nil, err
		}
		gs, err := ReadGroups(ctx, cl, consumer)
		if err != nil {
			return nil, err
		}
		if snaps, err = planInputs(gs); err != nil {
			return nil, err
		}
	}
	share, err := ReadShareGroups(ctx, cl, typed.Of(FamilyShare))
	if err != nil {
		return nil, err
	}
	for _, g := range share {
		if g.Err != nil {
			return nil, fmt.Errorf("group %s: %w", g.Name(), g.Err)
		}
		snap := resetplan.GroupSnapshot{Group: g.Name(), Type: vocab.TypeShare, State: g.Desc.State, Members: len(g.Desc.Members), Committed: map[TopicPartition]int64{}}
		for tp, o := range g.Offsets {
			snap.Committed[tp] = o.StartOffset
		}
		// In --all-topics' scope without a current offset, as the Java
		// tool keeps them.
		snap.Uncommitted = append(snap.Uncommitted, g.Uninitialized...)
		for tp := range g.Invalid {
			snap.Uncommitted = append(snap.Uncommitted, tp)
		}
		snaps = append(snaps, snap)
	}
	return snaps, nil
}

// ShareWholeTopicsError is a delete-offsets of a share group with a
// partition list: DeleteShareGroupOffsets deletes whole topics only.
// Exit 64, nothing deleted.
type ShareWholeTopicsError struct {
	Group, Topic string
}

func (e *ShareWholeTopicsError) Error() string {
	return fmt.Sprintf("group %s is a share group: its offsets are deleted for whole topics only; give --topic %s without partitions; nothing was deleted", e.Group, e.Topic)
}

// ShareWholeTopics refuses a partition list for a share group's
// delete-offsets (plan --delete-offsets and the delete-offsets shortcut).
func ShareWholeTopics(snaps []resetplan.GroupSnapshot, specs []resetplan.TopicSpec) error {
	for _, g := range snaps {
		if g.Type != vocab.TypeShare {
			continue
		}
		for _, ts := range specs {
			if ts.Partitions != nil {
				return &ShareWholeTopicsError{Group: g.Group, Topic: ts.Topic}
			}
		}
	}
	return nil
}

// deleteShareOffsets is DeleteOffsets for a share group: the
// share-partition state of whole topics (DeleteShareGroupOffsets; the
// broker refuses a group with members), one outcome per topic.
func deleteShareOffsets(ctx context.Context, cl *kafkaadmin.Client, group string, specs []resetplan.TopicSpec) (OffsetDeletion, error) {
	r := OffsetDeletion{Group: group}
	var topics []string
	for _, ts := range specs {
		if ts.Partitions != nil {
			return r, &ShareWholeTopicsError{Group: group, Topic: ts.Topic}
		}
		topics = append(topics, ts.Topic)
	}
	topics = vocab.Dedupe(topics)
	res, err := cl.DeleteShareGroupStartOffsets(ctx, group, topics)
	if err != nil {
		var ke *kafkaadmin.KafkaError
		if !errors.As(err, &ke) {
			return r, err
		}
		r.GroupErr = err
	}
	for _, t := range topics {
		e := r.GroupErr
		if e == nil {
			e = res[t]
		}
		r.Partitions = append(r.Partitions, PartitionDeletion{Topic: t, Err: e})
	}
	return r, nil
}

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

// shareFamily is FamilyShare: KIP-932 share groups. A share group has no
// committed offsets: each share-partition has a start offset (the first
// record not yet delivered-and-acknowledged), which kcg reads
// (ShareGroupDescribe, DescribeShareGroupOffsets), plans and resets
// (AlterShareGroupOffsets, DeleteShareGroupOffsets for whole topics) as
// the Java kafka-share-groups.sh does. A share Group carries the start
// offsets as its Offsets and the broker's own view in Share.
type shareFamily struct{}

// FamilyShare is KIP-932 share groups: their offsets are share-partition
// start offsets (DescribeShareGroupOffsets, AlterShareGroupOffsets).
const FamilyShare Family = "share"

func init() { register(FamilyShare, shareFamily{}) }

// ShareDetail is what only a share group has: the broker's description
// (member epochs, the assignor), its start offsets with their lag and
// leader epochs, the partitions it answered with an error, and the
// share-partitions without a start offset yet.
type ShareDetail struct {
	Desc    kafkaadmin.ShareGroupDescription
	Offsets map[TopicPartition]kafkaadmin.ShareOffset
	Invalid map[TopicPartition]error
	// Uninitialized are share-partitions without a start offset yet.
	Uninitialized []TopicPartition
}

// NoShareGroupsError is a cluster without the share-group APIs (3.9, 4.0,
// or share groups off). Exit 3: nothing was written.
type NoShareGroupsError = kafkaadmin.NoShareGroupsError

func (shareFamily) types() []string { return []string{vocab.TypeShare} }

func (shareFamily) tool() string { return "kafka-share-groups.sh" }

func (shareFamily) batch() Family { return FamilyShare }

// read describes groups (ShareGroupDescribe) and reads their start
// offsets (DescribeShareGroupOffsets): two coordinator-routed phases, in
// the order given. A group exists when described, or with share-partition
// state.
func (shareFamily) read(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]Group, error) {
	descs, err := cl.DescribeShareGroups(ctx, ids)
	if err != nil {
		return nil, err
	}
	offs, err := cl.ShareGroupStartOffsets(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Group, len(ids))
	for i := range ids {
		sd := &ShareDetail{Desc: descs[i], Offsets: offs[i].Offsets, Invalid: offs[i].Invalid, Uninitialized: offs[i].Uninitialized}
		if sd.Desc.Group == "" {
			sd.Desc.Group = ids[i]
		}
		out[i] = shareGroup(sd)
		switch {
		case descs[i].Err != nil:
			out[i].Err = descs[i].Err
		case offs[i].Err != nil:
			out[i].Err = offs[i].Err
		}
	}
	return out, nil
}

// members is one ShareGroupDescribe phase, in GroupDescription's shape.
func (shareFamily) members(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]kafkaadmin.GroupDescription, error) {
	descs, err := cl.DescribeShareGroups(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]kafkaadmin.GroupDescription, len(descs))
	for i := range descs {
		out[i] = shareGroup(&ShareDetail{Desc: descs[i]}).Desc
		out[i].Err = descs[i].Err
	}
	return out, nil
}

// shareGroup is a share group in Group's shape: its start offsets as the
// offsets (with their leader epochs), its uninitialized share-partitions
// as the partitions without one.
func shareGroup(sd *ShareDetail) Group {
	d := sd.Desc
	desc := kafkaadmin.GroupDescription{Group: d.Group, Exists: d.Exists || len(sd.Offsets) > 0, Type: vocab.TypeShare, State: d.State,
		Assignor: d.Assignor, Coordinator: d.Coordinator, GroupEpoch: &d.GroupEpoch, AssignmentEpoch: &d.AssignmentEpoch}
	for _, m := range d.Members {
		desc.Members = append(desc.Members, kafkaadmin.Member{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost,
			Assignment: m.Assignment, Subscribed: m.Subscribed, MemberEpoch: &m.MemberEpoch})
	}
	g := Group{Family: FamilyShare, Desc: desc, Share: sd, Offsets: make(map[TopicPartition]kafkaadmin.CommittedOffset, len(sd.Offsets)),
		Invalid: slices.Clone(sd.Uninitialized)}
	for tp, o := range sd.Offsets {
		co := kafkaadmin.CommittedOffset{Offset: o.StartOffset}
		if o.LeaderEpoch >= 0 {
			e := o.LeaderEpoch
			co.LeaderEpoch = &e
		}
		g.Offsets[tp] = co
	}
	return g
}

// planEntry: the start offsets are the group's "current" offsets; the
// share-partitions without one (uninitialized, or answered with an error)
// are in --all-topics' scope without a current offset, as the Java tool
// keeps them.
func (shareFamily) planEntry(g Group) (resetplan.GroupSnapshot, error) {
	if g.Err != nil {
		return resetplan.GroupSnapshot{}, fmt.Errorf("group %s: %w", g.Name(), g.Err)
	}
	sd := g.Share
	snap := resetplan.GroupSnapshot{Group: g.Name(), Type: vocab.TypeShare, State: sd.Desc.State, Members: len(sd.Desc.Members), Committed: map[TopicPartition]int64{}}
	for tp, o := range sd.Offsets {
		snap.Committed[tp] = o.StartOffset
	}
	snap.Uncommitted = append(snap.Uncommitted, sd.Uninitialized...)
	for tp := range sd.Invalid {
		snap.Uncommitted = append(snap.Uncommitted, tp)
	}
	return snap, nil
}

// ShareStrategyError is a strategy share groups do not have: --to-group
// copies committed offsets, and a share group has none. Exit 64.
type ShareStrategyError struct {
	Group, Strategy string
}

func (e *ShareStrategyError) Error() string {
	return fmt.Sprintf("group %s is a share group: --%s copies committed offsets, and share groups have start offsets instead; use --to-offset, --from-file or another strategy; no plan was written", e.Group, e.Strategy)
}

func (shareFamily) refuseStrategy(group string, s resetplan.StrategyType) error {
	if s == resetplan.StrategyToGroup {
		return &ShareStrategyError{Group: group, Strategy: string(s)}
	}
	return nil
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

func (shareFamily) refusePartitions(group string, specs []resetplan.TopicSpec) error {
	for _, ts := range specs {
		if ts.Partitions != nil {
			return &ShareWholeTopicsError{Group: group, Topic: ts.Topic}
		}
	}
	return nil
}

// write sends a share group's pending writes: the start offsets with
// AlterShareGroupOffsets, then the deletes (a rollback's partitions that
// had no start offset before) with DeleteShareGroupOffsets, which deletes
// whole topics only: a topic whose other partitions keep a start offset
// (live, or set by this write) is not deleted, and its partitions fail.
func (shareFamily) write(ctx context.Context, cl *kafkaadmin.Client, c *Check, group string, commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) (map[TopicPartition]error, error) {
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

// readBack reads share groups' start offsets after their writes
// (DescribeShareGroupOffsets), in the read-back's shape.
func (shareFamily) readBack(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]kafkaadmin.GroupOffsets, error) {
	offs, err := cl.ShareGroupStartOffsets(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make([]kafkaadmin.GroupOffsets, 0, len(offs))
	for _, o := range offs {
		g := kafkaadmin.GroupOffsets{Group: o.Group, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}, Err: o.Err}
		for tp, so := range o.Offsets {
			g.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: so.StartOffset}
		}
		out = append(out, g)
	}
	return out, nil
}

// deleteOffsets deletes the share-partition state of whole topics
// (DeleteShareGroupOffsets; the broker refuses a group with members), one
// outcome per topic.
func (f shareFamily) deleteOffsets(ctx context.Context, cl *kafkaadmin.Client, group string, specs []resetplan.TopicSpec) (OffsetDeletion, error) {
	r := OffsetDeletion{Group: group}
	if err := f.refusePartitions(group, specs); err != nil {
		return r, err
	}
	var topics []string
	for _, ts := range specs {
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

func (shareFamily) available(ctx context.Context, cl *kafkaadmin.Client) (bool, error) {
	return cl.HasShareGroups(ctx)
}

func (shareFamily) unavailable() error { return &NoShareGroupsError{API: "ShareGroupDescribe"} }

// note is the one line `kcg list --type share` (or any --type naming
// share) prints on stderr on a cluster without share groups (Kafka 3.9,
// 4.0: no ShareGroupDescribe v1).
func (shareFamily) note() string {
	return "note: the broker has no share groups (KIP-932, Kafka 4.1 and later: it does not offer ShareGroupDescribe)"
}

func (shareFamily) commits() bool { return false }

// watchIn is a share-partition's start offset as the committed offset,
// its log end offset, and the lag the broker gives (as describe shows it).
func (shareFamily) watchIn(s *Snapshot, g *Group, tp TopicPartition) partitionIn {
	p := partitionIn{lagGiven: true}
	if e := s.Bounds[tp].End; e != nil {
		p.end, p.known = *e, hasEnd
	}
	if o, ok := g.Share.Offsets[tp]; ok {
		p.committed, p.known = o.StartOffset, p.known|hasCommitted
		if o.Lag != nil {
			p.lag, p.known = *o.Lag, p.known|hasLag
		}
	}
	return p
}

func (shareFamily) list(ctx context.Context, cl *kafkaadmin.Client, opts kafkaadmin.ListGroupsOptions) ([]kafkaadmin.GroupListing, error) {
	return listOfTypes(ctx, cl, opts, vocab.TypeShare)
}

func (shareFamily) missing() error { return &NoShareGroupsError{API: "ShareGroupDescribe"} }

func (shareFamily) foreign(g kafkaadmin.GroupListing) error {
	return foreignTo(FamilyShare, vocab.TypeShare, g)
}

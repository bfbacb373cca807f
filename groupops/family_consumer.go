package groupops

import (
	"context"
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// consumerFamily is FamilyConsumer: classic groups of the consumer
// protocol and KIP-848 consumer groups. Their positions are committed
// offsets: DescribeGroups/ConsumerGroupDescribe and OffsetFetch to read
// them, OffsetCommit and OffsetDelete to write them.
type consumerFamily struct{}

func init() { register(FamilyConsumer, consumerFamily{}) }

func (consumerFamily) types() []string { return []string{vocab.TypeClassic, vocab.TypeConsumer} }

func (consumerFamily) tool() string { return "" }

func (consumerFamily) batch() Family { return FamilyConsumer }

// read is ReadGroups: one describe phase and one offset-fetch phase for
// every group of the batch (consumer and streams groups alike).
func (consumerFamily) read(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]Group, error) {
	return ReadGroups(ctx, cl, ids)
}

// members is one DescribeGroups/ConsumerGroupDescribe phase.
func (consumerFamily) members(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]kafkaadmin.GroupDescription, error) {
	return cl.DescribeGroups(ctx, ids)
}

// planEntry is the plan-time view of a group: type, state, members and
// committed offsets. A group that could not be read fails the whole plan:
// a plan must not silently leave out a group the operator named.
func (consumerFamily) planEntry(g Group) (resetplan.GroupSnapshot, error) {
	if g.Err != nil {
		return resetplan.GroupSnapshot{}, fmt.Errorf("group %s: %w", g.Name(), g.Err)
	}
	d := g.Desc
	snap := resetplan.GroupSnapshot{Group: d.Group, Type: d.Type, State: d.State, Members: len(d.Members), Committed: make(map[TopicPartition]int64, len(g.Offsets))}
	if !d.Exists {
		// A group that does not exist yet can be planned: apply
		// creates its offsets, as the Java tool's --execute does.
		snap.State = vocab.StateDead
		if snap.Type == "" {
			snap.Type = vocab.TypeClassic
		}
	}
	for tp, c := range g.Offsets {
		snap.Committed[tp] = c.Offset
	}
	snap.Uncommitted = append(snap.Uncommitted, g.Invalid...)
	if d.Streams != nil && len(d.Streams.Subtopologies) > 0 {
		snap.InputTopics = d.Streams.InputTopics()
	}
	return snap, nil
}

func (consumerFamily) refuseStrategy(string, resetplan.StrategyType) error { return nil }

func (consumerFamily) refusePartitions(string, []resetplan.TopicSpec) error { return nil }

// write commits and deletes group's pending writes; it returns the errors
// per partition and the first error of the group.
func (consumerFamily) write(ctx context.Context, cl *kafkaadmin.Client, _ *Check, group string, commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) (map[TopicPartition]error, error) {
	perr := map[TopicPartition]error{}
	var groupErr error
	note := func(res map[TopicPartition]error) {
		for tp, e := range res {
			if e != nil {
				perr[tp] = e
				if groupErr == nil {
					groupErr = e
				}
			}
		}
	}
	if len(commits) > 0 {
		res, err := cl.CommitOffsets(ctx, group, commits)
		groupErr = err
		note(res)
	}
	if len(deletes) > 0 && groupErr == nil {
		res, err := cl.DeleteOffsets(ctx, group, deletes)
		switch {
		case err != nil:
			groupErr = err
		case res.Err != nil:
			groupErr = res.Err
		}
		note(res.Partitions)
	}
	return perr, groupErr
}

// readBack fetches the committed offsets of groups in batched
// multi-group OffsetFetch requests per coordinator.
func (consumerFamily) readBack(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]kafkaadmin.GroupOffsets, error) {
	return cl.FetchOffsets(ctx, groups)
}

// deleteOffsets deletes group's committed offsets of the partitions specs
// name: a topic without partitions means all of its partitions (looked up
// in one Metadata request; a topic that does not exist gets an entry
// without partition). The request is sent even when nothing is left to
// delete, as the Java tool does, so a group that does not exist is still
// reported. A partition without its own error inherits the group-level
// one: nothing was deleted.
func (consumerFamily) deleteOffsets(ctx context.Context, cl *kafkaadmin.Client, group string, specs []resetplan.TopicSpec) (OffsetDeletion, error) {
	r := OffsetDeletion{Group: group}
	var whole []string
	for _, ts := range specs {
		if ts.Partitions == nil {
			whole = append(whole, ts.Topic)
		}
	}
	infos := map[string]kafkaadmin.TopicInfo{}
	if len(whole) > 0 {
		var err error
		if infos, err = cl.Topics(ctx, vocab.Dedupe(whole)); err != nil {
			return r, err
		}
	}
	var tps []TopicPartition
	badTopic := map[string]bool{}
	for _, ts := range specs {
		if ts.Partitions != nil {
			for _, p := range ts.Partitions {
				tps = append(tps, TopicPartition{Topic: ts.Topic, Partition: p})
			}
			continue
		}
		info := infos[ts.Topic]
		if info.Err != nil {
			if !badTopic[ts.Topic] {
				badTopic[ts.Topic] = true
				r.Partitions = append(r.Partitions, PartitionDeletion{Topic: ts.Topic, Err: info.Err})
			}
			continue
		}
		for _, p := range info.Partitions {
			tps = append(tps, TopicPartition{Topic: ts.Topic, Partition: p.Partition})
		}
	}
	tps = vocab.SortedPartitions(tps)
	res, err := cl.DeleteOffsets(ctx, group, tps)
	if err != nil && lostAnswer(err) {
		// The request may have been carried out: what the group holds
		// now says which offsets are gone.
		if res, err = readBackDeletes(ctx, cl, group, tps, err); err != nil {
			return r, err
		}
	}
	if err != nil {
		var ke *kafkaadmin.KafkaError
		if !errors.As(err, &ke) {
			return r, err
		}
		// A Kafka error for the group as a whole (e.g. not found) is an
		// outcome, not a failure to ask.
		res.Err = err
	}
	r.GroupErr = res.Err
	for _, tp := range tps {
		p := tp.Partition
		pe := res.Partitions[tp]
		if pe == nil && res.Err != nil {
			pe = res.Err
		}
		r.Partitions = append(r.Partitions, PartitionDeletion{Topic: tp.Topic, Partition: &p, Err: pe})
	}
	return r, nil
}

func (consumerFamily) available(context.Context, *kafkaadmin.Client) (bool, error) { return true, nil }

func (consumerFamily) unavailable() error { return nil }

func (consumerFamily) note() string { return "" }

func (consumerFamily) commits() bool { return true }

// watchIn is a partition's committed offset, its log end (the last stable
// offset with --isolation read-committed) and the time lag of the commit;
// the lag is end − committed.
func (consumerFamily) watchIn(s *Snapshot, g *Group, tp TopicPartition) partitionIn {
	var p partitionIn
	if e := s.Bounds[tp].LagEnd(s.ReadCommitted); e != nil {
		p.end, p.known = *e, hasEnd
	}
	if c, ok := g.Offsets[tp]; ok {
		p.committed, p.known = c.Offset, p.known|hasCommitted
		if tl, ok := s.TimeLagAt(tp, c.Offset); ok {
			v := tl // only a found one escapes, not every lookup
			p.timeLag = &v
		}
	}
	return p
}

// list is ListConsumerGroups: every type the broker lists (opts.Types
// narrows it: kafka-consumer-groups' --type), classic groups only with
// the consumer protocol, sorted.
func (consumerFamily) list(ctx context.Context, cl *kafkaadmin.Client, opts kafkaadmin.ListGroupsOptions) ([]kafkaadmin.GroupListing, error) {
	return ListConsumerGroups(ctx, cl, opts)
}

func (consumerFamily) missing() error { return nil }

// foreign refuses a share, streams or other group named on
// kafka-consumer-groups' command line (drop-in mode manages consumer
// groups only, as the Java tool does, so a script written for consumer
// groups never resets a Kafka Streams application by its application id).
func (consumerFamily) foreign(g kafkaadmin.GroupListing) error {
	if isOtherType(g.Type) {
		return &OtherTypeError{Group: g.Group, Type: g.Type}
	}
	return nil
}

package groupops

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// The group families: the one seam for what differs between the kinds of
// groups kcg manages. Describe, ReadForPlan, Preflight, Apply, Settle,
// DeleteOffsets, DeleteGroups, WaitEmpty and the Watcher are written once
// over Group; what a family does its own way is a method of its value in
// families (family_consumer.go, family_share.go, family_streams.go), and
// those files are the only ones of groupops that name a family's own
// Kafka APIs. A new family is a new file with its value, registered in
// families; no command, drop-in or document changes for it.

// Family is how kcg handles a group: classic groups of the consumer
// protocol and KIP-848 consumer groups are one family (the offsets are
// committed offsets), share and streams groups each another.
type Family string

const (
	// FamilyConsumer is classic (protocol type consumer or "", and every
	// group of a broker before ListGroups v5) and consumer groups.
	FamilyConsumer Family = "consumer"
	// FamilyOther is any other type (Connect groups, types Kafka adds
	// later): never managed.
	FamilyOther Family = "other"
)

// family is what differs between group families.
type family interface {
	// types are the group types (as ListGroups names them) of the family.
	types() []string
	// read describes groups of the family and reads their positions: one
	// Group per id, in the order given; a group that fails has Err set.
	read(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]Group, error)
	// members describes groups (no positions): what WaitEmpty polls.
	members(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]kafkaadmin.GroupDescription, error)
	// batch is the family whose read reads this one's groups too, in the
	// same request phases (streams groups are read with consumer groups).
	batch() Family
	// planEntry is how a read group enters a plan.
	planEntry(g Group) (resetplan.GroupSnapshot, error)
	// refuseStrategy is an error when the family has no such strategy
	// (share groups: --to-group), else nil.
	refuseStrategy(group string, s resetplan.StrategyType) error
	// refusePartitions is an error when the family cannot delete the
	// offsets of single partitions (share groups: whole topics only).
	refusePartitions(group string, specs []resetplan.TopicSpec) error
	// write sends one group's pending writes (c: the check they come
	// from): the errors per partition and the first error of the group.
	write(ctx context.Context, cl *kafkaadmin.Client, c *Check, group string, commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) (map[TopicPartition]error, error)
	// readBack reads groups' positions after their writes.
	readBack(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]kafkaadmin.GroupOffsets, error)
	// deleteOffsets deletes group's offsets of the partitions specs name.
	deleteOffsets(ctx context.Context, cl *kafkaadmin.Client, group string, specs []resetplan.TopicSpec) (OffsetDeletion, error)
	// available reports whether the cluster has the family's groups.
	available(ctx context.Context, cl *kafkaadmin.Client) (bool, error)
	// unavailable is the error of an operation that asks for the
	// family's groups on a cluster without them, and note the line `kcg
	// list` prints then.
	unavailable() error
	note() string
	// commits reports whether the positions are committed offsets: then
	// describe reads their time lags and apply's --settle watches them
	// (a share group's consumers are always members, nothing commits
	// from outside it).
	commits() bool
	// tool is the Apache Kafka tool that manages the family's groups
	// ("": kafka-groups.sh, the generic one).
	tool() string
	// list is the family's groups in opts.States (a Java tool's --list;
	// opts.Types narrows the consumer family, kafka-consumer-groups' --type).
	list(ctx context.Context, cl *kafkaadmin.Client, opts kafkaadmin.ListGroupsOptions) ([]kafkaadmin.GroupListing, error)
	// missing is the wire's one-line error of a cluster without the
	// family's groups (what the Java tools print); nil for a family every
	// cluster has (no request is made to ask).
	missing() error
	// foreign is the refusal of a listed group that is not the family's,
	// named on the command line of the family's Java tool; nil when it is.
	foreign(g kafkaadmin.GroupListing) error
	// watchIn is what a sample of the Watcher takes of one partition.
	watchIn(s *Snapshot, g *Group, tp TopicPartition) partitionIn
}

// families is the registry: every family kcg manages, by name. Each
// family file registers its own value (register, from its init).
var families = map[Family]family{}

// register adds family f's value to the registry.
func register(f Family, v family) { families[f] = v }

// ManagedTypes are the group types (as ListGroups names them) of every
// registered family: the consumer family's first (classic, consumer),
// then the others' by family name. `kcg list --type` and `plan
// --all-groups --type` take them.
func ManagedTypes() []string {
	names := make([]Family, 0, len(families))
	for f := range families {
		if f != FamilyConsumer {
			names = append(names, f)
		}
	}
	slices.Sort(names)
	out := slices.Clone(families[FamilyConsumer].types())
	for _, f := range names {
		out = append(out, families[f].types()...)
	}
	return out
}

// familyOf is f's value; a group of no known family ("": a group the
// cluster does not list, a new one) is read as a consumer group.
func familyOf(f Family) family {
	if v, ok := families[f]; ok {
		return v
	}
	return families[FamilyConsumer]
}

// FamilyOf maps a type as ListGroups names it to its family. "" (a broker
// before ListGroups v5) is classic. A classic group of another protocol
// type (Connect) is FamilyConsumer here: use FamilyOfListing when the
// protocol type is known.
func FamilyOf(listedType string) Family {
	t := strings.ToLower(listedType)
	if t == "" {
		return FamilyConsumer
	}
	for name, f := range families {
		if slices.Contains(f.types(), t) {
			return name
		}
	}
	return FamilyOther
}

// FamilyOfListing is the family of a listed group: classic groups count as
// consumer groups only with the consumer protocol type (vocab.IsConsumerGroup).
func FamilyOfListing(g kafkaadmin.GroupListing) Family {
	if f := FamilyOf(g.Type); f != FamilyConsumer || vocab.IsConsumerGroup(g.Type, g.ProtocolType) {
		return f
	}
	return FamilyOther
}

// familyOfType is the family value of a group of type t (a plan entry's
// or a description's type).
func familyOfType(t string) family { return familyOf(FamilyOf(t)) }

// Op is an operation of kcg's commands on a group.
type Op string

// The operations of the commands. Every registered family has every
// operation; a group of no registered family (FamilyOther) has none and
// is refused with *OtherTypeError before anything is read or written.
const (
	OpDescribe      Op = "describe"
	OpPlan          Op = "plan"
	OpApply         Op = "apply"
	OpDelete        Op = "delete"
	OpDeleteOffsets Op = "delete-offsets"
)

// Handles reports whether kcg has operation op for groups of family f:
// whether f is registered.
func Handles(f Family, _ Op) bool {
	_, ok := families[f]
	return ok
}

// batchGroups splits ids by the family batch that reads them (fam: each
// id's family; streams groups are in the consumer batch), each in the
// order given, and returns the batches sorted: one request phase each.
func batchGroups(ids []string, fam func(string) Family) ([]Family, map[Family][]string) {
	byBatch := map[Family][]string{}
	for _, id := range ids {
		b := familyOf(fam(id)).batch()
		byBatch[b] = append(byBatch[b], id)
	}
	return slices.Sorted(maps.Keys(byBatch)), byBatch
}

// readFamilies reads ids, each with the family fam gives it, every family
// batch in its own request phases (in the order of the registry's names),
// and returns one Group per id in the order given, each carrying its
// family. have are groups read already (by id): not read again.
func readFamilies(ctx context.Context, cl *kafkaadmin.Client, ids []string, fam func(string) Family, have map[string]Group) ([]Group, error) {
	todo := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { _, ok := have[id]; return ok })
	batches, byBatch := batchGroups(todo, fam)
	got := make(map[string]Group, len(ids))
	for id, g := range have {
		got[id] = g
	}
	for _, b := range batches {
		gs, err := familyOf(b).read(ctx, cl, byBatch[b])
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			got[g.Name()] = g
		}
	}
	out := make([]Group, len(ids))
	for i, id := range ids {
		out[i] = got[id]
		if out[i].Family == "" {
			out[i].Family = fam(id)
		}
	}
	return out, nil
}

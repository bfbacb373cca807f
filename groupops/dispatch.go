package groupops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

// Dispatch by group type: the one place that says which group types kcg
// manages and which of its operations each type has.
//
// A group type plugs in by
//  1. setting its row in handled (below) for the operations it has, and
//  2. adding its case to the switch of the command that runs the
//     operation: every command splits its groups with Classify and runs
//     Typed.Of(FamilyConsumer), Typed.Of(FamilyShare) and
//     Typed.Of(FamilyStreams) through that family's code
//     (groupops/share*.go, groupops/streams*.go).
//
// Streams groups keep ordinary committed offsets (OffsetCommit,
// OffsetFetch, OffsetDelete, DeleteGroups), so they run through the
// consumer-group code: Typed.Committed is FamilyConsumer and
// FamilyStreams together, and that code adds what is streams-only (the
// topology and tasks of StreamsGroupDescribe, groupops/streams*.go).
//
// The consumer-group code itself (TakeSnapshot, ReadForPlan, Preflight,
// the deletes) keeps refusing anything but those two families
// (RefuseOtherTypes), so a group routed wrongly, or reused as another
// type since, is never read or written as a consumer group.
//
// A group of a family whose row lacks the operation is refused with
// *OtherTypeError (exit 3, nothing written) before anything is read or
// written: that is how share and streams groups were refused before they
// were managed, and how a type Kafka adds later still is.

// Family is how kcg handles a group: classic groups of the consumer
// protocol and KIP-848 consumer groups are one family (the offsets are
// committed offsets), share and streams groups each another.
type Family string

const (
	// FamilyConsumer is classic (protocol type consumer or "", and every
	// group of a broker before ListGroups v5) and consumer groups.
	FamilyConsumer Family = "consumer"
	// FamilyShare is KIP-932 share groups: their offsets are share-partition
	// start offsets (DescribeShareGroupOffsets, AlterShareGroupOffsets).
	FamilyShare Family = "share"
	// FamilyStreams is KIP-1071 streams groups.
	FamilyStreams Family = "streams"
	// FamilyOther is any other type (Connect groups, types Kafka adds
	// later): never managed.
	FamilyOther Family = "other"
)

// Op is an operation of kcg's commands on a group.
type Op string

// The operations the dispatch table knows.
const (
	OpDescribe      Op = "describe"
	OpPlan          Op = "plan"
	OpApply         Op = "apply"
	OpDelete        Op = "delete"
	OpDeleteOffsets Op = "delete-offsets"
)

// handled is the dispatch table: the operations kcg has for each family.
// A family or operation missing here is refused with *OtherTypeError.
var handled = map[Family][]Op{
	FamilyConsumer: {OpDescribe, OpPlan, OpApply, OpDelete, OpDeleteOffsets},
	FamilyShare:    {OpDescribe, OpPlan, OpApply, OpDelete, OpDeleteOffsets},
	FamilyStreams:  {OpDescribe, OpPlan, OpApply, OpDelete, OpDeleteOffsets},
}

// Handles reports whether kcg has operation op for groups of family f.
func Handles(f Family, op Op) bool {
	return slices.Contains(handled[f], op)
}

// FamilyOf maps a type as ListGroups names it to its family. "" (a broker
// before ListGroups v5) is classic. A classic group of another protocol
// type (Connect) is FamilyOther: use FamilyOfListing when the protocol type
// is known.
func FamilyOf(listedType string) Family {
	switch strings.ToLower(listedType) {
	case "", vocab.TypeClassic, vocab.TypeConsumer:
		return FamilyConsumer
	case vocab.TypeShare:
		return FamilyShare
	case vocab.TypeStreams:
		return FamilyStreams
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

// Typed is a command's groups split by family, each in the order given.
type Typed struct {
	ids    []string
	family map[string]Family
	types  map[string]string
}

// Of returns the groups of family f, in the order given.
func (t Typed) Of(f Family) []string {
	out := []string{}
	for _, id := range t.ids {
		if t.FamilyOf(id) == f {
			out = append(out, id)
		}
	}
	return out
}

// Committed returns the groups whose offsets are committed offsets
// (FamilyConsumer and FamilyStreams), in the order given: the groups the
// consumer-group code reads and writes.
func (t Typed) Committed() []string {
	out := []string{}
	for _, id := range t.ids {
		if committedFamily(t.FamilyOf(id)) {
			out = append(out, id)
		}
	}
	return out
}

// committedFamily reports whether groups of family f keep committed
// offsets, read and written by the consumer-group code.
func committedFamily(f Family) bool { return f == FamilyConsumer || f == FamilyStreams }

// RefuseUncommitted is RefuseOtherTypes over t: an *OtherTypeError for the
// first group (in the order given) whose family keeps no committed
// offsets, for code that reads only consumer and streams groups.
func (t Typed) RefuseUncommitted() error {
	for _, id := range t.ids {
		if !committedFamily(t.FamilyOf(id)) {
			return &OtherTypeError{Group: id, Type: t.types[id]}
		}
	}
	return nil
}

// FamilyOf is group id's family; an id the cluster does not list (a new
// group, or only committed offsets) is a consumer group.
func (t Typed) FamilyOf(id string) Family {
	if f, ok := t.family[id]; ok {
		return f
	}
	return FamilyConsumer
}

// listed reports whether the cluster listed id (with a type).
func (t Typed) listed(id string) bool {
	_, ok := t.family[id]
	return ok
}

// Only reports whether every group is of family f.
func (t Typed) Only(f Family) bool {
	return len(t.Of(f)) == len(t.ids)
}

// Classify lists the types of ids (ListGroups v5 of their coordinators
// only, so a broker that is down and coordinates none of them does not
// fail the command) and splits them by family. The first id (in the order
// given) of a family that has no op is an *OtherTypeError. describe, plan,
// apply and the deletes call it before they read or write a group, and
// apply again at apply time: a group id can be deleted and reused as
// another type between plan and apply.
func Classify(ctx context.Context, cl *kafkaadmin.Client, ids []string, op Op) (Typed, error) {
	if len(ids) == 0 {
		return Typed{}, nil
	}
	gs, err := cl.ListCoordinatedGroups(ctx, ids, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return Typed{}, err
	}
	return classifyListing(gs, ids, op)
}

// ClassifyNamed is Classify for groups named on the command line, done by
// reading them: it describes them and fetches their committed offsets at
// once (ReadGroups), and takes each group's type from the describe answer
// that knew it (ConsumerGroupDescribe: consumer, DescribeGroups: classic,
// StreamsGroupDescribe: streams). Only the groups no describe knew (a
// share group, a type kcg does not know, a group that does not exist) are
// looked up in their coordinators' listings, as Classify does. It returns
// what ReadGroups returns for the groups that keep committed offsets
// (Typed.Committed, in that order), so the caller does not read them
// again: describing one group no longer lists every group of its
// coordinator (a megabyte at 20,000 groups) to learn its type.
func ClassifyNamed(ctx context.Context, cl *kafkaadmin.Client, ids []string, op Op) (Typed, []Group, error) {
	if len(ids) == 0 {
		return Typed{}, nil, nil
	}
	gs, err := ReadGroups(ctx, cl, ids)
	if err != nil {
		return Typed{}, nil, err
	}
	t := Typed{ids: ids, family: make(map[string]Family, len(ids)), types: make(map[string]string, len(ids))}
	var unknown []string
	for i, g := range gs {
		switch {
		case g.Desc.Err != nil:
			// Not classified: read as a consumer group, whose read
			// carries the error (every read of it fails on its own).
		case g.Desc.Exists:
			t.family[ids[i]], t.types[ids[i]] = FamilyOf(g.Desc.Type), g.Desc.Type
		default:
			unknown = append(unknown, ids[i])
		}
	}
	if len(unknown) > 0 {
		listing, err := cl.ListCoordinatedGroups(ctx, unknown, kafkaadmin.ListGroupsOptions{})
		if err != nil {
			return Typed{}, nil, err
		}
		for _, g := range listing {
			if slices.Contains(unknown, g.Group) {
				t.family[g.Group], t.types[g.Group] = FamilyOf(g.Type), g.Type
			}
		}
	}
	for _, id := range ids {
		if f, ok := t.family[id]; ok && !Handles(f, op) {
			return t, nil, &OtherTypeError{Group: id, Type: t.types[id]}
		}
	}
	committed := make([]Group, 0, len(gs))
	for i, g := range gs {
		if committedFamily(t.FamilyOf(ids[i])) {
			committed = append(committed, g)
		}
	}
	return t, committed, nil
}

// classifyListing is Classify over a listing.
func classifyListing(listing []kafkaadmin.GroupListing, ids []string, op Op) (Typed, error) {
	t := Typed{ids: ids, family: make(map[string]Family, len(ids)), types: make(map[string]string, len(ids))}
	listed := make(map[string]string, len(listing))
	for _, g := range listing {
		listed[g.Group] = g.Type
	}
	for _, id := range ids {
		typ, ok := listed[id]
		if !ok {
			continue
		}
		f := FamilyOf(typ)
		t.family[id], t.types[id] = f, typ
		if !Handles(f, op) {
			return t, &OtherTypeError{Group: id, Type: typ}
		}
	}
	return t, nil
}

// AllGroupTypes are the types `plan --all-groups --type` accepts.
var AllGroupTypes = []string{vocab.TypeClassic, vocab.TypeConsumer, vocab.TypeShare, vocab.TypeStreams}

// DefaultAllGroupsTypes is what --all-groups means without --type:
// consumer groups only, so a consumer-group reset never touches a share
// or streams group by accident.
var DefaultAllGroupsTypes = []string{vocab.TypeClassic, vocab.TypeConsumer}

// ParseAllGroupsTypes parses --type of --all-groups: the Java tool's list
// syntax over classic, consumer, share and streams ("all" is every one of
// them).
func ParseAllGroupsTypes(input string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(input), TypeAll) {
		return slices.Clone(AllGroupTypes), nil
	}
	t, ok := parseNameList(input, AllGroupTypes)
	if !ok {
		return nil, fmt.Errorf("invalid --type %q: want a comma-separated list of %s, or all", input, strings.Join(AllGroupTypes, ", "))
	}
	return t, nil
}

// GroupIDsOfTypes lists the ids --all-groups means with types (nil: the
// default, DefaultAllGroupsTypes), sorted. A classic group counts only
// with the consumer protocol (Connect groups never). others counts the
// groups left out whose family kcg could manage or does not know
// (share, streams, other), so the caller can say so.
func GroupIDsOfTypes(ctx context.Context, cl *kafkaadmin.Client, types []string) (ids []string, others int, err error) {
	l, err := ListAllGroups(ctx, cl, types)
	if err != nil {
		return nil, 0, err
	}
	return l.IDs, l.Others, nil
}

// Listed is what --all-groups lists: the ids of the types asked (sorted),
// how many groups it left out (as GroupIDsOfTypes counts them), and the
// listing itself, which already names each id's type.
type Listed struct {
	IDs     []string
	Others  int
	listing []kafkaadmin.GroupListing
}

// Typed is Classify of l.IDs from the listing that found them: no request.
// A sample of kcg watch --all-groups or describe --all-groups used to list
// every group a second time to learn types the first listing had named.
func (l Listed) Typed(op Op) (Typed, error) {
	return classifyListing(l.listing, l.IDs, op)
}

// ListAllGroups is GroupIDsOfTypes keeping the listing (Listed.Typed).
func ListAllGroups(ctx context.Context, cl *kafkaadmin.Client, types []string) (Listed, error) {
	if types == nil {
		types = DefaultAllGroupsTypes
	}
	// --type all (or every type listed) is every type the cluster has: on
	// 3.9 and 4.0 it plans the consumer groups. A type named on its own
	// that the cluster lacks is refused below.
	every := len(types) == len(AllGroupTypes) && !slices.ContainsFunc(AllGroupTypes, func(t string) bool { return !slices.Contains(types, t) })
	if every {
		types = slices.Clone(types)
		for _, t := range []struct {
			name string
			has  func(context.Context) (bool, error)
		}{{vocab.TypeShare, cl.HasShareGroups}, {vocab.TypeStreams, cl.HasStreamsGroups}} {
			ok, err := t.has(ctx)
			if err != nil {
				return Listed{}, err
			}
			if !ok {
				types = slices.DeleteFunc(types, func(s string) bool { return s == t.name })
			}
		}
	}
	if slices.Contains(types, vocab.TypeShare) {
		// --type share on a cluster without share groups (3.9, 4.0):
		// say so rather than plan nothing.
		ok, err := cl.HasShareGroups(ctx)
		if err != nil {
			return Listed{}, err
		}
		if !ok {
			return Listed{}, &NoShareGroupsError{API: "ShareGroupDescribe"}
		}
	}
	if slices.Contains(types, vocab.TypeStreams) {
		// --type streams on a cluster without streams groups (3.9, 4.0,
		// kfake): the same, rather than plan nothing.
		ok, err := cl.HasStreamsGroups(ctx)
		if err != nil {
			return Listed{}, err
		}
		if !ok {
			return Listed{}, &NoStreamsGroupsError{}
		}
	}
	gs, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return Listed{}, err
	}
	ids, others := idsOfTypes(gs, types)
	return Listed{IDs: ids, Others: others, listing: gs}, nil
}

// idsOfTypes is GroupIDsOfTypes over a listing.
func idsOfTypes(gs []kafkaadmin.GroupListing, types []string) (ids []string, others int) {
	ids = []string{}
	for _, g := range gs {
		typ := strings.ToLower(g.Type)
		if typ == "" {
			typ = vocab.TypeClassic
		}
		switch {
		case FamilyOfListing(g) != FamilyOther && slices.Contains(types, typ):
			ids = append(ids, g.Group)
		case isOtherType(g.Type):
			others++
		}
	}
	slices.Sort(ids)
	return ids, others
}

package groupops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

// Which groups, of which family: the one place that answers it, for both
// command lines. Named groups are typed by reading them (ClassifyNamed),
// --all-groups by its own listing (ListAllGroups, Listed.Typed), a plan's
// groups by their coordinators' listings (Classify); `kcg list` lists by
// type (ListGroupsOfTypes, ListNotes) and completion offers the groups of
// every family (ManagedGroupNames). A group of no registered family is
// refused with *OtherTypeError before anything is read or written.

// Typed is a command's groups split by family, each in the order given,
// with what classifying them read already (named groups: ClassifyNamed),
// which Describe does not read again.
type Typed struct {
	ids    []string
	family map[string]Family
	types  map[string]string
	read   map[string]Group
}

// TypedAs is ids all of family f, as a caller that has checked their
// family knows them (the drop-in of a Java tool that manages one family).
func TypedAs(f Family, ids []string) Typed {
	t := Typed{ids: ids, family: make(map[string]Family, len(ids)), types: make(map[string]string, len(ids))}
	for _, id := range ids {
		t.family[id] = f
	}
	return t
}

// IDs are the groups, in the order given.
func (t Typed) IDs() []string { return t.ids }

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

// FamilyOf is group id's family; an id the cluster does not list (a new
// group, or only committed offsets) is a consumer group.
func (t Typed) FamilyOf(id string) Family {
	if f, ok := t.family[id]; ok {
		return f
	}
	return FamilyConsumer
}

// readAs returns the groups ClassifyNamed read that are to be read as
// the family fam gives them, so that readFamilies does not read them
// again; the others (a share group gone since its plan, read as the plan's
// family) are read by their family.
func (t Typed) readAs(fam func(string) Family) map[string]Group {
	have := make(map[string]Group, len(t.read))
	for id, g := range t.read {
		if g.Family == fam(id) {
			have[id] = g
		}
	}
	return have
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

// refuseFirst is the *OtherTypeError of the first group (in the order
// given) of no registered family, or nil.
func (t Typed) refuseFirst(op Op) error {
	for _, id := range t.ids {
		if f, ok := t.family[id]; ok && !Handles(f, op) {
			return &OtherTypeError{Group: id, Type: t.types[id]}
		}
	}
	return nil
}

// Classify lists the types of ids (ListGroups v5 of their coordinators
// only, so a broker that is down and coordinates none of them does not
// fail the command) and splits them by family. The first id (in the order
// given) of no registered family is an *OtherTypeError. The deletes call
// it before they read or write a group; plan and apply (again at apply
// time: a group id can be deleted and reused as another type between plan
// and apply) type their groups by reading them, ClassifyNamed, a round
// trip fewer.
func Classify(ctx context.Context, cl *kafkaadmin.Client, ids []string, op Op) (Typed, error) {
	if len(ids) == 0 {
		return Typed{}, nil
	}
	gs, err := listCoordinated(ctx, cl, ids)
	if err != nil {
		return Typed{}, err
	}
	return classifyListing(gs, ids, op)
}

// ClassifyNamed is Classify for groups named on the command line, done by
// reading them: the consumer family's read (describe and committed
// offsets at once, ReadGroups) types each group from the describe answer
// that knew it (ConsumerGroupDescribe: consumer, DescribeGroups: classic,
// StreamsGroupDescribe: streams). Only the groups no describe knew (a
// share group, a type kcg does not know, a group that does not exist) are
// looked up in their coordinators' listings, as Classify does. The groups
// of the families that read the same way are kept in the Typed, so
// Describe does not read them again: describing one group lists no group
// of its coordinator (a megabyte at 20,000 groups) to learn its type.
func ClassifyNamed(ctx context.Context, cl *kafkaadmin.Client, ids []string, op Op) (Typed, error) {
	if len(ids) == 0 {
		return Typed{}, nil
	}
	probe := familyOf(FamilyConsumer)
	gs, err := probe.read(ctx, cl, ids)
	if err != nil {
		return Typed{}, err
	}
	t := Typed{ids: ids, family: make(map[string]Family, len(ids)), types: make(map[string]string, len(ids)), read: make(map[string]Group, len(ids))}
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
		listing, err := listCoordinated(ctx, cl, unknown)
		if err != nil {
			return Typed{}, err
		}
		for _, g := range listing {
			if slices.Contains(unknown, g.Group) {
				t.family[g.Group], t.types[g.Group] = FamilyOf(g.Type), g.Type
			}
		}
	}
	if err := t.refuseFirst(op); err != nil {
		return t, err
	}
	for i, g := range gs {
		if f := t.FamilyOf(ids[i]); familyOf(f).batch() == probe.batch() {
			g.Family = f
			t.read[ids[i]] = g
		}
	}
	return t, nil
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

// DefaultAllGroupsTypes is what --all-groups means without --type:
// consumer groups only, so a consumer-group reset never touches a share
// or streams group by accident.
var DefaultAllGroupsTypes = []string{vocab.TypeClassic, vocab.TypeConsumer}

// ParseAllGroupsTypes parses --type of --all-groups: the Java tool's list
// syntax over classic, consumer, share and streams ("all" is every one of
// them).
func ParseAllGroupsTypes(input string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(input), TypeAll) {
		return ManagedTypes(), nil
	}
	t, ok := parseNameList(input, ManagedTypes())
	if !ok {
		return nil, fmt.Errorf("invalid --type %q: want a comma-separated list of %s, or all", input, strings.Join(ManagedTypes(), ", "))
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

// sortedFamilies are the registered families in name order: the order
// their availability is asked and their notes are printed in.
func sortedFamilies() []family {
	names := make([]Family, 0, len(families))
	for f := range families {
		names = append(names, f)
	}
	slices.Sort(names)
	out := make([]family, 0, len(names))
	for _, n := range names {
		out = append(out, families[n])
	}
	return out
}

// asks reports whether types name one of f's types.
func asks(types []string, f family) bool {
	return slices.ContainsFunc(f.types(), func(t string) bool { return slices.Contains(types, t) })
}

// ListAllGroups is GroupIDsOfTypes keeping the listing (Listed.Typed).
func ListAllGroups(ctx context.Context, cl *kafkaadmin.Client, types []string) (Listed, error) {
	if types == nil {
		types = DefaultAllGroupsTypes
	}
	// --type all (or every type listed) is every type the cluster has: on
	// 3.9 and 4.0 it plans the consumer groups. A type named on its own
	// that the cluster lacks is refused below.
	all := ManagedTypes()
	every := len(types) == len(all) && !slices.ContainsFunc(all, func(t string) bool { return !slices.Contains(types, t) })
	if every {
		types = slices.Clone(types)
		for _, f := range sortedFamilies() {
			ok, err := f.available(ctx, cl)
			if err != nil {
				return Listed{}, err
			}
			if !ok {
				types = slices.DeleteFunc(types, func(s string) bool { return slices.Contains(f.types(), s) })
			}
		}
	}
	// A type of a family the cluster lacks (--type share on 3.9, 4.0;
	// --type streams on kfake): say so rather than plan nothing.
	for _, f := range sortedFamilies() {
		if !asks(types, f) {
			continue
		}
		if ok, err := f.available(ctx, cl); err != nil {
			return Listed{}, err
		} else if !ok {
			return Listed{}, f.unavailable()
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

// noConsumerGroupsNote is ListNotes' line for --type consumer on a
// cluster without KIP-848 consumer groups.
const noConsumerGroupsNote = "note: the broker has no KIP-848 consumer groups (Kafka 3.9 with the consumer protocol on, 4.0 and later: it does not offer ConsumerGroupDescribe); every group it has is classic"

// ListNotes are the lines `kcg list --type` prints on stderr for each type
// it names that the cluster does not have (share groups before Kafka 4.1,
// streams groups before 4.1 or with the feature off, KIP-848 consumer
// groups before 3.9), so an empty list is not taken for "no such group";
// none when the cluster has them or types do not ask for them.
func ListNotes(ctx context.Context, cl *kafkaadmin.Client, types []string) ([]string, error) {
	var out []string
	if slices.Contains(types, vocab.TypeConsumer) {
		ok, err := cl.HasConsumerGroups(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, noConsumerGroupsNote)
		}
	}
	for _, f := range sortedFamilies() {
		if f.note() == "" || !asks(types, f) {
			continue
		}
		ok, err := f.available(ctx, cl)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, f.note())
		}
	}
	return out, nil
}

// ManagedGroupNames are the ids of the groups kcg manages (the groups of
// every registered family, as `kcg list --type all` shows them), less
// those of a type it refuses (Connect groups, types Kafka adds later):
// what shell completion offers. One listing of every broker.
func ManagedGroupNames(ctx context.Context, cl *kafkaadmin.Client) ([]string, error) {
	gs, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return nil, err
	}
	return managedGroups(gs), nil
}

// managedGroups is ManagedGroupNames over a listing.
func managedGroups(gs []kafkaadmin.GroupListing) []string {
	var names []string
	for _, g := range gs {
		if FamilyOfListing(g) != FamilyOther {
			names = append(names, g.Group)
		}
	}
	return names
}

// listCoordinated is the listing of ids' coordinators (every group
// each of them coordinates).
func listCoordinated(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]kafkaadmin.GroupListing, error) {
	return cl.ListCoordinatedGroups(ctx, ids, kafkaadmin.ListGroupsOptions{})
}

// MissingGroups returns the groups of ids the cluster does not list (of
// any type: a group with only committed offsets is listed too), in the
// order given, and, when some are missing, every group id the cluster
// lists, sorted, to suggest from. Whether a group exists is asked of its
// coordinator only, so a broker that is down and coordinates none of ids
// does not fail the check; it only makes the suggestions fewer.
func MissingGroups(ctx context.Context, cl *kafkaadmin.Client, ids []string) (missing, existing []string, err error) {
	gs, err := listCoordinated(ctx, cl, ids)
	if err != nil {
		return nil, nil, err
	}
	listed := make(map[string]bool, len(gs))
	for _, g := range gs {
		listed[g.Group] = true
	}
	for _, id := range ids {
		if !listed[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil, nil, nil
	}
	if all, lerr := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{}); lerr == nil {
		gs = all
	}
	return missing, groupIDs(gs), nil
}

// GroupNames is every group id the cluster lists, sorted: what to suggest
// from (ClosestNames) for a group a command found missing by other means
// (describe knows it from its coordinator's answers). One listing of
// every broker.
func GroupNames(ctx context.Context, cl *kafkaadmin.Client) ([]string, error) {
	gs, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return nil, err
	}
	return groupIDs(gs), nil
}

// groupIDs is the sorted, distinct ids of gs.
func groupIDs(gs []kafkaadmin.GroupListing) []string {
	ids := make([]string, 0, len(gs))
	for _, g := range gs {
		ids = append(ids, g.Group)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// RefuseOtherTypes returns an *OtherTypeError for the first of ids (in
// the order given) that is not a consumer group (FamilyConsumer), or nil:
// the consumer-group code (snapshot, plan, apply, deletes) calls it before
// it reads or writes, and apply again at apply time, since a group id can
// be deleted and reused as another type between plan and apply. The
// commands route other families elsewhere first (Classify).
func RefuseOtherTypes(ctx context.Context, cl *kafkaadmin.Client, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	gs, err := listCoordinated(ctx, cl, ids)
	if err != nil {
		return err
	}
	return otherTypeIn(gs, ids)
}

// otherTypeIn is RefuseOtherTypes over a listing.
func otherTypeIn(listing []kafkaadmin.GroupListing, ids []string) error {
	types := make(map[string]string, len(listing))
	for _, g := range listing {
		types[g.Group] = g.Type
	}
	for _, id := range ids {
		if t, ok := types[id]; ok && !commitsOffsets(FamilyOf(t)) {
			return &OtherTypeError{Group: id, Type: t}
		}
	}
	return nil
}

// ListGroupsOfTypes lists groups for `kcg list`, sorted by group id: with
// no types, the consumer groups (ListConsumerGroups); with "all", every
// group the broker lists; otherwise the groups of those types, a classic
// one only when it is a consumer group (as without --type).
func ListGroupsOfTypes(ctx context.Context, cl *kafkaadmin.Client, states, types []string) ([]kafkaadmin.GroupListing, error) {
	// kcg list shows states, and filters by them on every broker: ask
	// for them where ListGroups cannot say (before Kafka 2.6).
	opts := kafkaadmin.ListGroupsOptions{States: states, WithStates: true}
	if len(types) == 0 || (!slices.Contains(types, TypeAll) && !slices.ContainsFunc(types, isOtherType)) {
		opts.Types = types
		return ListConsumerGroups(ctx, cl, opts)
	}
	if !slices.Contains(types, TypeAll) {
		opts.Types = types
	}
	gs, err := cl.ListGroups(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := gs[:0:0]
	for _, g := range gs {
		if isOtherType(g.Type) || slices.Contains(types, TypeAll) || vocab.IsConsumerGroup(g.Type, g.ProtocolType) {
			out = append(out, g)
		}
	}
	return out, nil
}

// ListConsumerGroups lists the groups the Java tool lists as consumer
// groups (vocab.IsConsumerGroup), filtered by opts, sorted by group id.
func ListConsumerGroups(ctx context.Context, cl *kafkaadmin.Client, opts kafkaadmin.ListGroupsOptions) ([]kafkaadmin.GroupListing, error) {
	gs, err := cl.ListGroups(ctx, opts)
	if err != nil {
		return nil, err
	}
	out := gs[:0:0]
	for _, g := range gs {
		if vocab.IsConsumerGroup(g.Type, g.ProtocolType) {
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b kafkaadmin.GroupListing) int { return strings.Compare(a.Group, b.Group) })
	return out, nil
}

// AllGroupIDs lists every consumer group id, sorted: what --all-groups
// means without --type (GroupIDsOfTypes). others counts the share,
// streams and other non-consumer groups it left out, so the caller can
// say so.
func AllGroupIDs(ctx context.Context, cl *kafkaadmin.Client) (ids []string, others int, err error) {
	return GroupIDsOfTypes(ctx, cl, nil)
}

// What Apache Kafka's group tools (kafka-consumer-groups,
// kafka-share-groups, kafka-streams-groups: kcg's drop-in command lines,
// package dropin) ask about groups, each question with the family of
// groups the tool manages: which groups of that family the cluster lists,
// whether the cluster has the family at all, and whether a named group is
// of another family. dropin asks here and never on the wire.

// FilterError is ListFamily's answer to a filter the broker cannot
// apply: by state before Kafka 2.6, by type (without classic) on brokers
// without KIP-848's group types.
type FilterError = kafkaadmin.FilterError

// TopicPartitions is a member's assignment in one topic.
type TopicPartitions = kafkaadmin.TopicPartitions

// TaskIDs are a streams member's tasks of one subtopology.
type TaskIDs = kafkaadmin.TaskIDs

// CodeOf is the Kafka error code err carries (0 when none).
func CodeOf(err error) vocab.Code { return kafkaadmin.CodeOf(err) }

// ListFamily is a Java tool's --list: the groups of family f in states
// (none: every state), sorted by group id for the consumer family. types
// narrows the consumer family (kafka-consumer-groups' --type); the other
// families are one type each. As the Java tool, on a broker before
// ListGroups v4 (Kafka 2.6) it lists no states (State "") and a states
// filter fails with a *FilterError; before v5 (no KIP-848 group types),
// so does a types filter without classic.
func ListFamily(ctx context.Context, cl *kafkaadmin.Client, f Family, states, types []string) ([]kafkaadmin.GroupListing, error) {
	return familyOf(f).list(ctx, cl, kafkaadmin.ListGroupsOptions{States: states, Types: types, Strict: true})
}

// listOfTypes is the listing of the groups of type typ in opts.States.
func listOfTypes(ctx context.Context, cl *kafkaadmin.Client, opts kafkaadmin.ListGroupsOptions, typ string) ([]kafkaadmin.GroupListing, error) {
	opts.Types = []string{typ}
	return cl.ListGroups(ctx, opts)
}

// FamilyGroupIDs is a Java tool's --all-groups: every group id of family
// f, sorted.
func FamilyGroupIDs(ctx context.Context, cl *kafkaadmin.Client, f Family) ([]string, error) {
	gs, err := ListFamily(ctx, cl, f, nil, nil)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(gs))
	for i, g := range gs {
		ids[i] = g.Group
	}
	slices.Sort(ids)
	return ids, nil
}

// NoFamilyError is RequireFamily's answer on a cluster without the
// family's groups: Err says so in one line.
type NoFamilyError struct{ Err error }

func (e *NoFamilyError) Error() string { return e.Err.Error() }
func (e *NoFamilyError) Unwrap() error { return e.Err }

// RequireFamily returns a *NoFamilyError when the cluster has no groups
// of family f (share and streams groups need Kafka 4.1 or later), the
// wire's error when it cannot tell, and nil otherwise (always for the
// consumer family, without a request).
func RequireFamily(ctx context.Context, cl *kafkaadmin.Client, f Family) error {
	fam := familyOf(f)
	missing := fam.missing()
	if missing == nil {
		return nil
	}
	ok, err := fam.available(ctx, cl)
	if err != nil {
		return err
	}
	if !ok {
		return &NoFamilyError{Err: missing}
	}
	return nil
}

// ForeignGroupError refuses a group named on the command line of a Java
// tool for family Family that the cluster lists as another type: nothing
// was read or written.
type ForeignGroupError struct {
	Group  string
	Family Family
	// Type is the group's type as ListGroups names it; Tool the tool
	// that manages it.
	Type, Tool string
}

func (e *ForeignGroupError) Error() string {
	return fmt.Sprintf("Group '%s' is not a %s group (it is a %s group: manage it with %s); nothing was written", e.Group, e.Family, e.Type, e.Tool)
}

// foreignTo is the *ForeignGroupError of listed group g on the command
// line of family f's Java tool, whose groups are of type typ; nil when g
// is of that type.
func foreignTo(f Family, typ string, g kafkaadmin.GroupListing) error {
	if strings.EqualFold(g.Type, typ) {
		return nil
	}
	tool := ManagingTool(g.Type)
	if vocab.IsConsumerGroup(g.Type, g.ProtocolType) {
		tool = "kcg or kafka-consumer-groups.sh"
	}
	return &ForeignGroupError{Group: g.Group, Family: f, Type: g.Type, Tool: tool}
}

// RefuseForeignGroups refuses the first of ids (in the order given) the
// cluster lists as a group of another family than f, as f's Java tool
// words it (the family's foreign: an *OtherTypeError on
// kafka-consumer-groups' command line, a *ForeignGroupError on the
// others'), so a Java tool never resets or deletes a group of another
// tool. Groups the cluster does not list are not refused.
func RefuseForeignGroups(ctx context.Context, cl *kafkaadmin.Client, f Family, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	listed, err := listCoordinated(ctx, cl, ids)
	if err != nil {
		return err
	}
	byID := make(map[string]kafkaadmin.GroupListing, len(listed))
	for _, g := range listed {
		byID[g.Group] = g
	}
	fam := familyOf(f)
	for _, id := range ids {
		if g, ok := byID[id]; ok {
			if err := fam.foreign(g); err != nil {
				return err
			}
		}
	}
	return nil
}

// RefuseOtherTypesFor is the check a Java tool makes before it reads or
// writes the positions of groups: RefuseOtherTypes for the families whose
// positions are committed offsets (consumer, streams); nothing for the
// others (share groups), whose groups RefuseForeignGroups checked.
func RefuseOtherTypesFor(ctx context.Context, cl *kafkaadmin.Client, f Family, ids []string) error {
	if !familyOf(f).commits() {
		return nil
	}
	return RefuseOtherTypes(ctx, cl, ids)
}

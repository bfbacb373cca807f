package groupops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

// What Apache Kafka's group tools (kafka-consumer-groups,
// kafka-share-groups, kafka-streams-groups: kcg's drop-in command lines,
// package dropin) ask about groups, each question with the family of
// groups the tool manages: which groups of that family the cluster lists,
// whether the cluster has the family at all, and whether a named group is
// of another family. dropin asks here and never on the wire.

// TopicPartitions is a member's assignment in one topic.
type TopicPartitions = kafkaadmin.TopicPartitions

// TaskIDs are a streams member's tasks of one subtopology.
type TaskIDs = kafkaadmin.TaskIDs

// CodeOf is the Kafka error code err carries (0 when none).
func CodeOf(err error) vocab.Code { return kafkaadmin.CodeOf(err) }

// listedTypeOf is how ListGroups names the groups of family f ("" for
// the consumer family, which is two types and classic groups of the
// consumer protocol: ListConsumerGroups).
func listedTypeOf(f Family) string {
	switch f {
	case FamilyShare:
		return vocab.TypeShare
	case FamilyStreams:
		return vocab.TypeStreams
	}
	return ""
}

// ListFamily is a Java tool's --list: the groups of family f in states
// (none: every state), sorted by group id. types narrows the consumer
// family (kafka-consumer-groups' --type); the other families are one
// type each.
func ListFamily(ctx context.Context, cl *kafkaadmin.Client, f Family, states, types []string) ([]kafkaadmin.GroupListing, error) {
	if f == FamilyConsumer {
		return ListConsumerGroups(ctx, cl, kafkaadmin.ListGroupsOptions{States: states, Types: types})
	}
	return cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{States: states, Types: []string{listedTypeOf(f)}})
}

// FamilyGroupIDs is a Java tool's --all-groups: every group id of family
// f, sorted (AllGroupIDs for the consumer family).
func FamilyGroupIDs(ctx context.Context, cl *kafkaadmin.Client, f Family) ([]string, error) {
	if f == FamilyConsumer {
		ids, _, err := AllGroupIDs(ctx, cl)
		return ids, err
	}
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
	var has func(context.Context) (bool, error)
	var missing error
	switch f {
	case FamilyShare:
		has, missing = cl.HasShareGroups, &kafkaadmin.NoShareGroupsError{API: "ShareGroupDescribe"}
	case FamilyStreams:
		has, missing = cl.HasStreamsGroups, kafkaadmin.ErrNoStreamsGroups
	default:
		return nil
	}
	ok, err := has(ctx)
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

// RefuseForeignGroups refuses the first of ids (in the listing's order)
// the cluster lists as another type than family f's: a
// *ForeignGroupError, so kafka-share-groups and kafka-streams-groups
// never reset or delete a group of another tool; for the consumer family
// kafka-consumer-groups' own refusal, RefuseStreamsGroups.
func RefuseForeignGroups(ctx context.Context, cl *kafkaadmin.Client, f Family, ids []string) error {
	if f == FamilyConsumer {
		return RefuseStreamsGroups(ctx, cl, ids)
	}
	listed, err := cl.ListCoordinatedGroups(ctx, ids, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return err
	}
	for _, g := range listed {
		if slices.Contains(ids, g.Group) && !strings.EqualFold(g.Type, listedTypeOf(f)) {
			tool := ManagingTool(g.Type)
			if vocab.IsConsumerGroup(g.Type, g.ProtocolType) {
				tool = "kcg or kafka-consumer-groups.sh"
			}
			return &ForeignGroupError{Group: g.Group, Family: f, Type: g.Type, Tool: tool}
		}
	}
	return nil
}

// RefuseOtherTypesFor is the check a Java tool makes before it reads or
// writes the committed offsets of groups: RefuseOtherTypes for the
// families whose offsets are committed offsets (consumer, streams);
// nothing for share groups, whose start offsets RefuseForeignGroups
// checked.
func RefuseOtherTypesFor(ctx context.Context, cl *kafkaadmin.Client, f Family, ids []string) error {
	if f == FamilyShare {
		return nil
	}
	return RefuseOtherTypes(ctx, cl, ids)
}

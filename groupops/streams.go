package groupops

import (
	"context"
	"slices"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

// NoStreamsNote is the one line `kcg list --type streams` (or any --type
// naming streams) prints on stderr on a cluster without streams groups
// (Kafka before 4.1, or the feature off), so an empty list is not taken
// for "no application uses this cluster"; "" when the cluster has them
// or types do not ask for them. kcg manages streams groups like consumer
// groups (their offsets are the usual committed offsets); see
// docs/group-types.md.
func NoStreamsNote(ctx context.Context, cl *kafkaadmin.Client, types []string) (string, error) {
	if !slices.Contains(types, vocab.TypeStreams) {
		return "", nil
	}
	ok, err := cl.HasStreamsGroups(ctx)
	if err != nil || ok {
		return "", err
	}
	return "note: " + kafkaadmin.ErrNoStreamsGroups.Error(), nil
}

// NoStreamsGroupsError is `plan --all-groups --type streams` on a
// cluster without streams groups (Kafka 3.9, 4.0): exit 3, one line, as
// NoShareGroupsError for --type share. It wraps
// kafkaadmin.ErrNoStreamsGroups.
type NoStreamsGroupsError struct{}

func (*NoStreamsGroupsError) Error() string {
	return kafkaadmin.ErrNoStreamsGroups.Error() + "; nothing was written"
}

func (*NoStreamsGroupsError) Unwrap() error { return kafkaadmin.ErrNoStreamsGroups }

// RefuseStreamsGroups is RefuseOtherTypes that refuses streams groups
// too: the kafka-consumer-groups command line (drop-in mode) manages
// consumer groups only, as the Java tool does, so a script written for
// consumer groups never resets a Kafka Streams application by its
// application id; kafka-streams-groups' command line and kcg's own
// commands manage streams groups.
func RefuseStreamsGroups(ctx context.Context, cl *kafkaadmin.Client, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	gs, err := cl.ListCoordinatedGroups(ctx, ids, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return err
	}
	types := make(map[string]string, len(gs))
	for _, g := range gs {
		types[g.Group] = g.Type
	}
	for _, id := range ids {
		if t, ok := types[id]; ok && isOtherType(t) {
			return &OtherTypeError{Group: id, Type: t}
		}
	}
	return nil
}

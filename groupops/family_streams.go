package groupops

import (
	"context"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

// streamsFamily is FamilyStreams: KIP-1071 streams groups. They keep
// ordinary committed offsets (OffsetCommit, OffsetFetch, OffsetDelete,
// DeleteGroups), so they are read and written as consumer groups, in the
// same request phases; their describe (StreamsGroupDescribe) carries the
// topology and tasks in GroupDescription.Streams. Only whether the
// cluster has them is their own.
type streamsFamily struct{ consumerFamily }

// FamilyStreams is KIP-1071 streams groups.
const FamilyStreams Family = "streams"

func init() { register(FamilyStreams, streamsFamily{}) }

func (streamsFamily) types() []string { return []string{vocab.TypeStreams} }

func (streamsFamily) tool() string { return "kafka-streams-groups.sh" }

func (streamsFamily) available(ctx context.Context, cl *kafkaadmin.Client) (bool, error) {
	return cl.HasStreamsGroups(ctx)
}

func (streamsFamily) unavailable() error { return &NoStreamsGroupsError{} }

// note is the one line `kcg list --type streams` (or any --type naming
// streams) prints on stderr on a cluster without streams groups (Kafka
// before 4.1, or the feature off), so an empty list is not taken for "no
// application uses this cluster". See docs/group-types.md.
func (streamsFamily) note() string { return "note: " + kafkaadmin.ErrNoStreamsGroups.Error() }

// NoStreamsGroupsError is `plan --all-groups --type streams` on a
// cluster without streams groups (Kafka 3.9, 4.0): exit 3, one line, as
// NoShareGroupsError for --type share. It wraps
// kafkaadmin.ErrNoStreamsGroups.
type NoStreamsGroupsError struct{}

func (*NoStreamsGroupsError) Error() string {
	return kafkaadmin.ErrNoStreamsGroups.Error() + "; nothing was written"
}

func (*NoStreamsGroupsError) Unwrap() error { return kafkaadmin.ErrNoStreamsGroups }

func (streamsFamily) list(ctx context.Context, cl *kafkaadmin.Client, opts kafkaadmin.ListGroupsOptions) ([]kafkaadmin.GroupListing, error) {
	return listOfTypes(ctx, cl, opts, vocab.TypeStreams)
}

func (streamsFamily) missing() error { return kafkaadmin.ErrNoStreamsGroups }

func (streamsFamily) foreign(g kafkaadmin.GroupListing) error {
	return foreignTo(FamilyStreams, vocab.TypeStreams, g)
}

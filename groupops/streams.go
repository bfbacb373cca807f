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

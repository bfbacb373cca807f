package groupops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

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

// parseNameList parses a --state or --type value the way the Java tool
// does: comma-separated, trimmed, case-insensitive, trailing empty items
// dropped; any unknown or empty item makes the whole list invalid. It
// returns the canonical names.
func parseNameList(input string, valid []string) ([]string, bool) {
	items := strings.Split(input, ",")
	// Java's String.split drops trailing empty strings.
	for len(items) > 0 && items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	if len(items) == 0 {
		return nil, false
	}
	var out []string
	for _, it := range items {
		it = strings.TrimSpace(it)
		i := slices.IndexFunc(valid, func(v string) bool { return strings.EqualFold(v, it) })
		if i < 0 {
			return nil, false
		}
		out = append(out, valid[i])
	}
	return out, true
}

// ParseStates parses a --state list, with the Java tool's message when it
// is invalid.
func ParseStates(input string) ([]string, error) {
	s, ok := parseNameList(input, vocab.States)
	if !ok {
		return nil, fmt.Errorf("Invalid state list '%s'. Valid states are: %s", input, strings.Join(vocab.States, ", "))
	}
	return s, nil
}

// ParseTypes parses a --type list, with the Java tool's message when it is
// invalid.
func ParseTypes(input string) ([]string, error) {
	t, ok := parseNameList(input, vocab.ConsumerTypes)
	if !ok {
		return nil, fmt.Errorf("Invalid types list '%s'. Valid types are: %s", input, strings.Join(vocab.ConsumerTypes, ", "))
	}
	return t, nil
}

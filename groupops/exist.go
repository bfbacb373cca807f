package groupops

import (
	"context"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// MissingGroups returns the groups of ids the cluster does not list (of
// any type: a group with only committed offsets is listed too), in the
// order given, and, when some are missing, every group id the cluster
// lists, sorted, to suggest from. Whether a group exists is asked of its
// coordinator only, so a broker that is down and coordinates none of ids
// does not fail the check; it only makes the suggestions fewer.
func MissingGroups(ctx context.Context, cl *kafkaadmin.Client, ids []string) (missing, existing []string, err error) {
	gs, err := cl.ListCoordinatedGroups(ctx, ids, kafkaadmin.ListGroupsOptions{})
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

// ClosestNames returns up to n of candidates closest to name by edit
// distance (case-insensitive), nearest first, only those plausibly a typo
// of it: within a third of its length, at least 2 edits, or sharing its
// prefix or suffix.
func ClosestNames(name string, candidates []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	limit := max(2, len(name)/3)
	var s []scored
	lname := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(lname, lc)
		if d <= limit || (len(lname) >= 3 && (strings.HasPrefix(lc, lname) || strings.HasPrefix(lname, lc))) {
			s = append(s, scored{c, d})
		}
	}
	slices.SortStableFunc(s, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for i := 0; i < len(s) && i < n; i++ {
		out = append(out, s[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

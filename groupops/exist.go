package groupops

import (
	"slices"
	"strings"
)

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

package approval

import (
	"strings"
	"testing"
)

// patternsMeet: whether one principal can match both patterns, as
// OpenSSH's match_pattern would match it against each.
func TestPatternsMeet(t *testing.T) {
	cases := []struct {
		p, q string
		want bool
	}{
		{"alice", "alice", true},
		{"alice", "alice2", false},
		{"alice", "Alice", false},
		{"*@example.com", "alice@example.com", true},
		{"alice@example.com", "*@example.com", true},
		{"*@example.com", "alice@example.org", false},
		{"a*", "*b", true}, // "ab"
		{"a*", "b*", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"*", "anyone", true},
		{"*a*", "*b*", true}, // "ab"
		{"x*y", "x*z", false},
		{"??", "*", true},
		{"??", "???", false},
		{strings.Repeat("a", 2000), strings.Repeat("b", 2000), true}, // too long to search: cautious
	}
	for _, c := range cases {
		if got := patternsMeet(c.p, c.q); got != c.want {
			t.Errorf("patternsMeet(%.20q, %.20q) = %v, want %v", c.p, c.q, got, c.want)
		}
		if got := patternsMeet(c.q, c.p); got != c.want {
			t.Errorf("patternsMeet(%.20q, %.20q) = %v, want %v (reversed)", c.q, c.p, got, c.want)
		}
	}
	// Negated patterns name nobody: left out.
	if got := principalPatterns("!bob,alice,,*@x"); strings.Join(got, " ") != "alice *@x" {
		t.Errorf("principalPatterns = %q", got)
	}
}

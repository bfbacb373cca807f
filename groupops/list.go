package groupops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/vocab"
)

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

package groupops

import (
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/vocab"
)

// OtherTypeError refuses an operation on a group that exists as another
// type than a consumer group (a KIP-932 share group, a KIP-1071 streams
// group, or a type Kafka adds later): kcg reads and writes consumer
// groups only, and that group's offsets belong to another tool. Nothing
// was written. The exit-code mapping turns it into 3.
type OtherTypeError struct {
	Group string
	// Type is the group type as the broker's ListGroups names it.
	Type string
}

func (e *OtherTypeError) Error() string {
	return fmt.Sprintf("group %s is a %s group, not a consumer group: manage it with %s; nothing was written", e.Group, e.Type, ManagingTool(e.Type))
}

// ManagingTool names the Apache Kafka tool that manages groups of type t:
// its family's (family.tool), else kafka-groups.sh.
func ManagingTool(t string) string {
	if f, ok := families[FamilyOf(t)]; ok && f.tool() != "" {
		return f.tool()
	}
	return "kafka-groups.sh"
}

// isOtherType reports whether a group listed with type t is one kcg does
// not manage: anything but classic and consumer ("" is a broker before
// ListGroups v5, where every group is classic).
func isOtherType(t string) bool {
	switch strings.ToLower(t) {
	case "", vocab.TypeClassic, vocab.TypeConsumer:
		return false
	}
	return true
}

// commitsOffsets reports whether groups of family f are registered and
// keep committed offsets: the groups the consumer-group code reads and
// writes.
func commitsOffsets(f Family) bool {
	v, ok := families[f]
	return ok && v.commits()
}

// TypeAll is `kcg list --type all`: every group the broker lists.
const TypeAll = "all"

// ParseListTypes parses `kcg list --type`: the Java tool's list syntax
// over classic, consumer, share and streams, or "all". nil means the
// default: consumer groups, what `kafka-consumer-groups --list` lists.
func ParseListTypes(input string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(input), TypeAll) {
		return []string{TypeAll}, nil
	}
	t, ok := parseNameList(input, ManagedTypes())
	if !ok {
		return nil, fmt.Errorf("invalid --type %q: want a comma-separated list of %s, or all", input, strings.Join(ManagedTypes(), ", "))
	}
	return t, nil
}

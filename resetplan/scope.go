package resetplan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Scope is which partitions a reset covers: --all-topics, or one or more
// --topic T / --topic T:0,2. --from-file decides its own partitions; a
// scope given with it only has its partitions checked for existence, as in
// the Java tool.
type Scope struct {
	// AllTopics is --all-topics: per group, the partitions it has a
	// committed offset for. It wins over Topics, as in the Java tool.
	AllTopics bool
	// Topics are the --topic arguments in command-line order.
	Topics []TopicSpec
}

// TopicSpec is one --topic argument.
type TopicSpec struct {
	Topic string
	// Partitions are the listed partitions; nil means every partition.
	Partitions []int32
}

// Covers reports whether tp is one of the spec's partitions.
func (ts TopicSpec) Covers(tp TopicPartition) bool {
	return tp.Topic == ts.Topic && (ts.Partitions == nil || slices.Contains(ts.Partitions, tp.Partition))
}

// String is the spec as --topic takes it: "t" or "t:0,2".
func (ts TopicSpec) String() string {
	if ts.Partitions == nil {
		return ts.Topic
	}
	ps := make([]string, len(ts.Partitions))
	for i, p := range ts.Partitions {
		ps[i] = strconv.Itoa(int(p))
	}
	return ts.Topic + ":" + strings.Join(ps, ",")
}

// IsZero reports whether no scope was given.
func (s Scope) IsZero() bool { return !s.AllTopics && len(s.Topics) == 0 }

// NoScopeMessage is the Java tool's text for a reset without a scope.
const NoScopeMessage = "One of the reset scopes should be defined: --all-topics, --topic."

// ParseScope builds a Scope from --all-topics and the --topic values.
func ParseScope(allTopics bool, topicArgs []string) (Scope, error) {
	s := Scope{AllTopics: allTopics}
	for _, a := range topicArgs {
		ts, err := ParseTopicArg(a)
		if err != nil {
			return Scope{}, err
		}
		s.Topics = append(s.Topics, ts)
	}
	return s, nil
}

// ParseTopicArg parses "t" or "t:0,1,2" exactly as the Java tool does
// (String.split semantics: trailing empty pieces are dropped, so "t:0,1,"
// is t:0,1 but "t:" and "t:0,,1" are errors). A partition list is
// de-duplicated and sorted. Its errors' JavaMessage is the Java tool's text
// for drop-in mode, including the doubled quote of the second:
//
//	Invalid topic arg 't:', expected topic name and partitions
//	Invalid partition 'x' specified in topic arg 't:x''
func ParseTopicArg(arg string) (TopicSpec, error) {
	if !strings.Contains(arg, ":") {
		return TopicSpec{Topic: arg}, nil
	}
	parts := javaSplit(arg, ":")
	if len(parts) != 2 {
		return TopicSpec{}, &ArgError{Option: "topic", Value: arg,
			Msg:  "expected TOPIC or TOPIC:PARTITION[,PARTITION...]",
			Java: fmt.Sprintf("Invalid topic arg '%s', expected topic name and partitions", arg)}
	}
	// Non-nil even when empty: "t:," lists no partitions (Java: nothing
	// to reset), which is not the same as "t" (every partition).
	ts := TopicSpec{Topic: parts[0], Partitions: []int32{}}
	for _, p := range javaSplit(parts[1], ",") {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return TopicSpec{}, &ArgError{Option: "topic", Value: arg,
				Msg:  fmt.Sprintf("partition %q is not a number", p),
				Java: fmt.Sprintf("Invalid partition '%s' specified in topic arg '%s''", p, arg)}
		}
		ts.Partitions = append(ts.Partitions, int32(n))
	}
	slices.Sort(ts.Partitions)
	ts.Partitions = slices.Compact(ts.Partitions)
	return ts, nil
}

// javaSplit is Java's String.split(sep) for a literal separator: trailing
// empty strings are removed.
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

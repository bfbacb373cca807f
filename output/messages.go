package output

import (
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/vocab"
)

// The per-group state messages of the Java tool
// (ConsumerGroupCommand.shouldPrintMemberState). kcg prints the same texts
// in both modes; only the stream of the "does not exist" errors differs
// (see StateNotice).

// NoActiveMembersMessage is printed for an Empty group: its offsets are
// shown, but nobody consumes them.
func NoActiveMembersMessage(group string) string {
	return "Consumer group '" + group + "' has no active members."
}

// NoActiveMembersSummary is kcg's one line for several Empty groups
// (`describe --all-groups` would otherwise print a line per idle group
// before the table): how many, and the first few names in order. One
// group gets NoActiveMembersMessage, Java's text.
func NoActiveMembersSummary(groups []string) string {
	if len(groups) == 1 {
		return NoActiveMembersMessage(groups[0])
	}
	const shown = 3
	names := groups
	more := ""
	if len(names) > shown {
		names, more = names[:shown], fmt.Sprintf(" and %d more", len(groups)-shown)
	}
	return fmt.Sprintf("%d consumer groups have no active members: %s%s.", len(groups), strings.Join(names, ", "), more)
}

// RebalancingMessage is printed for a group in PreparingRebalance,
// CompletingRebalance, Assigning or Reconciling: what follows may change
// in a moment.
func RebalancingMessage(group string) string {
	return "Warning: Consumer group '" + group + "' is rebalancing."
}

// DeadGroupMessage is printed for a Dead group (what brokers before 4.0
// report for a group that does not exist).
func DeadGroupMessage(group string) string {
	return "Error: Consumer group '" + group + "' does not exist."
}

// MissingGroupMessage is printed when the describe result has no data at
// all for a group.
func MissingGroupMessage(group string) string {
	return "Error: The consumer group '" + group + "' does not exist."
}

// OtherProtocolNotice is kcg's note for a classic group of another
// protocol type than consumer (Kafka Connect's worker group: "connect"),
// whose offsets table is empty: it has members and a state, no offsets.
func OtherProtocolNotice(group, protocolType string) string {
	who := ""
	if protocolType == "connect" {
		who = " (Kafka Connect's workers)"
	}
	return fmt.Sprintf("note: group %s is a classic group of protocol type %q%s, not a consumer group: it has no offsets to show; --members and --state show its members", group, protocolType, who)
}

// Stream names one of the two output streams.
type Stream int

// The streams: data on Stdout, warnings and errors on Stderr.
const (
	Stdout Stream = iota
	Stderr
)

// Notice is a message and the stream the Java tool prints it on.
type Notice struct {
	Text   string
	Stream Stream
}

// StateNotice returns the Java tool's message for a group in state, and
// the stream Java prints it on: Empty ("has no active members") and the
// rebalancing states ("is rebalancing") on stderr; Dead ("does not
// exist") and a nil state (no data: "The consumer group ... does not
// exist") on stdout, because Java's printError writes to System.out. ok
// is false when there is nothing to say (Stable, or a state Java does not
// know).
//
// In drop-in mode the caller keeps Java's stream, preceded by an empty
// line ("\n" + Text + "\n") as Java prints it; kcg's own commands send
// every notice to stderr so stdout holds only data.
func StateNotice(group string, state *string) (n Notice, ok bool) {
	if state == nil {
		return Notice{MissingGroupMessage(group), Stdout}, true
	}
	switch {
	case *state == vocab.StateDead:
		return Notice{DeadGroupMessage(group), Stdout}, true
	case *state == vocab.StateEmpty:
		return Notice{NoActiveMembersMessage(group), Stderr}, true
	case vocab.IsRebalancing(*state):
		return Notice{RebalancingMessage(group), Stderr}, true
	}
	return Notice{}, false
}

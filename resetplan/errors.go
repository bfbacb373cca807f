package resetplan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinels the commands layer maps to exit codes with errors.Is.
var (
	// ErrBadInput marks bad input data: a malformed plan or CSV, an
	// unknown plan version (exit 65).
	ErrBadInput = errors.New("bad input data")
	// ErrInvalidArgument marks a bad option value: a datetime, duration,
	// offset, --topic argument, or a missing scope (exit 64).
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrUnsupportedVersion marks a plan whose apiVersion this kcg does not
	// read (also ErrBadInput).
	ErrUnsupportedVersion = errors.New("unsupported plan version")
	// ErrLooksLikeCSV marks a Java CSV export given where a plan was
	// expected (also ErrBadInput).
	ErrLooksLikeCSV = errors.New("kafka-consumer-groups CSV given as a plan")
	// ErrUnknownTopic marks a topic that does not exist.
	ErrUnknownTopic = errors.New("unknown topic")
	// ErrUnknownPartition marks a partition that does not exist.
	ErrUnknownPartition = errors.New("unknown partition")
	// ErrNoCommittedOffset marks --shift-by on a partition without a commit.
	ErrNoCommittedOffset = errors.New("no committed offset")
	// ErrNoSourceCommit marks a --to-group whose source group has no
	// committed offset on any partition of the scope (a refusal, exit 3).
	ErrNoSourceCommit = errors.New("source group has no committed offset in scope")
)

// DecodeError is bad input data in a plan file or CSV. It matches
// ErrBadInput, and whatever Err wraps (ErrUnsupportedVersion,
// ErrLooksLikeCSV).
type DecodeError struct {
	// Format is "yaml", "json", "csv" or "plan" (not yet known which).
	Format string
	// Line is the 1-based line of the problem, 0 when unknown.
	Line int
	// Msg is the operator-facing description.
	Msg string
	// Err is an underlying cause or sentinel; may be nil.
	Err error
}

// Error reads like "plan (yaml) line 20: unknown field ...", or
// "CSV line 3: ...".
func (e *DecodeError) Error() string {
	var b strings.Builder
	switch e.Format {
	case "csv":
		b.WriteString("CSV")
	case "yaml", "json":
		b.WriteString("plan (" + e.Format + ")")
	default:
		b.WriteString("plan")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap exposes the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// Is makes every DecodeError match ErrBadInput.
func (e *DecodeError) Is(target error) bool { return target == ErrBadInput }

// ArgError is a bad option value. Error is kcg's message; Java is the Java
// tool's exact text for drop-in mode (empty when the Java tool has none).
type ArgError struct {
	// Option is the option's name without dashes, e.g. "to-datetime".
	Option string
	Value  string
	Msg    string
	Java   string
}

// Error names the option and the value: invalid --to-datetime "x": ....
func (e *ArgError) Error() string {
	if e.Option == "" {
		return e.Msg
	}
	return fmt.Sprintf("invalid --%s %q: %s", e.Option, e.Value, e.Msg)
}

// JavaMessage returns the Java tool's text for this error, falling back to
// kcg's.
func (e *ArgError) JavaMessage() string {
	if e.Java != "" {
		return e.Java
	}
	return e.Error()
}

// Is makes every ArgError match ErrInvalidArgument.
func (e *ArgError) Is(target error) bool { return target == ErrInvalidArgument }

// NotFoundError names the topics and partitions of a scope or file that do
// not exist. Its text for partitions is the Java tool's
// `The partitions "t-2,t-3" do not exist`.
type NotFoundError struct {
	// Topics were named without partitions (--topic t) and do not exist.
	Topics []string
	// Partitions were named explicitly (--topic t:2,3 or a file row).
	Partitions []TopicPartition
}

// Error uses the Java tool's text for partitions, so drop-in mode prints
// it unchanged.
func (e *NotFoundError) Error() string {
	var parts []string
	if len(e.Topics) > 0 {
		q := make([]string, len(e.Topics))
		for i, t := range e.Topics {
			q[i] = fmt.Sprintf("%q", t)
		}
		word := "topic"
		if len(q) > 1 {
			word = "topics"
		}
		parts = append(parts, fmt.Sprintf("%s %s do not exist", word, strings.Join(q, ", ")))
		if len(q) == 1 {
			parts[0] = fmt.Sprintf("topic %s does not exist", q[0])
		}
	}
	if len(e.Partitions) > 0 {
		s := make([]string, len(e.Partitions))
		for i, tp := range e.Partitions {
			s[i] = tp.KafkaName()
		}
		parts = append(parts, fmt.Sprintf("The partitions %q do not exist", strings.Join(s, ",")))
	}
	return strings.Join(parts, "; ")
}

// Is matches ErrUnknownTopic and/or ErrUnknownPartition.
func (e *NotFoundError) Is(target error) bool {
	return (target == ErrUnknownTopic && len(e.Topics) > 0) ||
		(target == ErrUnknownPartition && len(e.Partitions) > 0)
}

// NoCommitError is --shift-by on a partition without a committed offset.
// The Java tool aborts the whole reset with this exact text; so does kcg.
type NoCommitError struct {
	Group string
	TopicPartition
}

// Error is the Java tool's exact text.
func (e *NoCommitError) Error() string {
	return fmt.Sprintf("Cannot shift offset for partition %s since there is no current committed offset", e.TopicPartition.KafkaName())
}

// Is matches ErrNoCommittedOffset.
func (e *NoCommitError) Is(target error) bool { return target == ErrNoCommittedOffset }

// NoSourceCommitError is a --to-group plan refused because SOURCE never
// committed any partition of the scope: there is nothing to copy.
type NoSourceCommitError struct {
	Source     string
	Partitions []TopicPartition
}

// Error names the source and the partitions of the scope.
func (e *NoSourceCommitError) Error() string {
	return fmt.Sprintf("%s has no committed offset on %s; no plan was written", e.Source, partitionNames(e.Partitions))
}

// Is matches ErrNoSourceCommit.
func (e *NoSourceCommitError) Is(target error) bool { return target == ErrNoSourceCommit }

// partitionNames lists partitions as the Java tool names them: "t-0, t-1".
func partitionNames(tps []TopicPartition) string {
	s := make([]string, len(tps))
	for i, tp := range tps {
		s[i] = tp.KafkaName()
	}
	return strings.Join(s, ", ")
}

// ErrNoCheckpoint marks a --translate-from plan refused because a group
// has no checkpoint in scope (a refusal, exit 3).
var ErrNoCheckpoint = errors.New("no checkpoint for the group")

// NoCheckpointError is a --translate-from plan refused because MirrorMaker
// 2 has written no checkpoint for some groups (in the scope given): there
// is no translation to fail them over to.
type NoCheckpointError struct {
	Topic  string
	Groups []string
}

// Error names the groups and the checkpoints topic.
func (e *NoCheckpointError) Error() string {
	what := "group " + strconv.Quote(e.Groups[0]) + " has"
	if len(e.Groups) > 1 {
		q := make([]string, len(e.Groups))
		for i, g := range e.Groups {
			q[i] = strconv.Quote(g)
		}
		what = "groups " + strings.Join(q, ", ") + " have"
	}
	return fmt.Sprintf("%s no checkpoint in %s (in the scope given): MirrorMaker 2 has not translated their offsets (check the group filter, groups.exclude, and that the group committed on the source); no plan was written", what, e.Topic)
}

// Is matches ErrNoCheckpoint.
func (e *NoCheckpointError) Is(target error) bool { return target == ErrNoCheckpoint }

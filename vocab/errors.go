package vocab

import (
	"errors"
	"strings"

	"github.com/segmentio/kafka-go"
)

// ErrGroupNotFound means the group does not exist on the cluster. Every
// layer that learns it wraps this sentinel, and callers test it with
// errors.Is, never by its text.
var ErrGroupNotFound = errors.New("the group does not exist")

// Code is a Kafka protocol error code. kafka-go's kafka.Error is the type,
// so errors.Is(err, kafka.X) keeps working across layers.
type Code = kafka.Error

// The codes kcg's operations meet and explain.
const (
	CodeUnknownTopicOrPartition Code = kafka.UnknownTopicOrPartition
	CodeUnknownMemberID         Code = kafka.UnknownMemberId
	CodeInvalidGroupID          Code = kafka.InvalidGroupId
	CodeNonEmptyGroup           Code = kafka.NonEmptyGroup
	CodeGroupIDNotFound         Code = kafka.GroupIdNotFound
	CodeGroupSubscribedToTopic  Code = kafka.GroupSubscribedToTopic
	CodeGroupAuthorization      Code = kafka.GroupAuthorizationFailed
	CodeTopicAuthorization      Code = kafka.TopicAuthorizationFailed
	CodeClusterAuthorization    Code = kafka.ClusterAuthorizationFailed
)

type codeInfo struct {
	// meaning is what the code means to an operator, without the request
	// name: the message it is printed with already names the group or
	// partition.
	meaning string
	// java is the exception the Java Admin client builds for the code,
	// with its default message (its toString()), as the Java tool prints
	// it in --delete and --delete-offsets results.
	java string
}

var codes = map[Code]codeInfo{
	CodeUnknownTopicOrPartition: {"the topic or partition does not exist",
		"org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition."},
	CodeUnknownMemberID: {"the group has active members (the broker refused the commit with UNKNOWN_MEMBER_ID); stop its consumers first", ""},
	CodeInvalidGroupID: {"the group id is invalid",
		"org.apache.kafka.common.errors.InvalidGroupIdException: The configured groupId is invalid."},
	CodeNonEmptyGroup: {"the group is not empty: it has active members; stop its consumers first",
		"org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty."},
	CodeGroupIDNotFound: {ErrGroupNotFound.Error(),
		"org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist."},
	CodeGroupSubscribedToTopic: {"the group is subscribed to this topic and has active members; stop its consumers first",
		"org.apache.kafka.common.errors.GroupSubscribedToTopicException: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."},
	CodeGroupAuthorization:   {"not authorized to access the group", ""},
	CodeTopicAuthorization:   {"not authorized to access the topic", ""},
	CodeClusterAuthorization: {"not authorized for this cluster operation", ""},
}

// Meaning returns what code means to an operator; ok is false for a code
// kcg has no text of its own for (the caller then uses Kafka's
// description).
func Meaning(code Code) (text string, ok bool) {
	i, ok := codes[code]
	return i.meaning, ok
}

// Describe renders code in operator language: Meaning where kcg has one,
// otherwise Kafka's description and the code's name.
func Describe(code Code) string {
	if t, ok := Meaning(code); ok {
		return t
	}
	return code.Description() + " (" + code.Title() + ")"
}

// JavaException returns what the Java tool prints for code in --delete and
// --delete-offsets results; ok is false for a code it has no fixed text
// for.
func JavaException(code Code) (text string, ok bool) {
	i := codes[code]
	return i.java, i.java != ""
}

// OneLine keeps a message on one line, as every message kcg prints must
// be: newlines and runs of white space become one space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

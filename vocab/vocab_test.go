package vocab

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/segmentio/kafka-go"
)

func TestPartitionNamesAndOrder(t *testing.T) {
	tp := TopicPartition{Topic: "orders", Partition: 2}
	if got := tp.String(); got != "orders/2" {
		t.Errorf("String = %q", got)
	}
	if got := tp.KafkaName(); got != "orders-2" {
		t.Errorf("KafkaName = %q", got)
	}
	in := []TopicPartition{{"b", 0}, {"a", 10}, {"a", 2}, {"b", 0}, {"a", 2}}
	got := SortedPartitions(in)
	want := []TopicPartition{{"a", 2}, {"a", 10}, {"b", 0}}
	if !slices.Equal(got, want) {
		t.Errorf("SortedPartitions = %v, want %v", got, want)
	}
	if in[0] != (TopicPartition{"b", 0}) {
		t.Errorf("SortedPartitions changed its input: %v", in)
	}
	if d := Dedupe([]string{"x", "y", "x", "z", "y"}); !slices.Equal(d, []string{"x", "y", "z"}) {
		t.Errorf("Dedupe = %v", d)
	}
}

func TestGroupStatesAndTypes(t *testing.T) {
	for _, s := range []string{StatePreparingRebalance, StateCompletingRebalance, StateAssigning, StateReconciling} {
		if !IsRebalancing(s) {
			t.Errorf("IsRebalancing(%s) = false", s)
		}
	}
	for _, s := range []string{StateStable, StateEmpty, StateDead, ""} {
		if IsRebalancing(s) {
			t.Errorf("IsRebalancing(%q) = true", s)
		}
	}
	for _, s := range []string{StateEmpty, StateDead, ""} {
		if !MayReset(s) {
			t.Errorf("MayReset(%q) = false", s)
		}
	}
	if MayReset(StateStable) || MayReset(StateReconciling) {
		t.Error("MayReset allows a group with members")
	}
	cases := []struct {
		typ, proto string
		want       bool
	}{
		{"", "consumer", true}, {"classic", "", true}, {"Classic", "consumer", true},
		{"classic", "connect", false}, {"consumer", "consumer", true},
		{"share", "share", false}, {"streams", "streams", false},
	}
	for _, c := range cases {
		if got := IsConsumerGroup(c.typ, c.proto); got != c.want {
			t.Errorf("IsConsumerGroup(%q, %q) = %v", c.typ, c.proto, got)
		}
	}
}

func TestCodes(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", kafka.Error(CodeNonEmptyGroup))
	if !errors.Is(err, kafka.NonEmptyGroup) {
		t.Error("a vocab code is not kafka-go's code")
	}
	if got, _ := Meaning(CodeGroupIDNotFound); got != ErrGroupNotFound.Error() {
		t.Errorf("GROUP_ID_NOT_FOUND means %q", got)
	}
	if _, ok := JavaException(CodeGroupAuthorization); ok {
		t.Error("no fixed Java text is expected for GROUP_AUTHORIZATION_FAILED")
	}
	if got := Describe(kafka.Error(7)); got == "" {
		t.Error("Describe of an unexplained code is empty")
	}
}

// TestJavaException pins the Java texts byte for byte: drop-in mode prints
// them where the Java tool prints its exceptions.
func TestJavaException(t *testing.T) {
	want := map[Code]string{
		3:  "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.",
		24: "org.apache.kafka.common.errors.InvalidGroupIdException: The configured groupId is invalid.",
		68: "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty.",
		69: "org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.",
		86: "org.apache.kafka.common.errors.GroupSubscribedToTopicException: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.",
	}
	for code, text := range want {
		if got, ok := JavaException(code); !ok || got != text {
			t.Errorf("JavaException(%d) = %q, %v", code, got, ok)
		}
	}
	for _, code := range []Code{0, 15, 16, 29, 30} {
		if got, ok := JavaException(code); ok {
			t.Errorf("JavaException(%d) = %q, want no text", code, got)
		}
	}
}

package vocab

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// TopicPartition names one partition of a topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String renders "topic/partition", kcg's way of naming a partition in its
// own messages.
func (tp TopicPartition) String() string { return fmt.Sprintf("%s/%d", tp.Topic, tp.Partition) }

// KafkaName renders "topic-partition", the form of Kafka's own messages
// (org.apache.kafka.common.TopicPartition.toString), which drop-in mode
// and the plan's Java-compatible messages print.
func (tp TopicPartition) KafkaName() string { return fmt.Sprintf("%s-%d", tp.Topic, tp.Partition) }

// Compare orders partitions by topic, then partition number: the order of
// every request and every list kcg prints, so two runs diff cleanly.
func (tp TopicPartition) Compare(o TopicPartition) int {
	if c := cmp.Compare(tp.Topic, o.Topic); c != 0 {
		return c
	}
	return cmp.Compare(tp.Partition, o.Partition)
}

// SortPartitions sorts tps in place by (topic, partition).
func SortPartitions(tps []TopicPartition) {
	slices.SortFunc(tps, TopicPartition.Compare)
}

// SortedPartitions returns tps without repeats, sorted by (topic,
// partition); tps is not modified.
func SortedPartitions(tps []TopicPartition) []TopicPartition {
	out := slices.Clone(tps)
	SortPartitions(out)
	return slices.Compact(out)
}

// Dedupe returns in without repeats, in first-seen order.
func Dedupe[T comparable](in []T) []T {
	seen := make(map[T]bool, len(in))
	var out []T
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Count is n and noun, singular for one: "1 partition", "3 partitions".
// Every count in kcg's own messages goes through it (the Java tool's
// texts in drop-in mode are Java's).
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

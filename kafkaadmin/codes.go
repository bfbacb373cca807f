package kafkaadmin

import (
	"errors"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
)

// CodeOf returns the Kafka error code err carries, 0 when none: a broker's
// code (KafkaError or kafka-go's kafka.Error), or UNKNOWN_TOPIC_OR_PARTITION
// for a topic the metadata did not know.
func CodeOf(err error) vocab.Code {
	var ke *KafkaError
	if errors.As(err, &ke) {
		return ke.Code
	}
	var ut *UnknownTopicError
	if errors.As(err, &ut) {
		return vocab.CodeUnknownTopicOrPartition
	}
	var kc kafka.Error
	if errors.As(err, &kc) {
		return kc
	}
	return 0
}

// Meaning says what err means to an operator, without the request name:
// the entry it is printed with already names the group or partition.
func Meaning(err error) string {
	if t, ok := vocab.Meaning(CodeOf(err)); ok {
		return t
	}
	return vocab.OneLine(err.Error())
}

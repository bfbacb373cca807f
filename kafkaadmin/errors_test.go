package kafkaadmin

import (
	"errors"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
)

func TestKafkaErrorSpeaksVocab(t *testing.T) {
	e := &KafkaError{Op: "DeleteGroups", What: "group g", Code: kafka.NonEmptyGroup}
	if want := "DeleteGroups group g: " + vocab.Describe(vocab.CodeNonEmptyGroup); e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	if !errors.Is(e, kafka.NonEmptyGroup) || errors.Is(e, vocab.ErrGroupNotFound) {
		t.Errorf("errors.Is of %v is wrong", e)
	}
	missing := &KafkaError{Op: "OffsetFetch", What: "group g", Code: kafka.GroupIdNotFound}
	if !errors.Is(missing, vocab.ErrGroupNotFound) || !strings.HasSuffix(missing.Error(), vocab.ErrGroupNotFound.Error()) {
		t.Errorf("GROUP_ID_NOT_FOUND: %v is not vocab.ErrGroupNotFound", missing)
	}
}

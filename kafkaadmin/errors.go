package kafkaadmin

import (
	"context"
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
)

// UnreachableError means no broker of the cluster answered.
type UnreachableError struct {
	Bootstrap string
	Err       error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach Kafka at %s: %v", e.Bootstrap, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// AuthError means the cluster answered but refused kcg's SASL
// authentication (wrong user or password, or a mechanism it does not
// enable).
type AuthError struct {
	Bootstrap string
	Err       error
}

func (e *AuthError) Error() string {
	var me *connconfig.MechanismError
	if errors.As(e.Err, &me) {
		// The mechanism's own line says what to check.
		return fmt.Sprintf("authentication to Kafka at %s failed: %v", e.Bootstrap, me)
	}
	return fmt.Sprintf("authentication to Kafka at %s failed (check the SASL mechanism, user and password): %v", e.Bootstrap, e.Err)
}

func (e *AuthError) Unwrap() error { return e.Err }

// TimeoutError means the command's deadline (--timeout) expired before the
// cluster answered.
type TimeoutError struct{ Bootstrap string }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("timed out waiting for Kafka at %s (raise --timeout if the cluster is slow)", e.Bootstrap)
}

// Is lets callers test errors.Is(err, context.DeadlineExceeded).
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// KafkaError is an error code returned by a broker, with its meaning, and
// where known the operation and object it applied to.
type KafkaError struct {
	Op   string // e.g. "OffsetCommit"
	What string // e.g. "group billing" or "payments/0"
	Code kafka.Error
	Msg  string // broker-supplied message, if any
}

func (e *KafkaError) Error() string {
	s := e.Op
	if e.What != "" {
		s += " " + e.What
	}
	s += ": " + vocab.Describe(e.Code)
	if e.Msg != "" && e.Msg != e.Code.Description() {
		s += " (" + e.Msg + ")"
	}
	return s
}

// Unwrap exposes the kafka-go error code so errors.Is(err, kafka.X) works.
func (e *KafkaError) Unwrap() error { return e.Code }

// Is makes errors.Is(err, vocab.ErrGroupNotFound) true for
// GROUP_ID_NOT_FOUND, so the layers above test for a missing group one
// way, whichever layer learnt it.
func (e *KafkaError) Is(target error) bool {
	return target == vocab.ErrGroupNotFound && e.Code == vocab.CodeGroupIDNotFound
}

func kerr(op, what string, code int16, msg *string) error {
	if code == 0 {
		return nil
	}
	e := &KafkaError{Op: op, What: what, Code: kafka.Error(code)}
	if msg != nil {
		e.Msg = *msg
	}
	return e
}

// partitionErr is kerr for one partition of a group's answer; the text
// naming it is built only for an error (a group's answers carry 128,000
// partitions at 2,000 groups × 64, nearly always without one).
func partitionErr(op, group string, tp TopicPartition, code int16) error {
	if code == 0 {
		return nil
	}
	return kerr(op, "group "+group+" partition "+tp.String(), code, nil)
}

// retriable reports whether err is transient: the coordinator or leader is
// moving or loading, which fresh clusters and rolling restarts cause for a
// few seconds.
func retriable(err error) bool {
	var ke *KafkaError
	if errors.As(err, &ke) {
		switch ke.Code {
		case kafka.GroupCoordinatorNotAvailable, kafka.NotCoordinatorForGroup, kafka.GroupLoadInProgress,
			kafka.NotLeaderForPartition, kafka.LeaderNotAvailable, kafka.RebalanceInProgress,
			kafka.RequestTimedOut, kafka.NetworkException, kafka.UnknownLeaderEpoch, kafka.FencedLeaderEpoch,
			kafka.KafkaStorageError, kafka.OffsetNotAvailable:
			return true
		}
		return false
	}
	var bu *brokerUnknownError
	return errors.As(err, &bu)
}

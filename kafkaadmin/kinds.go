package kafkaadmin

import "github.com/kcg-dev/kcg/vocab"

// The kinds of kafkaadmin's errors (vocab.Kind; app.ExitCode turns a kind
// into an exit code). Most wire errors have none: a runtime failure.

// ErrorKind: a share command on a cluster without share groups (Kafka
// 3.9, 4.0) is refused (groupops.NoShareGroupsError is this type).
func (e *NoShareGroupsError) ErrorKind() vocab.Kind { return vocab.KindRefused }

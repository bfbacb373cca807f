package groupops

import "github.com/kcg-dev/kcg/kafkaadmin"

// Meaning says what err, the error of one group or partition in a result
// of DeleteGroups or DeleteOffsets, means to an operator: the Kafka error
// code's meaning when kcg has one, else the error on one line, without the
// request name (the line it is printed on names the group or partition).
// The command lines print results through it and need nothing of the wire.
func Meaning(err error) string {
	return kafkaadmin.Meaning(err)
}

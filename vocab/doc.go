// Package vocab is the vocabulary every layer of kcg shares: a partition's
// name, the group types and states Kafka reports, the Kafka error codes kcg
// meets with what each means to an operator, the sentinel errors that
// several layers test with errors.Is, and the kinds errors carry (Kind:
// usage, bad input, refused, ...), which app alone turns into exit codes.
//
// It is a leaf: it imports nothing of kcg, so kafkaadmin, resetplan,
// groupops, output, commands and dropin can all use it without an arrow
// running back up.
package vocab

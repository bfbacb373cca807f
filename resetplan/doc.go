// Package resetplan is kcg's offset-reset domain: the plan file
// (kind OffsetResetPlan, apiVersion kcg/v1), the reset strategies with the
// Java kafka-consumer-groups tool's exact semantics, topic/partition scope,
// datetime and ISO-8601 duration parsing, the Java tool's CSV
// (--export / --from-file), strict encode/decode, the content digest, and
// the helpers later commands build on (impact, diff, rollback, drift).
//
// The package is pure: no CLI, no tablewriter, no network. It reads the
// cluster only through Lookup, which groupops.Lookup implements over
// kafkaadmin, so every rule here is unit-tested with a fake cluster.
//
// Shape decisions (see docs/plan-format.md):
//
//   - Build returns (*Plan, []Warning, error): warnings carry the Java tool's
//     exact WARN texts so drop-in mode can print them, and they are not part
//     of the plan file.
//   - Lookup.Partitions may leave a topic that does not exist out of its map
//     instead of failing; Build then names every missing partition at once,
//     as the Java tool does ("The partitions \"t-2,t-3\" do not exist").
//     An error wrapping ErrUnknownTopic is still accepted and is fatal.
//   - Partition.Target is a pointer: nil means "delete the committed offset"
//     and is only legal in rollback plans (reason delete-offset), so code
//     that forgets the case fails loudly instead of committing offset 0.
//
// Errors map to exit codes in commands: errors.Is(err, ErrBadInput) is bad
// input data (65), errors.Is(err, ErrInvalidArgument) is a usage error (64).
package resetplan

// Package groupops is what kcg does to consumer groups on a cluster: read
// them (one gatherer for describe, plan, preflight and drop-in mode), plan a
// reset through resetplan, check a plan against the live cluster, apply it,
// delete groups and delete offsets, and list consumer groups.
//
// It sits between the command lines (commands, dropin) and the Kafka admin
// layer (kafkaadmin): it imports kafkaadmin and resetplan, never commands,
// dropin or output, so each operation is followed through this package and
// the admin layer without climbing back to the CLI. Every operation runs a
// fixed number of request phases whatever the number of groups.
package groupops

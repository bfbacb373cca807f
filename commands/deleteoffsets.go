package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

func deleteOffsetsCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "delete-offsets",
		Usage:     "delete a group's committed offsets for topics or partitions",
		ArgsUsage: "GROUP --topic T[:P,...]",
		Description: "Deletes the group's committed offsets of each --topic: T alone is every\n" +
			"partition of T, T:0,2 the listed ones. Kafka allows it for a group without\n" +
			"active members, and for topics an active group is not subscribed to. Exit 0\n" +
			"when every offset was deleted, 1 when anything failed.",
		Flags: append([]cli.Flag{
			groupFlag(),
			&cli.StringSliceFlag{Name: "topic", Usage: "topic `T` (all partitions) or T:0,2 (repeatable)"},
			outputFlag("table", "json", "yaml"),
		}, connectionFlags()...),
		Action: func(c *cli.Context) error { return runDeleteOffsets(c, s) },
	}
}

func runDeleteOffsets(c *cli.Context, s Streams) error {
	groups := groupsFromArgs(c)
	if len(groups) != 1 {
		return usageErrorf("delete-offsets takes exactly one group, got %d", len(groups))
	}
	topics := c.StringSlice("topic")
	if len(topics) == 0 {
		return usageErrorf("give the offsets to delete: --topic T or --topic T:0,2 (repeatable)")
	}
	var specs []resetplan.TopicSpec
	for _, t := range topics {
		ts, err := resetplan.ParseTopicArg(t)
		if err != nil {
			return usageErrorf("%s", err)
		}
		specs = append(specs, ts)
	}
	f, err := output.ParseFormat(c.String("output"))
	if err != nil {
		return usageErrorf("%s", err)
	}
	cl, ctx, done, err := connect(c)
	if err != nil {
		return err
	}
	defer done()
	r, err := deleteOffsets(ctx, cl, groups[0], specs)
	if err != nil {
		return err
	}
	doc := output.NewOffsetDeleteResult(r.group, nil, nil)
	if r.groupErr != nil {
		msg := operatorText(r.groupErr)
		doc.Error = &msg
		fmt.Fprintf(s.Err, "kcg: group %s: %s; no offsets were deleted\n", r.group, msg)
	}
	for _, p := range r.partitions {
		e := output.OffsetDeletion{Topic: p.topic, Partition: p.partition, Deleted: p.err == nil}
		if p.err != nil {
			msg := operatorText(p.err)
			e.Error = &msg
			if r.groupErr == nil {
				fmt.Fprintf(s.Err, "kcg: group %s %s: %s\n", r.group, p.name(), msg)
			}
		}
		doc.Partitions = append(doc.Partitions, e)
	}
	doc.Sort()
	if f == output.FormatTable {
		err = output.WriteOffsetDeleteTable(s.Out, doc)
	} else {
		err = output.WriteDocument(s.Out, f, doc)
	}
	if err != nil {
		return err
	}
	if doc.Failed() {
		return silentExit(ExitError)
	}
	return nil
}

// offsetDeletion is the outcome of one OffsetDelete request.
type offsetDeletion struct {
	group string
	// groupErr is the group-level error (the group does not exist, is not
	// empty, ...); nil when Kafka accepted the request.
	groupErr   error
	partitions []partitionDeletion
}

// partitionDeletion is one partition's outcome; partition is nil for a
// topic whose partitions could not be listed.
type partitionDeletion struct {
	topic     string
	partition *int32
	err       error
}

func (p partitionDeletion) name() string {
	if p.partition == nil {
		return p.topic
	}
	return fmt.Sprintf("%s/%d", p.topic, *p.partition)
}

// deleteOffsets deletes group's committed offsets of the partitions specs
// name: a topic without partitions means all of its partitions (looked up
// in one Metadata request; a topic that does not exist gets an entry
// without partition). The request is sent even when nothing is left to
// delete, as the Java tool does, so a group that does not exist is still
// reported. A partition without its own error inherits the group-level
// one: nothing was deleted.
func deleteOffsets(ctx context.Context, cl *kafkaadmin.Client, group string, specs []resetplan.TopicSpec) (offsetDeletion, error) {
	r := offsetDeletion{group: group}
	var whole []string
	for _, ts := range specs {
		if ts.Partitions == nil {
			whole = append(whole, ts.Topic)
		}
	}
	infos := map[string]kafkaadmin.TopicInfo{}
	if len(whole) > 0 {
		var err error
		if infos, err = cl.Topics(ctx, dedupe(whole)); err != nil {
			return r, err
		}
	}
	var tps []kafkaadmin.TopicPartition
	add := func(tp kafkaadmin.TopicPartition) { tps = append(tps, tp) }
	badTopic := map[string]bool{}
	for _, ts := range specs {
		if ts.Partitions != nil {
			for _, p := range ts.Partitions {
				add(kafkaadmin.TopicPartition{Topic: ts.Topic, Partition: p})
			}
			continue
		}
		info := infos[ts.Topic]
		if info.Err != nil {
			if !badTopic[ts.Topic] {
				badTopic[ts.Topic] = true
				r.partitions = append(r.partitions, partitionDeletion{topic: ts.Topic, err: info.Err})
			}
			continue
		}
		for _, p := range info.Partitions {
			add(kafkaadmin.TopicPartition{Topic: ts.Topic, Partition: p.Partition})
		}
	}
	tps = sortedPartitions(tps)
	res, err := cl.DeleteOffsets(ctx, group, tps)
	if err != nil {
		var ke *kafkaadmin.KafkaError
		if !errors.As(err, &ke) {
			return r, err
		}
		// A Kafka error for the group as a whole (e.g. not found) is an
		// outcome, not a failure to ask.
		res.Err = err
	}
	r.groupErr = res.Err
	for _, tp := range tps {
		p := tp.Partition
		pe := res.Partitions[tp]
		if pe == nil && res.Err != nil {
			pe = res.Err
		}
		r.partitions = append(r.partitions, partitionDeletion{topic: tp.Topic, partition: &p, err: pe})
	}
	return r, nil
}

package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/segmentio/kafka-go"
	"github.com/urfave/cli/v2"
)

func deleteCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "delete consumer groups (only groups without active members)",
		ArgsUsage: "GROUP... | --all-groups",
		Description: "Deletes each group with its committed offsets: one request per group\n" +
			"coordinator. Kafka refuses groups that still have active members. Exit 0 when\n" +
			"every group was deleted, 1 when any was not (the others are still deleted).",
		Flags: append([]cli.Flag{
			groupFlag(),
			&cli.BoolFlag{Name: "all-groups", Usage: "delete every consumer group"},
			outputFlag("table", "json", "yaml"),
		}, connectionFlags()...),
		Action: func(c *cli.Context) error { return runDelete(c, s) },
	}
}

func runDelete(c *cli.Context, s Streams) error {
	groups, all, err := groupScope(c)
	if err != nil {
		return err
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
	if all {
		if groups, err = allGroupIDs(ctx, cl); err != nil {
			return err
		}
	}
	outcomes, err := deleteGroups(ctx, cl, groups)
	if err != nil {
		return err
	}
	var entries []output.GroupDeletion
	for _, o := range outcomes {
		e := output.GroupDeletion{Group: o.group, Deleted: o.err == nil}
		if o.err != nil {
			msg := operatorText(o.err)
			e.Error = &msg
			fmt.Fprintf(s.Err, "kcg: group %s was not deleted: %s\n", o.group, msg)
		}
		entries = append(entries, e)
	}
	doc := output.NewGroupDeleteResult(entries)
	doc.Sort()
	if f == output.FormatTable {
		err = output.WriteGroupDeleteTable(s.Out, doc)
	} else {
		err = output.WriteDocument(s.Out, f, doc)
	}
	if err != nil {
		return err
	}
	if doc.Failed() > 0 {
		return silentExit(ExitError)
	}
	return nil
}

// groupOutcome is one group's result of a write: nil err when it
// succeeded.
type groupOutcome struct {
	group string
	err   error
}

// deleteGroups deletes groups (one DeleteGroups request per coordinator)
// and returns each group's outcome, sorted by group id. The error is set
// only when the cluster could not be asked at all.
func deleteGroups(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]groupOutcome, error) {
	groups = dedupe(groups)
	if len(groups) == 0 {
		return nil, nil
	}
	res, err := cl.DeleteGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make([]groupOutcome, 0, len(groups))
	for _, g := range groups {
		out = append(out, groupOutcome{group: g, err: res[g]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].group < out[j].group })
	return out, nil
}

// kafkaCode returns the Kafka error code err carries, 0 when none.
func kafkaCode(err error) int16 {
	var ke *kafkaadmin.KafkaError
	if errors.As(err, &ke) {
		return int16(ke.Code)
	}
	var ut *kafkaadmin.UnknownTopicError
	if errors.As(err, &ut) {
		return int16(kafka.UnknownTopicOrPartition)
	}
	var kc kafka.Error
	if errors.As(err, &kc) {
		return int16(kc)
	}
	return 0
}

// operatorText says what a Kafka error means for a delete, without the
// request name: the entry it is printed with already names the group or
// partition.
func operatorText(err error) string {
	switch kafka.Error(kafkaCode(err)) {
	case kafka.NonEmptyGroup:
		return "the group is not empty: it has active members; stop its consumers first"
	case kafka.GroupIdNotFound:
		return "the group does not exist"
	case kafka.GroupSubscribedToTopic:
		return "the group is subscribed to this topic and has active members; stop its consumers first"
	case kafka.UnknownTopicOrPartition:
		return "the topic or partition does not exist"
	case kafka.InvalidGroupId:
		return "the group id is invalid"
	case kafka.GroupAuthorizationFailed:
		return "not authorized to access the group"
	case kafka.TopicAuthorizationFailed:
		return "not authorized to access the topic"
	}
	return oneLine(err.Error())
}

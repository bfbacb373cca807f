package commands

import (
	"context"
	"fmt"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

type deleteOffsetsOptions struct {
	group  string
	topics []resetplan.TopicSpec
	format output.Format
	gate   deleteGate
	dial   dialFunc
}

func deleteOffsetsCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "delete-offsets",
		Usage:     "delete a group's committed offsets for topics or partitions",
		ArgsUsage: "GROUP --topic T[:P,...]",
		Description: "Deletes the group's committed offsets of each --topic: T alone is every\n" +
			"partition of T, T:0,2 the listed ones. Kafka allows it for a group without\n" +
			"active members, and for topics an active group is not subscribed to. Exit 0\n" +
			"when every offset was deleted, 1 when anything failed; 3 for a group the\n" +
			"cluster does not have (nothing deleted).\n\n" +
			"A delete plan applied at once ('kcg plan --delete-offsets' + 'kcg apply'):\n" +
			"it first writes the undo plan, kcg-delete-offsets-undo-TIME.yaml in the\n" +
			"current directory, named on stderr ('kcg apply' it to re-commit the offsets).\n" +
			"On a terminal it shows what goes and asks, and after a yes reads again: if\n" +
			"anything changed, it shows the new table and asks again. Ctrl-C at the\n" +
			"question exits 130, nothing deleted. Otherwise it needs --yes (exit 64\n" +
			"without). --dry-run prints what would go.",
		Flags: append(append([]cli.Flag{
			groupFlag(),
			&cli.StringSliceFlag{Name: "topic", Usage: "topic `T` (all partitions) or T:0,2 (repeatable)"},
			outputFlag("table", "json", "yaml"),
		}, deleteGateFlags()...), connectionFlags()...),
		Action: action(s, deleteOffsetsOptionsFrom, runDeleteOffsets),
	}
}

func deleteOffsetsOptionsFrom(c *cli.Context) (deleteOffsetsOptions, error) {
	var o deleteOffsetsOptions
	groups := groupsFromArgs(c)
	if len(groups) != 1 {
		return o, app.Usagef("delete-offsets takes exactly one group, got %d", len(groups))
	}
	o.group = groups[0]
	topics := c.StringSlice("topic")
	if len(topics) == 0 {
		return o, app.Usagef("give the offsets to delete: --topic T or --topic T:0,2 (repeatable)")
	}
	o.gate = deleteGateFrom(c)
	var err error
	if o.topics, err = topicArgs(c); err != nil {
		return o, err
	}
	o.format, err = formatFrom(c)
	o.dial = dialFrom(c)
	return o, err
}

func runDeleteOffsets(parent context.Context, s IO, o deleteOffsetsOptions) error {
	if err := o.gate.check(s, "kcg delete-offsets"); err != nil {
		return err
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	if err := refuseMissing(ctx, cl, []string{o.group}, typoNothingDeleted); err != nil {
		return err
	}
	undo, stop, err := o.gate.run(ctx, cl, s, o.format, []string{o.group}, resetplan.StrategyDeleteOffsets, o.topics)
	if stop {
		return err
	}
	r, err := groupops.DeleteOffsets(ctx, cl, o.group, o.topics)
	if err != nil {
		return err
	}
	undo.Narrow(s.Err, func(p *resetplan.Plan) bool { return groupops.KeepDeletedOffsets(p, r) })
	if r.GroupErr != nil {
		fmt.Fprintf(s.Err, "kcg: group %s: %s; no offsets were deleted\n", r.Group, groupops.Meaning(r.GroupErr))
	} else {
		for _, p := range r.Partitions {
			if p.Err != nil {
				fmt.Fprintf(s.Err, "kcg: group %s %s: %s\n", r.Group, p.Name(), groupops.Meaning(p.Err))
			}
		}
	}
	doc := output.NewOffsetDeleteResultOf(r)
	if err := output.Write(s.Out, o.format, doc); err != nil {
		return err
	}
	if doc.Failed() {
		return app.Silent(app.ExitError)
	}
	return nil
}

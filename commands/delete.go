package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

type deleteOptions struct {
	scope  groupScope
	format output.Format
	gate   deleteGate
	dial   dialFunc
}

func deleteCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "delete consumer groups (only groups without active members)",
		ArgsUsage: "GROUP... | --all-groups",
		Description: "Deletes each group with its committed offsets: one request per group\n" +
			"coordinator. Kafka refuses groups that still have active members. Exit 0 when\n" +
			"every group was deleted, 1 when any was not (the others are still deleted).\n" +
			"A group the cluster does not have is refused, nothing deleted (exit 3).\n\n" +
			"A delete plan applied at once ('kcg plan --delete' + 'kcg apply'): it first\n" +
			"writes the undo plan, kcg-delete-group-undo-TIME.yaml in the current\n" +
			"directory, named on stderr ('kcg apply' it to bring the groups back at the\n" +
			"same offsets). On a terminal it shows what goes and asks, and after a yes\n" +
			"reads again: if anything changed, it shows the new table and asks again.\n" +
			"Ctrl-C at the question exits 130, nothing deleted. Otherwise it needs --yes\n" +
			"(exit 64 without). --dry-run prints what would go.",
		Flags: append(append([]cli.Flag{
			groupFlag(),
			&cli.BoolFlag{Name: "all-groups", Usage: "delete every consumer group"},
			outputFlag("table", "json", "yaml"),
		}, deleteGateFlags()...), connectionFlags()...),
		Action: action(s, deleteOptionsFrom, runDelete),
	}
}

func deleteOptionsFrom(c *cli.Context) (deleteOptions, error) {
	var o deleteOptions
	var err error
	if o.scope, err = groupScopeFrom(c); err != nil {
		return o, err
	}
	o.gate = deleteGateFrom(c)
	o.format, err = formatFrom(c)
	o.dial = dialFrom(c)
	return o, err
}

func runDelete(parent context.Context, s IO, o deleteOptions) error {
	if err := o.gate.check(s, "kcg delete"); err != nil {
		return err
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	groups, err := o.scope.resolve(ctx, cl, s.Err)
	if err != nil {
		return err
	}
	if !o.scope.all {
		if err := refuseMissing(ctx, cl, groups, typoNothingDeleted); err != nil {
			return err
		}
	}
	undo, stop, err := o.gate.run(ctx, cl, s, o.format, groups, resetplan.StrategyDeleteGroup, nil)
	if stop {
		return err
	}
	res, err := groupops.DeleteGroups(ctx, cl, groups)
	if err != nil {
		return err
	}
	undo.Narrow(s.Err, func(p *resetplan.Plan) bool { return groupops.KeepDeletedGroups(p, res) })
	for _, d := range res {
		switch {
		case errors.Is(d.Err, groupops.ErrOutcomeUnknown):
			fmt.Fprintf(s.Err, "kcg: group %s may or may not have been deleted: %s\n", d.Group, groupops.Meaning(d.Err))
		case d.Err != nil:
			fmt.Fprintf(s.Err, "kcg: group %s was not deleted: %s\n", d.Group, groupops.Meaning(d.Err))
		}
	}
	doc := output.NewGroupDeleteResultOf(res)
	if err := output.Write(s.Out, o.format, doc); err != nil {
		return err
	}
	if doc.Failed() > 0 {
		return app.Silent(app.ExitError)
	}
	return nil
}

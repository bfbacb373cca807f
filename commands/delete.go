package commands

import (
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/app"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

type deleteOptions struct {
	scope  groupScope
	format output.Format
}

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
		Action: action(s, deleteOptionsFrom, runDelete),
	}
}

func deleteOptionsFrom(c *cli.Context) (deleteOptions, error) {
	var o deleteOptions
	var err error
	if o.scope, err = groupScopeFrom(c); err != nil {
		return o, err
	}
	o.format, err = formatFrom(c)
	return o, err
}

func runDelete(c *cli.Context, s Streams, o deleteOptions) error {
	cl, ctx, done, err := connect(c)
	if err != nil {
		return err
	}
	defer done()
	groups, err := o.scope.resolve(ctx, cl, s.Err)
	if err != nil {
		return err
	}
	res, err := groupops.DeleteGroups(ctx, cl, groups)
	if err != nil {
		return err
	}
	for _, d := range res {
		switch {
		case errors.Is(d.Err, groupops.ErrOutcomeUnknown):
			fmt.Fprintf(s.Err, "kcg: group %s may or may not have been deleted: %s\n", d.Group, kafkaadmin.Meaning(d.Err))
		case d.Err != nil:
			fmt.Fprintf(s.Err, "kcg: group %s was not deleted: %s\n", d.Group, kafkaadmin.Meaning(d.Err))
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

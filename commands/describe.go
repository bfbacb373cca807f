package commands

import (
	"fmt"

	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

// describeView is the table a describe prints (JSON and YAML carry all).
type describeView int

const (
	viewOffsets describeView = iota
	viewMembers
	viewState
)

type describeOptions struct {
	groups    []string
	allGroups bool
	view      describeView
	verbose   bool
	topics    []string
	format    output.Format
}

func describeCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "show groups' committed offsets and lag, members, or state",
		ArgsUsage: "GROUP... | --all-groups",
		Description: "The default view shows, per partition, the committed offset, the log end\n" +
			"offset and the lag; --members shows members and assignments; --state the\n" +
			"group state. JSON and YAML always carry every view.",
		Flags: append([]cli.Flag{
			groupFlag(),
			&cli.BoolFlag{Name: "all-groups", Usage: "describe every consumer group"},
			&cli.BoolFlag{Name: "offsets", Usage: "offsets and lag view (the default)"},
			&cli.BoolFlag{Name: "members", Usage: "members view"},
			&cli.BoolFlag{Name: "state", Usage: "state view"},
			&cli.BoolFlag{Name: "verbose", Usage: "more columns: leader epochs; member epochs and assignments; group epochs"},
			&cli.StringSliceFlag{Name: "topic", Usage: "only these topics' partitions (repeatable)"},
			outputFlag("table", "json", "yaml"),
			sandboxFlag(),
		}, connectionFlags()...),
		Action: func(c *cli.Context) error {
			o, err := describeOptionsFrom(c)
			if err != nil {
				return err
			}
			return runDescribe(c, s, o)
		},
	}
}

func describeOptionsFrom(c *cli.Context) (describeOptions, error) {
	o := describeOptions{verbose: c.Bool("verbose"), topics: c.StringSlice("topic")}
	var err error
	if o.groups, o.allGroups, err = groupScope(c); err != nil {
		return o, err
	}
	n := 0
	o.view = viewOffsets
	for _, v := range []struct {
		flag string
		view describeView
	}{{"offsets", viewOffsets}, {"members", viewMembers}, {"state", viewState}} {
		if c.Bool(v.flag) {
			n++
			o.view = v.view
		}
	}
	if n > 1 {
		return o, usageErrorf("--offsets, --members and --state are different views: give at most one")
	}
	f, err := output.ParseFormat(c.String("output"))
	if err != nil {
		return o, usageErrorf("%s", err)
	}
	o.format = f
	return o, nil
}

func runDescribe(c *cli.Context, s Streams, o describeOptions) error {
	cl, ctx, done, err := connectOrSandbox(c, s)
	if err != nil {
		return err
	}
	defer done()
	progress := newProgress(s)
	defer progress.done()

	groups := o.groups
	if o.allGroups {
		progress.say("listing groups")
		if groups, err = allGroupIDs(ctx, cl); err != nil {
			return err
		}
	}
	snap, err := takeSnapshot(ctx, cl, groups, progress.say)
	if err != nil {
		return err
	}
	progress.done()
	var filter map[string]bool
	if len(o.topics) > 0 {
		filter = map[string]bool{}
		for _, t := range o.topics {
			filter[t] = true
		}
	}
	doc := describeDoc(snap, filter)
	doc.Sort()

	failed := 0
	for _, g := range doc.Groups {
		switch {
		case g.Error != nil && *g.Error == "the group does not exist":
			fmt.Fprintf(s.Err, "Error: Consumer group '%s' does not exist.\n", g.Group)
			failed++
		case g.Error != nil:
			fmt.Fprintf(s.Err, "kcg: group %s: %s\n", g.Group, *g.Error)
			failed++
		case o.format == output.FormatTable && g.State != nil && *g.State == "Empty":
			fmt.Fprintf(s.Err, "Consumer group '%s' has no active members.\n", g.Group)
		case o.format == output.FormatTable && g.State != nil && isRebalancing(*g.State):
			fmt.Fprintf(s.Err, "Warning: Consumer group '%s' is rebalancing.\n", g.Group)
		}
	}
	if o.format == output.FormatTable {
		switch o.view {
		case viewMembers:
			err = output.WriteMembersTable(s.Out, doc, o.verbose)
		case viewState:
			err = output.WriteStateTable(s.Out, doc, o.verbose)
		default:
			err = output.WriteOffsetsTable(s.Out, doc, o.verbose)
		}
	} else {
		err = output.WriteDocument(s.Out, o.format, doc)
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return silentExit(ExitError)
	}
	return nil
}

func isRebalancing(state string) bool {
	switch state {
	case "PreparingRebalance", "CompletingRebalance", "Assigning", "Reconciling":
		return true
	}
	return false
}

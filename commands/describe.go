package commands

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/app"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

type describeOptions struct {
	scope   groupScope
	view    output.View
	verbose bool
	topics  []string
	format  output.Format
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
		Action: action(s, describeOptionsFrom, runDescribe),
	}
}

func describeOptionsFrom(c *cli.Context) (describeOptions, error) {
	o := describeOptions{verbose: c.Bool("verbose"), topics: c.StringSlice("topic"), view: output.ViewOffsets}
	var err error
	if o.scope, err = groupScopeFrom(c); err != nil {
		return o, err
	}
	n := 0
	for _, v := range []struct {
		flag string
		view output.View
	}{{"offsets", output.ViewOffsets}, {"members", output.ViewMembers}, {"state", output.ViewState}} {
		if c.Bool(v.flag) {
			n++
			o.view = v.view
		}
	}
	if n > 1 {
		return o, app.Usagef("--offsets, --members and --state are different views: give at most one")
	}
	o.format, err = formatFrom(c)
	return o, err
}

func runDescribe(c *cli.Context, s Streams, o describeOptions) error {
	cl, ctx, done, err := connectOrSandbox(c)
	if err != nil {
		return err
	}
	defer done()
	progress := newProgress(s)
	defer progress.done()

	progress.say("listing groups")
	groups, err := o.scope.resolve(ctx, cl)
	if err != nil {
		return err
	}
	snap, err := groupops.TakeSnapshot(ctx, cl, groups, progress.say)
	if err != nil {
		return err
	}
	progress.done()
	doc := output.NewGroupDescriptionListOf(snap, o.topics)

	failed := 0
	for _, g := range sortedByName(snap.Groups) {
		switch {
		case g.Err != nil:
			fmt.Fprintf(s.Err, "kcg: group %s: %s\n", g.Name(), vocab.OneLine(g.Err.Error()))
			failed++
		case !g.Desc.Exists:
			fmt.Fprintln(s.Err, output.DeadGroupMessage(g.Name()))
			failed++
		case o.format == output.FormatTable:
			// kcg sends every notice to stderr, so stdout holds only data.
			if n, ok := output.StateNotice(g.Name(), &g.Desc.State); ok {
				fmt.Fprintln(s.Err, n.Text)
			}
		}
	}
	if err := output.Write(s.Out, o.format, output.DescribeView{Doc: doc, View: o.view, Verbose: o.verbose}); err != nil {
		return err
	}
	// Shown as "-" (null in JSON) above; the exit code says the output is
	// incomplete, so a script does not take it for a lag of nothing. The
	// members and state tables show no log offsets: nothing is missing.
	showsOffsets := o.view == output.ViewOffsets || o.format != output.FormatTable
	if line, ok := unknownBoundsLine(snap, o.topics); ok && showsOffsets {
		fmt.Fprintln(s.Err, line)
		failed++
	}
	if failed > 0 {
		return app.Silent(app.ExitError)
	}
	return nil
}

// unknownBoundsLine is the one line naming the partitions (of the topics
// shown) whose log offsets could not be read, typically because their
// leader broker is down; ok is false when there are none.
func unknownBoundsLine(snap *groupops.Snapshot, topics []string) (string, bool) {
	var missing []string
	var why error
	for _, tp := range slices.SortedFunc(maps.Keys(snap.Bounds), vocab.TopicPartition.Compare) {
		b := snap.Bounds[tp]
		if b.End != nil && b.Start != nil {
			continue
		}
		if len(topics) > 0 && !slices.Contains(topics, tp.Topic) {
			continue
		}
		missing = append(missing, tp.String())
		if why == nil {
			why = b.Err
		}
	}
	if len(missing) == 0 {
		return "", false
	}
	reason := "no answer"
	if why != nil {
		reason = vocab.OneLine(why.Error())
	}
	return fmt.Sprintf("kcg: log offsets unknown for %d partition(s), shown as - (null in JSON): %s (%s)", len(missing), strings.Join(missing, ", "), reason), true
}

// sortedByName is gs in group-id order, the order of every report.
func sortedByName(gs []groupops.Group) []groupops.Group {
	return slices.SortedStableFunc(slices.Values(gs), func(a, b groupops.Group) int { return strings.Compare(a.Name(), b.Name()) })
}

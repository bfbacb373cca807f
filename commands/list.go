package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

func listCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list consumer groups with their state and type (--type all: share and streams groups too)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "state", Usage: "only groups in these states, comma-separated (" + strings.Join(vocab.States, ", ") + ")"},
			&cli.StringFlag{Name: "type", Usage: "only groups of these types, comma-separated (classic, consumer, share, streams), or all; default: the consumer groups (classic and consumer), as kafka-consumer-groups --list"},
			outputFlag("table", "json", "yaml"),
			sandboxFlag(),
		}, append(fleetConnectionFlags(), connectFlags()...)...),
		Action: action(s, listOptionsFrom, runList),
	}
}

type listOptions struct {
	// states are --state's values (nil: every state); types are --type's:
	// nil (the consumer groups), group types, or groupops.TypeAll.
	states, types []string
	format        output.Format
	dial          dialFunc
	// connect are the Kafka Connect clusters asked for owners (none: the
	// owner field is left out).
	connect []*connect.Client
	// fleet is --profile a,b or --all-profiles (nil: one cluster).
	fleet *fleet
}

func listOptionsFrom(c *cli.Context) (listOptions, error) {
	var o listOptions
	if err := noArgs(c); err != nil {
		return o, err
	}
	var err error
	if c.IsSet("state") {
		if o.states, err = groupops.ParseStates(c.String("state")); err != nil {
			return o, app.Usagef("%s", err)
		}
	}
	if c.IsSet("type") {
		if o.types, err = groupops.ParseListTypes(c.String("type")); err != nil {
			return o, app.Usagef("%s", err)
		}
	}
	if o.format, err = formatFrom(c); err != nil {
		return o, err
	}
	o.dial = dialFrom(c)
	if o.fleet, err = fleetFrom(c); err == nil {
		o.connect, err = fleetConnect(c, o.fleet)
	}
	return o, err
}

func runList(parent context.Context, s IO, o listOptions) error {
	if o.fleet != nil {
		return runListFleet(parent, s, o)
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	doc, err := listCluster(ctx, cl, o, s.Err)
	if err != nil {
		return err
	}
	return output.Write(s.Out, o.format, doc)
}

// listCluster is one cluster's list; its notes go to notes.
func listCluster(ctx context.Context, cl *kafkaadmin.Client, o listOptions, notes io.Writer) (output.GroupList, error) {
	gs, err := groupops.ListGroupsOfTypes(ctx, cl, o.states, o.types)
	if err != nil {
		return output.GroupList{}, err
	}
	lines, err := groupops.ListNotes(ctx, cl, o.types)
	if err != nil {
		return output.GroupList{}, err
	}
	for _, note := range lines {
		fmt.Fprintln(notes, note)
	}
	doc := output.NewGroupListOf(gs)
	if len(o.connect) > 0 {
		owners, err := groupops.Owners(ctx, o.connect)
		if err != nil {
			return output.GroupList{}, err
		}
		doc = doc.WithOwners(owners)
	}
	return doc, nil
}

// runListFleet lists every cluster of o.fleet at once: one document, a
// CLUSTER column; a cluster that could not be read is one stderr line
// and exit 1, the others listed.
func runListFleet(parent context.Context, s IO, o listOptions) error {
	parts := readFleet(parent, o.fleet, func(ctx context.Context, cl *kafkaadmin.Client, notes io.Writer) (output.GroupList, error) {
		return listCluster(ctx, cl, o, notes)
	})
	failed, err := reportFleet(parent, s.Err, parts)
	if err != nil {
		return err
	}
	lists := make([]output.GroupList, len(parts))
	for i, p := range parts {
		lists[i] = p.val
	}
	if err := output.Write(s.Out, o.format, output.NewFleetGroupList(statuses(parts), lists)); err != nil {
		return err
	}
	return fleetExit(failed)
}

// fleetExit is the exit of a fleet read whose output is written: 1 when
// some cluster could not be read (the others are shown).
func fleetExit(failed int) error {
	if failed > 0 {
		return app.Silent(app.ExitError)
	}
	return nil
}

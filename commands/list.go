package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
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
		}, append(connectionFlags(), connectFlags()...)...),
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
	o.connect, err = connectClients(c)
	return o, err
}

func runList(parent context.Context, s IO, o listOptions) error {
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	gs, err := groupops.ListGroupsOfTypes(ctx, cl, o.states, o.types)
	if err != nil {
		return err
	}
	notes, err := groupops.ListNotes(ctx, cl, o.types)
	if err != nil {
		return err
	}
	for _, note := range notes {
		fmt.Fprintln(s.Err, note)
	}
	doc := output.NewGroupListOf(gs)
	if len(o.connect) > 0 {
		owners, err := groupops.Owners(ctx, o.connect)
		if err != nil {
			return err
		}
		doc = doc.WithOwners(owners)
	}
	return output.Write(s.Out, o.format, doc)
}

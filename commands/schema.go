package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/urfave/cli/v2"
)

func schemaCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the JSON Schema (draft 2020-12) of a document kind; without KIND, list the kinds",
		ArgsUsage: "[KIND]",
		Description: "The schemas are those of docs/schema, embedded in the binary: the documents this kcg\n" +
			"prints match them. KIND is matched without regard to case (grouplist is GroupList).\n" +
			"See docs/schema/README.md.",
		Action: action(s, schemaOptionsFrom, runSchema),
	}
}

type schemaOptions struct {
	// kind is the kind as the documents spell it; "" lists the kinds.
	kind string
}

func schemaOptionsFrom(c *cli.Context) (schemaOptions, error) {
	var o schemaOptions
	switch c.Args().Len() {
	case 0:
		return o, nil
	case 1:
	default:
		return o, app.Usagef("schema takes one KIND, got %d arguments", c.Args().Len())
	}
	_, name, ok := schema.Get(c.Args().First())
	if !ok {
		return o, app.Usagef("unknown document kind %q: valid kinds are %s", c.Args().First(), strings.Join(schema.Kinds(), ", "))
	}
	o.kind = name
	return o, nil
}

func runSchema(_ context.Context, s IO, o schemaOptions) error {
	if o.kind == "" {
		for _, k := range schema.Kinds() {
			fmt.Fprintln(s.Out, k)
		}
		return nil
	}
	data, _, _ := schema.Get(o.kind)
	_, err := s.Out.Write(data)
	return err
}

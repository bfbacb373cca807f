package commands

import (
	"fmt"

	"github.com/kcg-dev/kcg/internal/app"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

type showOptions struct {
	path string
	// csv: the Java tool's CSV instead of a document; withGroup keeps the
	// group column for a one-group plan.
	csv, withGroup bool
	format         output.Format
}

func showCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "render a plan file: table (with its impact), json, yaml, the Java tool's csv, or markdown for a change ticket",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			outputFlag("table", "json", "yaml", "csv", "markdown"),
			&cli.BoolFlag{Name: "with-group", Usage: "csv: always write the group column (the Java tool omits it when exactly one --group was given)"},
		},
		Action: action(s, showOptionsFrom, func(_ *cli.Context, s Streams, o showOptions) error { return runShow(s, o) }),
	}
}

func showOptionsFrom(c *cli.Context) (showOptions, error) {
	o := showOptions{withGroup: c.Bool("with-group")}
	if c.Args().Len() != 1 {
		return o, app.Usagef("show takes one plan file")
	}
	o.path = c.Args().First()
	name, err := formatName(c)
	if err != nil {
		return o, err
	}
	if o.withGroup && name != "csv" {
		return o, app.Usagef("--with-group is a column of -o csv: give -o csv, or drop --with-group")
	}
	if name == "csv" {
		o.csv = true
		return o, nil
	}
	f, err := output.ParseFormat(name)
	if err != nil {
		return o, app.Usagef("%s", err)
	}
	o.format = f
	return o, nil
}

func runShow(s Streams, o showOptions) error {
	p, err := planfile.Read(o.path, s.In)
	if err != nil {
		return err
	}
	if o.csv {
		layout := resetplan.CSVWithGroup
		if len(p.Groups) == 1 && !o.withGroup {
			layout = resetplan.CSVNoGroup
		}
		data, err := resetplan.ExportCSV(p, layout)
		if err != nil {
			return app.BadInput(err)
		}
		_, err = s.Out.Write(data)
		return err
	}
	if err := output.Write(s.Out, o.format, output.PlanDocument{Plan: p}); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "digest: %s\n", resetplan.Digest(p))
	return nil
}

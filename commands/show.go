package commands

import (
	"context"
	"fmt"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
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
	// source is the source cluster of a translate-from plan
	// (--source-profile, --source-bootstrap-server); nil: not read.
	source *connconfig.ConnOptions
	// dialSource dials source (nil with source).
	dialSource dialFunc
	maxAge     time.Duration
}

func showCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "render a plan file: table (with its impact), json, yaml, the Java tool's csv, or markdown for a change ticket",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			outputFlag("table", "json", "yaml", "csv", "markdown"),
			&cli.BoolFlag{Name: "with-group", Usage: "csv: always write the group column (the Java tool omits it when exactly one --group was given)"},
			&cli.StringFlag{Name: "source-profile", Usage: "translate-from plan: read the source group's commits on profile `P` (the failed-over cluster), to count the records consumed twice"},
			&cli.StringFlag{Name: "source-bootstrap-server", Usage: "translate-from plan: as --source-profile, for bootstrap servers `B` (PLAINTEXT; use a profile for TLS or SASL)"},
			durationFlag(&cli.DurationFlag{Name: "max-checkpoint-age", Value: 5 * time.Minute, Usage: "translate-from plan: warn about checkpoints older than `D` at plan time"}),
			&cli.StringFlag{Name: "timeout", Value: "30s", Usage: "with --source-*: deadline for reading the source cluster"},
		},
		Action: action(s, showOptionsFrom, runShow),
	}
}

func showOptionsFrom(c *cli.Context) (showOptions, error) {
	o := showOptions{withGroup: c.Bool("with-group"), maxAge: c.Duration("max-checkpoint-age")}
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
	if c.IsSet("source-profile") || c.IsSet("source-bootstrap-server") {
		if name != "table" {
			return o, app.Usagef("--source-profile/--source-bootstrap-server add the failover section of the table: drop -o %s (the JSON and YAML forms are the plan file alone)", name)
		}
		t, err := app.ParseTimeout(c.String("timeout"))
		if err != nil {
			return o, err
		}
		o.source = &connconfig.ConnOptions{UseProfiles: true, Timeout: t,
			Profile: c.String("source-profile"), ProfileFrom: "--source-profile",
			Bootstrap: c.String("source-bootstrap-server"), BootstrapFrom: "--source-bootstrap-server"}
		o.dialSource = dialWith(*o.source, nil)
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

func runShow(ctx context.Context, s IO, o showOptions) error {
	p, err := planfile.Read(o.path, s.In)
	if err != nil {
		return err
	}
	doc := output.PlanDocument{Plan: p, MaxCheckpointAge: o.maxAge}
	if o.source != nil {
		if p.Strategy.Type != resetplan.StrategyTranslateFrom {
			return app.Usagef("--source-profile/--source-bootstrap-server read the source cluster of a translate-from plan; %s is a %s plan", o.path, p.Strategy.Type)
		}
		if doc.Source, err = readFailoverSource(ctx, o.dialSource, *o.source, p); err != nil {
			return err
		}
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
	if err := output.Write(s.Out, o.format, doc); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "digest: %s\n", resetplan.Digest(p))
	return nil
}

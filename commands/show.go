package commands

import (
	"fmt"
	"io"
	"os"

	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// readPlan reads and strictly decodes a plan file ("-": stdin). A file
// that is not a kcg plan (a Java CSV, garbage, a newer major version) is
// bad input, exit 65.
func readPlan(s Streams, path string) (*resetplan.Plan, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(s.In)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, inputError(fmt.Errorf("reading plan: %w", err))
	}
	p, err := resetplan.Decode(data)
	if err != nil {
		return nil, inputError(fmt.Errorf("%s: %w", path, err))
	}
	return p, nil
}

func showCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "render a plan file: table (with its impact), json, yaml, or the Java tool's csv",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			outputFlag("table", "json", "yaml", "csv"),
			&cli.BoolFlag{Name: "with-group", Usage: "csv: always write the group column (the Java tool omits it when exactly one --group was given)"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() != 1 {
				return usageErrorf("show takes one plan file")
			}
			p, err := readPlan(s, c.Args().First())
			if err != nil {
				return err
			}
			switch c.String("output") {
			case "csv":
				layout := resetplan.CSVWithGroup
				if len(p.Groups) == 1 && !c.Bool("with-group") {
					layout = resetplan.CSVNoGroup
				}
				data, err := resetplan.ExportCSV(p, layout)
				if err != nil {
					return inputError(err)
				}
				_, err = s.Out.Write(data)
				return err
			}
			f, err := output.ParseFormat(c.String("output"))
			if err != nil {
				return usageErrorf("%s (or csv)", err)
			}
			if f == output.FormatTable {
				err = output.WritePlanSummary(s.Out, p)
			} else {
				err = output.WritePlanDocument(s.Out, f, p)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(s.Err, "digest: %s\n", resetplan.Digest(p))
			return nil
		},
	}
}

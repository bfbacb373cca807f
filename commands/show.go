package commands

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kcg-dev/kcg/internal/app"
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
		data, err = resetplan.ReadLimited(s.In, resetplan.MaxPlanBytes, "plan file")
	} else {
		data, err = readFileLimited(path, resetplan.MaxPlanBytes, "plan file")
	}
	var tl *resetplan.TooLargeError
	if errors.As(err, &tl) {
		return nil, app.BadInput(fmt.Errorf("%s: %w", path, err))
	}
	if err != nil {
		return nil, app.BadInput(fmt.Errorf("reading plan: %w", err))
	}
	p, err := resetplan.Decode(data)
	if err != nil {
		return nil, app.BadInput(fmt.Errorf("%s: %w", path, err))
	}
	return p, nil
}

// readFileLimited is os.ReadFile that reads no more than limit+1 bytes
// (resetplan.ReadLimited): a 100 MB file, or /dev/zero, is refused at the
// limit instead of being read into memory.
func readFileLimited(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file is read into one buffer of its size (io.ReadAll
	// grows its buffer a step at a time: some 30 MB allocated and copied
	// for a 15 MB plan). One byte more is asked, to see a file that grew;
	// then, or when the size is unknown, the rest is read as before.
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= limit {
		data := make([]byte, fi.Size()+1)
		n, err := io.ReadFull(f, data)
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return data[:n], nil
		case err != nil:
			return nil, err
		}
		return resetplan.ReadLimited(io.MultiReader(bytes.NewReader(data), f), limit, what)
	}
	return resetplan.ReadLimited(f, limit, what)
}

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
		Usage:     "render a plan file: table (with its impact), json, yaml, or the Java tool's csv",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			outputFlag("table", "json", "yaml", "csv"),
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
	p, err := readPlan(s, o.path)
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

package commands

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// strategyFlags are the eight --reset-offsets strategies, with the Java
// tool's names.
func strategyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "to-earliest", Usage: "reset to the log start offset"},
		&cli.BoolFlag{Name: "to-latest", Usage: "reset to the log end offset"},
		&cli.BoolFlag{Name: "to-current", Usage: "reset to the committed offset (the log end where there is none)"},
		&cli.StringFlag{Name: "to-offset", Usage: "reset to offset `N` (clamped to the log)"},
		&cli.StringFlag{Name: "shift-by", Usage: "move the committed offset by `N` (negative: back; clamped)"},
		&cli.StringFlag{Name: "to-datetime", Usage: "reset to the first record at or after `TS` (YYYY-MM-DDThh:mm:ss[.sss][zone]; no zone = UTC)"},
		&cli.StringFlag{Name: "by-duration", Usage: "reset to the first record newer than now minus `D` (ISO-8601 PnDTnHnMnS)"},
		&cli.StringFlag{Name: "from-file", Usage: "reset to the offsets in `FILE` (the Java tool's CSV, or a kcg plan)"},
	}
}

// strategyFromFlags returns the one strategy given, reading --from-file.
func strategyFromFlags(c *cli.Context, singleGroup string) (resetplan.StrategySpec, error) {
	var given []string
	for _, f := range []string{"to-earliest", "to-latest", "to-current", "to-offset", "shift-by", "to-datetime", "by-duration", "from-file"} {
		if c.IsSet(f) {
			given = append(given, f)
		}
	}
	switch len(given) {
	case 0:
		return resetplan.StrategySpec{}, usageErrorf("give one strategy: --to-earliest, --to-latest, --to-current, --to-offset N, --shift-by N, --to-datetime TS, --by-duration D or --from-file FILE")
	case 1:
	default:
		return resetplan.StrategySpec{}, usageErrorf("give one strategy, not --%s", strings.Join(given, " and --"))
	}
	name := given[0]
	value := ""
	if f := c.String(name); name != "to-earliest" && name != "to-latest" && name != "to-current" {
		value = f
	}
	spec, err := resetplan.ParseStrategy(name, value)
	if err != nil {
		return spec, usageErrorf("%s", err)
	}
	if spec.Type == resetplan.StrategyFromFile {
		data, err := os.ReadFile(value)
		if err != nil {
			return spec, inputError(fmt.Errorf("--from-file: %w", err))
		}
		ft, _, err := resetplan.ParseResetFile(data, singleGroup)
		if err != nil {
			return spec, inputError(fmt.Errorf("--from-file %s: %w", value, err))
		}
		spec.Targets = ft
	}
	return spec, nil
}

func planCommand(s Streams) *cli.Command {
	flags := []cli.Flag{
		groupFlag(),
		&cli.BoolFlag{Name: "all-groups", Usage: "plan every consumer group"},
		&cli.BoolFlag{Name: "all-topics", Usage: "scope: every partition the group has a committed offset for"},
		&cli.StringSliceFlag{Name: "topic", Usage: "scope: topic `T` (all partitions) or T:0,2 (repeatable)"},
	}
	flags = append(flags, strategyFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "out", Usage: "write the plan to `FILE` (.json: JSON, otherwise YAML; - for stdout)"},
		&cli.StringFlag{Name: "ticket", Usage: "change ticket id, recorded in the plan and in the committed offsets' metadata"},
		&cli.StringFlag{Name: "note", Usage: "free-text note, recorded like --ticket"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "also print the plan on stdout: table (the summary), json or yaml"},
		sandboxFlag(),
	)
	return &cli.Command{
		Name:      "plan",
		Usage:     "build an offset-reset plan file (nothing is written to Kafka)",
		ArgsUsage: "GROUP... | --all-groups  (--all-topics | --topic T[:P,...]) STRATEGY --out FILE",
		Description: "Resolves a reset with the Java tool's semantics and writes every target,\n" +
			"already resolved, into a plan file for review. 'kcg show' renders it,\n" +
			"'kcg diff' compares it, 'kcg apply' executes it after re-checking it.",
		Flags: append(flags, connectionFlags()...),
		Action: func(c *cli.Context) error {
			return runPlan(c, s)
		},
	}
}

func runPlan(c *cli.Context, s Streams) error {
	groups, all, err := groupScope(c)
	if err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		return usageErrorf("--out FILE is required (- writes the plan to stdout)")
	}
	var format output.Format
	if o := c.String("output"); o != "" {
		f, err := output.ParseFormat(o)
		if err != nil {
			return usageErrorf("%s", err)
		}
		if out == "-" {
			return usageErrorf("--out - already prints the plan on stdout: drop -o")
		}
		format = f
	}
	scope, err := resetplan.ParseScope(c.Bool("all-topics"), c.StringSlice("topic"))
	if err != nil {
		return usageErrorf("%s", err)
	}
	single := ""
	if len(groups) == 1 {
		single = groups[0]
	}
	spec, err := strategyFromFlags(c, single)
	if err != nil {
		return err
	}
	if spec.Type != resetplan.StrategyFromFile && scope.IsZero() {
		return usageErrorf("give a scope: --all-topics or --topic T[:P,...]")
	}
	var ann *resetplan.Annotations
	if c.String("ticket") != "" || c.String("note") != "" {
		ann = &resetplan.Annotations{Ticket: c.String("ticket"), Note: c.String("note")}
	}

	cl, ctx, done, err := connectOrSandbox(c, s)
	if err != nil {
		return err
	}
	defer done()
	info, err := cl.Cluster(ctx)
	if err != nil {
		return err
	}
	if all {
		if groups, err = allGroupIDs(ctx, cl); err != nil {
			return err
		}
	}
	snaps, err := groupSnapshots(ctx, cl, groups)
	if err != nil {
		return err
	}
	plan, warnings, err := resetplan.Build(ctx, clusterLookup{cl}, resetplan.Request{
		Groups:      snaps,
		Scope:       scope,
		Strategy:    spec,
		Cluster:     resetplan.Cluster{ID: info.ClusterID, Bootstrap: cl.Bootstrap()},
		CreatedBy:   "kcg " + Version(),
		Annotations: ann,
	})
	if err != nil {
		return planError(err)
	}
	for _, w := range warnings {
		fmt.Fprintf(s.Err, "warning: %s\n", planWarning(w))
	}

	data, err := resetplan.Encode(plan, resetplan.FormatForPath(out))
	if err != nil {
		return err
	}
	digest := resetplan.Digest(plan)
	if out == "-" {
		if _, err := s.Out.Write(data); err != nil {
			return err
		}
	} else if err := writeFileAtomic(out, data); err != nil {
		return err
	}

	summaryTo := s.Err
	if format == output.FormatTable {
		summaryTo = s.Out
	}
	if err := output.WritePlanSummary(summaryTo, plan); err != nil {
		return err
	}
	switch format {
	case output.FormatJSON, output.FormatYAML:
		if err := output.WritePlanDocument(s.Out, format, plan); err != nil {
			return err
		}
	}
	if out != "-" {
		fmt.Fprintf(s.Err, "plan written to %s\n", out)
	}
	fmt.Fprintf(s.Err, "digest: %s\n", digest)
	return nil
}

// planWarning renders a Build warning for kcg's stderr.
func planWarning(w resetplan.Warning) string {
	if w.Kind == resetplan.WarnGroupActive {
		return fmt.Sprintf("group %s has active members: planning is fine, but apply will refuse until its consumers are stopped", w.Group)
	}
	return w.Message
}

// planError maps planning errors to exit codes: bad arguments are usage
// errors; partitions that do not exist and --shift-by without a commit are
// refusals of the request as given (exit 3 would claim a precondition; they
// are the operator's input, so usage).
func planError(err error) error {
	switch {
	case errors.Is(err, resetplan.ErrInvalidArgument), errors.Is(err, resetplan.ErrNoCommittedOffset),
		errors.Is(err, resetplan.ErrUnknownTopic), errors.Is(err, resetplan.ErrUnknownPartition):
		return usageErrorf("%s", err)
	case errors.Is(err, resetplan.ErrBadInput):
		return inputError(err)
	}
	return err
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so a plan file is never left half-written.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}

package commands

import (
	"context"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

type diffOptions struct {
	// paths: one plan (against the live cluster) or two plans.
	paths  []string
	format output.Format
	dial   dialFunc
	// connect are the configured Kafka Connect clusters, for a plan with
	// a connector.
	connect []*connect.Client
}

func diffCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two plans, or a plan with the live cluster (exit 0: the plans make the same change, or apply would run the plan as reviewed or already has; 2: differences)",
		ArgsUsage: "PLAN [PLAN2]",
		Description: "With two files: how PLAN2 differs from PLAN (targets, currents, strategy,\n" +
			"annotations), by group and partition; nothing is read from Kafka.\n" +
			"With one file: the plan against the live cluster — committed offsets that\n" +
			"moved since planning, targets outside the live log, groups that gained\n" +
			"members — and the writes apply would make now. Exit 0 when apply would\n" +
			"run as reviewed (only the planned writes pending) or the plan is applied;\n" +
			"2 when the cluster differs from the plan's review (moved offsets, active\n" +
			"members, targets outside the log, another cluster).",
		Flags:  append(append([]cli.Flag{outputFlag("table", "json", "yaml", "markdown")}, connectionFlags()...), connectFlags()...),
		Action: action(s, diffOptionsFrom, runDiff),
	}
}

func diffOptionsFrom(c *cli.Context) (diffOptions, error) {
	o := diffOptions{paths: c.Args().Slice()}
	var err error
	if o.format, err = formatFrom(c); err != nil {
		return o, err
	}
	if n := len(o.paths); n != 1 && n != 2 {
		return o, app.Usagef("diff takes one plan (against the live cluster) or two plans")
	}
	o.dial = dialFrom(c)
	o.connect, err = connectClients(c)
	return o, err
}

func runDiff(ctx context.Context, s IO, o diffOptions) error {
	if len(o.paths) == 2 {
		return diffPlans(s, o)
	}
	return diffLive(ctx, s, o)
}

func diffPlans(s IO, o diffOptions) error {
	a, err := planfile.Read(o.paths[0], s.In)
	if err != nil {
		return err
	}
	b, err := planfile.Read(o.paths[1], s.In)
	if err != nil {
		return err
	}
	doc := output.NewPlanDiff(o.paths[0], o.paths[1], resetplan.Diff(a, b)).WithPlans(a, b)
	if err := output.Write(s.Out, o.format, doc); err != nil {
		return err
	}
	if !doc.Equal {
		return app.Silent(app.ExitDiff)
	}
	return nil
}

func diffLive(parent context.Context, s IO, o diffOptions) error {
	progress := newProgress(s)
	defer progress.done()
	progress.say("reading the plan")
	plan, err := planfile.Read(o.paths[0], s.In)
	if err != nil {
		return err
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	progress.say("checking " + vocab.Count(len(plan.Groups), "group") + " against the cluster")
	check, err := groupops.Preflight(ctx, cl, plan)
	if err != nil {
		return err
	}
	changes, err := connectorChanges(ctx, plan, check, o.connect)
	if err != nil {
		return err
	}
	progress.done()
	doc := output.NewPlanStatusOf(o.paths[0], resetplan.Digest(plan), check)
	doc.ConnectorChanges = changes
	doc.Ready = doc.Ready && len(changes) == 0
	if err := output.Write(s.Out, o.format, doc); err != nil {
		return err
	}
	// "No difference" means apply would run exactly as reviewed, or, as
	// apply says, it has run: every committed offset equals its target
	// (the currents then always look "drifted").
	if check.AlreadyApplied() {
		return nil
	}
	if !check.Ready() || len(changes) > 0 {
		return app.Silent(app.ExitDiff)
	}
	return nil
}

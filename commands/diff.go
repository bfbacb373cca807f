package commands

import (
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

func diffCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two plans, or a plan with the live cluster (exit 0: no difference, 2: differences)",
		ArgsUsage: "PLAN [PLAN2]",
		Description: "With two files: how PLAN2 differs from PLAN (targets, currents, strategy,\n" +
			"annotations), by group and partition; nothing is read from Kafka.\n" +
			"With one file: the plan against the live cluster — committed offsets that\n" +
			"moved since planning, targets outside the live log, groups that gained\n" +
			"members — and the writes apply would make now.",
		Flags: append([]cli.Flag{outputFlag("table", "json", "yaml")}, connectionFlags()...),
		Action: func(c *cli.Context) error {
			f, err := output.ParseFormat(c.String("output"))
			if err != nil {
				return usageErrorf("%s", err)
			}
			switch c.Args().Len() {
			case 1:
				return diffLive(c, s, f, c.Args().Get(0))
			case 2:
				return diffPlans(s, f, c.Args().Get(0), c.Args().Get(1))
			}
			return usageErrorf("diff takes one plan (against the live cluster) or two plans")
		},
	}
}

func diffPlans(s Streams, f output.Format, pathA, pathB string) error {
	a, err := readPlan(s, pathA)
	if err != nil {
		return err
	}
	b, err := readPlan(s, pathB)
	if err != nil {
		return err
	}
	d := resetplan.Diff(a, b)
	doc := output.PlanDiff{APIVersion: output.APIVersion, Kind: output.KindPlanDiff, A: pathA, B: pathB, Equal: d.Empty()}
	for _, v := range d.Plan {
		doc.Plan = append(doc.Plan, output.FieldChange{Field: v.Field, Before: v.Before, After: v.After})
	}
	for _, g := range d.Groups {
		gd := output.GroupDiff{Group: g.Group, Change: string(g.Kind)}
		for _, v := range g.Fields {
			gd.Fields = append(gd.Fields, output.FieldChange{Field: v.Field, Before: v.Before, After: v.After})
		}
		doc.Groups = append(doc.Groups, gd)
	}
	for _, p := range d.Partitions {
		doc.Partitions = append(doc.Partitions, output.PartitionDiff{
			Group: p.Group, Topic: p.Topic, Partition: p.Partition, Change: string(p.Kind),
			Fields: p.Fields, Before: planPartition(p.Before), After: planPartition(p.After),
		})
	}
	if f == output.FormatTable {
		err = output.WritePlanDiffTable(s.Out, doc)
	} else {
		err = output.WriteDocument(s.Out, f, doc)
	}
	if err != nil {
		return err
	}
	if !doc.Equal {
		return silentExit(ExitDiff)
	}
	return nil
}

func planPartition(p *resetplan.Partition) *output.PlanPartition {
	if p == nil {
		return nil
	}
	return &output.PlanPartition{Current: p.Current, Target: p.Target, LogStart: p.LogStart, LogEnd: p.LogEnd, Reason: string(p.Reason)}
}

func diffLive(c *cli.Context, s Streams, f output.Format, path string) error {
	plan, err := readPlan(s, path)
	if err != nil {
		return err
	}
	cl, ctx, done, err := connect(c)
	if err != nil {
		return err
	}
	defer done()
	pf, err := runPreflight(ctx, cl, plan)
	if err != nil {
		return err
	}
	doc := output.PlanStatus{
		APIVersion: output.APIVersion, Kind: output.KindPlanStatus, Plan: path, Digest: resetplan.Digest(plan),
		PlanClusterID: plan.Cluster.ID, ClusterID: pf.clusterID, Ready: pf.ok(), AlreadyApplied: len(pf.pending) == 0,
	}
	for _, a := range pf.active {
		doc.ActiveGroups = append(doc.ActiveGroups, output.ActiveGroup{Group: a.Group, State: a.State, Members: a.Members})
	}
	for _, d := range pf.drift {
		doc.Drift = append(doc.Drift, output.DriftEntry{Group: d.Group, Topic: d.Topic, Partition: d.Partition, Planned: d.Planned, Live: d.Live})
	}
	for _, r := range pf.outOfRange {
		e := output.RangeEntry{Group: r.Group, Topic: r.TP.Topic, Partition: r.TP.Partition, Target: r.Target, LogStart: r.Start, LogEnd: r.End}
		if r.Err != nil {
			msg := oneLine(r.Err.Error())
			e.Error = &msg
		}
		doc.OutOfRange = append(doc.OutOfRange, e)
	}
	for _, p := range pf.pending {
		doc.WouldWrite = append(doc.WouldWrite, output.PendingEntry{Group: p.Group, Topic: p.TP.Topic, Partition: p.TP.Partition, From: p.From, To: p.To})
	}
	if f == output.FormatTable {
		err = output.WritePlanStatusTable(s.Out, doc)
	} else {
		err = output.WriteDocument(s.Out, f, doc)
	}
	if err != nil {
		return err
	}
	// "No difference" means apply would run exactly as reviewed.
	if !doc.Ready {
		return silentExit(ExitDiff)
	}
	return nil
}

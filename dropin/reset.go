package dropin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// resetOffsets is --reset-offsets. The reset is resolved by resetplan.Build
// with the Java tool's semantics for the groups that may be reset (no
// members: Empty, Dead or not existing); an active group is reported with
// Java's message and left out, as in Java. With --execute the in-memory
// plan goes through kcg apply's safety checks (the groups are re-described
// and must still have no members, the offsets must not have moved since
// they were read, the targets must lie in the live log), is committed with
// leader epoch -1 and read back. Output is Java's table or, with --export,
// its CSV; messages Java prints on stdout go to stderr with --export so
// the CSV stays clean.
//
// Exit: 0; 3 when a group was refused for being active (4 if other
// groups were written by --execute); 64 for Java's usage errors; 1 for
// runtime failures.
func (d *dropIn) resetOffsets() error {
	export := d.a.Has("export")
	notes := d.s.Out
	if export {
		notes = d.s.Err
	}
	cl, ctx, done, groups, err := d.connectGroups()
	if err != nil {
		return err
	}
	defer done()
	// kafka-consumer-groups resets consumer groups only (share groups:
	// kafka-share-groups mode, whose groups shareGroups checked).
	if !d.share {
		if err := groupops.RefuseOtherTypes(ctx, cl, groups); err != nil {
			return err
		}
	}
	info, snaps, err := groupops.ReadForPlan(ctx, cl, groups, nil)
	if err != nil {
		return err
	}
	var inactive []resetplan.GroupSnapshot
	active := map[string]resetplan.GroupSnapshot{}
	for _, g := range snaps {
		if g.Inactive() {
			inactive = append(inactive, g)
		} else {
			active[g.Group] = g
		}
	}
	var plan *resetplan.Plan
	var warnings []resetplan.Warning
	if len(inactive) > 0 {
		if plan, warnings, err = d.buildPlan(ctx, cl, info, inactive); err != nil {
			return err
		}
	}

	names := vocab.Dedupe(groups)
	slices.Sort(names)
	for _, g := range names {
		if _, ok := active[g]; ok && d.share {
			// kafka-share-groups says it on stderr.
			fmt.Fprintf(d.s.Err, "Share group '%s' is not empty.\n", g)
			continue
		}
		if a, ok := active[g]; ok {
			fmt.Fprintf(notes, "\nError: Assignments can only be reset if the group '%s' is inactive, but the current state is %s.\n", g, a.State)
			continue
		}
		for _, w := range warnings {
			if w.Group == g {
				d.printWarning(notes, w)
			}
		}
	}

	wrote := false
	if d.a.Has("execute") && plan != nil {
		if wrote, err = d.execute(ctx, cl, plan); err != nil {
			return err
		}
	}

	var tableGroups []javaResetGroup
	for g := range active {
		// kafka-share-groups leaves a refused group out of its table.
		if !d.share {
			tableGroups = append(tableGroups, javaResetGroup{Group: g})
		}
	}
	if plan != nil {
		for _, g := range plan.Groups {
			jg := javaResetGroup{Group: g.Group}
			for _, p := range g.Partitions {
				if t, ok := p.TargetOffset(); ok {
					jg.Partitions = append(jg.Partitions, javaResetPartition{Topic: p.Topic, Partition: p.Partition, NewOffset: t})
				}
			}
			// kafka-share-groups prints no header for a group without
			// share-partitions (one that does not exist).
			if !d.share || len(jg.Partitions) > 0 {
				tableGroups = append(tableGroups, jg)
			}
		}
	}
	if export {
		data := []byte("\n")
		if plan != nil {
			layout := resetplan.CSVWithGroup
			if len(d.a.Values("group")) == 1 {
				layout = resetplan.CSVNoGroup
			}
			if data, err = resetplan.ExportCSV(plan, layout); err != nil {
				return err
			}
		}
		// The CSV is data for --from-file: exact names, not Printable's.
		if _, err := vocab.RawWriter(d.s.Out).Write(data); err != nil {
			return err
		}
	} else if d.share && len(active) > 0 {
		// kafka-share-groups stops at the refused group: no table.
	} else if d.streams {
		if err := javaStreamsResetTable(d.s.Out, tableGroups); err != nil {
			return err
		}
	} else if err := javaResetTable(d.s.Out, tableGroups); err != nil {
		return err
	}
	if len(active) > 0 {
		if wrote {
			return app.Silent(app.ExitPartial)
		}
		return app.Silent(app.ExitRefused)
	}
	return nil
}

// printWarning prints a Build warning where the Java tool prints it:
// clamping as a log4j WARN line on stderr, the others on notes (stdout,
// or stderr with --export).
func (d *dropIn) printWarning(notes io.Writer, w resetplan.Warning) {
	switch w.Kind {
	case resetplan.WarnClampedToStart, resetplan.WarnClampedToEnd:
		fmt.Fprintf(d.s.Err, "[%s] WARN %s (org.apache.kafka.tools.GroupOffsetsResetter)\n",
			time.Now().Format("2006-01-02 15:04:05,000"), w.Message)
	case resetplan.WarnNoRecordAfterTime:
		fmt.Fprintf(notes, "\nWarn: %s\n", w.Message)
	case resetplan.WarnNoPlanForGroup:
		fmt.Fprintf(notes, "\nError: %s\n", w.Message)
	default:
		fmt.Fprintf(d.s.Err, "kcg: warning: %s\n", w.Message)
	}
}

// buildPlan resolves the reset for the inactive groups, mapping errors to
// the Java tool's messages.
func (d *dropIn) buildPlan(ctx context.Context, cl *kafkaadmin.Client, info kafkaadmin.ClusterInfo, groups []resetplan.GroupSnapshot) (*resetplan.Plan, []resetplan.Warning, error) {
	javaArg := func(err error) string {
		var ae *resetplan.ArgError
		if errors.As(err, &ae) {
			return ae.JavaMessage()
		}
		return err.Error()
	}
	scope, err := resetplan.ParseScope(d.a.Has("all-topics"), d.a.Values("topic"))
	if err != nil {
		return nil, nil, &usageExit{javaArg(err)}
	}
	name := ""
	for _, s := range javaScenarios {
		if d.a.Has(s) {
			name = s
		}
	}
	if name == "" {
		return nil, nil, &usageExit{resetplan.ScenarioMissingMessage}
	}
	value := ""
	switch name {
	case "shift-by", "by-duration":
		if value, err = d.a.One(name); err != nil {
			return nil, nil, &javaFailure{err.Error(), app.ExitUsage}
		}
	case "to-offset", "to-datetime", "from-file":
		value = d.a.First(name)
	}
	single := ""
	if gs := d.a.Values("group"); len(gs) == 1 {
		single = gs[0]
	}
	spec, err := groupops.ResolveStrategy(name, value, single)
	var fe *groupops.FromFileError
	switch {
	case errors.As(err, &fe) && fe.Read:
		return nil, nil, &javaFailure{fmt.Sprintf("java.io.IOException: Unable to read file %s", value), app.ExitBadInput}
	case errors.As(err, &fe):
		return nil, nil, &javaFailure{vocab.OneLine(fe.Err.Error()), app.ExitBadInput}
	case err != nil:
		text := javaArg(err)
		if name == "to-datetime" {
			text = "java.text.ParseException: " + text
		}
		return nil, nil, &javaFailure{text, app.ExitUsage}
	}
	plan, warnings, err := groupops.BuildPlan(ctx, cl, info, groups, groupops.PlanRequest{Scope: scope, Strategy: spec, CreatedBy: app.CreatedBy()})
	if err == nil {
		return plan, warnings, nil
	}
	var nf *resetplan.NotFoundError
	var nc *resetplan.NoCommitError
	var ae *resetplan.ArgError
	switch {
	case errors.As(err, &nf) && len(nf.Topics) > 0:
		return nil, nil, &javaFailure{"This server does not host this topic-partition.", app.ExitUsage}
	case errors.As(err, &nf):
		return nil, nil, &javaFailure{nf.Error(), app.ExitUsage}
	case errors.As(err, &nc), errors.As(err, &ae):
		return nil, nil, &usageExit{javaArg(err)}
	}
	return nil, nil, err
}

// settleFor is how long --execute watches the offsets it wrote (a
// variable for tests: export_test.go).
var settleFor = groupops.DefaultSettle

// execute writes plan through kcg apply's machinery: preflight (the same
// checks as kcg apply, minus the plan file's digest and cluster id, which
// are this run's), then each group committed with leader epoch -1 and no
// metadata, as the Java tool commits, and read back. No rollback file is
// written: a drop-in command line must not leave files behind. The written
// offsets are then watched for settleFor, as kcg apply does: a group a
// consumer that is no member overwrites is not reported reset (exit 4).
func (d *dropIn) execute(ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan) (wrote bool, err error) {
	check, err := groupops.Preflight(ctx, cl, plan)
	if err != nil {
		return false, err
	}
	if _, err := check.Refusal(false); err != nil {
		return false, err
	}
	res := groupops.Apply(ctx, cl, check, groupops.ApplyOptions{SkipEmptyGroups: true})
	groupops.Settle(ctx, cl, check, &res, groupops.SettleOptions{For: settleFor})
	v := res.Verdict()
	if v.Failed == nil {
		return len(res.Groups) > 0, nil
	}
	// Groups after the failed one may have been in flight with it
	// (groupops.Apply writes several at once): every group written counts.
	var written []string
	for _, w := range v.Written {
		if w.Group != v.Failed.Group {
			written = append(written, w.Group)
		}
	}
	switch {
	case len(written) > 0 || v.Failed.Outcome == groupops.Partial || v.Failed.Outcome == groupops.Unknown || v.Failed.Outcome == groupops.Overwritten:
		return true, app.WithCode(app.ExitPartial, fmt.Errorf("group %s: %v (groups already reset: %v)", v.Failed.Group, v.Failure, written))
	case v.GroupActive:
		return false, app.Refused(fmt.Errorf("group %s: %w", v.Failed.Group, v.Failure))
	}
	return false, fmt.Errorf("group %s: %w", v.Failed.Group, v.Failure)
}

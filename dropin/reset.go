package dropin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
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
	cl, ctx, done, groups, err := d.connectGroups()
	if err != nil {
		return err
	}
	defer done()
	// kafka-consumer-groups resets consumer groups only, and
	// kafka-streams-groups streams groups (share groups: d.groups).
	if err := groupops.RefuseOtherTypesFor(ctx, cl, d.tool.family, groups); err != nil {
		return err
	}
	info, snaps, err := groupops.ReadForPlan(ctx, cl, groups, nil)
	if err != nil {
		return err
	}
	active, inactive := splitActive(snaps)
	var plan *resetplan.Plan
	var warnings []resetplan.Warning
	if len(inactive) > 0 {
		req, err := d.planRequest()
		if err != nil {
			return err
		}
		plan, warnings, err = groupops.BuildPlan(ctx, cl, info, inactive, req)
		if err != nil {
			return javaPlanError(err)
		}
	}
	d.printResetNotes(groups, active, warnings)
	wrote := false
	if d.a.Has("execute") && plan != nil {
		if wrote, err = d.execute(ctx, cl, plan); err != nil {
			return err
		}
	}
	if err := d.printReset(active, plan); err != nil {
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

// splitActive splits snaps into the groups with members (by group id),
// which Java refuses to reset, and the others.
func splitActive(snaps []resetplan.GroupSnapshot) (active map[string]resetplan.GroupSnapshot, inactive []resetplan.GroupSnapshot) {
	active = map[string]resetplan.GroupSnapshot{}
	for _, g := range snaps {
		if g.Inactive() {
			inactive = append(inactive, g)
		} else {
			active[g.Group] = g
		}
	}
	return active, inactive
}

// notes is where the Java tool's messages go: stdout, or stderr with
// --export so the CSV stays clean.
func (d *dropIn) notes() io.Writer {
	if d.a.Has("export") {
		return d.s.Err
	}
	return d.s.Out
}

// printResetNotes prints, per group in id order, the tool's note for an
// active group or the plan's warnings for the group.
func (d *dropIn) printResetNotes(groups []string, active map[string]resetplan.GroupSnapshot, warnings []resetplan.Warning) {
	notes := d.notes()
	names := vocab.Dedupe(groups)
	slices.Sort(names)
	for _, g := range names {
		if a, ok := active[g]; ok {
			d.tool.activeNote(d.s, notes, a)
			continue
		}
		for _, w := range warnings {
			if w.Group == g {
				d.printWarning(notes, w)
			}
		}
	}
}

// printReset prints the reset: with --export the plan's CSV, otherwise
// the tool's table of the groups refused as active and the plan's
// targets.
func (d *dropIn) printReset(active map[string]resetplan.GroupSnapshot, plan *resetplan.Plan) error {
	if d.a.Has("export") {
		return d.exportCSV(plan)
	}
	var refused []javaResetGroup
	for _, g := range slices.Sorted(maps.Keys(active)) {
		refused = append(refused, javaResetGroup{Group: g})
	}
	var planned []javaResetGroup
	if plan != nil {
		for _, g := range plan.Groups {
			jg := javaResetGroup{Group: g.Group}
			for _, p := range g.Partitions {
				if t, ok := p.TargetOffset(); ok {
					jg.Partitions = append(jg.Partitions, javaResetPartition{Topic: p.Topic, Partition: p.Partition, NewOffset: t})
				}
			}
			planned = append(planned, jg)
		}
	}
	return d.tool.resetTable(d.s.Out, refused, planned)
}

// exportCSV is --export: the plan as the Java tool's CSV (a newline when
// no group was planned).
func (d *dropIn) exportCSV(plan *resetplan.Plan) error {
	data := []byte("\n")
	if plan != nil {
		layout := resetplan.CSVWithGroup
		if len(d.a.Values("group")) == 1 {
			layout = resetplan.CSVNoGroup
		}
		var err error
		if data, err = resetplan.ExportCSV(plan, layout); err != nil {
			return err
		}
	}
	// The CSV is data for --from-file: exact names, not Printable's.
	_, err := vocab.RawWriter(d.s.Out).Write(data)
	return err
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

// javaArgMessage is err in the Java tool's words when it is an argument
// error.
func javaArgMessage(err error) string {
	var ae *resetplan.ArgError
	if errors.As(err, &ae) {
		return ae.JavaMessage()
	}
	return err.Error()
}

// planRequest is the reset the command line asks for (its scope and
// strategy), its errors in the Java tool's words.
func (d *dropIn) planRequest() (groupops.PlanRequest, error) {
	scope, err := resetplan.ParseScope(d.a.Has("all-topics"), d.a.Values("topic"))
	if err != nil {
		return groupops.PlanRequest{}, &usageExit{javaArgMessage(err)}
	}
	name := ""
	for _, s := range javaScenarios {
		if d.a.Has(s) {
			name = s
		}
	}
	if name == "" {
		return groupops.PlanRequest{}, &usageExit{resetplan.ScenarioMissingMessage}
	}
	value := ""
	switch name {
	case "shift-by", "by-duration":
		if value, err = d.a.One(name); err != nil {
			return groupops.PlanRequest{}, &javaFailure{err.Error(), app.ExitUsage}
		}
	case "to-offset", "to-datetime", "from-file":
		value = d.a.First(name)
	}
	single := ""
	if gs := d.a.Values("group"); len(gs) == 1 {
		single = gs[0]
	}
	spec, err := groupops.ResolveStrategy(name, value, single)
	if err != nil {
		return groupops.PlanRequest{}, javaStrategyError(err, name, value)
	}
	return groupops.PlanRequest{Scope: scope, Strategy: spec, CreatedBy: app.CreatedBy()}, nil
}

// javaStrategyError is a failure of groupops.ResolveStrategy for
// scenario name with value, as the Java tool reports it.
func javaStrategyError(err error, name, value string) error {
	var fe *groupops.FromFileError
	switch {
	case errors.As(err, &fe) && fe.Read:
		return &javaFailure{fmt.Sprintf("java.io.IOException: Unable to read file %s", value), app.ExitBadInput}
	case errors.As(err, &fe):
		return &javaFailure{vocab.OneLine(fe.Err.Error()), app.ExitBadInput}
	}
	text := javaArgMessage(err)
	if name == "to-datetime" {
		text = "java.text.ParseException: " + text
	}
	return &javaFailure{text, app.ExitUsage}
}

// javaPlanError is a failure of groupops.BuildPlan as the Java tool
// reports it.
func javaPlanError(err error) error {
	var nf *resetplan.NotFoundError
	var nc *resetplan.NoCommitError
	var ae *resetplan.ArgError
	switch {
	case errors.As(err, &nf) && len(nf.Topics) > 0:
		return &javaFailure{"This server does not host this topic-partition.", app.ExitUsage}
	case errors.As(err, &nf):
		return &javaFailure{nf.Error(), app.ExitUsage}
	case errors.As(err, &nc), errors.As(err, &ae):
		return &usageExit{javaArgMessage(err)}
	}
	return err
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

package dropin

import (
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// dropIn is one run of a Java tool's command line.
type dropIn struct {
	ctx context.Context
	a   *javaArgs
	s   app.IO
	// tool is the Java tool whose command line this is.
	tool *javaTool
	// dial connects (app.Dial; a fake in tests).
	dial dialFunc
}

// connect dials the cluster with --bootstrap-server, --command-config and
// --timeout (milliseconds; kcg applies it to the whole command, default
// 30000 as in Kafka 4.1+).
func (d *dropIn) connect() (*kafkaadmin.Client, context.Context, func(), error) {
	o := connconfig.ConnOptions{Timeout: app.DefaultTimeout}
	var err error
	if o.Bootstrap, err = d.a.One("bootstrap-server"); err != nil {
		return nil, nil, nil, &javaFailure{err.Error(), app.ExitUsage}
	}
	if o.CommandConfig, err = d.a.One("command-config"); err != nil {
		return nil, nil, nil, &javaFailure{err.Error(), app.ExitUsage}
	}
	t, err := d.a.One("timeout")
	if err != nil {
		return nil, nil, nil, &javaFailure{err.Error(), app.ExitUsage}
	}
	if t != "" {
		ms, perr := strconv.ParseInt(t, 10, 64)
		if perr != nil {
			return nil, nil, nil, &javaFailure{fmt.Sprintf("Cannot parse argument '%s' of option timeout", t), app.ExitUsage}
		}
		if ms <= 0 {
			return nil, nil, nil, &javaFailure{fmt.Sprintf("--timeout must be a positive number of milliseconds, got %s", t), app.ExitUsage}
		}
		o.Timeout = time.Duration(ms) * time.Millisecond
	}
	cl, ctx, done, err := d.dial(d.ctx, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return cl, ctx, done, nil
}

// connectGroups connects and resolves the groups: the start of every
// drop-in action that works on groups. The caller calls done.
func (d *dropIn) connectGroups() (cl *kafkaadmin.Client, ctx context.Context, done func(), groups []string, err error) {
	if cl, ctx, done, err = d.connect(); err != nil {
		return nil, nil, nil, nil, err
	}
	if groups, err = d.groups(ctx, cl); err != nil {
		done()
		return nil, nil, nil, nil, err
	}
	return cl, ctx, done, groups, nil
}

// groups returns the --group values in command-line order without
// duplicates, or with --all-groups every group of the tool's family
// (sorted; Java's --all-groups lists its own family only too, silently).
// A named group the cluster lists as another family's is refused (exit
// 3, nothing read or written): kafka-consumer-groups' command line never
// resets a Kafka Streams application by its application id, and
// kafka-share-groups' and kafka-streams-groups' never reset or delete a
// group of another tool.
func (d *dropIn) groups(ctx context.Context, cl *kafkaadmin.Client) ([]string, error) {
	if d.a.Has("all-groups") {
		return groupops.FamilyGroupIDs(ctx, cl, d.tool.family)
	}
	ids := vocab.Dedupe(d.a.Values("group"))
	err := groupops.RefuseForeignGroups(ctx, cl, d.tool.family, ids)
	var fe *groupops.ForeignGroupError
	if errors.As(err, &fe) {
		return nil, &javaFailure{fe.Error(), app.ExitRefused}
	}
	return ids, err
}

// validateRegex is --validate-regex: RE2 syntax (Go's regexp is RE2, as
// RE2/J is), and RE2/J's description of the error, which is Go's error
// code text. Invalid exits 1 (Java: 0), so a script can test it.
func (d *dropIn) validateRegex() error {
	re := d.a.First("validate-regex")
	if _, err := syntax.Parse(re, syntax.Perl); err != nil {
		desc := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			desc = string(se.Code)
		}
		fmt.Fprintf(d.s.Out, "The regular expression `%s` is invalid: %s.\n", re, desc)
		return app.Silent(app.ExitError)
	}
	fmt.Fprintf(d.s.Out, "The regular expression `%s` is valid.\n", re)
	return nil
}

// list is --list [--state [S,...]] [--type [T,...]]: rows sorted by group
// id (Java: broker order).
func (d *dropIn) list() error {
	var states, types []string
	for _, v := range d.a.Values("state") {
		s, err := groupops.ParseStates(v)
		if err != nil {
			return &usageExit{err.Error()}
		}
		states = append(states, s...)
	}
	for _, v := range d.a.Values("type") {
		t, err := groupops.ParseTypes(v)
		if err != nil {
			// The Java tool names its GroupType values, capitalised.
			return &usageExit{fmt.Sprintf("Invalid types list '%s'. Valid types are: Consumer, Classic", v)}
		}
		types = append(types, t...)
	}
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	gs, err := groupops.ListFamily(ctx, cl, groupops.FamilyConsumer, states, types)
	if err != nil {
		return javaListFailure(err)
	}
	doc := output.NewGroupListOf(gs)
	return javaList(d.s.Out, doc.Groups, d.a.Has("type"), d.a.Has("state"))
}

// javaListFailure is err as the Java tool reports a failed --list: a
// filter the broker cannot apply fails in the Java admin client with this
// UnsupportedVersionException — by state before ListGroups v4 (seen on a
// real 2.5.1 with the 4.4.0 tool, which prints "Unknown" states without a
// filter, as kcg then does), by type consumer before v5 (2.8.2, 3.7.2).
// Other errors are kept.
func javaListFailure(err error) error {
	var fe *groupops.FilterError
	if !errors.As(err, &fe) {
		return err
	}
	rack := "null"
	if fe.Broker.Rack != nil {
		rack = *fe.Broker.Rack
	}
	what := "[StatesFilter]"
	if len(fe.Types) > 0 {
		names := make([]string, len(fe.Types))
		for i, t := range fe.Types {
			names[i] = javaTypeName(&t)
		}
		what = "[" + strings.Join(names, ", ") + "]"
	}
	return &javaFailure{fmt.Sprintf("org.apache.kafka.common.errors.UnsupportedVersionException: Error listing groups on %s (id: %d rack: %s isFenced: false): "+
		"The cluster does not support %s in LIST_GROUPS API version %d. Upgrade the cluster to LIST_GROUPS API version >= %d to enable %s.",
		fe.Broker.Addr(), fe.Broker.ID, rack, what, fe.Version, fe.Need, what), app.ExitError}
}

// snapshot connects, resolves the groups and reads them as describe
// shows them (groupops.TakeSnapshot): the start of --describe. nil and no
// error when there are no groups (--all-groups of a cluster without any).
func (d *dropIn) snapshot() (*groupops.Snapshot, error) {
	cl, ctx, done, groups, err := d.connectGroups()
	if err != nil {
		return nil, err
	}
	defer done()
	if len(groups) == 0 {
		return nil, nil
	}
	return groupops.TakeSnapshot(ctx, cl, groups, func(string) {})
}

// describe is --describe with --offsets (default), --members or --state,
// and --verbose. As in Java, a group that cannot be described fails the
// whole command before anything is printed.
func (d *dropIn) describe() error {
	view := output.ViewOffsets
	switch {
	case d.a.Has("members"):
		view = output.ViewMembers
	case d.a.Has("state"):
		view = output.ViewState
	}
	snap, err := d.snapshot()
	if err != nil || snap == nil {
		return err
	}
	// A group that does not exist: Kafka 4.0 and later answer
	// GROUP_ID_NOT_FOUND, which the Java tool reports as the command's
	// failure; older brokers describe it as Dead, which Java prints among
	// the other groups ("Error: Consumer group '…' does not exist.").
	// kcg exits 1 either way.
	dead := map[string]bool{}
	for _, g := range snap.Groups {
		switch {
		case g.Err != nil:
			return &javaFailure{vocab.OneLine(g.Err.Error()), app.ExitError}
		case !g.Desc.Exists && g.Desc.NotFound:
			return &javaFailure{fmt.Sprintf("org.apache.kafka.common.errors.GroupIdNotFoundException: Group %s not found.", g.Name()), app.ExitError}
		case !g.Desc.Exists:
			dead[g.Name()] = true
		}
	}
	doc := output.NewGroupDescriptionListOf(snap, nil)
	for i := range doc.Groups {
		if g := &doc.Groups[i]; dead[g.Group] {
			g.Error, g.State = nil, output.Ptr(vocab.StateDead)
		}
	}
	if err := javaDescribe(d.s.Out, d.s.Err, doc, view, d.a.Has("verbose"), memberOrderOf(snap)); err != nil {
		if app.OutputClosed(err) {
			return err
		}
		return &javaFailure{err.Error(), app.ExitError}
	}
	if len(dead) > 0 {
		return app.Silent(app.ExitError)
	}
	return nil
}

// memberOrderOf is snap's memberOrder.
func memberOrderOf(snap *groupops.Snapshot) memberOrder {
	out := memberOrder{}
	for _, g := range snap.Groups {
		if len(g.Desc.Members) == 0 {
			continue
		}
		m := make(map[string]int, len(g.Desc.Members))
		for _, mem := range g.Desc.Members {
			m[mem.MemberID] = mem.Position
		}
		out[g.Name()] = m
	}
	return out
}

// javaErrorText is what the Java tool prints for a failed group or
// partition of --delete and --delete-offsets (the exception's toString()).
func javaErrorText(err error) string {
	if t, ok := vocab.JavaException(groupops.CodeOf(err)); ok {
		return t
	}
	return vocab.OneLine(err.Error())
}

// javaDeleteError is kafka-consumer-groups' text for a group --delete
// did not delete: the exception, whatever the group.
func javaDeleteError(_ string, err error) string { return javaErrorText(err) }

// deleteGroups is --delete: groups listed sorted (Java: HashMap order);
// exit 1 when any group was not deleted (Java: 0).
func (d *dropIn) deleteGroups() error {
	cl, ctx, done, groups, err := d.connectGroups()
	if err != nil {
		return err
	}
	defer done()
	undo, err := d.writeUndo(ctx, cl, groups, resetplan.StrategyDeleteGroup, nil)
	if err != nil {
		return err
	}
	outcomes, err := groupops.DeleteGroups(ctx, cl, groups)
	if err != nil {
		return err
	}
	undo.Narrow(d.s.Err, func(p *resetplan.Plan) bool { return groupops.KeepDeletedGroups(p, outcomes) })
	var res []deleteOutcome
	failed := false
	for _, o := range outcomes {
		r := deleteOutcome{Group: o.Group}
		if o.Err != nil {
			r.Error = output.Ptr(d.tool.deleteError(o.Group, o.Err))
			failed = true
		}
		res = append(res, r)
	}
	if err := javaDeleteResult(d.s.Out, res); err != nil {
		return err
	}
	if failed {
		return app.Silent(app.ExitError)
	}
	return nil
}

// writeUndo is kcg's one addition to the Java tool's --delete and
// --delete-offsets: before deleting, it plans the delete and writes the
// plan's undo (planfile.WriteUndoOf, in the current directory), naming it
// on stderr; stdout stays the Java tool's. None is written when no
// committed offset is deleted (a group that does not exist: Java's own
// error on stdout). Nothing is deleted when it fails.
func (d *dropIn) writeUndo(ctx context.Context, cl *kafkaadmin.Client, groups []string, typ resetplan.StrategyType, specs []resetplan.TopicSpec) (planfile.Undo, error) {
	if err := groupops.RefuseOtherTypesFor(ctx, cl, d.tool.family, groups); err != nil {
		return planfile.Undo{}, err
	}
	plan, _, err := groupops.PlanDelete(ctx, cl, groups, typ, specs, app.CreatedBy())
	if err != nil {
		return planfile.Undo{}, err
	}
	return planfile.WriteUndoOf(d.s.Err, plan)
}

// deleteOffsetsArgs are --delete-offsets' one group and its --topic
// arguments, a bad one failing as the Java tools fail it.
func (d *dropIn) deleteOffsetsArgs() (string, []resetplan.TopicSpec, error) {
	group, err := d.a.One("group")
	if err != nil {
		return "", nil, &javaFailure{err.Error(), app.ExitUsage}
	}
	var specs []resetplan.TopicSpec
	for _, t := range d.a.Values("topic") {
		ts, err := resetplan.ParseTopicArg(t)
		if err != nil {
			var ae *resetplan.ArgError
			if errors.As(err, &ae) {
				return "", nil, &javaFailure{ae.JavaMessage(), app.ExitUsage}
			}
			return "", nil, &javaFailure{err.Error(), app.ExitUsage}
		}
		specs = append(specs, ts)
	}
	return group, specs, nil
}

// deleteOffsets is --delete-offsets: one group, repeatable --topic; exit 1
// when anything failed (Java: 0).
func (d *dropIn) deleteOffsets() error {
	group, specs, err := d.deleteOffsetsArgs()
	if err != nil {
		return err
	}
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	undo, err := d.writeUndo(ctx, cl, []string{group}, resetplan.StrategyDeleteOffsets, specs)
	if err != nil {
		return err
	}
	r, err := groupops.DeleteOffsets(ctx, cl, group, specs)
	if err != nil {
		return err
	}
	undo.Narrow(d.s.Err, func(p *resetplan.Plan) bool { return groupops.KeepDeletedOffsets(p, r) })
	out := deleteOffsetsOutcome{Group: group}
	failed := r.GroupErr != nil
	if r.GroupErr != nil {
		out.ErrorCode = int16(groupops.CodeOf(r.GroupErr))
		out.ErrorName = vocab.OneLine(r.GroupErr.Error())
	}
	for _, p := range r.Partitions {
		row := deleteOffsetsPartition{Topic: p.Topic, Partition: p.Partition}
		if p.Err != nil {
			row.Error = output.Ptr(javaErrorText(p.Err))
			failed = true
			// Java's first line reports the first failed partition that
			// was sent (a topic that does not exist never was).
			if out.ErrorCode == 0 && p.Partition != nil {
				out.ErrorCode = int16(groupops.CodeOf(p.Err))
				out.ErrorName = vocab.OneLine(p.Err.Error())
			}
		}
		out.Partitions = append(out.Partitions, row)
	}
	if err := javaDeleteOffsetsResult(d.s.Out, out); err != nil {
		return err
	}
	if failed {
		return app.Silent(app.ExitError)
	}
	return nil
}

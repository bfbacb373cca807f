package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"strconv"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
)

// dropIn is one run of a Java command line.
type dropIn struct {
	ctx context.Context
	a   *javaArgs
	s   Streams
}

// connect dials the cluster with --bootstrap-server, --command-config and
// --timeout (milliseconds; kcg applies it to the whole command, default
// 30000 as in Kafka 4.1+).
func (d *dropIn) connect() (*kafkaadmin.Client, context.Context, func(), error) {
	o := kafkaadmin.ConnOptions{Timeout: defaultTimeout}
	var err error
	if o.Bootstrap, err = d.a.One("bootstrap-server"); err != nil {
		return nil, nil, nil, &javaFailure{err.Error(), ExitUsage}
	}
	if o.CommandConfig, err = d.a.One("command-config"); err != nil {
		return nil, nil, nil, &javaFailure{err.Error(), ExitUsage}
	}
	t, err := d.a.One("timeout")
	if err != nil {
		return nil, nil, nil, &javaFailure{err.Error(), ExitUsage}
	}
	if t != "" {
		ms, perr := strconv.ParseInt(t, 10, 64)
		if perr != nil {
			return nil, nil, nil, &javaFailure{fmt.Sprintf("Cannot parse argument '%s' of option timeout", t), ExitUsage}
		}
		if ms <= 0 {
			return nil, nil, nil, &javaFailure{fmt.Sprintf("--timeout must be a positive number of milliseconds, got %s", t), ExitUsage}
		}
		o.Timeout = msDuration(ms)
	}
	cl, ctx, done, err := dial(d.ctx, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return cl, ctx, done, nil
}

// groups returns the --group values in command-line order without
// duplicates, or with --all-groups every consumer group (sorted).
func (d *dropIn) groups(ctx context.Context, cl *kafkaadmin.Client) ([]string, error) {
	if d.a.Has("all-groups") {
		return allGroupIDs(ctx, cl)
	}
	return dedupe(d.a.Values("group")), nil
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
		return silentExit(ExitError)
	}
	fmt.Fprintf(d.s.Out, "The regular expression `%s` is valid.\n", re)
	return nil
}

// list is --list [--state [S,...]] [--type [T,...]]: rows sorted by group
// id (Java: broker order).
func (d *dropIn) list() error {
	var opts kafkaadmin.ListGroupsOptions
	for _, v := range d.a.Values("state") {
		s, err := parseStates(v)
		if err != nil {
			return &usageExit{err.Error()}
		}
		opts.States = append(opts.States, s...)
	}
	for _, v := range d.a.Values("type") {
		t, err := parseTypes(v)
		if err != nil {
			return &usageExit{err.Error()}
		}
		opts.Types = append(opts.Types, t...)
	}
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	gs, err := cl.ListGroups(ctx, opts)
	if err != nil {
		return err
	}
	doc := output.NewGroupList(listings(consumerGroupsOnly(gs)))
	doc.Sort()
	return output.JavaList(d.s.Out, doc.Groups, d.a.Has("type"), d.a.Has("state"))
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
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	groups, err := d.groups(ctx, cl)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return nil
	}
	snap, err := takeSnapshot(ctx, cl, groups, func(string) {})
	if err != nil {
		return err
	}
	for _, v := range snap.groups {
		switch {
		case v.err != nil:
			return &javaFailure{oneLine(v.err.Error()), ExitError}
		case !v.desc.Exists:
			return &javaFailure{fmt.Sprintf("org.apache.kafka.common.errors.GroupIdNotFoundException: Group %s not found.", v.desc.Group), ExitError}
		}
	}
	doc := describeDoc(snap, nil)
	doc.Sort()
	if err := output.JavaDescribe(d.s.Out, d.s.Err, doc, view, d.a.Has("verbose")); err != nil {
		return &javaFailure{err.Error(), ExitError}
	}
	return nil
}

// javaErrorText is what the Java tool prints for a failed group or
// partition of --delete and --delete-offsets (the exception's toString()).
func javaErrorText(err error) string {
	if t, ok := output.JavaExceptionText(kafkaCode(err)); ok {
		return t
	}
	return oneLine(err.Error())
}

// deleteGroups is --delete: groups listed sorted (Java: HashMap order);
// exit 1 when any group was not deleted (Java: 0).
func (d *dropIn) deleteGroups() error {
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	groups, err := d.groups(ctx, cl)
	if err != nil {
		return err
	}
	outcomes, err := deleteGroups(ctx, cl, groups)
	if err != nil {
		return err
	}
	var res []output.DeleteOutcome
	failed := false
	for _, o := range outcomes {
		r := output.DeleteOutcome{Group: o.group}
		if o.err != nil {
			r.Error = output.Ptr(javaErrorText(o.err))
			failed = true
		}
		res = append(res, r)
	}
	if err := output.JavaDeleteResult(d.s.Out, res); err != nil {
		return err
	}
	if failed {
		return silentExit(ExitError)
	}
	return nil
}

// deleteOffsets is --delete-offsets: one group, repeatable --topic; exit 1
// when anything failed (Java: 0).
func (d *dropIn) deleteOffsets() error {
	group, err := d.a.One("group")
	if err != nil {
		return &javaFailure{err.Error(), ExitUsage}
	}
	var specs []resetplan.TopicSpec
	for _, t := range d.a.Values("topic") {
		ts, err := resetplan.ParseTopicArg(t)
		if err != nil {
			var ae *resetplan.ArgError
			if errors.As(err, &ae) {
				return &javaFailure{ae.JavaMessage(), ExitUsage}
			}
			return &javaFailure{err.Error(), ExitUsage}
		}
		specs = append(specs, ts)
	}
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	r, err := deleteOffsets(ctx, cl, group, specs)
	if err != nil {
		return err
	}
	out := output.DeleteOffsetsOutcome{Group: group}
	failed := r.groupErr != nil
	if r.groupErr != nil {
		out.ErrorCode = kafkaCode(r.groupErr)
		out.ErrorName = oneLine(r.groupErr.Error())
	}
	for _, p := range r.partitions {
		row := output.DeleteOffsetsPartition{Topic: p.topic, Partition: p.partition}
		if p.err != nil {
			row.Error = output.Ptr(javaErrorText(p.err))
			failed = true
			// Java's first line reports the first failed partition that
			// was sent (a topic that does not exist never was).
			if out.ErrorCode == 0 && p.partition != nil {
				out.ErrorCode = kafkaCode(p.err)
				out.ErrorName = oneLine(p.err.Error())
			}
		}
		out.Partitions = append(out.Partitions, row)
	}
	if err := output.JavaDeleteOffsetsResult(d.s.Out, out); err != nil {
		return err
	}
	if failed {
		return silentExit(ExitError)
	}
	return nil
}

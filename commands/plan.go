package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/policy"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

// strategyNames are the eight --reset-offsets strategies, with the Java
// tool's names, and kcg's own to-group and translate-from, in the order their flags are
// listed.
var strategyNames = []string{"to-earliest", "to-latest", "to-current", "to-offset", "shift-by", "to-datetime", "by-duration", "from-file", "to-group", "translate-from"}

// strategyFlags are the strategies' flags.
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
		&cli.StringFlag{Name: "to-group", Usage: "copy the committed offsets of group `SOURCE` (clamped to the log; partitions SOURCE never committed are left out)"},
		&cli.StringFlag{Name: "translate-from", Usage: "fail over: MirrorMaker 2's checkpoints of source cluster `ALIAS` (run against the target cluster; see docs/failover.md)"},
	}
}

// strategyFrom returns the one strategy given, reading --from-file.
func strategyFrom(c *cli.Context, singleGroup string) (resetplan.StrategySpec, error) {
	var given []string
	for _, f := range strategyNames {
		if c.IsSet(f) {
			given = append(given, f)
		}
	}
	switch len(given) {
	case 0:
		return resetplan.StrategySpec{}, app.Usagef("give one strategy: --to-earliest, --to-latest, --to-current, --to-offset N, --shift-by N, --to-datetime TS, --by-duration D, --from-file FILE, --to-group SOURCE or --translate-from ALIAS")
	case 1:
	default:
		return resetplan.StrategySpec{}, app.Usagef("give one strategy, not --%s", strings.Join(given, " and --"))
	}
	name, value := given[0], ""
	if name != "to-earliest" && name != "to-latest" && name != "to-current" {
		value = c.String(name)
	}
	spec, err := groupops.ResolveStrategy(name, value, singleGroup)
	var fe *groupops.FromFileError
	switch {
	case errors.As(err, &fe):
		return spec, app.BadInput(err)
	case err != nil:
		return spec, app.Usagef("%s", err)
	case spec.Type == resetplan.StrategyByDuration && spec.Duration < 0:
		// Java reads it as a time in the future and falls back to the log
		// end with its "is empty" text (drop-in keeps that); here it is
		// a sign typed by mistake.
		return spec, app.Usagef("--by-duration %s is negative: that is a time in the future; give how long ago, e.g. PT1H (PT0S: now)", value)
	}
	return spec, nil
}

type planOptions struct {
	scope groupScope
	// out is the plan file ("-": stdout); format, when set, also prints the
	// plan on stdout.
	out string
	// overwrite lets --out replace an existing file.
	overwrite bool
	// allowNewGroup plans named groups the cluster does not list.
	allowNewGroup bool
	format        output.Format
	request       groupops.PlanRequest
	// policies are --policy and the profile's policy: (nil: none).
	policies *policy.Set
	dial     dialFunc
	// connector is --connector (plan_connector.go).
	connector planConnector
}

func planCommand(s IO) *cli.Command {
	flags := []cli.Flag{
		groupFlag(),
		&cli.BoolFlag{Name: "all-groups", Usage: "plan every group of the --type types (default: consumer groups; share and streams groups are left out, with a note)"},
		&cli.StringFlag{Name: "type", Usage: "with --all-groups: the group `TYPES` to take, comma-separated from classic, consumer, share, streams, or all (default classic,consumer)"},
		&cli.BoolFlag{Name: "all-topics", Usage: "scope: every partition the group has a committed offset for"},
		&cli.StringSliceFlag{Name: "topic", Usage: "scope: topic `T` (all partitions) or T:0,2 (repeatable)"},
	}
	flags = append(flags, strategyFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "checkpoints-topic", Usage: "--translate-from: read the checkpoints from topic `NAME` (default ALIAS.checkpoints.internal; for a custom replication policy)"},
		durationFlag(&cli.DurationFlag{Name: "max-checkpoint-age", Value: 5 * time.Minute, Usage: "--translate-from: warn about checkpoints older than `D`"}),
		&cli.BoolFlag{Name: "delete", Usage: "plan deleting the groups (every committed offset is listed: what is lost); no scope"},
		&cli.BoolFlag{Name: "delete-offsets", Usage: "plan deleting the groups' committed offsets of the scope (--topic or --all-topics)"},
		&cli.StringFlag{Name: "out", Usage: "write the plan to `FILE` (.json: JSON, otherwise YAML; - for stdout); an existing FILE is refused"},
		&cli.BoolFlag{Name: "overwrite", Usage: "let --out replace an existing regular file (never a link, FIFO or device)"},
		&cli.BoolFlag{Name: "allow-new-group", Usage: "plan a group the cluster does not have (apply creates it); without it a missing group is refused as a typo"},
		&cli.StringFlag{Name: "ticket", Usage: "change ticket id, recorded in the plan and in the committed offsets' metadata"},
		&cli.StringFlag{Name: "note", Usage: "free-text note, recorded like --ticket"},
		policyFlag(),
		&formatFlag{StringFlag: &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "also print the plan on stdout: table (the summary), json or yaml"}, formats: []string{"table", "json", "yaml"}},
		sandboxFlag(),
	)
	return &cli.Command{
		Name:      "plan",
		Usage:     "build an offset-reset plan file (nothing is written to Kafka)",
		ArgsUsage: "GROUP... | --all-groups  ((--all-topics | --topic T[:P,...]) (STRATEGY | --delete-offsets) | --delete) --out FILE",
		Description: "Resolves a reset with the Java tool's semantics and writes every target,\n" +
			"already resolved, into a plan file for review. 'kcg show' renders it,\n" +
			"'kcg diff' compares it, 'kcg apply' executes it after re-checking it.\n\n" +
			"Strategies: --to-earliest, --to-latest, --to-current, --to-offset N,\n" +
			"--shift-by N, --to-datetime TS, --by-duration D, --from-file FILE (the Java\n" +
			"tool's), and --to-group SOURCE: the committed offsets of group SOURCE on the\n" +
			"scoped partitions (partitions SOURCE never committed are left out).\n\n" +
			"Delete plans: --delete (strategy delete-group: the groups go, with every\n" +
			"committed offset, each listed as what is lost) and --delete-offsets with a\n" +
			"scope (strategy delete-offsets). 'kcg apply' deletes after the same\n" +
			"checks as a reset, and writes the rollback plan that re-commits them first.\n\n" +
			"--policy PATH (and the profile's policy:) evaluates Rego policies against\n" +
			"the plan before it is written: a deny refuses (exit 3, no file), a warn is\n" +
			"printed (docs/policies/README.md).",
		Flags:  append(append(append(flags, connectorFlag()), connectionFlags()...), connectFlags()...),
		Action: action(s, planOptionsFrom, runPlan),
	}
}

func planOptionsFrom(c *cli.Context) (planOptions, error) {
	var o planOptions
	var err error
	if o.connector, err = connectorOptionsFrom(c); err != nil {
		return o, err
	}
	if o.connector.name != "" {
		// The group is the connector's, found when the plan runs.
		o.scope = groupScope{groups: []string{""}}
	} else if o.scope, err = groupScopeFrom(c); err != nil {
		return o, err
	}
	if o.out = c.String("out"); o.out == "" {
		return o, app.Usagef("--out FILE is required (- writes the plan to stdout)")
	}
	o.overwrite = c.Bool("overwrite")
	o.allowNewGroup = c.Bool("allow-new-group")
	if o.allowNewGroup && o.scope.all {
		return o, app.Usagef("--allow-new-group plans named groups: give groups, not --all-groups")
	}
	if c.String("output") != "" {
		if o.format, err = formatFrom(c); err != nil {
			return o, err
		}
		if o.out == "-" {
			return o, app.Usagef("--out - already prints the plan on stdout: drop -o")
		}
	}
	r := &o.request
	if _, err = topicArgs(c); err != nil {
		return o, err
	}
	if r.Scope, err = resetplan.ParseScope(c.Bool("all-topics"), c.StringSlice("topic")); err != nil {
		return o, app.Usagef("%s", err)
	}
	if c.IsSet("from-file") && c.IsSet("topic") {
		// The Java tool ignores the scope here; resetting what the file
		// names while --topic said otherwise would surprise (drop-in keeps
		// Java's way).
		return o, app.Usagef("--from-file resets the partitions the file names: it is the scope; drop --topic (or edit the file)")
	}
	single := ""
	if len(o.scope.groups) == 1 {
		single = o.scope.groups[0]
	}
	if c.Bool("delete") || c.Bool("delete-offsets") {
		if r.Strategy, err = deleteStrategyFrom(c, o, r.Scope); err != nil {
			return o, err
		}
	} else if r.Strategy, err = strategyFrom(c, single); err != nil {
		return o, err
	}
	if err := translateOptionsFrom(c, &o); err != nil {
		return o, err
	}
	if r.Strategy.Type != resetplan.StrategyFromFile && r.Strategy.Type != resetplan.StrategyDeleteGroup && r.Strategy.Type != resetplan.StrategyTranslateFrom && r.Scope.IsZero() {
		return o, app.Usagef("give a scope: --all-topics or --topic T[:P,...]")
	}
	if r.Strategy.Type == resetplan.StrategyToGroup {
		if o.scope.all {
			return o, app.Usagef("--to-group copies one group's offsets to the groups named: give them, not --all-groups")
		}
		if slices.Contains(o.scope.groups, r.Strategy.Source) {
			return o, app.Usagef("--to-group %s: the source group is also a group to reset; copy to another group", r.Strategy.Source)
		}
	}
	if c.String("ticket") != "" || c.String("note") != "" {
		r.Annotations = &resetplan.Annotations{Ticket: c.String("ticket"), Note: c.String("note")}
	}
	r.CreatedBy = app.CreatedBy()
	prof, err := profileOf(c)
	if err != nil {
		return o, err
	}
	o.policies, err = loadPolicies(c, prof)
	o.dial = dialFrom(c)
	return o, err
}

func runPlan(parent context.Context, s IO, o planOptions) error {
	// Refused before connecting; planfile.Write refuses again, atomically.
	if o.out != "-" {
		if err := planfile.CheckTarget(o.out, o.overwrite); err != nil {
			return refuseOut(o.out, err)
		}
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	progress := newProgress(s)
	defer progress.done()
	groups, conn, err := planGroups(ctx, cl, s, &o, progress)
	if err != nil {
		return err
	}
	progress.say("reading " + vocab.Count(len(groups), "group"))
	info, snaps, err := groupops.ReadForPlanChecked(ctx, cl, groups, &o.request.Strategy, missingCheck(ctx, cl, groups, !o.scope.all && !o.allowNewGroup && o.request.Strategy.Type != resetplan.StrategyTranslateFrom))
	if err != nil {
		return err
	}
	if o.request.Strategy.Type == resetplan.StrategyDeleteOffsets {
		if err := groupops.WholeTopicsOnly(snaps, o.request.Scope.Topics); err != nil {
			return err
		}
	}
	progress.say("resolving the targets of " + vocab.Count(len(snaps), "group"))
	plan, warnings, err := groupops.BuildPlan(ctx, cl, info, snaps, o.request)
	if err != nil {
		return planError(withTopicHints(ctx, cl, err))
	}
	progress.done()
	for _, w := range warnings {
		if quietWarning(w, o.request.Strategy) || (o.connector.name != "" && w.Kind == resetplan.WarnGroupActive) {
			continue
		}
		fmt.Fprintf(s.Err, "warning: %s\n", planWarning(w, plan.Strategy))
	}
	if err := refuseEmptyPlan(plan, groups); err != nil {
		return err
	}
	if conn != nil {
		if err := recordConnector(ctx, s, plan, conn.client, conn.k); err != nil {
			return err
		}
	}

	data, err := resetplan.Encode(plan, resetplan.FormatForPath(o.out))
	if err != nil {
		return err
	}
	if err := resetplan.CheckWritable(data, resetplan.FormatForPath(o.out)); err != nil {
		return app.Refused(err)
	}
	if err := o.enforcePolicies(parent, s, data); err != nil {
		return err
	}
	if o.out == "-" {
		if _, err := s.Out.Write(data); err != nil {
			return err
		}
	} else if err := planfile.Write(o.out, data, o.overwrite); err != nil {
		return refuseOut(o.out, err)
	}

	// The summary is for the reviewer: on stderr, unless -o table asks for
	// it on stdout; -o json|yaml prints the plan document on stdout.
	summaryTo := s.Err
	if o.format == output.FormatTable {
		summaryTo = s.Out
	}
	doc := output.PlanDocument{Plan: plan, MaxCheckpointAge: o.request.Strategy.MaxCheckpointAge}
	if err := doc.WriteTable(summaryTo); err != nil {
		return err
	}
	if o.format == output.FormatJSON || o.format == output.FormatYAML {
		if err := output.Write(s.Out, o.format, doc); err != nil {
			return err
		}
	}
	if o.out != "-" {
		fmt.Fprintf(s.Err, "plan written to %s\n", o.out)
	}
	fmt.Fprintf(s.Err, "digest: %s\n", resetplan.Digest(plan))
	return nil
}

// planGroups are the groups to plan: the connector's (--connector), the
// groups of the checkpoints (--translate-from), or the scope's; named
// groups the cluster does not have are refused.
func planGroups(ctx context.Context, cl *kafkaadmin.Client, s IO, o *planOptions, progress *progress) ([]string, *foundConnector, error) {
	translate := o.request.Strategy.Type == resetplan.StrategyTranslateFrom
	var groups []string
	conn, err := o.connector.find(ctx, &o.scope)
	if err != nil {
		return nil, nil, err
	}
	if translate {
		// The checkpoints first: they are the groups of --all-groups, and
		// the proof that a named group exists upstream.
		progress.say("reading " + o.request.Strategy.CheckpointsTopic)
		if groups, err = readCheckpoints(ctx, cl, o); err != nil {
			return nil, nil, err
		}
	} else {
		progress.say("listing groups")
		if groups, err = o.scope.resolve(ctx, cl, progressNotes{progress, s.Err}); err != nil {
			return nil, nil, err
		}
	}
	return groups, conn, nil
}

// deleteStrategyFrom is --delete or --delete-offsets: no reset strategy
// beside it, --delete without a scope, --delete-offsets with one, and no
// --allow-new-group (there is nothing to delete in a group that does not
// exist).
func deleteStrategyFrom(c *cli.Context, o planOptions, scope resetplan.Scope) (resetplan.StrategySpec, error) {
	if c.Bool("delete") && c.Bool("delete-offsets") {
		return resetplan.StrategySpec{}, app.Usagef("give --delete (the whole groups) or --delete-offsets (the scope's offsets), not both")
	}
	name := "delete"
	if c.Bool("delete-offsets") {
		name = "delete-offsets"
	}
	for _, f := range strategyNames {
		if c.IsSet(f) {
			return resetplan.StrategySpec{}, app.Usagef("--%s plans a delete, not a reset: drop --%s", name, f)
		}
	}
	if o.allowNewGroup {
		return resetplan.StrategySpec{}, app.Usagef("--%s deletes existing groups' offsets: drop --allow-new-group", name)
	}
	if name == "delete" {
		if !scope.IsZero() {
			return resetplan.StrategySpec{}, app.Usagef("--delete deletes the whole group with every offset: drop --topic/--all-topics, or plan --delete-offsets with them")
		}
		return resetplan.StrategySpec{Type: resetplan.StrategyDeleteGroup}, nil
	}
	if scope.IsZero() {
		return resetplan.StrategySpec{}, app.Usagef("--delete-offsets needs a scope: --topic T[:P,...] or --all-topics")
	}
	return resetplan.StrategySpec{Type: resetplan.StrategyDeleteOffsets}, nil
}

// refuseEmptyPlan refuses (exit 3) a plan that would change nothing. A
// delete-group plan of an existing group without a committed offset is not
// empty: the group itself goes.
func refuseEmptyPlan(plan *resetplan.Plan, groups []string) error {
	switch {
	case planPartitions(plan) > 0:
		return nil
	case plan.Strategy.Type == resetplan.StrategyDeleteGroup && len(plan.Groups) > 0:
		return nil
	case plan.Strategy.Type == resetplan.StrategyDeleteOffsets:
		return app.Refused(fmt.Errorf("nothing to delete: %s no committed offset in the scope given; no plan was written", nothingHas(groups)))
	}
	return app.Refused(fmt.Errorf("nothing to reset: %s in the scope given; no plan was written", nothingWhy(groups)))
}

func nothingHas(groups []string) string {
	if len(groups) == 1 {
		return "group " + groups[0] + " has"
	}
	return fmt.Sprintf("the %d groups have", len(groups))
}

// missingCheck is refuseMissingGroups of groups when on (named groups
// without --allow-new-group), for ReadForPlanChecked to ask beside its
// read; nil when off.
func missingCheck(ctx context.Context, cl *kafkaadmin.Client, groups []string, on bool) func() error {
	if !on {
		return nil
	}
	return func() error { return refuseMissingGroups(ctx, cl, groups) }
}

// refuseMissingGroups refuses (exit 3) named groups the cluster does not
// have: most often a typo, and apply would create the group.
func refuseMissingGroups(ctx context.Context, cl *kafkaadmin.Client, groups []string) error {
	return refuseMissing(ctx, cl, groups, "check the name, or give --allow-new-group to plan a new group on purpose; no plan was written")
}

// refuseMissing refuses (exit 3) named groups the cluster does not have,
// each with the closest names it has, then tail.
func refuseMissing(ctx context.Context, cl *kafkaadmin.Client, groups []string, tail string) error {
	missing, existing, err := groupops.MissingGroups(ctx, cl, groups)
	if err != nil || len(missing) == 0 {
		return err
	}
	var parts []string
	for _, g := range missing {
		p := fmt.Sprintf("group %q does not exist", g)
		if near := groupops.ClosestNames(g, existing, 3); len(near) > 0 {
			p += " (closest: " + strings.Join(near, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return app.Refused(fmt.Errorf("%s; %s", strings.Join(parts, "; "), tail))
}

func planPartitions(p *resetplan.Plan) int {
	n := 0
	for _, g := range p.Groups {
		n += len(g.Partitions)
	}
	return n
}

func nothingWhy(groups []string) string {
	if len(groups) == 1 {
		return fmt.Sprintf("group %s has no partition", groups[0])
	}
	return fmt.Sprintf("the %d groups have no partition", len(groups))
}

// planWarning renders a Build warning of a plan of strategy st for kcg's
// stderr.
func planWarning(w resetplan.Warning, st resetplan.Strategy) string {
	switch w.Kind {
	case resetplan.WarnGroupActive:
		return fmt.Sprintf("group %s has active members: planning is fine, but apply will refuse until its consumers are stopped", w.Group)
	case resetplan.WarnNoRecordAfterTime:
		// Java says "is empty" for a partition whose records are all
		// older than the time too (drop-in keeps its text).
		tp := vocab.TopicPartition{Topic: w.Topic, Partition: w.Partition}
		if w.LogStart >= w.Requested {
			return fmt.Sprintf("group %s: %s is empty (log start = log end = %d): planned at its log end", w.Group, tp, w.Requested)
		}
		at := st.Datetime
		if at.IsZero() {
			at = st.ResolvedTime
		}
		return fmt.Sprintf("group %s: %s has no record at or after %s: its records (offsets %d to %d) are all older; planned at its log end, %d",
			w.Group, tp, at.UTC().Format("2006-01-02T15:04:05.000Z"), w.LogStart, w.Requested-1, w.Requested)
	}
	return w.Message
}

// quietWarning: --by-duration PT0S is "now", and no record is newer than
// now: every partition's log end is the target asked for, not a fallback
// to warn about.
func quietWarning(w resetplan.Warning, st resetplan.StrategySpec) bool {
	return w.Kind == resetplan.WarnNoRecordAfterTime && st.Type == resetplan.StrategyByDuration && st.Duration == 0
}

// planError maps planning errors to exit codes: bad arguments, partitions
// that do not exist and --shift-by without a commit are the operator's
// input as given, so usage errors (exit 3 would claim a precondition).
func planError(err error) error {
	switch {
	case errors.Is(err, resetplan.ErrInvalidArgument), errors.Is(err, resetplan.ErrNoCommittedOffset),
		errors.Is(err, resetplan.ErrUnknownTopic), errors.Is(err, resetplan.ErrUnknownPartition):
		return app.Usagef("%s", err)
	case errors.Is(err, resetplan.ErrBadInput):
		return app.BadInput(err)
	case errors.Is(err, resetplan.ErrNoSourceCommit), errors.Is(err, resetplan.ErrNoCheckpoint):
		return app.Refused(err)
	}
	return err
}

// refuseOut is planfile.Write's (or CheckTarget's) refusal of --out path
// as a usage error (exit 64): --overwrite is suggested only where it
// would help, for a regular file. Other errors are returned as they are.
func refuseOut(path string, err error) error {
	var nr *planfile.NotRegularError
	switch {
	case errors.As(err, &nr):
		return app.Usagef("%s is %s, not a regular file: refusing to write over it, --overwrite or not (it replaces regular files only); name another --out", nr.Path, nr.Kind)
	case errors.Is(err, os.ErrExist):
		return app.Usagef("%s exists: refusing to overwrite it (give --overwrite to replace it, or another --out)", path)
	}
	return err
}

// enforcePolicies evaluates the policies against the plan as it will be
// read back from data (what kcg show -o json prints of the file), before
// the file is written.
func (o planOptions) enforcePolicies(ctx context.Context, s IO, data []byte) error {
	if o.policies == nil {
		return nil
	}
	p, err := resetplan.Decode(data)
	if err != nil {
		return err
	}
	deny, err := policyVerdict(ctx, s, o.policies, p)
	if err != nil {
		return err
	}
	if len(deny) > 0 {
		return policyRefusal(deny, "no plan was written")
	}
	return nil
}

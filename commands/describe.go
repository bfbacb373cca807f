package commands

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

type describeOptions struct {
	scope   groupScope
	view    output.View
	verbose bool
	timeLag bool
	// readCommitted measures lag against the last stable offset.
	readCommitted bool
	topics        []resetplan.TopicSpec
	format        output.Format
	limits        thresholds
	dial          dialFunc
	// connect are the Kafka Connect clusters asked for the groups'
	// owners (none: the owner field is left out).
	connect []*connect.Client
	// fleet is --profile a,b or --all-profiles (nil: one cluster).
	fleet *fleet
}

func describeCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "show groups' committed offsets and lag, members, or state",
		ArgsUsage: "GROUP... | --all-groups",
		Description: "The default view shows, per partition, the committed offset, the log end\n" +
			"offset and the lag; --members shows members and assignments; --state the\n" +
			"group state. JSON and YAML always carry every view. --time-lag, --topic and\n" +
			"--isolation read-committed change the offsets table: with the --members or\n" +
			"--state table they are a usage error. -o prometheus writes the Prometheus text\n" +
			"format with kafka_exporter's metric names (docs/output.md). --max-lag,\n" +
			"--max-time-lag and --min-retention-headroom make it a check: exit 5 and one\n" +
			"stderr line per group over a limit.\n\n" +
			"A share group's offsets table has START-OFFSET (the share-partition start\n" +
			"offset, startOffset in JSON/YAML) where a consumer group has the committed\n" +
			"offset, and the lag where the broker gives it (Kafka 4.2+). A streams group\n" +
			"adds its topology's topics by kind (STREAMS-TOPIC: input, repartition,\n" +
			"changelog) and its members' tasks (ACTIVE-TASKS, STANDBY-TASKS,\n" +
			"WARMUP-TASKS); docs/group-types.md.\n\n" +
			"--profile a,b,c or --all-profiles describe the groups on several clusters\n" +
			"at once: a CLUSTER column, the cluster on each group in JSON/YAML, a\n" +
			"cluster_name label; a cluster that cannot be read is one stderr line and\n" +
			"exit 1, the others shown (docs/fleet.md).",
		Flags: append([]cli.Flag{
			groupFlag(),
			&cli.BoolFlag{Name: "all-groups", Usage: "describe every consumer group"},
			&cli.BoolFlag{Name: "offsets", Usage: "offsets and lag view (the default)"},
			&cli.BoolFlag{Name: "members", Usage: "members view"},
			&cli.BoolFlag{Name: "state", Usage: "state view"},
			&cli.BoolFlag{Name: "verbose", Usage: "more columns: leader epochs; member epochs and assignments; group epochs"},
			&cli.StringSliceFlag{Name: "topic", Usage: "only these partitions: `TOPIC` or TOPIC:P,P... (repeatable; one matching nothing is named on stderr, exit 1 if none matches)"},
			&cli.BoolFlag{Name: "time-lag", Usage: "read the timestamp of the next record each group will consume: TIME-LAG column, committedTimestamp and timeLagMs (one Fetch per partition leader)"},
			isolationFlag(),
			outputFlag("table", "json", "yaml", "markdown", "prometheus"),
			sandboxFlag(),
		}, append(append(thresholdFlags(), fleetConnectionFlags()...), connectFlags()...)...),
		Action: action(s, describeOptionsFrom, runDescribe),
	}
}

func describeOptionsFrom(c *cli.Context) (describeOptions, error) {
	o := describeOptions{verbose: c.Bool("verbose"), timeLag: c.Bool("time-lag"), view: output.ViewOffsets}
	var err error
	if o.scope, err = groupScopeFrom(c); err != nil {
		return o, err
	}
	if o.topics, err = topicArgs(c); err != nil {
		return o, err
	}
	n := 0
	for _, v := range []struct {
		flag string
		view output.View
	}{{"offsets", output.ViewOffsets}, {"members", output.ViewMembers}, {"state", output.ViewState}} {
		if c.Bool(v.flag) {
			n++
			o.view = v.view
		}
	}
	if n > 1 {
		return o, app.Usagef("--offsets, --members and --state are different views: give at most one")
	}
	if o.readCommitted, err = readCommittedFrom(c); err != nil {
		return o, err
	}
	if o.format, err = formatFrom(c); err != nil {
		return o, err
	}
	if o.limits, err = thresholdsFrom(c); err != nil {
		return o, err
	}
	if err := offsetsOnlyFlags(o); err != nil {
		return o, err
	}
	// The time-lag limits need the time lags: they turn --time-lag on
	// (after the check above, which is about the flag as typed).
	o.timeLag = o.timeLag || o.limits.needsTimeLag()
	o.dial = dialFrom(c)
	if o.fleet, err = fleetFrom(c); err == nil && o.fleet != nil && o.format == output.FormatMarkdown {
		err = app.Usagef("-o markdown is a change ticket's view of one cluster: use -o table, json, yaml or prometheus with several profiles")
	}
	if err == nil {
		o.connect, err = fleetConnect(c, o.fleet)
	}
	return o, err
}

// offsetsOnlyFlags refuses the flags that change only the offsets table
// given with the members or state table, which would drop them silently.
// JSON and YAML carry every view, so there they all apply.
func offsetsOnlyFlags(o describeOptions) error {
	if o.format != output.FormatTable || o.view == output.ViewOffsets {
		return nil
	}
	view := "--members"
	if o.view == output.ViewState {
		view = "--state"
	}
	for _, f := range []struct {
		set  bool
		flag string
	}{{o.timeLag, "--time-lag"}, {len(o.topics) > 0, "--topic"}, {o.readCommitted, "--isolation read-committed"}} {
		if f.set {
			return app.Usagef("%s changes the offsets view, and the %s table shows no offsets: drop one, or use -o json (every view)", f.flag, view)
		}
	}
	return nil
}

func runDescribe(parent context.Context, s IO, o describeOptions) error {
	if o.fleet != nil {
		return runDescribeFleet(parent, s, o)
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	progress := newProgress(s)
	defer progress.done()

	start := time.Now()
	if o.scope.all {
		progress.say("listing groups")
	} else {
		progress.say("describing groups")
	}
	r, err := describeCluster(ctx, cl, o, s.Err, progress)
	if err != nil {
		return err
	}
	view := output.DescribeView{Doc: r.doc, View: o.view, Verbose: o.verbose, TimeLag: o.timeLag, ReadCommitted: o.readCommitted,
		Cluster: r.cluster, Took: time.Since(start)}
	return describeEnd(s, o, view, r)
}

// describeEnd writes view and the lines after it (--topic that matched
// nothing, the limits' breaches) and returns the exit: 1 when failed
// groups or clusters could not be read, else 5 on a breach.
func describeEnd(s IO, o describeOptions, view output.DescribeView, r described) error {
	if err := output.Write(s.Out, o.format, view); err != nil {
		return err
	}
	unmatched := unmatchedTopics(view.Doc, o.topics)
	for _, ts := range unmatched {
		fmt.Fprintf(s.Err, "kcg: --topic %s matched no partition of the described groups%s\n", ts, closestTopics(r.topics, ts.Topic))
	}
	breaches := o.limits.report(s.Err, describeValues(view.Doc))
	if r.failed > 0 || (len(o.topics) > 0 && len(unmatched) == len(o.topics)) {
		return app.Silent(app.ExitError) // incomplete: 1 wins over 5 (docs/exit-codes.md)
	}
	if breaches > 0 {
		return app.Silent(app.ExitBreach)
	}
	return nil
}

// described is one cluster's describe: the document, the cluster id and
// how many groups (or unknown log offsets) make it incomplete.
type described struct {
	doc     output.GroupDescriptionList
	cluster string
	failed  int
	// absent are the named groups the cluster does not have (several
	// clusters only: there they are left out of the document).
	absent []string
	// topics are the topics the described groups committed, sorted.
	topics []string
}

// describeCluster reads one cluster's groups and writes its stderr lines
// (groups not described, notices, unknown log offsets) to errOut.
func describeCluster(ctx context.Context, cl *kafkaadmin.Client, o describeOptions, errOut io.Writer, progress *progress) (described, error) {
	typed, err := o.scope.classify(ctx, cl, errOut, groupops.OpDescribe)
	if err != nil {
		return described{}, err
	}
	do := groupops.DescribeOptions{ReadCommitted: o.readCommitted, TimeLag: o.timeLag, Progress: progress.say, Classified: true, Connect: o.connect}
	snap, err := groupops.DescribeTyped(ctx, cl, typed, do)
	if err != nil {
		return described{}, err
	}
	progress.done()
	s := IO{Err: errOut}
	warnTimeLagErrors(s, snap)
	warnRetentionErrors(s, snap)
	r := described{doc: output.NewGroupDescriptionListOf(snap, o.topics), cluster: snap.Cluster.ClusterID, topics: committedTopics(snap.Groups)}

	var idle []string // Empty groups: one line for all (NoActiveMembersSummary)
	var closest map[string]string
	if o.fleet == nil {
		closest = closestGroups(ctx, cl, snap.Groups)
	}
	for _, g := range sortedByName(snap.Groups) {
		switch {
		case g.Err != nil:
			fmt.Fprintf(errOut, "kcg: group %s: %s\n", g.Name(), vocab.OneLine(g.Err.Error()))
			r.failed++
		case !g.Desc.Exists && o.fleet != nil:
			r.absent = append(r.absent, g.Name())
		case !g.Desc.Exists:
			fmt.Fprintln(errOut, output.DeadGroupMessage(g.Name())+closest[g.Name()])
			r.failed++
		case o.format == output.FormatTable && o.view == output.ViewOffsets && g.OtherProtocol() != "" && len(g.Offsets) == 0:
			fmt.Fprintln(errOut, output.OtherProtocolNotice(g.Name(), g.OtherProtocol()))
		case o.format == output.FormatTable && g.Commits():
			// kcg sends every notice to stderr, so stdout holds only data.
			// The notices speak of consumer groups: a share group has
			// none.
			if g.Desc.State == vocab.StateEmpty {
				idle = append(idle, g.Name())
			} else if n, ok := output.StateNotice(g.Name(), &g.Desc.State); ok {
				fmt.Fprintln(errOut, n.Text)
			}
		}
	}
	if len(idle) > 0 {
		fmt.Fprintln(errOut, output.NoActiveMembersSummary(idle))
	}
	if len(r.absent) > 0 {
		r.doc.Groups = slices.DeleteFunc(r.doc.Groups, func(g output.GroupDescription) bool { return slices.Contains(r.absent, g.Group) })
	}
	// Shown as "-" (null in JSON); the exit code says the output is
	// incomplete, so a script does not take it for a lag of nothing. The
	// members and state tables show no log offsets: nothing is missing.
	showsOffsets := o.view == output.ViewOffsets || o.format != output.FormatTable
	if line, ok := unknownBoundsLine(snap, o.topics); ok && showsOffsets {
		fmt.Fprintln(errOut, line)
		r.failed++
	}
	if snap.OwnersErr != nil {
		fmt.Fprintf(errOut, "kcg: owners not known: %s\n", vocab.OneLine(snap.OwnersErr.Error()))
		r.failed++
	}
	return r, nil
}

// runDescribeFleet describes the groups on every cluster of o.fleet at
// once: one document whose groups carry their cluster. A named group is
// looked for on every cluster and shown where it exists; one that no
// cluster has is the usual "does not exist" line. A cluster that could
// not be read is one stderr line naming its profile, and exit 1.
func runDescribeFleet(parent context.Context, s IO, o describeOptions) error {
	start := time.Now()
	parts := readFleet(parent, o.fleet, func(ctx context.Context, cl *kafkaadmin.Client, errOut io.Writer) (described, error) {
		return describeCluster(ctx, cl, o, errOut, newProgress(IO{}))
	})
	failed, err := reportFleet(parent, s.Err, parts)
	if err != nil {
		return err
	}
	lists := make([]output.GroupDescriptionList, len(parts))
	nowhere := slices.Clone(o.scope.groups) // the named groups no cluster has
	all := described{failed: failed}
	for i, p := range parts {
		lists[i] = p.val.doc
		all.failed += p.val.failed
		all.topics = append(all.topics, p.val.topics...)
		if p.err == nil {
			nowhere = slices.DeleteFunc(nowhere, func(g string) bool { return !slices.Contains(p.val.absent, g) })
		}
	}
	for _, g := range nowhere {
		fmt.Fprintln(s.Err, output.DeadGroupMessage(g))
		all.failed++
	}
	slices.Sort(all.topics)
	all.topics = slices.Compact(all.topics)
	doc := output.NewFleetDescriptionList(statuses(parts), lists)
	view := output.DescribeView{Doc: doc, View: o.view, Verbose: o.verbose, TimeLag: o.timeLag, ReadCommitted: o.readCommitted, Took: time.Since(start)}
	return describeEnd(s, o, view, all)
}

// unmatchedTopics are the --topic values (as T or T:P,P) that cover no
// partition listed in doc.
func unmatchedTopics(doc output.GroupDescriptionList, topics []resetplan.TopicSpec) []resetplan.TopicSpec {
	var out []resetplan.TopicSpec
	for _, ts := range topics {
		hit := false
		for _, g := range doc.Groups {
			hit = hit || slices.ContainsFunc(g.Offsets, func(po output.PartitionOffset) bool {
				return ts.Covers(vocab.TopicPartition{Topic: po.Topic, Partition: po.Partition})
			})
		}
		if !hit {
			out = append(out, ts)
		}
	}
	return out
}

// closestGroups is, for each group of gs that does not exist, " (closest:
// a, b)": the cluster's groups nearest its name, as plan names them for
// a typo (groupops.ClosestNames), to follow the Java tool's "does not
// exist" line. The describe answers already said the group does not
// exist: one listing of every broker is all it adds. Best effort: a
// listing that fails names none.
func closestGroups(ctx context.Context, cl *kafkaadmin.Client, gs []groupops.Group) map[string]string {
	var dead []string
	for _, g := range gs {
		if g.Err == nil && !g.Desc.Exists {
			dead = append(dead, g.Name())
		}
	}
	if len(dead) == 0 {
		return nil
	}
	existing, err := groupops.GroupNames(ctx, cl)
	if err != nil {
		return nil
	}
	out := make(map[string]string, len(dead))
	for _, g := range dead {
		if near := groupops.ClosestNames(g, existing, 3); len(near) > 0 {
			out[g] = " (closest: " + strings.Join(near, ", ") + ")"
		}
	}
	return out
}

// committedTopics are the topics gs committed, sorted, once each.
func committedTopics(gs []groupops.Group) []string {
	var topics []string
	for _, g := range gs {
		for tp := range g.Offsets {
			topics = append(topics, tp.Topic)
		}
	}
	slices.Sort(topics)
	return slices.Compact(topics)
}

// closestTopics is " (closest of their topics: a, b)" for a --topic that
// matched nothing: the topics the described groups committed (sorted)
// nearest its name, none when topic is one of them (a partition list that
// matched nothing).
func closestTopics(topics []string, topic string) string {
	if _, found := slices.BinarySearch(topics, topic); found {
		return ""
	}
	if near := groupops.ClosestNames(topic, topics, 3); len(near) > 0 {
		return " (closest of their topics: " + strings.Join(near, ", ") + ")"
	}
	return ""
}

// unknownBoundsLine is the one line naming the partitions (of the topics
// shown) whose log offsets could not be read, typically because their
// leader broker is down; ok is false when there are none.
func unknownBoundsLine(snap *groupops.Snapshot, topics []resetplan.TopicSpec) (string, bool) {
	var missing []string
	var why error
	for _, tp := range slices.SortedFunc(maps.Keys(snap.Bounds), vocab.TopicPartition.Compare) {
		b := snap.Bounds[tp]
		if b.End != nil && b.Start != nil {
			continue
		}
		if len(topics) > 0 && !slices.ContainsFunc(topics, func(ts resetplan.TopicSpec) bool { return ts.Covers(tp) }) {
			continue
		}
		missing = append(missing, tp.String())
		if why == nil {
			why = b.Err
		}
	}
	if len(missing) == 0 {
		return "", false
	}
	reason := "no answer"
	if why != nil {
		reason = vocab.OneLine(why.Error())
	}
	return fmt.Sprintf("kcg: log offsets unknown for %d partition(s), shown as - (null in JSON): %s (%s)", len(missing), strings.Join(missing, ", "), reason), true
}

// sortedByName is gs in group-id order, the order of every report.
func sortedByName(gs []groupops.Group) []groupops.Group {
	return slices.SortedStableFunc(slices.Values(gs), func(a, b groupops.Group) int { return strings.Compare(a.Name(), b.Name()) })
}

// isolationFlag is --isolation: what lag is measured against.
func isolationFlag() cli.Flag {
	return &cli.StringFlag{Name: "isolation", Value: output.IsolationReadUncommitted,
		Usage: "lag against the high watermark (read-uncommitted, as the Java tool) or the last stable offset (read-committed)"}
}

func readCommittedFrom(c *cli.Context) (bool, error) {
	switch v := c.String("isolation"); v {
	case output.IsolationReadUncommitted:
		return false, nil
	case output.IsolationReadCommitted:
		return true, nil
	default:
		return false, app.Usagef("unknown --isolation %q: allowed values are %s, %s", v, output.IsolationReadUncommitted, output.IsolationReadCommitted)
	}
}

// warnTimeLagErrors says on stderr, once per partition, why a time lag is
// null because its record could not be read.
func warnTimeLagErrors(s IO, snap *groupops.Snapshot) {
	errs := snap.TimeLagErrors()
	var tps []groupops.TopicPartition
	for tp := range errs {
		tps = append(tps, tp)
	}
	for _, tp := range vocab.SortedPartitions(tps) {
		fmt.Fprintf(s.Err, "kcg: time lag of %s unknown: %s\n", tp, vocab.OneLine(errs[tp].Error()))
	}
}

// warnRetentionErrors says on stderr, once per topic, why its retention
// headroom is null because its config could not be read (no
// DESCRIBE_CONFIGS permission, typically).
func warnRetentionErrors(s IO, snap *groupops.Snapshot) {
	for _, t := range slices.Sorted(maps.Keys(snap.Retention)) {
		if err := snap.Retention[t].Err; err != nil {
			fmt.Fprintf(s.Err, "kcg: retention headroom of topic %s unknown: %s\n", t, vocab.OneLine(err.Error()))
		}
	}
}

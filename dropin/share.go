package dropin

import (
	"cmp"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// kafka-share-groups mode: kcg called with the command line of Apache
// Kafka 4.4's kafka-share-groups.sh (ShareGroupCommand). Its options are
// a subset of kafka-consumer-groups' (no --by-duration, --shift-by,
// --validate-regex or --type; --reset-offsets of one group), validated in
// ShareGroupCommandOptions.checkArgs's order with its messages; the work
// is the same groupops code (kcg's plan, preflight, apply, read-back and
// undo plans), which reads and writes share groups' start offsets.

// ShareCalled reports whether kcg was called by the name of Apache
// Kafka's share group tool, kafka-share-groups(.sh) (a symlink or a copy
// of the binary): then the command line is that tool's.
func ShareCalled(args []string) bool { return shareTool.calledBy(args) }

// shareTool is kafka-share-groups (ShareGroupCommand): --list [--state],
// --describe [--offsets|--members|--state] [--verbose] of share groups
// with the Java tool's layouts, and --reset-offsets, --delete,
// --delete-offsets through the same code as kafka-consumer-groups' (kcg's
// plan, apply and delete-plan safety), with "share group" in the Java
// messages. On a broker without share groups (before Kafka 4.1) every
// action says so in one line on stderr and exits 1.
var shareTool = javaTool{
	name:          "kafka-share-groups",
	family:        groupops.FamilyShare,
	requireFamily: true,
	options:       shareOptions, availableIf: shareAvailableIf,
	usage: shareUsage, intro: shareIntro, helpIntro: shareHelpIntro,
	words: strings.NewReplacer("consumer groups", "share groups", "consumer group", "share group", "Consumer group", "Share group"),
	check: func(a *javaArgs, _ io.Writer) error { return checkShareArgs(a) },
	actions: []javaAction{
		{"list", (*dropIn).shareList},
		{"describe", (*dropIn).shareDescribe},
		{"delete", (*dropIn).deleteGroups},
		{"delete-offsets", (*dropIn).shareDeleteOffsets},
		{"reset-offsets", (*dropIn).resetOffsets},
	},
	deleteError: shareDeleteErrorText,
	activeNote: func(s app.IO, _ io.Writer, g resetplan.GroupSnapshot) {
		// kafka-share-groups says it on stderr.
		fmt.Fprintf(s.Err, "Share group '%s' is not empty.\n", g.Group)
	},
	resetTable: shareResetTable,
}

// shareResetTable is kafka-share-groups' --reset-offsets table: none
// when a group was refused as active (the tool stops there), and no
// header for a group without share-partitions (one that does not exist).
func shareResetTable(w io.Writer, active, planned []javaResetGroup) error {
	if len(active) > 0 {
		return nil
	}
	var groups []javaResetGroup
	for _, g := range planned {
		if len(g.Partitions) > 0 {
			groups = append(groups, g)
		}
	}
	return javaResetTable(w, groups)
}

// shareUsage is the option table of Apache Kafka 4.4.0's
// kafka-share-groups.sh --help.
//
//go:embed share-usage.txt
var shareUsage string

// shareHelpIntro is the line above the option table for --help;
// shareIntro the one for no arguments (ShareGroupCommand.main).
const (
	shareHelpIntro = "This tool helps to list, describe, delete and manage the offsets of share groups."
	shareIntro     = "This tool helps to list all share groups, describe a share group, delete share group info, or reset share group offsets."
)

// shareOptions are every option of ShareGroupCommandOptions (4.4).
var shareOptions = map[string]argKind{
	"bootstrap-server": argRequired, "command-config": argRequired, "timeout": argRequired,
	"group": argRequired, "topic": argRequired, "all-topics": argNone, "all-groups": argNone,
	"list": argNone, "describe": argNone, "delete": argNone, "reset-offsets": argNone,
	"delete-offsets": argNone,
	"offsets":        argNone, "members": argNone, "state": argOptional, "verbose": argNone,
	"dry-run": argNone, "execute": argNone, "export": argNone,
	"to-offset": argRequired, "to-earliest": argNone, "to-latest": argNone, "to-current": argNone,
	"to-datetime": argRequired, "from-file": argRequired,
	"help": argNone, "version": argNone,
}

var shareAvailableIf = map[string][]string{
	"members": {"describe"}, "verbose": {"describe"}, "offsets": {"describe"},
	"state": {"describe", "list"},
}

// shareScenarios are the share tool's reset scenarios, in the order of
// its declaration (its messages list them sorted).
var shareScenarios = []string{"to-offset", "to-datetime", "to-earliest", "to-latest", "to-current", "from-file"}

const shareActionsMessage = "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets."

// checkShareArgs is ShareGroupCommandOptions.checkArgs followed by the
// action count of ShareGroupCommand.main, in their order, with their
// messages (Java's sets of options listed sorted, as Java sorts them;
// where it iterates a set, the order of the Java declaration).
func checkShareArgs(a *javaArgs) error {
	if !a.Has("bootstrap-server") {
		return usageExitf(`Missing required argument "[bootstrap-server]"`)
	}
	scope := a.Has("group") || a.Has("all-groups")
	if a.Has("describe") {
		if err := checkDescribeArgs(a, scope, "[all-groups], [group]"); err != nil {
			return err
		}
	}
	if a.Has("delete") {
		if err := checkShareDeleteArgs(a, scope); err != nil {
			return err
		}
	}
	if a.Has("delete-offsets") && (!a.Has("group") || !a.Has("topic")) {
		return usageExitf("Option [delete-offsets] takes the following options: [group], [topic]")
	}
	if a.Has("reset-offsets") {
		if err := checkShareResetArgs(a); err != nil {
			return err
		}
	}
	if err := checkConflicts(a, [][2]string{{"group", "all-groups"}, {"group", "list"}, {"topic", "list"}, {"topic", "describe"}, {"topic", "delete"}}); err != nil {
		return err
	}
	return oneAction(a, shareActionsMessage, "list", "describe", "delete", "reset-offsets", "delete-offsets")
}

// checkShareDeleteArgs is the --delete part of checkShareArgs.
func checkShareDeleteArgs(a *javaArgs, scope bool) error {
	switch {
	case !scope:
		return usageExitf("Option [delete] takes the options [group] or [all-groups].")
	case a.Has("group") && a.Has("all-groups"):
		return usageExitf("Option [delete] takes either [group] or [all-groups], not both.")
	case a.Has("topic") || a.Has("all-topics"):
		return usageExitf("Option [delete] does not take the options [topic] or [all-topics].")
	}
	return nil
}

// checkShareResetArgs is the --reset-offsets part of checkShareArgs.
func checkShareResetArgs(a *javaArgs) error {
	switch {
	case a.Has("dry-run") && a.Has("execute"):
		return usageExitf("Option [reset-offsets] only accepts one of [execute] and [dry-run]")
	case !a.Has("dry-run") && !a.Has("execute"):
		return usageExitf("Option [reset-offsets] takes the option: [execute] or [dry-run]")
	case !a.Has("group"):
		return usageExitf("Option [reset-offsets] takes the option: [group]")
	case !a.Has("topic") && !a.Has("all-topics") && !a.Has("from-file"):
		return usageExitf("Option [reset-offsets] takes one of these options: [all-topics], [from-file], [topic]")
	}
	if err := checkExclusive(a, []string{"topic", "all-topics", "from-file"}); err != nil {
		return err
	}
	if !slices.ContainsFunc(shareScenarios, a.Has) {
		return usageExitf("Option [reset-offsets] takes one of these options: [from-file], [to-current], [to-datetime], [to-earliest], [to-latest], [to-offset]")
	}
	return checkExclusive(a, shareScenarios)
}

// shareList is --list [--state [S,...]]: sorted by group id (Java:
// broker order); with --state the table "%-Ws %s" (W = max(15, ids)).
func (d *dropIn) shareList() error {
	var states []string
	for _, v := range d.a.Values("state") {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				states = append(states, s)
			}
		}
	}
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	gs, err := groupops.ListFamily(ctx, cl, groupops.FamilyShare, states, nil)
	if err != nil {
		return err
	}
	var b strings.Builder
	if !d.a.Has("state") {
		for _, g := range gs {
			b.WriteString(g.Group + "\n")
		}
		return writeAll(d.s.Out, b.String())
	}
	w := 15
	for _, g := range gs {
		w = widest(w, g.Group)
	}
	b.WriteString(pad("GROUP", w) + " STATE\n")
	for _, g := range gs {
		b.WriteString(pad(g.Group, w) + " " + g.State + "\n")
	}
	return writeAll(d.s.Out, b.String())
}

// shareDescribe is --describe of share groups: as in Java, a group that
// cannot be described fails the command before anything is printed.
func (d *dropIn) shareDescribe() error {
	cl, ctx, done, groups, err := d.connectGroups()
	if err != nil {
		return err
	}
	defer done()
	if len(groups) == 0 {
		return nil
	}
	snap, err := groupops.DescribeTyped(ctx, cl, groupops.TypedAs(groupops.FamilyShare, groups), groupops.DescribeOptions{Classified: true})
	if err != nil {
		return err
	}
	for _, g := range snap.Groups {
		switch {
		case g.Err != nil:
			return &javaFailure{vocab.OneLine(g.Err.Error()), app.ExitError}
		case !g.Desc.Exists:
			return &javaFailure{fmt.Sprintf("org.apache.kafka.common.errors.GroupIdNotFoundException: Group %s not found.", g.Name()), app.ExitError}
		}
	}
	for _, g := range snap.Groups {
		// One group at a time, so its stderr notes come in order.
		var b strings.Builder
		switch {
		case d.a.Has("members"):
			shareMembers(&b, d.s.Err, g, d.a.Has("verbose"))
		case d.a.Has("state"):
			shareState(&b, d.s.Err, g, d.a.Has("verbose"))
		default:
			shareOffsets(&b, g, d.a.Has("verbose"))
		}
		if err := writeAll(d.s.Out, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// shareNoMembers says on stderr, as Java does, that g has no members.
func shareNoMembers(stderr io.Writer, g groupops.Group) bool {
	if len(g.Desc.Members) > 0 {
		return false
	}
	fmt.Fprintf(stderr, "\nShare group '%s' has no active members.\n", g.Name())
	return true
}

// shareOffsets is --describe [--offsets] [--verbose] (Kafka 4.4's
// ShareGroupService.printOffsets): per group widths GROUP=max(15, id),
// TOPIC=max(15, topics), "\n%-Gs %-Ts %-10s [%-13s] %-13s %s" with
// LEADER-EPOCH only with --verbose, then a newline; "-" where the
// share-partition has no start offset (or the broker no lag).
func shareOffsets(b *strings.Builder, g groupops.Group, verbose bool) {
	tps := vocab.SortedPartitions(g.Partitions())
	if len(tps) == 0 {
		b.WriteString("\nShare group '" + g.Name() + "' has no offset information.\n")
		return
	}
	gw, tw := widest(15, g.Name()), 15
	for _, tp := range tps {
		tw = widest(tw, tp.Topic)
	}
	line := func(grp, t, p, epoch, start, lag string) {
		b.WriteString("\n" + pad(grp, gw) + " " + pad(t, tw) + " " + pad(p, 10) + " ")
		if verbose {
			b.WriteString(pad(epoch, 13) + " ")
		}
		b.WriteString(pad(start, 13) + " " + lag)
	}
	line("GROUP", "TOPIC", "PARTITION", "LEADER-EPOCH", "START-OFFSET", "LAG")
	for _, tp := range tps {
		epoch, start, lag := "-", "-", "-"
		if o, ok := g.Share.Offsets[tp]; ok {
			start = strconv.FormatInt(o.StartOffset, 10)
			if o.LeaderEpoch >= 0 {
				epoch = strconv.Itoa(int(o.LeaderEpoch))
			}
			if o.Lag != nil {
				lag = strconv.FormatInt(*o.Lag, 10)
			}
		}
		line(g.Name(), tp.Topic, strconv.Itoa(int(tp.Partition)), epoch, start, lag)
	}
	b.WriteString("\n")
}

// shareMembers is --describe --members [--verbose]: widths max(15, ...)
// for GROUP, CONSUMER-ID, HOST and CLIENT-ID, then "%-12s" #PARTITIONS,
// with --verbose "%-13s" MEMBER-EPOCH, and ASSIGNMENT as
// "topic:0,1;topic2:0".
func shareMembers(b *strings.Builder, stderr io.Writer, g groupops.Group, verbose bool) {
	if shareNoMembers(stderr, g) {
		return
	}
	ms := slices.Clone(g.Share.Desc.Members)
	gw, mw, hw, cw := widest(15, g.Name()), 15, 15, 15
	for _, m := range ms {
		mw, hw, cw = widest(mw, m.MemberID), widest(hw, m.ClientHost), widest(cw, m.ClientID)
	}
	line := func(grp, id, host, client, n, epoch, as string) {
		b.WriteString("\n" + pad(grp, gw) + " " + pad(id, mw) + " " + pad(host, hw) + " " + pad(client, cw) + " " + pad(n, 12) + " ")
		if verbose {
			b.WriteString(pad(epoch, 13) + " ")
		}
		b.WriteString(as)
	}
	line("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "MEMBER-EPOCH", "ASSIGNMENT")
	for _, m := range ms {
		as := slices.Clone(m.Assignment)
		slices.SortFunc(as, func(x, y groupops.TopicPartitions) int { return cmp.Compare(x.Topic, y.Topic) })
		var parts []string
		n := 0
		for _, a := range as {
			ps := slices.Clone(a.Partitions)
			slices.Sort(ps)
			nums := make([]string, len(ps))
			for i, p := range ps {
				nums[i] = strconv.Itoa(int(p))
			}
			n += len(ps)
			parts = append(parts, a.Topic+":"+strings.Join(nums, ","))
		}
		line(g.Name(), m.MemberID, m.ClientHost, m.ClientID, strconv.Itoa(n), strconv.Itoa(int(m.MemberEpoch)), strings.Join(parts, ";"))
	}
	b.WriteString("\n")
}

// shareState is --describe --state [--verbose]: "no active members"
// on stderr for a group without members, then GROUP=max(15, id),
// COORDINATOR (ID)=max(25, "host:port  (id)"), "%-15s" STATE, with
// --verbose "%-12s" GROUP-EPOCH and "%-17s" ASSIGNMENT-EPOCH, #MEMBERS.
func shareState(b *strings.Builder, stderr io.Writer, g groupops.Group, verbose bool) {
	shareNoMembers(stderr, g)
	desc := g.Share.Desc
	coord := fmt.Sprintf("%s:%d  (%d)", desc.Coordinator.Host, desc.Coordinator.Port, desc.Coordinator.ID)
	gw, cw := widest(15, g.Name()), widest(25, coord)
	line := func(grp, c, state, ge, ae, n string) {
		b.WriteString("\n" + pad(grp, gw) + " " + pad(c, cw) + " " + pad(state, 15) + " ")
		if verbose {
			b.WriteString(pad(ge, 12) + " " + pad(ae, 17) + " ")
		}
		b.WriteString(n)
	}
	line("GROUP", "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS")
	line(g.Name(), coord, desc.State, strconv.Itoa(int(desc.GroupEpoch)), strconv.Itoa(int(desc.AssignmentEpoch)), strconv.Itoa(len(desc.Members)))
	b.WriteString("\n")
}

// shareDeleteOffsets is --delete-offsets of one share group: whole
// topics (DeleteShareGroupOffsets), the undo plan written first as for
// kafka-consumer-groups. Output (ShareGroupService.deleteOffsets):
// "\nError: <message>" for a group-level error, then
// "%n%-Ts %s" rows of TOPIC STATUS (T=max(15, topics)), sorted by topic,
// "Successful" or "Error: <message>". Exit 1 when anything failed (Java:
// 0).
func (d *dropIn) shareDeleteOffsets() error {
	group, specs, err := d.deleteOffsetsArgs()
	if err != nil {
		return err
	}
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	if _, err := d.groups(ctx, cl); err != nil {
		return err
	}
	undo, err := d.writeUndo(ctx, cl, []string{group}, resetplan.StrategyDeleteOffsets, specs)
	if err != nil {
		return err
	}
	r, err := groupops.DeleteOffsets(ctx, cl, group, specs)
	if err != nil {
		return err
	}
	undo.Narrow(d.s.Err, func(p *resetplan.Plan) bool { return groupops.KeepDeletedOffsets(p, r) })
	message := func(err error) string {
		t := javaErrorText(err)
		if _, m, ok := strings.Cut(t, "Exception: "); ok {
			return m
		}
		return t
	}
	var b strings.Builder
	failed := r.GroupErr != nil
	if r.GroupErr != nil {
		b.WriteString("\nError: " + message(r.GroupErr) + "\n")
	}
	ps := slices.Clone(r.Partitions)
	slices.SortStableFunc(ps, func(x, y groupops.PartitionDeletion) int { return cmp.Compare(x.Topic, y.Topic) })
	tw := 15
	for _, p := range ps {
		tw = widest(tw, p.Topic)
	}
	b.WriteString("\n" + pad("TOPIC", tw) + " STATUS")
	for _, p := range ps {
		status := "Successful"
		if p.Err != nil {
			status = "Error: " + message(p.Err)
			failed = true
		}
		b.WriteString("\n" + pad(p.Topic, tw) + " " + status)
	}
	b.WriteString("\n")
	if err := writeAll(d.s.Out, b.String()); err != nil {
		return err
	}
	if failed {
		return app.Silent(app.ExitError)
	}
	return nil
}

// shareDeleteErrorText is what kafka-share-groups --delete prints for a
// group the broker did not delete: ShareGroupService's own texts for a
// group with members and for one that does not exist (Kafka 4.4), else
// the exception as for kafka-consumer-groups.
func shareDeleteErrorText(group string, err error) string {
	switch groupops.CodeOf(err) {
	case vocab.CodeNonEmptyGroup:
		return "org.apache.kafka.common.errors.GroupNotEmptyException: Share group '" + group + "' is not EMPTY."
	case vocab.CodeGroupIDNotFound:
		return "org.apache.kafka.common.errors.GroupIdNotFoundException: Group '" + group + "' is not a share group."
	}
	return javaErrorText(err)
}

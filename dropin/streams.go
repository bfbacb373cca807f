package dropin

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/vocab"
)

// StreamsCalled reports whether kcg was called by the name of Apache
// Kafka's streams group tool, kafka-streams-groups(.sh) (a symlink or a
// copy of the binary): then the command line is that tool's.
func StreamsCalled(args []string) bool { return streamsTool.calledBy(args) }

// streamsTool is kafka-streams-groups (StreamsGroupCommand): --list
// [--state], --describe [--offsets|--members|--state] [--verbose] of
// streams groups with the Java tool's layout, and --reset-offsets,
// --delete, --delete-offsets through the same code as
// kafka-consumer-groups' (kcg's plan, apply and delete-plan safety), with
// "streams group" in the Java messages: kafka-consumer-groups' option
// table, texts and layouts, reworded, but for its own --list, --describe
// and reset table. On a broker without streams groups (before Kafka 4.1)
// every action says so in one line on stderr and exits 1.
var streamsTool = javaTool{
	name:          "kafka-streams-groups",
	family:        groupops.FamilyStreams,
	requireFamily: true,
	translate:     streamsArgs,
	options:       javaOptions, availableIf: availableIf,
	usage: javaUsage, intro: javaIntro, helpIntro: javaIntro,
	words: strings.NewReplacer("consumer groups", "streams groups", "consumer group", "streams group", "Consumer group", "Streams group"),
	check: checkStreamsArgs,
	actions: []javaAction{
		{"list", (*dropIn).listStreams},
		{"describe", (*dropIn).describeStreams},
		{"delete", (*dropIn).deleteGroups},
		{"delete-offsets", (*dropIn).deleteOffsets},
		{"reset-offsets", (*dropIn).resetOffsets},
	},
	deleteError: javaDeleteError,
	activeNote:  javaActiveNote,
	resetTable:  withRefused(javaStreamsResetTable),
}

// checkStreamsArgs is kafka-consumer-groups' checkArgs without its
// options kafka-streams-groups lacks.
func checkStreamsArgs(a *javaArgs, stderr io.Writer) error {
	if a.Has("validate-regex") || a.Has("type") {
		return errors.New("--validate-regex and --type are kafka-consumer-groups options, not kafka-streams-groups ones")
	}
	return checkJavaArgs(a, stderr)
}

// streamsRefused are kafka-streams-groups options kcg does not run: it
// never deletes a streams application's internal topics (a changelog
// topic is the only copy of its state stores), and it has no topology
// description plugin to read.
var streamsRefused = map[string]string{
	"delete-all-internal-topics": "kcg does not delete internal topics (a changelog topic holds the application's state); delete them with kafka-topics.sh --delete after reviewing them (kcg describe G lists them)",
	"delete-internal-topic":      "kcg does not delete internal topics (a changelog topic holds the application's state); delete them with kafka-topics.sh --delete after reviewing them (kcg describe G lists them)",
	"topology":                   "kcg does not show the broker's topology description; kcg describe G -o yaml shows the subtopologies and their topics",
}

// streamsArgs translates a kafka-streams-groups command line into the
// consumer-group tool's options it shares them with: --input-topic is
// --topic, --all-input-topics is --all-topics (for a streams group kcg's
// --all-topics covers the topology's input topics, as
// --all-input-topics does).
func streamsArgs(args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") {
			out = append(out, a)
			continue
		}
		if why, ok := streamsRefused[name]; ok {
			return nil, fmt.Errorf("--%s: %s", name, why)
		}
		switch name {
		case "input-topic":
			name = "topic"
		case "all-input-topics":
			name = "all-topics"
		}
		if hasValue {
			out = append(out, "--"+name+"="+value)
		} else {
			out = append(out, "--"+name)
		}
	}
	return out, nil
}

// listStreams is --list [--state [S,...]]: the Java layout, sorted by
// group id (Java: broker order).
func (d *dropIn) listStreams() error {
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
	gs, err := groupops.ListFamily(ctx, cl, groupops.FamilyStreams, states, nil)
	if err != nil {
		return err
	}
	if !d.a.Has("state") {
		for _, g := range gs {
			fmt.Fprintln(d.s.Out, g.Group)
		}
		return nil
	}
	w := len("GROUP")
	for _, g := range gs {
		w = max(w, len(g.Group))
	}
	fmt.Fprintf(d.s.Out, "%-*s %s\n", w, "GROUP", "STATE")
	for _, g := range gs {
		fmt.Fprintf(d.s.Out, "%-*s %s\n", w, g.Group, g.State)
	}
	return nil
}

// describeStreams is --describe of streams groups.
func (d *dropIn) describeStreams() error {
	snap, err := d.snapshot()
	if err != nil || snap == nil {
		return err
	}
	for _, g := range snap.Groups {
		switch {
		case g.Err != nil:
			return &javaFailure{vocab.OneLine(g.Err.Error()), app.ExitError}
		case !g.Desc.Exists || g.Desc.Streams == nil:
			return &javaFailure{fmt.Sprintf("org.apache.kafka.common.errors.GroupIdNotFoundException: Group %s not found.", g.Name()), app.ExitError}
		}
	}
	for _, g := range snap.Groups {
		switch {
		case d.a.Has("members"):
			d.printStreamsMembers(g)
		case d.a.Has("state"):
			d.printStreamsState(g)
		default:
			d.printStreamsOffsets(snap, g)
		}
	}
	return nil
}

func (d *dropIn) noActiveMembers(g groupops.Group) bool {
	if len(g.Desc.Members) > 0 {
		return false
	}
	fmt.Fprintf(d.s.Out, "\nError: Streams group '%s' has no active members.\n", g.Name())
	return true
}

func dash(p *int32) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(int(*p))
}

// printStreamsOffsets is --describe [--offsets] [--verbose]: the partitions of
// the members' active tasks (Java prints nothing for a group without
// members).
func (d *dropIn) printStreamsOffsets(snap *groupops.Snapshot, g groupops.Group) {
	var tps []vocab.TopicPartition
	for _, m := range g.Desc.Members {
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				tps = append(tps, vocab.TopicPartition{Topic: a.Topic, Partition: p})
			}
		}
	}
	if len(tps) == 0 {
		return
	}
	tps = vocab.SortedPartitions(tps)
	gw, tw := max(len("GROUP"), len(g.Name())), len("TOPIC")
	for _, tp := range tps {
		tw = max(tw, len(tp.Topic))
	}
	verbose := d.a.Has("verbose")
	if verbose {
		fmt.Fprintf(d.s.Out, "%-*s %-*s %-10s %-15s %-15s %-15s %-15s\n", gw, "GROUP", tw, "TOPIC", "PARTITION", "CURRENT-OFFSET", "LEADER-EPOCH", "LOG-END-OFFSET", "OFFSET-LAG")
	} else {
		fmt.Fprintf(d.s.Out, "%-*s %-*s %-10s %s\n", gw, "GROUP", tw, "TOPIC", "PARTITION", "OFFSET-LAG")
	}
	for _, tp := range tps {
		cur, epoch, end, lag := "-", "-", "-", "-"
		b := snap.Bounds[tp]
		if b.End != nil {
			end = strconv.FormatInt(*b.End, 10)
		}
		if c, ok := g.Offsets[tp]; ok {
			cur, epoch = strconv.FormatInt(c.Offset, 10), dash(c.LeaderEpoch)
			if b.End != nil {
				lag = strconv.FormatInt(*b.End-c.Offset, 10)
			}
		}
		if verbose {
			fmt.Fprintf(d.s.Out, "%-*s %-*s %-10d %-15s %-15s %-15s %-15s\n", gw, g.Name(), tw, tp.Topic, tp.Partition, cur, epoch, end, lag)
		} else {
			fmt.Fprintf(d.s.Out, "%-*s %-*s %-10d %s\n", gw, g.Name(), tw, tp.Topic, tp.Partition, lag)
		}
	}
}

// printStreamsState is --describe --state [--verbose].
func (d *dropIn) printStreamsState(g groupops.Group) {
	d.noActiveMembers(g)
	desc := g.Desc
	coord := fmt.Sprintf("%s:%d (%d)", desc.Coordinator.Host, desc.Coordinator.Port, desc.Coordinator.ID)
	gw, cw, aw := max(len("GROUP"), len(g.Name())), max(25, len(coord)), max(15, len(desc.Assignor))
	n := strconv.Itoa(len(desc.Members))
	if d.a.Has("verbose") {
		fmt.Fprintf(d.s.Out, "%-*s %-*s %-*s %-25s %-15s %-25s %s\n", gw, "GROUP", cw, "COORDINATOR (ID)", aw, "ASSIGNOR", "STATE", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH", "#MEMBERS")
		fmt.Fprintf(d.s.Out, "%-*s %-*s %-*s %-25s %-15s %-25s %s\n", gw, g.Name(), cw, coord, aw, desc.Assignor, desc.State, dash(desc.GroupEpoch), dash(desc.AssignmentEpoch), n)
		return
	}
	fmt.Fprintf(d.s.Out, "%-*s %-*s %-*s %-25s %s\n", gw, "GROUP", cw, "COORDINATOR (ID)", aw, "ASSIGNOR", "STATE", "#MEMBERS")
	fmt.Fprintf(d.s.Out, "%-*s %-*s %-*s %-25s %s\n", gw, g.Name(), cw, coord, aw, desc.Assignor, desc.State, n)
}

// javaTasks renders tasks as the Java tool does: "0:[0,1]; 1:[0,1]; ".
func javaTasks(ts []groupops.TaskIDs) string {
	var b strings.Builder
	for _, t := range ts {
		ps := make([]string, len(t.Partitions))
		for i, p := range t.Partitions {
			ps[i] = strconv.Itoa(int(p))
		}
		b.WriteString(t.Subtopology + ":[" + strings.Join(ps, ",") + "]; ")
	}
	return b.String()
}

// printStreamsMembers is --describe --members (without --verbose: kcg has no
// Java layout for the verbose member table; kcg describe G --members -o
// yaml shows all of it).
func (d *dropIn) printStreamsMembers(g groupops.Group) {
	if d.noActiveMembers(g) {
		return
	}
	ms := slices.Clone(g.Desc.Streams.Members)
	gw, mw, pw, cw := max(len("GROUP"), len(g.Name())), len("MEMBER"), len("PROCESS"), len("CLIENT-ID")
	for _, m := range ms {
		mw, pw, cw = max(mw, len(m.MemberID)), max(pw, len(m.ProcessID)), max(cw, len(m.ClientID))
	}
	fmt.Fprintf(d.s.Out, "%-*s %-*s %-*s %-*s %s\n", gw, "GROUP", mw, "MEMBER", pw, "PROCESS", cw, "CLIENT-ID", "ASSIGNMENTS")
	for _, m := range ms {
		var as string
		for _, k := range []struct {
			name  string
			tasks []groupops.TaskIDs
		}{{"ACTIVE", m.Assignment.Active}, {"STANDBY", m.Assignment.Standby}, {"WARMUP", m.Assignment.Warmup}} {
			if len(k.tasks) > 0 {
				as += k.name + ": " + javaTasks(k.tasks)
			}
		}
		fmt.Fprintf(d.s.Out, "%-*s %-*s %-*s %-*s %s\n", gw, g.Name(), mw, m.MemberID, pw, m.ProcessID, cw, m.ClientID, as)
	}
}

// javaStreamsResetTable is the table kafka-streams-groups --reset-offsets
// prints (Kafka 4.4): "%-30s %-30s %-10s %-15s" for the header, always,
// and each row, after a newline; rows sorted as javaResetTable's.
func javaStreamsResetTable(w io.Writer, groups []javaResetGroup) error {
	line := func(g, t, p, o string) string { return fmt.Sprintf("\n%-30s %-30s %-10s %-15s", g, t, p, o) }
	var b strings.Builder
	b.WriteString(line("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"))
	type row struct {
		group, topic string
		partition    int32
		offset       int64
	}
	var rows []row
	for _, g := range groups {
		for _, p := range g.Partitions {
			rows = append(rows, row{g.Group, p.Topic, p.Partition, p.NewOffset})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return strings.Compare(fmt.Sprintf("%s\x00%s\x00%010d", a.group, a.topic, a.partition), fmt.Sprintf("%s\x00%s\x00%010d", b.group, b.topic, b.partition))
	})
	for _, r := range rows {
		b.WriteString(line(r.group, r.topic, strconv.Itoa(int(r.partition)), strconv.FormatInt(r.offset, 10)))
	}
	b.WriteString("\n")
	return writeAll(w, b.String())
}

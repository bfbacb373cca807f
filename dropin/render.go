package dropin

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
)

// The Java tool's layouts are printf formats with fixed minimum widths, so
// they are built here with padding, not with tablewriter: the result must
// equal kafka-consumer-groups.sh (Apache Kafka 4.4) byte for byte, leading
// newlines and trailing blanks included. Each writer cites the format it
// copies. The cells ("-" for what is absent) are output's, shared with
// kcg's own tables. The writers print in the order given and never modify
// their input, except the layouts whose Java order is a HashMap's
// (javaResetTable, javaDeleteResult, javaDeleteOffsetsResult): they sort a
// copy, which is kcg's documented difference from the Java tool.

// javaLen is String.length() in Java: the number of UTF-16 code units,
// which is what "%-15s" pads to.
func javaLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// pad is Java's "%-<width>s".
func pad(s string, width int) string {
	if n := javaLen(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

func widest(min int, ss ...string) int {
	w := min
	for _, s := range ss {
		w = max(w, javaLen(s))
	}
	return w
}

// writeAll writes the pieces, stopping at the first error.
func writeAll(w io.Writer, parts ...string) error {
	_, err := io.WriteString(w, strings.Join(parts, ""))
	return err
}

// javaOffsetRow is one row of the Java tool's offsets view: a partition
// with its committed offset, log end offset, lag and owning member. Nil
// values print as "-".
type javaOffsetRow struct {
	Topic       string
	Partition   int32
	LeaderEpoch *int32
	// CurrentOffset is the committed offset; LogEndOffset the high
	// watermark; Lag their difference.
	CurrentOffset *int64
	LogEndOffset  *int64
	Lag           *int64
	// ConsumerID, Host and ClientID name the owning member; nil for a
	// partition that is committed but not assigned.
	ConsumerID *string
	Host       *string
	ClientID   *string
}

// javaDescribeOffsets writes one group's offsets table as
// `kafka-consumer-groups --describe [--offsets] [--verbose]` does
// (ConsumerGroupCommand.printOffsets): widths GROUP=max(15, group),
// TOPIC=max(15, topics), CONSUMER-ID and HOST=max(15, values or "-"),
// format "\n%-Gs %-Ts %-10s %-15s %-15s %-15s %-Cs %-Hs %s" for the header
// and each row (verbose adds a "%-15s" LEADER-EPOCH after PARTITION), then
// a newline. The header repeats per group, as in Java. Rows are printed in
// the order given (see offsetRowsForJava); no rows print nothing.
func javaDescribeOffsets(w io.Writer, group string, rows []javaOffsetRow, verbose bool) error {
	if len(rows) == 0 {
		return nil
	}
	gw, tw, cw, hw := widest(15, group), 15, 15, 15
	for _, r := range rows {
		tw = widest(tw, r.Topic)
		cw = widest(cw, output.StringCell(r.ConsumerID))
		hw = widest(hw, output.StringCell(r.Host))
	}
	line := func(g, t, p, epoch, cur, end, lag, cid, host, client string) string {
		s := "\n" + pad(g, gw) + " " + pad(t, tw) + " " + pad(p, 10) + " "
		if verbose {
			s += pad(epoch, 15) + " "
		}
		return s + pad(cur, 15) + " " + pad(end, 15) + " " + pad(lag, 15) + " " + pad(cid, cw) + " " + pad(host, hw) + " " + client
	}
	var b strings.Builder
	b.WriteString(line("GROUP", "TOPIC", "PARTITION", "LEADER-EPOCH", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"))
	for _, r := range rows {
		b.WriteString(line(group, r.Topic, strconv.Itoa(int(r.Partition)), output.IntCell(r.LeaderEpoch),
			output.IntCell(r.CurrentOffset), output.IntCell(r.LogEndOffset), output.IntCell(r.Lag),
			output.StringCell(r.ConsumerID), output.StringCell(r.Host), output.StringCell(r.ClientID)))
	}
	b.WriteString("\n")
	return writeAll(w, b.String())
}

// offsetRowsForJava returns d's offsets in the Java tool's row order
// (ConsumerGroupCommand.collectGroupsOffsets): the members that own
// partitions, most partitions first, ties in the broker's order (Java's
// sort is stable over the members as the broker listed them; order maps a
// member id to its place in the broker's answer, and members it does not
// know come after those, in d's order, by member id), each member's
// partitions by (topic, partition); then the committed partitions no member owns, by
// (topic, partition), with "-" for the member columns. Members without
// partitions produce no row, as in Java.
func offsetRowsForJava(d output.GroupDescription, order map[string]int) []javaOffsetRow {
	byMember := map[string][]output.PartitionOffset{}
	var unowned []output.PartitionOffset
	known := map[string]bool{}
	for _, m := range d.Members {
		known[m.MemberID] = true
	}
	for _, o := range d.Offsets {
		if o.MemberID != nil && known[*o.MemberID] {
			byMember[*o.MemberID] = append(byMember[*o.MemberID], o)
		} else {
			unowned = append(unowned, o)
		}
	}
	members := slices.Clone(d.Members)
	place := func(m output.Member) int {
		if i, ok := order[m.MemberID]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(members, func(a, b output.Member) int {
		return cmp.Or(cmp.Compare(b.NumPartitions(), a.NumPartitions()), cmp.Compare(place(a), place(b)))
	})
	byTP := func(a, b output.PartitionOffset) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	}
	var rows []javaOffsetRow
	add := func(os []output.PartitionOffset, cid, host, client *string) {
		os = slices.Clone(os)
		slices.SortStableFunc(os, byTP)
		for _, o := range os {
			rows = append(rows, javaOffsetRow{
				Topic: o.Topic, Partition: o.Partition, LeaderEpoch: o.CommittedLeaderEpoch,
				CurrentOffset: o.CommittedOffset, LogEndOffset: o.LogEndOffset, Lag: o.Lag,
				ConsumerID: cid, Host: host, ClientID: client,
			})
		}
	}
	for _, m := range members {
		if m.NumPartitions() == 0 {
			continue
		}
		add(byMember[m.MemberID], output.Ptr(m.MemberID), output.Ptr(m.Host), output.Ptr(m.ClientID))
	}
	add(unowned, nil, nil, nil)
	return rows
}

// javaMemberRow is one row of the Java tool's members view.
type javaMemberRow struct {
	ConsumerID string
	// GroupInstanceID is "" for a dynamic member.
	GroupInstanceID string
	Host            string
	ClientID        string
	// Assignment is the current assignment; its size is #PARTITIONS.
	Assignment []output.TopicPartitions
	// CurrentEpoch is the member epoch and TargetEpoch the group's target
	// assignment epoch; both nil for classic groups.
	CurrentEpoch     *int32
	TargetEpoch      *int32
	TargetAssignment []output.TopicPartitions
	// Upgraded is nil for classic groups.
	Upgraded *bool
}

// javaDescribeMembers writes one group's members table as
// `kafka-consumer-groups --describe --members [--verbose]` does
// (ConsumerGroupCommand.printMembers): widths GROUP=max(15, group),
// CONSUMER-ID, HOST, CLIENT-ID=max(15, values), GROUP-INSTANCE-ID=max(17,
// values) and only when some member has one; the header is "\n" +
// "%-Gs %-Cs [%-Is] %-Hs %-CLs %-15s " (trailing blank kept), verbose
// appends "%-15s %-CAs %-15s %-TAs" with CA/TA=max(20, assignment strings)
// and " %s" UPGRADED when the group mixes classic and consumer-protocol
// members; then a newline, and each row in the same format followed by a
// newline. As in Java the header is printed even when there are no
// members (widths then stay at their minimums).
func javaDescribeMembers(w io.Writer, group string, rows []javaMemberRow, verbose bool) error {
	gw, cw, iw, hw, clw, caw, taw := 15, 15, 17, 15, 15, 20, 20
	withInstance, upgraded, classic := false, false, false
	for _, r := range rows {
		gw = widest(gw, group)
		cw = widest(cw, r.ConsumerID)
		iw = widest(iw, r.GroupInstanceID)
		hw = widest(hw, r.Host)
		clw = widest(clw, r.ClientID)
		withInstance = withInstance || r.GroupInstanceID != ""
		caw = widest(caw, output.AssignmentString(r.Assignment))
		taw = widest(taw, output.AssignmentString(r.TargetAssignment))
		if r.Upgraded != nil {
			upgraded = upgraded || *r.Upgraded
			classic = classic || !*r.Upgraded
		}
	}
	migrating := upgraded && classic
	base := func(g, c, i, h, cl, n string) string {
		s := pad(g, gw) + " " + pad(c, cw) + " "
		if withInstance {
			s += pad(i, iw) + " "
		}
		return s + pad(h, hw) + " " + pad(cl, clw) + " " + pad(n, 15) + " "
	}
	extra := func(ce, ca, te, ta, up string) string {
		s := pad(ce, 15) + " " + pad(ca, caw) + " " + pad(te, 15) + " " + pad(ta, taw)
		if migrating {
			s += " " + up
		}
		return s
	}
	var b strings.Builder
	b.WriteString("\n" + base("GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS"))
	if verbose {
		b.WriteString(extra("CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT", "UPGRADED"))
	}
	b.WriteString("\n")
	for _, r := range rows {
		n := 0
		for _, a := range r.Assignment {
			n += len(a.Partitions)
		}
		b.WriteString(base(group, r.ConsumerID, r.GroupInstanceID, r.Host, r.ClientID, strconv.Itoa(n)))
		if verbose {
			b.WriteString(extra(output.IntCell(r.CurrentEpoch), output.AssignmentString(r.Assignment),
				output.IntCell(r.TargetEpoch), output.AssignmentString(r.TargetAssignment), output.BoolCell(r.Upgraded)))
		}
		b.WriteString("\n")
	}
	return writeAll(w, b.String())
}

// memberRowsForJava returns d's members as rows of the Java members view,
// in d's order (after Sort: by member id; Java keeps the broker's order).
func memberRowsForJava(d output.GroupDescription) []javaMemberRow {
	rows := make([]javaMemberRow, 0, len(d.Members))
	for _, m := range d.Members {
		r := javaMemberRow{
			ConsumerID: m.MemberID, GroupInstanceID: output.Deref(m.GroupInstanceID),
			Host: m.Host, ClientID: m.ClientID, Assignment: m.Assignments,
			CurrentEpoch: m.MemberEpoch, TargetEpoch: d.TargetAssignmentEpoch, Upgraded: m.Upgraded,
		}
		if m.TargetAssignments != nil {
			r.TargetAssignment = *m.TargetAssignments
		}
		rows = append(rows, r)
	}
	return rows
}

// javaStateRow is the single row of the Java tool's state view.
type javaStateRow struct {
	Group string
	// Coordinator nil prints as Kafka's Node.noNode(): ":-1  (-1)".
	Coordinator *output.Coordinator
	// AssignmentStrategy "" prints as "-".
	AssignmentStrategy string
	State              string
	NumMembers         int
	// GroupEpoch and TargetAssignmentEpoch are nil for classic groups.
	GroupEpoch            *int32
	TargetAssignmentEpoch *int32
}

// javaDescribeState writes one group's state table as
// `kafka-consumer-groups --describe --state [--verbose]` does
// (ConsumerGroupCommand.printStates): coordinator cell "host:port  (id)"
// (two blanks), widths GROUP=max(15, group), COORDINATOR=max(25, cell),
// format "\n%-Gs %-COs %-20s %-20s %s" for header and row (verbose:
// "\n%-Gs %-COs %-20s %-20s %-15s %-25s %s" with GROUP-EPOCH and
// TARGET-ASSIGNMENT-EPOCH before #MEMBERS), then a newline.
func javaDescribeState(w io.Writer, s javaStateRow, verbose bool) error {
	coord := ":-1  (-1)"
	if c := s.Coordinator; c != nil {
		coord = fmt.Sprintf("%s:%d  (%d)", c.Host, c.Port, c.ID)
	}
	gw, cow := widest(15, s.Group), widest(25, coord)
	line := func(g, co, as, st, ge, tae, n string) string {
		l := "\n" + pad(g, gw) + " " + pad(co, cow) + " " + pad(as, 20) + " " + pad(st, 20) + " "
		if verbose {
			l += pad(ge, 15) + " " + pad(tae, 25) + " "
		}
		return l + n
	}
	return writeAll(w,
		line("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH", "#MEMBERS"),
		line(s.Group, coord, output.NonEmptyCell(s.AssignmentStrategy), s.State,
			output.IntCell(s.GroupEpoch), output.IntCell(s.TargetAssignmentEpoch), strconv.Itoa(s.NumMembers)),
		"\n")
}

// stateRowForJava returns d as the row of the Java state view.
func stateRowForJava(d output.GroupDescription) javaStateRow {
	return javaStateRow{
		Group: d.Group, Coordinator: d.Coordinator, AssignmentStrategy: output.Deref(d.Assignor),
		State: javaStateName(d.State), NumMembers: len(d.Members),
		GroupEpoch: d.GroupEpoch, TargetAssignmentEpoch: d.TargetAssignmentEpoch,
	}
}

// javaStateName is GroupState.toString(), "Unknown" when absent.
func javaStateName(s *string) string {
	if s == nil || *s == "" {
		return "Unknown"
	}
	return *s
}

// javaTypeName is GroupType.toString(): "Classic", "Consumer", "Unknown".
func javaTypeName(t *string) string {
	if t == nil || *t == "" {
		return "Unknown"
	}
	return strings.ToUpper((*t)[:1]) + strings.ToLower((*t)[1:])
}

// memberOrder is, per group, each member's place in the broker's
// describe answer (its Position in the snapshot), for the Java row order of
// the offsets view; nil: member id order.
type memberOrder map[string]map[string]int

// javaDescribe writes groups as `kafka-consumer-groups --describe` does,
// in the order given (Java prints them sorted by group id, as Sort does):
// per group first the state message of ConsumerGroupCommand
// .shouldPrintMemberState on its stream (see output.StateNotice), then the view's
// table unless the group is Dead or has no rows. The members view prints
// its header even then, as Java does. Entries with an Error are skipped:
// the caller reports them. A state the Java tool does not know (including
// an unknown, nil state) is an error with Java's message, which Java
// reports through its generic error path.
func javaDescribe(stdout, stderr io.Writer, l output.GroupDescriptionList, view output.View, verbose bool, order memberOrder) error {
	for _, g := range l.Groups {
		if g.Error != nil {
			continue
		}
		if g.State == nil || !vocab.IsKnownState(*g.State) {
			// Java's text, capitalised and punctuated as it prints it.
			return fmt.Errorf("Expected a valid consumer group state, but found '%s'.", javaStateName(g.State))
		}
		if n, ok := output.StateNotice(g.Group, g.State); ok {
			out := stdout
			if n.Stream == output.Stderr {
				out = stderr
			}
			if err := writeAll(out, "\n", n.Text, "\n"); err != nil {
				return err
			}
		}
		dead := *g.State == vocab.StateDead
		var err error
		switch view {
		case output.ViewOffsets:
			if !dead {
				err = javaDescribeOffsets(stdout, g.Group, offsetRowsForJava(g, order[g.Group]), verbose)
			}
		case output.ViewMembers:
			err = javaDescribeMembers(stdout, g.Group, memberRowsForJava(g), verbose)
		case output.ViewState:
			if !dead {
				err = javaDescribeState(stdout, stateRowForJava(g), verbose)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// javaList writes `kafka-consumer-groups --list` output
// (ConsumerGroupCommand.listGroups) in the order given. Without withType
// and withState: one group id per line. Otherwise a table with
// W=max(15, longest id)+10 (25 without groups), format "%-Ws" plus
// " %-20s" for TYPE and then " %-20s" for STATE, each line ended by a
// newline with its padding kept; the header is printed even when there
// are no groups. Types print as Java's GroupType names ("Classic",
// "Consumer"), unknown values as "Unknown".
func javaList(w io.Writer, groups []output.GroupListing, withType, withState bool) error {
	var b strings.Builder
	if !withType && !withState {
		for _, g := range groups {
			b.WriteString(g.Group + "\n")
		}
		return writeAll(w, b.String())
	}
	width := 15
	for _, g := range groups {
		width = widest(width, g.Group)
	}
	width += 10
	line := func(g, t, s string) {
		b.WriteString(pad(g, width))
		if withType {
			b.WriteString(" " + pad(t, 20))
		}
		if withState {
			b.WriteString(" " + pad(s, 20))
		}
		b.WriteString("\n")
	}
	line("GROUP", "TYPE", "STATE")
	for _, g := range groups {
		line(g.Group, javaTypeName(g.Type), javaStateName(g.State))
	}
	return writeAll(w, b.String())
}

// javaResetGroup is one group of a reset result: the offsets it was (or,
// in a dry run, would be) reset to. A group with no partitions still
// counts: Java prints the header as soon as any group is in the result.
type javaResetGroup struct {
	Group      string
	Partitions []javaResetPartition
}

// javaResetPartition is one row of the reset table.
type javaResetPartition struct {
	Topic     string
	Partition int32
	NewOffset int64
}

// javaResetTable writes the table `kafka-consumer-groups --reset-offsets`
// prints (GroupOffsetsResetter.printOffsetsToReset, 4.2+): widths
// GROUP=max(15, group ids), TOPIC=max(15, topics), format
// "\n%-Gs %-Ts %-10s %s" for the header (only when there is a group) and
// each row, then a newline. Java's rows come in HashMap order; kcg sorts
// them by group, topic, partition (the input is not modified).
func javaResetTable(w io.Writer, groups []javaResetGroup) error {
	type row struct {
		group string
		javaResetPartition
	}
	gw, tw := 15, 15
	var rows []row
	for _, g := range groups {
		gw = widest(gw, g.Group)
		for _, p := range g.Partitions {
			tw = widest(tw, p.Topic)
			rows = append(rows, row{g.Group, p})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	line := func(g, t, p, o string) string {
		return "\n" + pad(g, gw) + " " + pad(t, tw) + " " + pad(p, 10) + " " + o
	}
	var b strings.Builder
	if len(groups) > 0 {
		b.WriteString(line("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"))
	}
	for _, r := range rows {
		b.WriteString(line(r.group, r.Topic, strconv.Itoa(int(r.Partition)), strconv.FormatInt(r.NewOffset, 10)))
	}
	b.WriteString("\n")
	return writeAll(w, b.String())
}

// deleteOutcome is the result of deleting one group.
type deleteOutcome struct {
	Group string
	// Error is the failure as Java prints it (Throwable.toString(), e.g.
	// "org.apache.kafka.common.errors.GroupNotEmptyException: The group is
	// not empty."; see vocab.JavaException); nil when the group was deleted.
	Error *string
}

// javaDeleteResult writes what `kafka-consumer-groups --delete` prints
// (ConsumerGroupCommand.deleteGroups, 4.1+): when every group was deleted
// "Deletion of requested consumer groups ('g1', 'g2') was successful.";
// otherwise "\nError: Deletion of some consumer groups failed:", one
// "* Group 'g' could not be deleted due to: <error>" per failure and, if
// some succeeded, "\nThese consumer groups were deleted successfully:
// 'g1', 'g2'"; each followed by a newline. Java lists groups in HashMap
// order; kcg sorts them by group id.
func javaDeleteResult(w io.Writer, outcomes []deleteOutcome) error {
	outcomes = slices.Clone(outcomes)
	slices.SortStableFunc(outcomes, func(a, b deleteOutcome) int { return cmp.Compare(a.Group, b.Group) })
	var ok []string
	var failed []deleteOutcome
	for _, o := range outcomes {
		if o.Error == nil {
			ok = append(ok, "'"+o.Group+"'")
		} else {
			failed = append(failed, o)
		}
	}
	var b strings.Builder
	if len(failed) == 0 {
		b.WriteString("Deletion of requested consumer groups (" + strings.Join(ok, ", ") + ") was successful.\n")
		return writeAll(w, b.String())
	}
	b.WriteString("\nError: Deletion of some consumer groups failed:\n")
	for _, f := range failed {
		b.WriteString("* Group '" + f.Group + "' could not be deleted due to: " + *f.Error + "\n")
	}
	if len(ok) > 0 {
		b.WriteString("\nThese consumer groups were deleted successfully: " + strings.Join(ok, ", ") + "\n")
	}
	return writeAll(w, b.String())
}

// deleteOffsetsOutcome is the result of one OffsetDelete request.
type deleteOffsetsOutcome struct {
	Group string
	// ErrorCode is the Kafka error code of the request as a whole; 0 when
	// it succeeded.
	ErrorCode int16
	// ErrorName is the Kafka name of ErrorCode (e.g.
	// "COORDINATOR_NOT_AVAILABLE"); Java prints it only for codes it has no
	// message for.
	ErrorName  string
	Partitions []deleteOffsetsPartition
}

// deleteOffsetsPartition is one partition's result.
type deleteOffsetsPartition struct {
	Topic string
	// Partition is nil when the topic's partitions could not be listed
	// (e.g. it does not exist); Java then prints "-".
	Partition *int32
	// Error is the failure as Java prints it after "Error: " (e.g.
	// "org.apache.kafka.common.errors.GroupSubscribedToTopicException:
	// Deleting offsets of a topic is forbidden while the consumer group is
	// actively subscribed to it."); nil when the offset was deleted.
	Error *string
}

// groupErrorMessages are Errors.message() of the group-level codes the
// Java tool treats specially after an OffsetDelete (Kafka 4.x
// clients/.../protocol/Errors.java).
var groupErrorMessages = map[vocab.Code]string{
	vocab.CodeInvalidGroupID:     "The configured groupId is invalid.",
	vocab.CodeGroupIDNotFound:    "The group id does not exist.",
	vocab.CodeGroupAuthorization: "Group authorization failed.",
	vocab.CodeNonEmptyGroup:      "The group is not empty.",
}

// javaDeleteOffsetsResult writes what `kafka-consumer-groups
// --delete-offsets` prints (ConsumerGroupCommand.deleteOffsets, 4.1+):
// a first line by the request's error ("Request succeeded for deleting
// offsets from group g." or "\nError: ..."), then the table
// "%n%-Ts %-10s %-15s" (TOPIC=max(15, topics), trailing padding kept) with
// TOPIC PARTITION STATUS and one row per partition sorted, as Java does,
// by the string topic+partition (so "t10" sorts before "t2"; a missing
// partition counts as -1 and prints "-"), then a newline.
func javaDeleteOffsetsResult(w io.Writer, r deleteOffsetsOutcome) error {
	var b strings.Builder
	code := vocab.Code(r.ErrorCode)
	switch code {
	case 0:
		b.WriteString("Request succeeded for deleting offsets from group " + r.Group + ".\n")
	case vocab.CodeInvalidGroupID, vocab.CodeGroupIDNotFound, vocab.CodeGroupAuthorization, vocab.CodeNonEmptyGroup:
		b.WriteString("\nError: " + groupErrorMessages[code] + "\n")
	case vocab.CodeGroupSubscribedToTopic, vocab.CodeTopicAuthorization, vocab.CodeUnknownTopicOrPartition:
		b.WriteString("\nError: Encountered some partition-level error, see the follow-up details.\n")
	default:
		b.WriteString("\nError: Encountered some unknown error: " + r.ErrorName + "\n")
	}
	tw := 15
	ps := slices.Clone(r.Partitions)
	for _, p := range ps {
		tw = widest(tw, p.Topic)
	}
	key := func(p deleteOffsetsPartition) string {
		return p.Topic + strconv.Itoa(int(output.PartitionNumber(p.Partition)))
	}
	slices.SortStableFunc(ps, func(a, b deleteOffsetsPartition) int {
		// Java's key alone can tie ("t1"+"0" = "t"+"10"); topic then
		// partition break the tie so the order is still stable.
		return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a.Topic, b.Topic),
			cmp.Compare(output.PartitionNumber(a.Partition), output.PartitionNumber(b.Partition)))
	})
	line := func(t, p, s string) string { return "\n" + pad(t, tw) + " " + pad(p, 10) + " " + pad(s, 15) }
	b.WriteString(line("TOPIC", "PARTITION", "STATUS"))
	for _, p := range ps {
		status := "Successful"
		if p.Error != nil {
			status = "Error: " + *p.Error
		}
		b.WriteString(line(p.Topic, output.IntCell(p.Partition), status))
	}
	b.WriteString("\n")
	return writeAll(w, b.String())
}

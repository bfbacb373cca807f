package output

import (
	"io"
	"slices"
	"strconv"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/vocab"
)

// TypeShare is the type of a share group (KIP-932) in documents.
const TypeShare = vocab.TypeShare

// ShareGroupDescriptionsOf turns a share snapshot into GroupDescription
// entries (type share) for the describe document: per partition the
// share-partition start offset (startOffset; committedOffset is null) and
// the lag the broker gives (DescribeShareGroupOffsets v1; null where it
// does not). filter, when set, keeps only the partitions it covers.
func ShareGroupDescriptionsOf(s *groupops.ShareSnapshot, filter func(vocab.TopicPartition) bool) []GroupDescription {
	out := make([]GroupDescription, 0, len(s.Groups))
	for _, g := range s.Groups {
		out = append(out, describeShareGroup(g, s, filter))
	}
	return out
}

func describeShareGroup(v groupops.ShareGroup, s *groupops.ShareSnapshot, filter func(vocab.TopicPartition) bool) GroupDescription {
	d := v.Desc
	g := GroupDescription{Group: d.Group, Members: []Member{}, Offsets: []PartitionOffset{}}
	if v.Err != nil {
		g.Error = errText(v.Err)
		return g
	}
	if !v.Exists() {
		g.Error = Ptr(vocab.ErrGroupNotFound.Error())
		return g
	}
	g.State, g.Type = Ptr(d.State), Ptr(TypeShare)
	if d.Assignor != "" {
		g.Assignor = Ptr(d.Assignor)
	}
	if d.Coordinator.Host != "" {
		g.Coordinator = &Coordinator{ID: d.Coordinator.ID, Host: d.Coordinator.Host, Port: d.Coordinator.Port}
	}
	g.GroupEpoch, g.TargetAssignmentEpoch = Ptr(d.GroupEpoch), Ptr(d.AssignmentEpoch)
	// A share-partition is shared by every member assigned it: the
	// offsets name one only when one member has it.
	owners := map[vocab.TopicPartition][]*kafkaadmin.ShareMember{}
	for i := range d.Members {
		m := &d.Members[i]
		g.Members = append(g.Members, Member{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost, MemberEpoch: Ptr(m.MemberEpoch), Assignments: toAssignments(m.Assignment)})
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				tp := vocab.TopicPartition{Topic: a.Topic, Partition: p}
				owners[tp] = append(owners[tp], m)
			}
		}
	}
	for _, tp := range v.Partitions() {
		if filter != nil && !filter(tp) {
			continue
		}
		po := PartitionOffset{Topic: tp.Topic, Partition: tp.Partition}
		if o, ok := v.Offsets[tp]; ok {
			po.StartOffset = Ptr(o.StartOffset)
			if o.LeaderEpoch >= 0 {
				po.CommittedLeaderEpoch = Ptr(o.LeaderEpoch)
			}
			po.Lag = o.Lag
		}
		b := s.Bounds[tp]
		po.LogStartOffset, po.LogEndOffset = b.Start, b.End
		if ms := owners[tp]; len(ms) == 1 {
			po.MemberID, po.ClientID, po.Host = Ptr(ms[0].MemberID), Ptr(ms[0].ClientID), Ptr(ms[0].ClientHost)
		}
		g.Offsets = append(g.Offsets, po)
	}
	g.TotalLag = SumLag(g.Offsets)
	return g
}

// Position is where the group resumes on the partition: the committed
// offset, or a share group's start offset (which has no commits); nil
// when it has neither. The views without a column of their own for the
// start offset (-o markdown's Current, -o prometheus's current_offset)
// show it.
func (o PartitionOffset) Position() *int64 {
	if o.CommittedOffset != nil {
		return o.CommittedOffset
	}
	return o.StartOffset
}

// isShare reports whether d is a share group's entry.
func (d GroupDescription) isShare() bool { return d.Type != nil && *d.Type == TypeShare }

// writeShareOffsetsTable writes the share groups' offsets table: GROUP
// TOPIC PARTITION [LEADER-EPOCH] START-OFFSET LOG-END-OFFSET LAG
// CONSUMER-ID HOST CLIENT-ID (a partition several members share names
// none), with each group's total lag; no table when no share group has
// offsets.
func writeShareOffsetsTable(w io.Writer, groups []GroupDescription, verbose bool) error {
	header := []string{"GROUP", "TOPIC", "PARTITION"}
	if verbose {
		header = append(header, "LEADER-EPOCH")
	}
	header = append(header, "START-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID")
	var rows [][]string
	for _, g := range groups {
		if g.Error != nil || len(g.Offsets) == 0 {
			continue
		}
		for _, o := range g.Offsets {
			r := append(make([]string, 0, len(header)), g.Group, o.Topic, strconv.Itoa(int(o.Partition)))
			if verbose {
				r = append(r, IntCell(o.CommittedLeaderEpoch))
			}
			r = append(r, IntCell(o.StartOffset), IntCell(o.LogEndOffset), IntCell(o.Lag), StringCell(o.MemberID), StringCell(o.Host), StringCell(o.ClientID))
			rows = append(rows, r)
		}
		total := make([]string, len(header))
		total[0], total[1] = g.Group, totalMarker
		total[slices.Index(header, "LAG")] = IntCell(g.TotalLag)
		rows = append(rows, total)
	}
	if len(rows) == 0 {
		return nil
	}
	return renderTable(w, header, rows)
}

// splitShare splits a description list into its consumer and share groups.
func splitShare(l GroupDescriptionList) (consumer GroupDescriptionList, share []GroupDescription) {
	consumer = l
	consumer.Groups = nil
	for _, g := range l.Groups {
		if g.isShare() {
			share = append(share, g)
		} else {
			consumer.Groups = append(consumer.Groups, g)
		}
	}
	return consumer, share
}

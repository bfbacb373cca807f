package output

import (
	"io"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/vocab"
)

// TypeShare is the type of a share group (KIP-932) in documents.
const TypeShare = vocab.TypeShare

// startOffset fills po with a share group's start offset of tp (with its
// leader epoch) and the lag the broker gives (DescribeShareGroupOffsets
// v1; null where it does not).
func startOffset(po *PartitionOffset, v groupops.Group, tp vocab.TopicPartition) {
	if c, ok := v.Offsets[tp]; ok {
		po.StartOffset = Ptr(c.Offset)
		po.CommittedLeaderEpoch = c.LeaderEpoch
	}
	if v.Share != nil {
		if o, ok := v.Share.Offsets[tp]; ok {
			po.Lag = o.Lag
		}
	}
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
func writeShareOffsetsTable(w io.Writer, groups []GroupDescription, fleet, verbose bool) error {
	header := append(offsetsHeader(fleet, verbose), "START-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID")
	var rows [][]string
	for i := range groups {
		g := &groups[i]
		if g.Error != nil || len(g.Offsets) == 0 {
			continue
		}
		for _, o := range g.Offsets {
			r := append(offsetsRow(len(header), g, o, verbose), IntCell(o.StartOffset), IntCell(o.LogEndOffset), IntCell(o.Lag), StringCell(o.MemberID), StringCell(o.Host), StringCell(o.ClientID))
			rows = append(rows, r)
		}
		rows = append(rows, totalRow(header, g))
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

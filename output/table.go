package output

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// missing is the cell of a value that does not exist, as in the Java tool.
const missing = "-"

// columnGap separates table columns; three spaces is kubectl's padding.
const columnGap = "   "

// totalMarker fills the TOPIC cell of a group's total-lag row in the
// offsets table. Parentheses are not allowed in Kafka topic names, so the
// row can never be mistaken for a partition of a real topic.
const totalMarker = "(total)"

// renderTable writes header and rows as kcg's native table: no borders, no
// lines, left-aligned columns separated by columnGap, header as given (no
// auto-formatting, no wrapping) and no trailing blanks. Nothing is written
// when there are no rows: an empty result prints nothing on stdout, so a
// script sees no data rather than a lone header.
//
// Every cell goes through vocab.Printable first (in place: the rows are
// the caller's own, built for this table): a name holding terminal
// escapes is shown escaped, and tablewriter never sees an escape (it
// would add a stray "\x1b[0m").
//
// Every option is set explicitly because tablewriter's defaults and output
// have changed between minor releases (v1.1.4 dropped numeric
// right-alignment); the golden tests pin the result.
func renderTable(w io.Writer, header []string, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	for _, r := range rows {
		for i, c := range r {
			r[i] = vocab.Printable(c)
		}
	}
	if plainCells(header, rows) {
		return renderPlain(w, header, rows)
	}
	return renderTablewriter(w, header, rows)
}

// plainCells reports whether every cell is printable ASCII or one of the
// few one-column symbols kcg writes itself (narrowSymbols), where a
// character is one column wide: renderPlain lays such tables out exactly
// as tablewriter does (TestRenderPlainMatchesTablewriter). Anything else
// (wide or combining runes, ANSI escapes, line breaks, tabs) goes through
// tablewriter.
func plainCells(header []string, rows [][]string) bool {
	for _, h := range header {
		if !plainCell(h) {
			return false
		}
	}
	for _, r := range rows {
		if len(r) != len(header) {
			return false
		}
		for _, c := range r {
			if !plainCell(c) {
				return false
			}
		}
	}
	return true
}

// narrowSymbols are the non-ASCII characters of kcg's own tables (diff's
// "before → after", the watch sparkline, an elided "…"), each one column
// wide for tablewriter as for a terminal.
const narrowSymbols = "→…▁▂▃▄▅▆▇█"

func plainCell(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c <= 0x7e {
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(narrowSymbols, r) {
			return false
		}
		i += n - 1
	}
	return true
}

// cellWidth is the display width of a plain cell: one column a character.
func cellWidth(s string) int {
	return utf8.RuneCountInString(s)
}

// renderPlain is renderTable's layout for plain cells, without
// tablewriter: tablewriter spends about 25 µs a row on width caches and
// per-cell contexts, half a second for `describe --all-groups` on 1,000
// groups of 16 partitions (17,000 rows); this takes a few milliseconds.
// Every column is as wide as its widest cell plus columnGap; each line's
// trailing blanks are trimmed.
func renderPlain(w io.Writer, header []string, rows [][]string) error {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = cellWidth(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	return writePlain(w, header, widths, slices.Values(rows))
}

// renderRows is renderTable over rows that renderRows walks twice (the
// widths, then the lines) instead of holding them: for tables too large
// to keep as [][]string, plan's summary of 128,000 partitions (30 MB of
// cells, docs/benchmarks.md). rows may reuse one slice for every row.
// A table that is not plain is collected and goes to renderTable.
func renderRows(w io.Writer, header []string, rows iter.Seq[[]string]) error {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = cellWidth(h)
	}
	plain, n := plainCells(header, nil), 0
	for r := range rows {
		n++
		if plain && len(r) != len(header) {
			plain = false
		}
		for i, c := range r {
			if !plain {
				break
			}
			c = vocab.Printable(c)
			plain = plainCell(c)
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	switch {
	case n == 0:
		return nil
	case !plain:
		all := make([][]string, 0, n)
		for r := range rows {
			all = append(all, slices.Clone(r))
		}
		return renderTable(w, header, all)
	}
	return writePlain(w, header, widths, printableRows(rows, len(header)))
}

// printableRows is rows with every cell through vocab.Printable (nothing
// to escape in a plain cell, so no copy), in one reused slice.
func printableRows(rows iter.Seq[[]string], width int) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		out := make([]string, width)
		for r := range rows {
			for i, c := range r {
				out[i] = vocab.Printable(c)
			}
			if !yield(out[:len(r)]) {
				return
			}
		}
	}
}

// writePlain writes the header and rows of plain cells, escaped already,
// in columns of widths, to w in writes of whole lines of about plainChunk
// bytes, never the whole table at once.
func writePlain(w io.Writer, header []string, widths []int, rows iter.Seq[[]string]) error {
	out := make([]byte, 0, plainChunk+256)
	line := func(cells []string) {
		start := len(out)
		for i, c := range cells {
			out = append(out, c...)
			for n := cellWidth(c); n < widths[i]; n++ {
				out = append(out, ' ')
			}
			out = append(out, columnGap...)
		}
		end := len(out)
		for end > start && out[end-1] == ' ' {
			end--
		}
		out = append(out[:end], '\n')
	}
	line(header)
	for r := range rows {
		if len(out) >= plainChunk {
			if _, err := w.Write(out); err != nil {
				return err
			}
			out = out[:0]
		}
		line(r)
	}
	_, err := w.Write(out)
	return err
}

// plainChunk is about how many bytes of whole lines renderPlain writes at
// once.
const plainChunk = 64 << 10

// renderTablewriter is renderTable through tablewriter, for cells that are
// not plain ASCII (display widths, escapes, multi-line cells).
func renderTablewriter(w io.Writer, header []string, rows [][]string) error {
	var buf bytes.Buffer
	pad := tw.CellPadding{Global: tw.Padding{Right: columnGap, Overwrite: true}}
	format := tw.CellFormatting{Alignment: tw.AlignLeft, AutoFormat: tw.Off, AutoWrap: tw.WrapNone}
	t := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Separators: tw.SeparatorsNone,
				Lines:      tw.LinesNone,
			},
		})),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{Formatting: format, Padding: pad},
			Row:    tw.CellConfig{Formatting: format, Padding: pad},
			Behavior: tw.Behavior{
				AutoHide:  tw.Off,
				TrimSpace: tw.Off,
			},
		}),
	)
	h := make([]any, len(header))
	for i, s := range header {
		h[i] = s
	}
	t.Header(h...)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return fmt.Errorf("rendering table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("rendering table: %w", err)
	}
	var out strings.Builder
	for line := range strings.Lines(buf.String()) {
		out.WriteString(strings.TrimRight(line, " \n"))
		out.WriteByte('\n')
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// The cell helpers print a value the way every table of both modes does:
// an absent value (nil, or "" for NonEmptyCell) as "-".

// StringCell is *s, or "-" for nil.
func StringCell(s *string) string {
	if s == nil {
		return missing
	}
	return *s
}

// NonEmptyCell is s, or "-" for "".
func NonEmptyCell(s string) string {
	if s == "" {
		return missing
	}
	return s
}

// IntCell is *v in decimal, or "-" for nil.
func IntCell[T int32 | int64](v *T) string {
	if v == nil {
		return missing
	}
	return strconv.FormatInt(int64(*v), 10)
}

// DurationCell is a table cell for a duration in milliseconds (see
// HumanMillis), "-" for nil.
func DurationCell(ms *int64) string {
	if ms == nil {
		return "-"
	}
	return HumanMillis(*ms)
}

// HumanMillis writes a duration in milliseconds for people, in its two
// largest units, truncated: 0s, 350ms, 12s, 4m12s, 2h5m, 3d4h.
func HumanMillis(ms int64) string {
	// One buffer and one string per call: describe --time-lag writes one
	// per row, 128,000 rows at 2,000 groups × 64 partitions.
	var buf [48]byte
	return string(appendHumanMillis(buf[:0], ms))
}

// appendHumanMillis appends HumanMillis(ms). A negative duration is its
// magnitude after a '-', taken as a uint64 so that math.MinInt64, whose
// negation is itself, is written too (not recursed on forever).
func appendHumanMillis(b []byte, ms int64) []byte {
	m := uint64(ms)
	if ms < 0 {
		b, m = append(b, '-'), -m
	}
	if m == 0 {
		return append(b, "0s"...)
	}
	if m < 1000 {
		return append(strconv.AppendUint(b, m, 10), "ms"...)
	}
	s := m / 1000
	two := func(a uint64, ua string, c uint64, uc string) []byte {
		b = append(strconv.AppendUint(b, a, 10), ua...)
		if c > 0 {
			b = append(strconv.AppendUint(b, c, 10), uc...)
		}
		return b
	}
	switch {
	case s < 60:
		return append(strconv.AppendUint(b, s, 10), 's')
	case s < 3600:
		return two(s/60, "m", s%60, "s")
	case s < 86400:
		return two(s/3600, "h", s%3600/60, "m")
	}
	return two(s/86400, "d", s%86400/3600, "h")
}

// BoolCell is *v as "true" or "false", or "-" for nil.
func BoolCell(v *bool) string {
	if v == nil {
		return missing
	}
	return strconv.FormatBool(*v)
}

// AssignmentString renders an assignment the way the Java tool's
// --members --verbose does: per topic "topic:p1,p2" with the partitions in
// numeric order, the entries sorted as strings and joined by ";", or "-"
// when there is nothing. Entries of the same topic are merged.
func AssignmentString(as []TopicPartitions) string {
	byTopic := map[string][]int32{}
	var topics []string
	for _, a := range as {
		if _, seen := byTopic[a.Topic]; !seen {
			topics = append(topics, a.Topic)
		}
		byTopic[a.Topic] = append(byTopic[a.Topic], a.Partitions...)
	}
	var entries []string
	for _, t := range topics {
		ps := slices.Clone(byTopic[t])
		if len(ps) == 0 {
			// Java groups TopicPartitions by topic, so a topic without
			// partitions never appears.
			continue
		}
		slices.Sort(ps)
		nums := make([]string, len(ps))
		for i, p := range ps {
			nums[i] = strconv.Itoa(int(p))
		}
		entries = append(entries, t+":"+strings.Join(nums, ","))
	}
	if len(entries) == 0 {
		return missing
	}
	// Java sorts the "topic:partitions" strings, not the topic names, so
	// "a-b:0" comes before "a:0"; kcg does the same.
	slices.Sort(entries)
	return strings.Join(entries, ";")
}

// WriteTable writes kcg's native `list` table:
//
//	GROUP   STATE   TYPE   PROTOCOL-TYPE
//
// one row per group in the order given; "-" for an unknown state or type
// and for the empty protocol type of groups that only commit offsets.
func (l GroupList) WriteTable(w io.Writer) error {
	rows := make([][]string, 0, len(l.Groups))
	header := withCluster(len(l.Clusters) > 0, "GROUP", "STATE", "TYPE", "PROTOCOL-TYPE")
	owners := slices.ContainsFunc(l.Groups, func(g GroupListing) bool { return g.Owner != nil })
	if owners {
		header = append(header, "OWNER")
	}
	for _, g := range l.Groups {
		r := append(lead(6, g.Cluster, g.Group), StringCell(g.State), StringCell(g.Type), NonEmptyCell(g.ProtocolType))
		if owners {
			r = append(r, ownerCell(g.Owner))
		}
		rows = append(rows, r)
	}
	return renderTable(w, header, rows)
}

// offsetsHeader is the start of an offsets table's header, the same for
// every group family: [CLUSTER] GROUP TOPIC PARTITION, and LEADER-EPOCH
// with verbose.
func offsetsHeader(fleet, verbose bool) []string {
	header := withCluster(fleet, "GROUP", "TOPIC", "PARTITION")
	if verbose {
		header = append(header, "LEADER-EPOCH")
	}
	return header
}

// offsetsRow starts group's row of partition o with the cells
// offsetsHeader names, sized once for a row of n cells (appending column
// by column regrew every row).
func offsetsRow(n int, g *GroupDescription, o PartitionOffset, verbose bool) []string {
	r := append(lead(n, g.Cluster, g.Group), o.Topic, strconv.Itoa(int(o.Partition)))
	if verbose {
		r = append(r, IntCell(o.CommittedLeaderEpoch))
	}
	return r
}

// writeOffsetsTable writes kcg's native `describe` (offsets) table: one
// header for all groups, then per group one row per partition in the
// document's order and a total row whose TOPIC is "(total)" and whose LAG
// is the group's totalLag ("-" when no lag is known). verbose adds
// LEADER-EPOCH after PARTITION; timeLag adds TIME-LAG and RETENTION (the
// retention headroom) after LAG (see DurationCell), the total row holding
// the group's maxTimeLagMs and minRetentionHeadroomMs. With
// readCommitted LAST-STABLE-OFFSET takes LOG-END-OFFSET's
// place, the offset LAG is measured against. Groups with an error or without partitions
// have no rows; their messages belong on stderr.
func writeOffsetsTable(w io.Writer, l GroupDescriptionList, verbose, timeLag, readCommitted bool) error {
	header := offsetsHeader(len(l.Clusters) > 0, verbose)
	end, endHeader := func(o PartitionOffset) *int64 { return o.LogEndOffset }, "LOG-END-OFFSET"
	if readCommitted {
		end, endHeader = func(o PartitionOffset) *int64 { return o.LastStableOffset }, "LAST-STABLE-OFFSET"
	}
	header = append(header, "CURRENT-OFFSET", endHeader, "LAG")
	if timeLag {
		header = append(header, "TIME-LAG", "RETENTION")
	}
	header = append(header, "CONSUMER-ID", "HOST", "CLIENT-ID")
	var rows [][]string
	for i := range l.Groups {
		g := &l.Groups[i]
		if g.Error != nil || len(g.Offsets) == 0 {
			continue
		}
		for _, o := range g.Offsets {
			r := append(offsetsRow(len(header), g, o, verbose), IntCell(o.CommittedOffset), IntCell(end(o)), IntCell(o.Lag))
			if timeLag {
				r = append(r, DurationCell(o.TimeLagMs), DurationCell(o.RetentionHeadroomMs))
			}
			r = append(r, StringCell(o.MemberID), StringCell(o.Host), StringCell(o.ClientID))
			rows = append(rows, r)
		}
		total := totalRow(header, g)
		if timeLag {
			total[slices.Index(header, "TIME-LAG")] = DurationCell(g.MaxTimeLagMs)
			total[slices.Index(header, "RETENTION")] = DurationCell(g.MinRetentionHeadroomMs)
		}
		rows = append(rows, total)
	}
	if err := renderTable(w, header, rows); err != nil {
		return err
	}
	return writeStreamsTables(w, l)
}

// writeMembersTable writes kcg's native `describe --members` table: one
// header for all groups, one row per member in the document's order.
// GROUP-INSTANCE-ID appears when any member has one. verbose adds
// CURRENT-EPOCH CURRENT-ASSIGNMENT TARGET-EPOCH TARGET-ASSIGNMENT (see
// AssignmentString; TARGET-EPOCH is the group's target assignment epoch),
// and UPGRADED when some group mixes members that use the consumer
// protocol and members that joined as classic consumers (the Java tool's
// rule). Groups with an error or without members have no rows.
func writeMembersTable(w io.Writer, l GroupDescriptionList, verbose bool) error {
	withInstance, withUpgraded := false, false
	for _, g := range l.Groups {
		if g.Error != nil {
			continue
		}
		withUpgraded = withUpgraded || mixesProtocols(g.Members)
		for _, m := range g.Members {
			withInstance = withInstance || (m.GroupInstanceID != nil && *m.GroupInstanceID != "")
		}
	}
	header := withCluster(len(l.Clusters) > 0, "GROUP", "CONSUMER-ID")
	if withInstance {
		header = append(header, "GROUP-INSTANCE-ID")
	}
	header = append(header, "HOST", "CLIENT-ID", "#PARTITIONS")
	if verbose {
		header = append(header, "CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT")
		if withUpgraded {
			header = append(header, "UPGRADED")
		}
	}
	var rows [][]string
	for _, g := range l.Groups {
		if g.Error != nil {
			continue
		}
		for _, m := range g.Members {
			r := append(lead(len(header), g.Cluster, g.Group), m.MemberID)
			if withInstance {
				r = append(r, NonEmptyCell(Deref(m.GroupInstanceID)))
			}
			r = append(r, NonEmptyCell(m.Host), NonEmptyCell(m.ClientID), strconv.Itoa(m.NumPartitions()))
			if verbose {
				target := missing
				if m.TargetAssignments != nil {
					target = AssignmentString(*m.TargetAssignments)
				}
				r = append(r, IntCell(m.MemberEpoch), AssignmentString(m.Assignments), IntCell(g.TargetAssignmentEpoch), target)
				if withUpgraded {
					r = append(r, BoolCell(m.Upgraded))
				}
			}
			rows = append(rows, r)
		}
	}
	return renderTable(w, header, rows)
}

// writeStateTable writes kcg's native `describe --state` table, one row
// per group (Dead groups included, error entries left out):
//
//	GROUP   COORDINATOR (ID)   ASSIGNMENT-STRATEGY   STATE   #MEMBERS
//
// The coordinator cell is "host:port (id)". verbose inserts GROUP-EPOCH
// and TARGET-ASSIGNMENT-EPOCH before #MEMBERS, where the Java tool has
// them; both are "-" for classic groups.
func writeStateTable(w io.Writer, l GroupDescriptionList, verbose bool) error {
	header := withCluster(len(l.Clusters) > 0, "GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE")
	if verbose {
		header = append(header, "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH")
	}
	header = append(header, "#MEMBERS")
	var rows [][]string
	for _, g := range l.Groups {
		if g.Error != nil {
			continue
		}
		coord := missing
		if c := g.Coordinator; c != nil {
			coord = fmt.Sprintf("%s:%d (%d)", c.Host, c.Port, c.ID)
		}
		assignor := missing
		if g.Assignor != nil && *g.Assignor != "" {
			assignor = *g.Assignor
		}
		r := append(lead(len(header), g.Cluster, g.Group), coord, assignor, StringCell(g.State))
		if verbose {
			r = append(r, IntCell(g.GroupEpoch), IntCell(g.TargetAssignmentEpoch))
		}
		r = append(r, strconv.Itoa(len(g.Members)))
		rows = append(rows, r)
	}
	return renderTable(w, header, rows)
}

// totalRow is the total row of group g in an offsets table of header:
// its [CLUSTER and] GROUP, "(total)" under TOPIC, and its total lag.
func totalRow(header []string, g *GroupDescription) []string {
	total := lead(len(header), g.Cluster, g.Group)
	total = append(total, totalMarker)
	total = total[:len(header)]
	total[slices.Index(header, "LAG")] = IntCell(g.TotalLag)
	return total
}

// mixesProtocols reports whether members holds both a member that uses
// the consumer protocol (upgraded true) and one that joined as a classic
// consumer (upgraded false): a group in the middle of a migration.
func mixesProtocols(members []Member) bool {
	upgraded, classic := false, false
	for _, m := range members {
		if m.Upgraded != nil {
			upgraded = upgraded || *m.Upgraded
			classic = classic || !*m.Upgraded
		}
	}
	return upgraded && classic
}

// Deref is *p, or T's zero value for nil: the counterpart of Ptr.
func Deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

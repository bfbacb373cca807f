package output

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// Screen is the terminal a `kcg watch` frame is drawn on.
type Screen struct {
	// Width and Height are the terminal's size in columns and rows; 0 is
	// unknown, and then nothing is cut to fit.
	Width, Height int
	// Color colours the STATUS cells (only on a terminal, never with
	// NO_COLOR: the caller decides).
	Color bool
	// Interval is the time between samples, shown in the title line.
	Interval time.Duration
}

// ScreenStart and ScreenEnd bracket a watch on a terminal: hide the
// cursor, move it home and clear the screen once; at the end reset the
// colours and show the cursor again. The last frame stays on the screen
// (kcg does not use the alternate screen), so the last sample can still be
// read after Ctrl-C.
const (
	ScreenStart = "\033[?25l\033[H\033[2J"
	ScreenEnd   = "\033[0m\033[?25h"
)

// The sequences of a frame (ECMA-48): cursor home, erase to the end of the
// line, erase to the end of the screen, reset the colour.
const (
	escHome       = "\033[H"
	escClearLine  = "\033[K"
	escClearBelow = "\033[J"
	escReset      = "\033[0m"
)

// statusColor is the SGR colour of each status on a colour terminal;
// UNKNOWN has none.
var statusColor = map[string]string{
	groupops.StatusOK:     "\033[32m", // green
	groupops.StatusWarn:   "\033[33m", // yellow
	groupops.StatusAtRisk: "\033[31m", // red
	groupops.StatusStall:  "\033[31m", // red
	groupops.StatusStop:   "\033[31m", // red
	groupops.StatusRewind: "\033[35m", // magenta
}

// dropOrder is the order in which the columns leave a frame that is wider
// than the terminal, first to last. GROUP is never dropped: it is cut
// (with "…") once only it and STATUS are left, down to minGroupWidth, and
// then STATUS goes too. What stays longest answers "is it behind, and is
// it getting worse?": STATUS, then the time lag, the lag and the ETA.
var dropOrder = []string{"MEMBERS", "STATE", "PRODUCE/S", "CONSUME/S", "TREND", "RETENTION", "ETA", "LAG", "TIME-LAG"}

// minGroupWidth is how far GROUP is cut before STATUS is dropped.
const minGroupWidth = 8

// Frame draws s for a terminal: from the cursor home, a title line (the
// sample's time, the number of groups, the interval), the
// table and, when not every group fits, a line saying how many are not
// shown; every line is erased before it is written and the rest of the
// screen after the last, so a frame overwrites the one before it without
// scrolling or blanking the screen. No line is wider than sc.Width (the
// columns drop in dropOrder) and the frame leaves the last row free, so
// the final newline never scrolls. When the groups do not all fit in
// sc.Height, the most alarming ones are shown (worst status, then largest
// lag, then name), in name order.
func (s LagSample) Frame(sc Screen) []byte {
	header, rows := s.cells()
	for _, r := range rows {
		for i := range r {
			r[i] = vocab.Printable(r[i])
		}
	}
	// The time first: on a narrow terminal it is what shows the frame is new.
	title := fmt.Sprintf("%s  kcg watch: %d %s every %s", s.Time, len(s.Groups), plural(len(s.Groups), "group", "groups"), sc.Interval)
	if len(s.Clusters) > 0 {
		title += fmt.Sprintf(" on %d %s", len(s.Clusters), plural(len(s.Clusters), "cluster", "clusters"))
		if down := DownClusters(s.Clusters); down != "" {
			// Right after the time: a narrow terminal cuts the rest.
			title = s.Time + "  DOWN: " + down + strings.TrimPrefix(title, s.Time)
		}
	}
	var footer string
	if sc.Height > 0 {
		room := sc.Height - 3 // the title, the header and the free last row
		if len(rows) > room {
			shown := max(room-1, 0) // one row for the footer
			footer = fmt.Sprintf("… %d more %s not shown (the most alarming are above); -o json has every group", len(rows)-shown, plural(len(rows)-shown, "group", "groups"))
			rows = s.worst(rows, shown)
		}
	}
	cols, widths := fitColumns(header, rows, sc.Width)
	status := slices.Index(header, "STATUS")

	var b strings.Builder
	b.WriteString(escHome)
	lines := 0
	line := func(text string) {
		if sc.Height > 0 && lines >= sc.Height-1 {
			return
		}
		b.WriteString(escClearLine)
		b.WriteString(text)
		b.WriteByte('\n')
		lines++
	}
	line(cut(title, sc.Width))
	if len(s.Groups) == 0 {
		line(cut("no groups", sc.Width))
	} else {
		line(layout(header, cols, widths, -1, false))
		for _, r := range rows {
			line(layout(r, cols, widths, status, sc.Color))
		}
	}
	if footer != "" {
		line(cut(footer, sc.Width))
	}
	b.WriteString(escClearBelow)
	return []byte(b.String())
}

// worst returns the n most alarming of rows (parallel to s.Groups), in
// their own order.
func (s LagSample) worst(rows [][]string, n int) [][]string {
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	lag := func(i int) int64 {
		if l := s.Groups[i].Lag; l != nil {
			return *l
		}
		return -1
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(
			cmp.Compare(groupops.StatusRank(s.Groups[b].Status), groupops.StatusRank(s.Groups[a].Status)),
			cmp.Compare(lag(b), lag(a)),
			cmp.Compare(a, b))
	})
	idx = idx[:n]
	slices.Sort(idx)
	out := make([][]string, n)
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}

// fitColumns picks the columns of header (by index, in order) that fit in
// width and their widths: columns leave in dropOrder, then GROUP (column 0,
// 1 after CLUSTER) is cut, then STATUS leaves and GROUP is cut to what is left.
func fitColumns(header []string, rows [][]string, width int) (cols []int, widths []int) {
	widths = make([]int, len(header))
	for i, h := range header {
		widths[i] = twwidth.Width(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], twwidth.Width(c))
		}
	}
	for i := range header {
		cols = append(cols, i)
	}
	if width <= 0 {
		return cols, widths
	}
	total := func() int {
		n := len(columnGap) * (len(cols) - 1)
		for _, c := range cols {
			n += widths[c]
		}
		return n
	}
	drop := func(name string) {
		if i := slices.Index(header, name); i >= 0 {
			cols = slices.DeleteFunc(cols, func(c int) bool { return c == i })
		}
	}
	for _, name := range dropOrder {
		if total() <= width {
			return cols, widths
		}
		drop(name)
	}
	g := slices.Index(header, "GROUP") // after CLUSTER with several clusters
	if over := total() - width; over > 0 {
		widths[g] = max(widths[g]-over, min(widths[g], minGroupWidth))
	}
	if total() > width {
		drop("STATUS")
		widths[g] = min(widths[g], width)
	}
	return cols, widths
}

// layout is one line of cells: the columns cols, each padded to its width
// (cut with "…" when wider), columnGap between them, no trailing blanks.
// With color the cell of column status is coloured, its padding not.
func layout(cells []string, cols, widths []int, status int, color bool) string {
	var b strings.Builder
	for k, c := range cols {
		if k > 0 {
			b.WriteString(columnGap)
		}
		text := cut(cells[c], widths[c])
		pad := widths[c] - twwidth.Width(text)
		if code, ok := statusColor[text]; ok && color && c == status {
			text = code + text + escReset
		}
		b.WriteString(text)
		if k < len(cols)-1 {
			b.WriteString(strings.Repeat(" ", pad))
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// cut shortens s to width display columns, ending it with "…"; width 0 or
// less is no limit.
func cut(s string, width int) string {
	if width <= 0 || twwidth.Width(s) <= width {
		return s
	}
	return twwidth.Truncate(s, width, "…")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package output

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// MarkdownFoldRows is the size above which a Markdown table is folded
// into <details>: a ticket or pull-request comment then shows the heading
// and the per-group summary, and the reviewer unfolds the partitions.
// docs/output.md names it.
const MarkdownFoldRows = 20

// markdowner is implemented by the documents that have a Markdown view
// (-o markdown: plans, plan diffs and checks, apply reports, describe).
type markdowner interface {
	writeMarkdown(m *mdWriter)
}

// renderMarkdown renders doc into a buffer and writes it at once, so a
// document that cannot be rendered writes nothing.
func renderMarkdown(w io.Writer, doc Document) error {
	md, ok := doc.(markdowner)
	if !ok {
		return fmt.Errorf("output format %q is not available for this document", FormatMarkdown)
	}
	var m mdWriter
	md.writeMarkdown(&m)
	_, err := w.Write(m.buf.Bytes())
	return err
}

// mdWriter builds GitHub-flavoured Markdown: blocks separated by one empty
// line, tables with escaped cells.
type mdWriter struct {
	buf bytes.Buffer
}

// block starts a new block: an empty line after the previous one.
func (m *mdWriter) block() {
	if m.buf.Len() > 0 {
		m.buf.WriteByte('\n')
	}
}

func (m *mdWriter) heading(title string) {
	m.block()
	m.buf.WriteString("### " + title + "\n")
}

func (m *mdWriter) para(text string) {
	m.block()
	m.buf.WriteString(text + "\n")
}

// list writes items as a bullet list; nothing when there are none.
func (m *mdWriter) list(items []string) {
	if len(items) == 0 {
		return
	}
	m.block()
	for _, it := range items {
		m.buf.WriteString("- " + it + "\n")
	}
}

// mdColumn is a table column: its header and whether its cells are
// numbers (right-aligned).
type mdColumn struct {
	name  string
	right bool
}

func cols(names ...string) []mdColumn {
	out := make([]mdColumn, len(names))
	for i, n := range names {
		out[i] = mdColumn{name: strings.TrimPrefix(n, ">"), right: strings.HasPrefix(n, ">")}
	}
	return out
}

// table writes a GFM table whose cells are already Markdown (mdCode,
// mdText or numbers); more than MarkdownFoldRows rows are folded into
// <details> whose summary counts them as noun. Nothing is written when
// there are no rows.
func (m *mdWriter) table(columns []mdColumn, rows [][]string, noun string) {
	if len(rows) == 0 {
		return
	}
	m.block()
	fold := len(rows) > MarkdownFoldRows
	if fold {
		// GitHub and GitLab render the Markdown inside <details> only
		// after an empty line.
		fmt.Fprintf(&m.buf, "<details>\n<summary>%s</summary>\n\n", vocab.Count(len(rows), noun))
	}
	m.buf.WriteString("|")
	for _, c := range columns {
		m.buf.WriteString(" " + c.name + " |")
	}
	m.buf.WriteString("\n|")
	for _, c := range columns {
		if c.right {
			m.buf.WriteString("---:|")
		} else {
			m.buf.WriteString("---|")
		}
	}
	m.buf.WriteByte('\n')
	for _, r := range rows {
		m.buf.WriteString("|")
		for _, cell := range r {
			if cell == "" {
				cell = missing
			}
			m.buf.WriteString(" " + cell + " |")
		}
		m.buf.WriteByte('\n')
	}
	if fold {
		m.buf.WriteString("\n</details>\n")
	}
}

// mdCode is a name (group, topic, member, file, cluster id) as a code
// span: nothing inside it is Markdown, so "a_b*" stays "a_b*". Control
// characters are escaped first (vocab.Printable: a newline would end the
// table row), "|" is escaped as GFM tables require even in code spans, and
// the fence is one backtick longer than the longest run in s.
func mdCode(s string) string {
	if strings.Contains(vocab.Printable(s), `\|`) {
		// GFM splits a row before it parses code spans, taking "\\" as
		// an escaped backslash: "\\|" would end the cell there. Escaped
		// text has no such pair (mdText escapes every backslash).
		return mdText(s)
	}
	s = strings.ReplaceAll(vocab.Printable(s), "|", `\|`)
	if s == "" {
		return `""`
	}
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	// CommonMark strips one blank from each side when both are there: a
	// span that starts or ends with a backtick or a blank keeps its text.
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdSpecial are the characters that can start Markdown or HTML inline
// (emphasis, code, links, images, autolinks and raw HTML, entities,
// strikethrough, table cells, heading closers); mdText escapes them.
const mdSpecial = "\\`*_[]<>|~&#!"

// mdText is free text (a ticket, a note, an error) shown as written:
// control characters escaped (vocab.Printable) and every character that
// Markdown would interpret backslash-escaped, which CommonMark allows for
// any ASCII punctuation.
func mdText(s string) string {
	s = vocab.Printable(s)
	if !strings.ContainsAny(s, mdSpecial) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func mdInt(v int64) string { return strconv.FormatInt(v, 10) }

func mdOffset(v *int64) string { return IntCell(v) }

// planHeading is the heading of a plan's documents: what the document is,
// then the ticket and note when the plan has them.
func planHeading(what string, p *resetplan.Plan) string {
	if p == nil || p.Annotations.IsZero() {
		return what
	}
	a := p.Annotations
	switch {
	case a.Ticket != "" && a.Note != "":
		return what + " — " + mdText(a.Ticket) + ": " + mdText(a.Note)
	case a.Ticket != "":
		return what + " — " + mdText(a.Ticket)
	}
	return what + " — " + mdText(a.Note)
}

// planFacts are the bullet lines naming a plan: its cluster, strategy and
// when and by what it was made.
func planFacts(p *resetplan.Plan) []string {
	if p == nil {
		return nil
	}
	cluster := mdCode(p.Cluster.ID)
	if p.Cluster.Bootstrap != "" {
		cluster += " (" + mdCode(p.Cluster.Bootstrap) + ")"
	}
	facts := []string{
		"**Cluster:** " + cluster,
		"**Strategy:** " + mdText(strategyText(p.Strategy)),
		"**Created:** " + createdText(p),
	}
	if k := p.Connector; k != nil {
		facts = append(facts, "**Connector:** "+mdCode(k.Name)+" ("+mdCode(k.Class)+") on Kafka Connect "+mdCode(k.Connect)+": "+
			mdText(fmt.Sprintf("%s with %d tasks at plan time; config %s; apply stops it, resets it through Connect, verifies and %s", k.StateAtPlan, k.Tasks, k.ConfigDigest, resumeText(k))))
	}
	return facts
}

// createdText is when and by what a plan was made.
func createdText(p *resetplan.Plan) string {
	return p.CreatedAt.UTC().Format(time.RFC3339) + " by " + mdText(p.CreatedBy)
}

// changeText is what moving a commit from current to target does, in the
// words of the plan summary: replay N, skip N, none, "-" without a
// current, "delete the offset" without a target.
func changeText(current, target *int64) string {
	switch {
	case target == nil:
		return "delete the offset"
	case current == nil:
		return missing
	case *target < *current:
		return "replay " + mdInt(*current-*target)
	case *target > *current:
		return "skip " + mdInt(*target-*current)
	}
	return "none"
}

// replaySpan is the time span of the records a plan replays, where the
// strategy names an instant: from that instant to when the plan was made,
// e.g. "2026-11-28T00:00:00Z → 2026-11-29T07:10:00Z (1d7h)". "-" when it
// is not known (offset strategies).
func replaySpan(p *resetplan.Plan) string {
	var from time.Time
	switch {
	case p == nil:
		return missing
	case !p.Strategy.Datetime.IsZero():
		from = p.Strategy.Datetime
	case !p.Strategy.ResolvedTime.IsZero():
		from = p.Strategy.ResolvedTime
	default:
		return missing
	}
	to := p.CreatedAt
	if to.Before(from) {
		return missing
	}
	const layout = "2006-01-02T15:04:05Z"
	return from.UTC().Format(layout) + " → " + to.UTC().Format(layout) + " (" + HumanMillis(to.Sub(from).Milliseconds()) + ")"
}

// spanCell is a summary row's time span: the plan's replaySpan where the
// row replays records from the offsets the plan was made from, "-" where
// it replays none, or replays from an offset that moved since (apply
// --force of a stale plan): those records run to a time no document holds.
func spanCell(span string, t tally) string {
	if t.replay == 0 || t.moved {
		return missing
	}
	return span
}

// tally sums the changes of a set of partitions.
type tally struct {
	partitions   int
	replay, skip int64
	noCurrent    int
	// moved: a partition replays from another offset than the plan's
	// current (see addPlanned).
	moved bool
}

// addPlanned is add for the views that count from live offsets (a plan
// check, an apply report), with the offset the plan was made from:
// replaying from any other offset makes the plan's time span wrong.
func (t *tally) addPlanned(current, target, planned *int64) {
	t.add(current, target)
	if current != nil && target != nil && *target < *current && (planned == nil || *planned != *current) {
		t.moved = true
	}
}

func (t *tally) add(current, target *int64) {
	t.partitions++
	switch {
	case target == nil:
	case current == nil:
		t.noCurrent++
	case *target < *current:
		t.replay += *current - *target
	default:
		t.skip += *target - *current
	}
}

func (t *tally) plus(o tally) {
	t.partitions += o.partitions
	t.replay += o.replay
	t.skip += o.skip
	t.noCurrent += o.noCurrent
	t.moved = t.moved || o.moved
}

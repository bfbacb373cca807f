package output

import (
	"strconv"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// writeMarkdown is `kcg show -o markdown`: the plan for a change ticket. A
// heading with the ticket and note, the cluster, strategy and digest, a
// summary per group and one row per partition.
func (d PlanDocument) writeMarkdown(m *mdWriter) {
	p := d.Plan
	what := "Offset reset plan"
	if p.Strategy.Type.IsDelete() {
		what = "Delete plan"
	}
	m.heading(planHeading(what, p))
	m.list(append(planFacts(p), "**Digest:** "+mdCode(resetplan.Digest(p))))
	for _, g := range p.Groups {
		if p.IsNew(g) {
			m.para("New group " + mdCode(g.Group) + ": it did not exist when the plan was made; apply creates it.")
		}
	}
	if p.Strategy.Type.IsDelete() {
		writeDeletePlanMarkdown(m, p)
		return
	}
	span := replaySpan(p)
	var sums [][]string
	var rows [][]string
	var all tally
	outsideAll := 0
	for _, g := range p.Groups {
		var t tally
		outside := 0
		for _, pt := range g.Partitions {
			change := changeText(pt.Current, pt.Target)
			if tg, ok := pt.TargetOffset(); ok && (tg < pt.LogStart || tg > pt.LogEnd) {
				// As the table says: no count means anything for an offset
				// the log does not have, and the totals leave it out.
				change = "outside the log: apply refuses"
				outside++
				t.partitions++
			} else {
				t.add(pt.Current, pt.Target)
			}
			rows = append(rows, []string{mdCode(g.Group), mdCode(pt.Topic), strconv.Itoa(int(pt.Partition)),
				mdOffset(pt.Current), targetCell(pt.Target), change, mdText(string(pt.Reason))})
		}
		all.plus(t)
		outsideAll += outside
		sums = append(sums, []string{mdCode(g.Group), strconv.Itoa(t.partitions), mdInt(t.replay), mdInt(t.skip), strconv.Itoa(t.noCurrent), strconv.Itoa(outside), spanCell(span, t)})
	}
	if len(p.Groups) > 1 {
		sums = append(sums, []string{"**all groups**", strconv.Itoa(all.partitions), mdInt(all.replay), mdInt(all.skip), strconv.Itoa(all.noCurrent), strconv.Itoa(outsideAll), spanCell(span, all)})
	}
	if len(rows) == 0 {
		m.para("The plan changes no partition.")
		return
	}
	m.para("**Summary:** " + vocab.Count(all.partitions, "partition") + " in " + vocab.Count(len(p.Groups), "group") +
		", replay " + mdInt(all.replay) + ", skip " + mdInt(all.skip) + " records.")
	sumCols := cols("Group", ">Partitions", ">Replay", ">Skip", ">Without a commit", ">Outside the log", "Time span")
	if outsideAll == 0 {
		// Only a hand-edited plan has targets outside the log.
		sumCols = append(sumCols[:5], sumCols[6])
		for i, r := range sums {
			sums[i] = append(r[:5], r[6])
		}
	}
	m.table(sumCols, sums, "group")
	m.table(cols("Group", "Topic", ">Partition", ">Current", ">Target", "Change", "Reason"), rows, "partition")
}

// writeDeletePlanMarkdown is the body of a delete plan's Markdown: per
// group the partitions whose committed offsets go, and per partition the
// offset lost.
func writeDeletePlanMarkdown(m *mdWriter, p *resetplan.Plan) {
	var sums, rows [][]string
	n := 0
	for _, g := range p.Groups {
		sums = append(sums, []string{mdCode(g.Group), strconv.Itoa(len(g.Partitions))})
		n += len(g.Partitions)
		for _, pt := range g.Partitions {
			lag := missing
			if pt.Current != nil {
				lag = mdInt(max(0, pt.LogEnd-*pt.Current))
			}
			rows = append(rows, []string{mdCode(g.Group), mdCode(pt.Topic), strconv.Itoa(int(pt.Partition)),
				mdOffset(pt.Current), mdInt(pt.LogStart), mdInt(pt.LogEnd), lag})
		}
	}
	what := "deletes the committed offsets of " + vocab.Count(n, "partition") + " in " + vocab.Count(len(p.Groups), "group")
	if p.Strategy.Type == resetplan.StrategyDeleteGroup {
		what = "deletes " + vocab.Count(len(p.Groups), "group") + ", with the committed offsets of " + vocab.Count(n, "partition")
	}
	m.para("**Summary:** the plan " + what + "; apply writes the rollback plan that re-commits them first.")
	m.table(cols("Group", ">Partitions"), sums, "group")
	m.table(cols("Group", "Topic", ">Partition", ">Lost", ">Log start", ">Log end", ">Lag"), rows, "partition")
}

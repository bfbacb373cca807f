package output

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// planReasons maps a plan's partitions to their reasons, for the views
// that list partitions of a plan they do not hold row by row.
func planReasons(p *resetplan.Plan) map[string]map[vocab.TopicPartition]string {
	out := map[string]map[vocab.TopicPartition]string{}
	if p == nil {
		return out
	}
	for _, g := range p.Groups {
		m := make(map[vocab.TopicPartition]string, len(g.Partitions))
		for _, pt := range g.Partitions {
			m[pt.TP()] = string(pt.Reason)
		}
		out[g.Group] = m
	}
	return out
}

// planCurrents maps a plan's partitions to the committed offsets it was
// made from (nil: none), for the views that count from live offsets.
func planCurrents(p *resetplan.Plan) map[string]map[vocab.TopicPartition]*int64 {
	out := map[string]map[vocab.TopicPartition]*int64{}
	if p == nil {
		return out
	}
	for _, g := range p.Groups {
		m := make(map[vocab.TopicPartition]*int64, len(g.Partitions))
		for _, pt := range g.Partitions {
			m[pt.TP()] = pt.Current
		}
		out[g.Group] = m
	}
	return out
}

// summaryRows are the per-group summary rows of a set of per-group tallies,
// in the order of groups, with a total row for several groups; span is
// the plan's replaySpan, shown where records are replayed.
func summaryRows(groups []string, by map[string]*tally, span string) [][]string {
	var rows [][]string
	var all tally
	for _, g := range groups {
		t := by[g]
		all.plus(*t)
		rows = append(rows, []string{mdCode(g), strconv.Itoa(t.partitions), mdInt(t.replay), mdInt(t.skip), strconv.Itoa(t.noCurrent), spanCell(span, *t)})
	}
	if len(groups) > 1 {
		rows = append(rows, []string{"**all groups**", strconv.Itoa(all.partitions), mdInt(all.replay), mdInt(all.skip), strconv.Itoa(all.noCurrent), spanCell(span, all)})
	}
	return rows
}

// writeMarkdown is `kcg diff PLAN -o markdown`: whether apply would run
// now, every finding that would refuse it, and the writes it would make,
// replayed and skipped counted from the live offsets.
func (s PlanStatus) writeMarkdown(m *mdWriter) {
	m.heading(planHeading("Plan check against the live cluster", s.plan))
	facts := []string{"**Plan:** " + mdCode(s.Plan)}
	live := mdCode(s.ClusterID)
	if s.ClusterID != s.PlanClusterID {
		live += " (the plan is for " + mdCode(s.PlanClusterID) + ")"
	}
	facts = append(facts, "**Live cluster:** "+live)
	if s.plan != nil {
		facts = append(facts, "**Strategy:** "+mdText(strategyText(s.plan.Strategy)), "**Created:** "+createdText(s.plan))
	}
	// The facts come first: two lists one after the other would be one
	// list in Markdown.
	m.list(append(facts, "**Digest:** "+mdCode(s.Digest)))
	switch {
	case s.AlreadyApplied:
		m.para("**Already applied:** every committed offset equals its target; apply would write nothing.")
	case s.Ready:
		m.para("**Ready:** apply would write " + vocab.Count(len(s.WouldWrite), "partition") + " as reviewed.")
	default:
		m.para("**Not ready:** apply would refuse this plan now.")
	}
	m.list(s.findings())
	if s.AlreadyApplied || len(s.WouldWrite) == 0 {
		return
	}
	reasons, planned := planReasons(s.plan), planCurrents(s.plan)
	by := map[string]*tally{}
	var groups []string
	var rows [][]string
	for _, w := range s.WouldWrite {
		if by[w.Group] == nil {
			by[w.Group] = &tally{}
			groups = append(groups, w.Group)
		}
		tp := vocab.TopicPartition{Topic: w.Topic, Partition: w.Partition}
		by[w.Group].addPlanned(w.From, w.To, planned[w.Group][tp])
		reason := reasons[w.Group][tp]
		rows = append(rows, []string{mdCode(w.Group), mdCode(w.Topic), strconv.Itoa(int(w.Partition)),
			mdOffset(w.From), targetCell(w.To), changeText(w.From, w.To), mdText(NonEmptyCell(reason))})
	}
	m.para("**What apply would write now**, counted from the live offsets:")
	// The span is the plan's (the strategy's instant to when the plan was
	// made), where the live offsets are still the planned ones.
	m.table(cols("Group", ">Partitions", ">Replay", ">Skip", ">Without a commit", "Time span"), summaryRows(groups, by, replaySpan(s.plan)), "group")
	m.table(cols("Group", "Topic", ">Partition", ">Current", ">Target", "Change", "Reason"), rows, "partition")
}

// findings are the lines of a plan check that refuse an apply (or, for
// new groups, say what it creates).
func (s PlanStatus) findings() []string {
	var out []string
	if s.PlanClusterID != s.ClusterID {
		out = append(out, "**cluster:** the plan is for "+mdCode(s.PlanClusterID)+", the live cluster is "+mdCode(s.ClusterID))
	}
	for _, g := range s.NewGroups {
		out = append(out, "**new:** group "+mdCode(g)+" does not exist in the cluster: apply creates it")
	}
	for _, a := range s.ActiveGroups {
		out = append(out, "**active:** group "+mdCode(a.Group)+" has "+vocab.Count(a.Members, "member")+", state "+mdText(a.State)+": stop its consumers first")
	}
	for _, d := range s.Drift {
		out = append(out, fmt.Sprintf("**drift:** %s %s/%d planned from %s, now %s", mdCode(d.Group), mdCode(d.Topic), d.Partition, offsetWord(d.Planned), offsetWord(d.Live)))
	}
	for _, r := range s.OutOfRange {
		detail := ""
		if r.Error != nil {
			detail = mdText(*r.Error)
		} else {
			detail = fmt.Sprintf("target %d outside the live log [%s, %s]", r.Target, IntCell(r.LogStart), IntCell(r.LogEnd))
		}
		out = append(out, fmt.Sprintf("**out of range:** %s %s/%d: %s", mdCode(r.Group), mdCode(r.Topic), r.Partition, detail))
	}
	return out
}

// writeMarkdown is `kcg diff A B -o markdown`: how plan B differs from
// plan A, plan-level and group changes as lines, changed partitions in a
// table with "before → after" cells.
func (d PlanDiff) writeMarkdown(m *mdWriter) {
	m.heading(planHeading("Plan diff", d.planB))
	facts := []string{"**Plans:** " + mdCode(d.A) + " → " + mdCode(d.B)}
	if d.planA != nil && d.planB != nil {
		facts = append(facts, "**Digests:** "+mdCode(resetplan.Digest(d.planA))+" → "+mdCode(resetplan.Digest(d.planB)))
	}
	m.list(facts)
	if d.Equal {
		m.para("**No difference:** the plans make the same change.")
		return
	}
	m.para("**Differences:**")
	var lines []string
	for _, f := range d.Plan {
		lines = append(lines, "**"+mdText(f.Field)+":** "+mdText(NonEmptyCell(f.Before))+" → "+mdText(NonEmptyCell(f.After)))
	}
	for _, g := range d.Groups {
		var fs []string
		for _, f := range g.Fields {
			fs = append(fs, mdText(f.Field)+" "+mdText(f.Before)+" → "+mdText(f.After))
		}
		line := "**group " + g.Change + ":** " + mdCode(g.Group)
		if len(fs) > 0 {
			line += ": " + strings.Join(fs, ", ")
		}
		lines = append(lines, line)
	}
	m.list(lines)
	counts := map[string]map[string]int{}
	var groups []string
	var rows [][]string
	for _, p := range d.Partitions {
		if counts[p.Group] == nil {
			counts[p.Group] = map[string]int{}
			groups = append(groups, p.Group)
		}
		counts[p.Group][p.Change]++
		rows = append(rows, []string{mdCode(p.Group), mdCode(p.Topic), strconv.Itoa(int(p.Partition)), p.Change,
			pair(p.Before, p.After, func(x *PlanPartition) string { return IntCell(x.Current) }),
			pair(p.Before, p.After, func(x *PlanPartition) string { return targetCell(x.Target) }),
			mdText(pair(p.Before, p.After, func(x *PlanPartition) string { return x.Reason }))})
	}
	var sums [][]string
	for _, g := range groups {
		c := counts[g]
		sums = append(sums, []string{mdCode(g), strconv.Itoa(c["added"]), strconv.Itoa(c["removed"]), strconv.Itoa(c["changed"])})
	}
	m.table(cols("Group", ">Added", ">Removed", ">Changed"), sums, "group")
	m.table(cols("Group", "Topic", ">Partition", "Change", ">Current", ">Target", "Reason"), rows, "partition")
}

// applyVerdict is the first line of an apply report's Markdown.
func (r ApplyReport) applyVerdict() string {
	written, overwritten := 0, 0
	for _, g := range r.Groups {
		for _, p := range g.Partitions {
			switch p.Result {
			case ResultWritten:
				written++
			case ResultOverwritten:
				overwritten++
			}
		}
	}
	switch r.Result {
	case ResultApplied:
		return "**Applied:** " + vocab.Count(written, "partition") + " written and verified."
	case ResultAlreadyApplied:
		return "**Already applied:** every committed offset equals its target; nothing was written."
	case ResultRefused:
		return "**Refused:** nothing was written."
	case ResultFailed:
		return "**Failed:** nothing was written."
	}
	if overwritten > 0 {
		// Written, then taken back by a consumer apply cannot see
		// (docs/apply.md, --settle): not done, whatever else was.
		return "**Partial:** " + vocab.Count(written, "partition") + " written, " + strconv.Itoa(overwritten) + " overwritten after the write by a consumer that is no member of the group; see the groups below."
	}
	return "**Partial:** " + vocab.Count(written, "partition") + " written; see the groups below."
}

// approvedBy is the approvals of an apply report as its Markdown names
// them: each principal (as the JSON's principal) with its key's
// fingerprint.
func approvedBy(as []Approval) string {
	names := make([]string, 0, len(as))
	for _, a := range as {
		names = append(names, mdCode(a.Principal)+" ("+mdCode(a.Key)+")")
	}
	return strings.Join(names, ", ")
}

// writeMarkdown is `kcg apply -o markdown`: the outcome for the change
// ticket, per group and per partition, with what the write replayed or
// skipped (before → target).
func (r ApplyReport) writeMarkdown(m *mdWriter) {
	m.heading(planHeading("Apply report", r.plan))
	facts := []string{"**Plan:** " + mdCode(r.Plan)}
	if r.ClusterID != "" {
		facts = append(facts, "**Cluster:** "+mdCode(r.ClusterID))
	}
	if r.plan != nil {
		facts = append(facts, "**Strategy:** "+mdText(strategyText(r.plan.Strategy)))
	}
	if r.Digest != "" {
		facts = append(facts, "**Digest:** "+mdCode(r.Digest))
	}
	if len(r.Approvals) > 0 {
		facts = append(facts, "**Approved by:** "+approvedBy(r.Approvals))
	}
	if r.RollbackPlan != nil {
		facts = append(facts, "**Rollback plan:** "+mdCode(*r.RollbackPlan)+" (undo with `kcg apply` of it)")
	}
	m.list(facts)
	m.para(r.applyVerdict())
	var reasons []string
	for _, why := range r.Reasons {
		reasons = append(reasons, mdText(why))
	}
	m.list(reasons)
	span, planned := replaySpan(r.plan), planCurrents(r.plan)
	var sums, rows [][]string
	for _, g := range r.Groups {
		var t tally
		for _, p := range g.Partitions {
			t.addPlanned(p.Before, p.Target, planned[g.Group][vocab.TopicPartition{Topic: p.Topic, Partition: p.Partition}])
			res := p.Result
			if p.Error != nil {
				res += ": " + *p.Error
			}
			rows = append(rows, []string{mdCode(g.Group), mdCode(p.Topic), strconv.Itoa(int(p.Partition)),
				mdOffset(p.Before), targetCell(p.Target), mdOffset(p.After), changeText(p.Before, p.Target), mdText(res)})
		}
		sums = append(sums, []string{mdCode(g.Group), mdText(g.Result), strconv.Itoa(t.partitions), mdInt(t.replay), mdInt(t.skip), spanCell(span, t), mdText(NonEmptyCell(Deref(g.Error)))})
	}
	m.table(cols("Group", "Result", ">Partitions", ">Replay", ">Skip", "Time span", "Error"), sums, "group")
	m.table(cols("Group", "Topic", ">Partition", ">Before", ">Target", ">After", "Change", "Result"), rows, "partition")
}

// writeMarkdown is `kcg describe -o markdown`: like JSON it holds every
// view whatever the table flags: a summary per group, the offsets and
// the members.
func (v DescribeView) writeMarkdown(m *mdWriter) {
	m.heading("Consumer groups")
	var sums [][]string
	var errs []string
	for _, g := range v.Doc.Groups {
		if g.Error != nil {
			errs = append(errs, mdCode(g.Group)+": "+mdText(*g.Error))
			continue
		}
		r := []string{mdCode(g.Group), mdText(StringCell(g.State)), mdText(StringCell(g.Type)), strconv.Itoa(len(g.Members)), strconv.Itoa(len(g.Offsets)), IntCell(g.TotalLag)}
		if v.TimeLag {
			r = append(r, DurationCell(g.MaxTimeLagMs), DurationCell(g.MinRetentionHeadroomMs))
		}
		sums = append(sums, r)
	}
	sumCols := cols("Group", "State", "Type", ">Members", ">Partitions", ">Total lag")
	if v.TimeLag {
		sumCols = append(sumCols, cols(">Max time lag", ">Min retention headroom")...)
	}
	m.table(sumCols, sums, "group")
	if len(errs) > 0 {
		m.para("**Could not be described:**")
		m.list(errs)
	}
	v.writeOffsetsMarkdown(m)
	v.writeMembersMarkdown(m)
	writeOwnersMarkdown(m, v.Doc)
}

func (v DescribeView) writeOffsetsMarkdown(m *mdWriter) {
	endName, end := ">Log end", func(o PartitionOffset) *int64 { return o.LogEndOffset }
	if v.ReadCommitted {
		endName, end = ">Last stable", func(o PartitionOffset) *int64 { return o.LastStableOffset }
	}
	names := []string{"Group", "Topic", ">Partition", ">Current", endName, ">Lag"}
	if v.TimeLag {
		names = append(names, ">Time lag", ">Retention headroom")
	}
	names = append(names, "Client")
	var rows [][]string
	for _, g := range v.Doc.Groups {
		if g.Error != nil {
			continue
		}
		for _, o := range g.Offsets {
			r := []string{mdCode(g.Group), mdCode(o.Topic), strconv.Itoa(int(o.Partition)), IntCell(o.Position()), IntCell(end(o)), IntCell(o.Lag)}
			if v.TimeLag {
				r = append(r, DurationCell(o.TimeLagMs), DurationCell(o.RetentionHeadroomMs))
			}
			client := missing
			if o.ClientID != nil {
				client = mdCode(*o.ClientID)
			}
			rows = append(rows, append(r, client))
		}
	}
	m.table(cols(names...), rows, "partition")
}

func (v DescribeView) writeMembersMarkdown(m *mdWriter) {
	var rows [][]string
	for _, g := range v.Doc.Groups {
		if g.Error != nil {
			continue
		}
		for _, mb := range g.Members {
			assigned := AssignmentString(mb.Assignments)
			if assigned != missing {
				assigned = mdCode(assigned)
			}
			rows = append(rows, []string{mdCode(g.Group), mdCode(mb.MemberID), mdCode(mb.ClientID), mdCode(mb.Host), assigned})
		}
	}
	m.table(cols("Group", "Member", "Client", "Host", "Assignment"), rows, "member")
}

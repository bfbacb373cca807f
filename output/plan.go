package output

import (
	"fmt"
	"io"
	"strconv"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// encodePlan writes a plan as JSON or YAML: exactly the plan file's
// own encoding, so `kcg show -o json` of a YAML plan is the JSON plan.
func encodePlan(w io.Writer, f Format, p *resetplan.Plan) error {
	var data []byte
	var err error
	switch f {
	case FormatJSON:
		data = resetplan.EncodeJSON(p)
	case FormatYAML:
		data, err = resetplan.EncodeYAML(p)
	default:
		return fmt.Errorf("a plan document is json or yaml, not %s", f)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// writePlanSummary writes the reviewer's view of a plan: a header naming
// the cluster, strategy and annotations, then per partition CURRENT →
// TARGET with the log bounds, the reason and the impact (records to replay
// when the target moves back, to skip when it moves forward), a total row
// per group and, for several groups, a grand total.
func writePlanSummary(w io.Writer, p *resetplan.Plan) error {
	fmt.Fprintf(w, "cluster %s (%s), strategy %s", p.Cluster.ID, p.Cluster.Bootstrap, strategyText(p.Strategy))
	if a := p.Annotations; a != nil {
		if a.Ticket != "" {
			fmt.Fprintf(w, ", ticket %s", a.Ticket)
		}
		if a.Note != "" {
			fmt.Fprintf(w, ", note %q", a.Note)
		}
	}
	fmt.Fprintln(w)
	if line := connectorLine(p.Connector); line != "" {
		fmt.Fprintln(w, line)
	}
	if p.Strategy.Type.IsDelete() {
		return writeDeleteSummary(w, p)
	}
	for _, g := range p.Groups {
		if p.IsNew(g) {
			fmt.Fprintf(w, "new group %s: it did not exist when the plan was made; apply creates it\n", g.Group)
		}
	}
	if len(p.Groups) == 0 {
		_, err := fmt.Fprintln(w, "the plan changes no partition")
		return err
	}
	impact := resetplan.ComputeImpact(p)
	header := []string{"GROUP", "TOPIC", "PARTITION", "CURRENT", "TARGET", "LOG-START", "LOG-END", "REASON", "IMPACT"}
	// The rows are made on the fly, twice (renderRows): a plan of
	// 128,000 partitions held as cells cost 30 MB of plan's peak memory.
	rows := func(yield func([]string) bool) {
		row := make([]string, len(header))
		all := impact // the totals, less the targets outside the log
		outsideAll := 0
		for gi, g := range p.Groups {
			gimp := impact.Groups[gi]
			outside := 0
			for pi, pt := range g.Partitions {
				target, effect := "delete", impactText(gimp.Partitions[pi])
				if t, ok := pt.TargetOffset(); ok {
					target = strconv.FormatInt(t, 10)
					if t < pt.LogStart || t > pt.LogEnd {
						// A hand-edited plan: no replay count means anything
						// for an offset the log does not have; apply refuses it.
						effect = "outside the log: apply refuses"
						outside++
						pimp := gimp.Partitions[pi]
						if pimp.Replay != nil {
							gimp.Replay -= *pimp.Replay
							gimp.Skip -= *pimp.Skip
							all.Replay -= *pimp.Replay
							all.Skip -= *pimp.Skip
						}
					}
				}
				row[0], row[1], row[2], row[3], row[4] = g.Group, pt.Topic, strconv.Itoa(int(pt.Partition)), IntCell(pt.Current), target
				row[5], row[6], row[7], row[8] = strconv.FormatInt(pt.LogStart, 10), strconv.FormatInt(pt.LogEnd, 10), string(pt.Reason), effect
				if !yield(row) {
					return
				}
			}
			total := totalText(gimp.Replay, gimp.Skip, gimp.NoCurrent) + outsideText(outside)
			outsideAll += outside
			if p.IsNew(g) {
				total = "new group, " + total
			}
			row[0], row[1], row[8] = g.Group, totalMarker, total
			clear(row[2:8])
			if !yield(row) {
				return
			}
		}
		if len(p.Groups) > 1 {
			clear(row)
			row[0], row[8] = "(all groups)", totalText(all.Replay, all.Skip, all.NoCurrent)+outsideText(outsideAll)
			yield(row)
		}
	}
	return renderRows(w, header, rows)
}

func strategyText(s resetplan.Strategy) string {
	t := string(s.Type)
	switch {
	case s.Offset != nil:
		t += " " + strconv.FormatInt(*s.Offset, 10)
	case s.ShiftBy != nil:
		t += " " + strconv.FormatInt(*s.ShiftBy, 10)
	case !s.Datetime.IsZero():
		t += " " + s.Datetime.UTC().Format("2006-01-02T15:04:05.000Z")
	case s.Duration != "":
		t += " " + s.Duration + " (since " + s.ResolvedTime.UTC().Format("2006-01-02T15:04:05.000Z") + ")"
	case s.File != "":
		t += " " + s.File
	case s.RollbackOf != "":
		t += " of " + s.RollbackOf
	case s.Group != "":
		t += " (copied from group " + s.Group + ")"
	case s.Alias != "":
		t += " " + s.Alias + " (MirrorMaker 2 checkpoints of " + s.CheckpointsTopic + ")"
	}
	return t
}

func impactText(pi resetplan.PartitionImpact) string {
	switch {
	case pi.Replay == nil:
		return missing
	case *pi.Replay > 0:
		return "replay " + strconv.FormatInt(*pi.Replay, 10)
	case *pi.Skip > 0:
		return "skip " + strconv.FormatInt(*pi.Skip, 10)
	}
	return "none"
}

// outsideText counts the targets outside the plan's log bounds, which the
// totals leave out.
func outsideText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d outside the log", n)
}

func totalText(replay, skip int64, noCurrent int) string {
	s := fmt.Sprintf("replay %d, skip %d", replay, skip)
	if noCurrent > 0 {
		s += fmt.Sprintf(", %d without a commit", noCurrent)
	}
	return s
}

// writeDeleteSummary is the reviewer's view of a delete plan: what goes
// (the groups, or their offsets), how many partitions, and per partition
// the committed offset that is lost.
func writeDeleteSummary(w io.Writer, p *resetplan.Plan) error {
	n := 0
	for _, g := range p.Groups {
		n += len(g.Partitions)
	}
	what := fmt.Sprintf("deletes the committed offsets of %s in %s", vocab.Count(n, "partition"), vocab.Count(len(p.Groups), "group"))
	if p.Strategy.Type == resetplan.StrategyDeleteGroup {
		what = fmt.Sprintf("deletes %s, with the committed offsets of %s", vocab.Count(len(p.Groups), "group"), vocab.Count(n, "partition"))
	}
	fmt.Fprintf(w, "%s; LOST is the committed offset that goes (apply writes the rollback plan that re-commits them first)\n", what)
	header := []string{"GROUP", "TOPIC", "PARTITION", "LOST", "LOG-START", "LOG-END", "LAG"}
	var rows [][]string
	for _, g := range p.Groups {
		if len(g.Partitions) == 0 {
			rows = append(rows, []string{g.Group, missing, missing, missing, missing, missing, missing})
		}
		for _, pt := range g.Partitions {
			lag := missing
			if pt.Current != nil {
				lag = strconv.FormatInt(max(0, pt.LogEnd-*pt.Current), 10)
			}
			rows = append(rows, []string{g.Group, pt.Topic, strconv.Itoa(int(pt.Partition)), IntCell(pt.Current),
				strconv.FormatInt(pt.LogStart, 10), strconv.FormatInt(pt.LogEnd, 10), lag})
		}
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "the plan deletes nothing")
		return err
	}
	return renderTable(w, header, rows)
}

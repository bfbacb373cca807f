package resetplan

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/kcg-dev/kcg/vocab"
)

// ChangeKind says how an item differs between two plans.
type ChangeKind string

// The change kinds.
const (
	Added   ChangeKind = "added"
	Removed ChangeKind = "removed"
	Changed ChangeKind = "changed"
)

// ValueChange is one plan-level value that differs, rendered as text for
// the report (e.g. the strategy "to-offset offset=5").
type ValueChange struct {
	Field  string
	Before string
	After  string
}

// GroupChange is a group added, removed, or with changed type/state.
type GroupChange struct {
	Group  string
	Kind   ChangeKind
	Fields []ValueChange
}

// PartitionChange is a partition added, removed or changed between two
// plans; Before/After are nil for added/removed ones.
type PartitionChange struct {
	Group     string
	Topic     string
	Partition int32
	Kind      ChangeKind
	// Fields names what changed for Changed: current, target, logStart,
	// logEnd, reason.
	Fields []string
	Before *Partition
	After  *Partition
}

// DiffResult compares plan A (before) with plan B (after), by group and
// (topic, partition). createdAt and createdBy are not compared: two plans
// made from the same state at different times are the same change.
type DiffResult struct {
	Plan       []ValueChange
	Groups     []GroupChange
	Partitions []PartitionChange
}

// Empty reports whether the plans make the same change.
func (d DiffResult) Empty() bool {
	return len(d.Plan) == 0 && len(d.Groups) == 0 && len(d.Partitions) == 0
}

// Diff compares two plans. For `kcg diff FILE` against the live cluster,
// the commands layer builds B from live state (e.g. with Build, or by
// setting current to the live commits) and diffs as usual.
func Diff(a, b *Plan) DiffResult {
	a, b = canonicalOrder(a), canonicalOrder(b)
	var d DiffResult
	pv := func(field, x, y string) {
		if x != y {
			d.Plan = append(d.Plan, ValueChange{field, x, y})
		}
	}
	pv("apiVersion", a.APIVersion, b.APIVersion)
	pv("cluster.id", a.Cluster.ID, b.Cluster.ID)
	pv("cluster.bootstrap", a.Cluster.Bootstrap, b.Cluster.Bootstrap)
	pv("strategy", strategyText(a.Strategy), strategyText(b.Strategy))
	var at, bt, an, bn string
	if a.Annotations != nil {
		at, an = a.Annotations.Ticket, a.Annotations.Note
	}
	if b.Annotations != nil {
		bt, bn = b.Annotations.Ticket, b.Annotations.Note
	}
	pv("annotations.ticket", at, bt)
	pv("annotations.note", an, bn)
	ak, as, ac := connectorText(a.Connector)
	bk, bs, bc := connectorText(b.Connector)
	pv("connector", ak, bk)
	pv("connector.stateAtPlan", as, bs)
	pv("connector.configDigest", ac, bc)

	ag, bg := map[string]*Group{}, map[string]*Group{}
	names := map[string]bool{}
	for i := range a.Groups {
		ag[a.Groups[i].Group] = &a.Groups[i]
		names[a.Groups[i].Group] = true
	}
	for i := range b.Groups {
		bg[b.Groups[i].Group] = &b.Groups[i]
		names[b.Groups[i].Group] = true
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		x, y := ag[name], bg[name]
		switch {
		case y == nil:
			d.Groups = append(d.Groups, GroupChange{Group: name, Kind: Removed})
		case x == nil:
			d.Groups = append(d.Groups, GroupChange{Group: name, Kind: Added})
		default:
			var f []ValueChange
			if x.Type != y.Type {
				f = append(f, ValueChange{"type", x.Type, y.Type})
			}
			if x.StateAtPlan != y.StateAtPlan {
				f = append(f, ValueChange{"stateAtPlan", x.StateAtPlan, y.StateAtPlan})
			}
			if len(f) > 0 {
				d.Groups = append(d.Groups, GroupChange{Group: name, Kind: Changed, Fields: f})
			}
		}
		d.Partitions = append(d.Partitions, diffPartitions(name, x, y)...)
	}
	return d
}

func diffPartitions(group string, x, y *Group) []PartitionChange {
	xm, ym := map[TopicPartition]*Partition{}, map[TopicPartition]*Partition{}
	var tps []TopicPartition
	if x != nil {
		for i := range x.Partitions {
			xm[x.Partitions[i].TP()] = &x.Partitions[i]
			tps = append(tps, x.Partitions[i].TP())
		}
	}
	if y != nil {
		for i := range y.Partitions {
			tp := y.Partitions[i].TP()
			ym[tp] = &y.Partitions[i]
			if xm[tp] == nil {
				tps = append(tps, tp)
			}
		}
	}
	vocab.SortPartitions(tps)
	var out []PartitionChange
	for _, tp := range tps {
		p, q := xm[tp], ym[tp]
		c := PartitionChange{Group: group, Topic: tp.Topic, Partition: tp.Partition, Before: p, After: q}
		switch {
		case q == nil:
			c.Kind = Removed
		case p == nil:
			c.Kind = Added
		default:
			if !reflect.DeepEqual(p.Current, q.Current) {
				c.Fields = append(c.Fields, "current")
			}
			if !reflect.DeepEqual(p.Target, q.Target) {
				c.Fields = append(c.Fields, "target")
			}
			if p.LogStart != q.LogStart {
				c.Fields = append(c.Fields, "logStart")
			}
			if p.LogEnd != q.LogEnd {
				c.Fields = append(c.Fields, "logEnd")
			}
			if p.Reason != q.Reason {
				c.Fields = append(c.Fields, "reason")
			}
			// translate-from plans: a newer checkpoint of the same target.
			if !reflect.DeepEqual(p.Upstream, q.Upstream) {
				c.Fields = append(c.Fields, "upstreamOffset")
			}
			if !p.CheckpointTime.Equal(q.CheckpointTime) {
				c.Fields = append(c.Fields, "checkpointTime")
			}
			if len(c.Fields) == 0 {
				continue
			}
			c.Kind = Changed
		}
		out = append(out, c)
	}
	return out
}

// strategyText renders a strategy the way the plan file shows it, so a
// change reads like the two file lines.
func strategyText(s Strategy) string {
	out := string(s.Type)
	if s.Offset != nil {
		out += fmt.Sprintf(" offset=%d", *s.Offset)
	}
	if s.ShiftBy != nil {
		out += fmt.Sprintf(" shiftBy=%d", *s.ShiftBy)
	}
	if !s.Datetime.IsZero() {
		out += " datetime=" + formatTime(s.Datetime)
	}
	if s.Duration != "" {
		out += " duration=" + s.Duration
	}
	if !s.ResolvedTime.IsZero() {
		out += " resolvedTime=" + formatTime(s.ResolvedTime)
	}
	if s.File != "" {
		out += " file=" + s.File
	}
	if s.RollbackOf != "" {
		out += " rollbackOf=" + s.RollbackOf
	}
	if s.Group != "" {
		out += " group=" + s.Group
	}
	if s.Alias != "" {
		out += " alias=" + s.Alias + " checkpointsTopic=" + s.CheckpointsTopic
	}
	return out
}

package resetplan

import (
	"fmt"
	"slices"
	"time"
)

// LiveOffsets are committed offsets read from the cluster: group →
// partition → offset; an absent partition has no commit.
type LiveOffsets map[string]map[TopicPartition]int64

// Rollback returns the plan that undoes p, made from the offsets committed
// right before p is applied (live; apply writes it before its first
// commit). Each partition's target is the live offset it is about to
// replace (reason restore), or null with reason delete-offset where there
// was no commit, meaning apply deletes the offset. Its current is p's
// target: what the rollback expects to find once p has run, so applying it
// after someone else moved the group is refused as stale like any plan.
// Log bounds are p's (the best known); apply re-checks them live.
//
// The rollback keeps p's cluster and annotations (the same ticket) and
// records p's digest in strategy.rollbackOf. createdAt is now (zero:
// time.Now()); createdBy is p's, which the caller may overwrite.
func Rollback(p *Plan, live LiveOffsets, now time.Time) *Plan {
	return RollbackOf(p, Digest(p), live, now)
}

// RollbackOf is Rollback for a caller that has p's digest already (apply
// computes it to check --expect-digest): digest must be Digest(p).
func RollbackOf(p *Plan, digest string, live LiveOffsets, now time.Time) *Plan {
	if now.IsZero() {
		now = time.Now()
	}
	p = canonicalOrder(p)
	rb := newPlan(now, p.CreatedBy, p.Cluster, Strategy{Type: StrategyRollback, RollbackOf: digest}, p.Annotations, len(p.Groups))
	rb.Connector = rollbackConnector(p)
	n := 0
	for _, g := range p.Groups {
		n += len(g.Partitions)
	}
	// The restored targets, one allocation for all of them.
	targets := make([]int64, 0, n)
	for _, g := range p.Groups {
		gl := live[g.Group]
		rg := Group{Group: g.Group, Type: g.Type, StateAtPlan: g.StateAtPlan, Partitions: make([]Partition, 0, len(g.Partitions))}
		for _, pt := range g.Partitions {
			r := Partition{Topic: pt.Topic, Partition: pt.Partition, LogStart: pt.LogStart, LogEnd: pt.LogEnd, Current: pt.Target}
			if off, ok := gl[pt.TP()]; ok {
				targets = append(targets, off)
				r.Target, r.Reason = &targets[len(targets)-1], ReasonRestore
			} else {
				r.Reason = ReasonDeleteOffset
			}
			rg.Partitions = append(rg.Partitions, r)
		}
		rb.Groups = append(rb.Groups, rg)
	}
	return rb
}

// Drift is a partition whose live commit no longer equals the plan's
// current: the plan is stale there.
type Drift struct {
	Group     string
	Topic     string
	Partition int32
	Planned   *int64
	Live      *int64
}

// String reads like "billing payments/0: planned from 3, now 7" (kcg names
// partitions topic/partition in its own messages).
func (d Drift) String() string {
	show := func(v *int64) string {
		if v == nil {
			return "no commit"
		}
		return fmt.Sprint(*v)
	}
	return fmt.Sprintf("%s %s/%d: planned from %s, now %s", d.Group, d.Topic, d.Partition, show(d.Planned), show(d.Live))
}

// FindDrift compares every partition's current with the live commits and
// returns the ones that moved, in plan order; apply refuses a plan with
// drift unless --force.
func FindDrift(p *Plan, live LiveOffsets) []Drift {
	p = canonicalOrder(p)
	var out []Drift
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			var lv *int64
			if off, ok := live[g.Group][pt.TP()]; ok {
				lv = i64(off)
			}
			if (lv == nil) != (pt.Current == nil) || (lv != nil && *lv != *pt.Current) {
				out = append(out, Drift{Group: g.Group, Topic: pt.Topic, Partition: pt.Partition, Planned: pt.Current, Live: lv})
			}
		}
	}
	return out
}

// UndoOfDelete is the rollback of a delete plan applied right away (kcg
// delete, kcg delete-offsets, drop-in --delete and --delete-offsets): the
// live offsets are the plan's currents, just read, so no second read is
// needed. Applying it re-commits every deleted offset: a deleted group
// comes back, Empty, at the same offsets.
func UndoOfDelete(p *Plan, now time.Time) *Plan {
	live := make(LiveOffsets, len(p.Groups))
	for _, g := range p.Groups {
		m := make(map[TopicPartition]int64, len(g.Partitions))
		for _, pt := range g.Partitions {
			if pt.Current != nil {
				m[pt.TP()] = *pt.Current
			}
		}
		live[g.Group] = m
	}
	return Rollback(p, live, now)
}

// KeepCovered drops from p every partition no spec covers (TopicSpec.Covers):
// a delete-offsets plan built over --all-topics narrowed to the --topic
// arguments, which may name topics that do not exist (the shortcut and
// drop-in report those per topic, as the Java tool does, instead of
// refusing the whole command).
func KeepCovered(p *Plan, specs []TopicSpec) {
	for i := range p.Groups {
		g := &p.Groups[i]
		g.Partitions = slices.DeleteFunc(g.Partitions, func(pt Partition) bool {
			return !slices.ContainsFunc(specs, func(ts TopicSpec) bool { return ts.Covers(pt.TP()) })
		})
	}
}

package commands

import (
	"context"
	"fmt"
	"sort"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

// preflight is a plan compared with the live cluster: everything apply
// re-checks before it writes, and what `kcg diff PLAN` reports.
type preflight struct {
	plan      *resetplan.Plan
	clusterID string
	// clusterMismatch: the plan was made against another cluster.
	clusterMismatch bool
	// active are the plan's groups that have members now.
	active []activeGroup
	// live are the committed offsets now, of every group in the plan.
	live resetplan.LiveOffsets
	// drift are partitions whose commit moved since planning.
	drift []resetplan.Drift
	// outOfRange are targets outside the live log, or partitions gone.
	outOfRange []rangeIssue
	// pending are the partitions whose live commit differs from the target:
	// what apply would write now. Empty means "already applied".
	pending []pendingWrite
	// bounds are the live log bounds of the plan's partitions.
	bounds map[kafkaadmin.TopicPartition]logBounds
}

type activeGroup struct {
	Group   string
	State   string
	Members int
}

type rangeIssue struct {
	Group string
	TP    kafkaadmin.TopicPartition
	// Target is nil for a delete-offset entry (never out of range).
	Target     int64
	Start, End *int64
	Err        error
}

func (r rangeIssue) String() string {
	if r.Err != nil {
		return fmt.Sprintf("%s %s: %v", r.Group, r.TP, r.Err)
	}
	if r.Start == nil || r.End == nil {
		return fmt.Sprintf("%s %s: the live log bounds are unknown", r.Group, r.TP)
	}
	return fmt.Sprintf("%s %s: target %d is outside the live log [%d, %d]", r.Group, r.TP, r.Target, *r.Start, *r.End)
}

type pendingWrite struct {
	Group string
	TP    kafkaadmin.TopicPartition
	From  *int64
	To    *int64 // nil: delete the offset
}

// ok reports whether apply may proceed (without --force).
func (p *preflight) ok() bool {
	return !p.clusterMismatch && len(p.active) == 0 && len(p.drift) == 0 && len(p.outOfRange) == 0
}

func adminTP(tp resetplan.TopicPartition) kafkaadmin.TopicPartition {
	return kafkaadmin.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
}

// runPreflight reads the live state of every group and partition of plan
// in a bounded number of request phases (describe, offset fetch, two
// ListOffsets) and compares.
func runPreflight(ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan) (*preflight, error) {
	info, err := cl.Cluster(ctx)
	if err != nil {
		return nil, err
	}
	pf := &preflight{plan: plan, clusterID: info.ClusterID, live: resetplan.LiveOffsets{}}
	pf.clusterMismatch = info.ClusterID != plan.Cluster.ID
	groups := make([]string, 0, len(plan.Groups))
	var tps []kafkaadmin.TopicPartition
	for _, g := range plan.Groups {
		groups = append(groups, g.Group)
		for _, pt := range g.Partitions {
			tps = append(tps, adminTP(pt.TP()))
		}
	}
	if len(groups) == 0 {
		return pf, nil
	}
	descs, err := cl.DescribeGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	for _, d := range descs {
		if d.Err != nil {
			return nil, fmt.Errorf("group %s: %w", d.Group, d.Err)
		}
		if d.HasMembers() {
			pf.active = append(pf.active, activeGroup{Group: d.Group, State: d.State, Members: len(d.Members)})
		}
	}
	offs, err := cl.FetchOffsets(ctx, groups)
	if err != nil {
		return nil, err
	}
	for _, o := range offs {
		if o.Err != nil {
			return nil, fmt.Errorf("group %s: %w", o.Group, o.Err)
		}
		m := map[resetplan.TopicPartition]int64{}
		for tp, c := range o.Offsets {
			m[resetplan.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}] = c.Offset
		}
		pf.live[o.Group] = m
	}
	pf.drift = resetplan.FindDrift(plan, pf.live)
	if pf.bounds, err = listBounds(ctx, cl, tps); err != nil {
		return nil, err
	}
	for _, g := range plan.Groups {
		for _, pt := range g.Partitions {
			tp := adminTP(pt.TP())
			var from *int64
			if v, ok := pf.live[g.Group][pt.TP()]; ok {
				from = &v
			}
			target, hasTarget := pt.TargetOffset()
			if hasTarget {
				b := pf.bounds[tp]
				switch {
				case b.err != nil || b.start == nil || b.end == nil:
					pf.outOfRange = append(pf.outOfRange, rangeIssue{Group: g.Group, TP: tp, Target: target, Err: b.err})
				case target < *b.start || target > *b.end:
					pf.outOfRange = append(pf.outOfRange, rangeIssue{Group: g.Group, TP: tp, Target: target, Start: b.start, End: b.end})
				}
			}
			switch {
			case hasTarget && (from == nil || *from != target):
				pf.pending = append(pf.pending, pendingWrite{Group: g.Group, TP: tp, From: from, To: &target})
			case !hasTarget && from != nil:
				pf.pending = append(pf.pending, pendingWrite{Group: g.Group, TP: tp, From: from})
			}
		}
	}
	sort.Slice(pf.active, func(i, j int) bool { return pf.active[i].Group < pf.active[j].Group })
	return pf, nil
}

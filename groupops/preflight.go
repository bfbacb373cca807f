package groupops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// TypeMismatchError is a plan entry whose group has become another
// family since the plan (deleted and reused): exit 3, nothing written.
type TypeMismatchError struct {
	Group, Planned, Live string
}

func (e *TypeMismatchError) Error() string {
	return fmt.Sprintf("group %s was planned as a %s group and is a %s group now: make a new plan; nothing was written", e.Group, e.Planned, e.Live)
}

// readLive reads the plan's groups for Preflight, each as its planned
// family reads it (share groups: their start offsets are the live
// offsets). A group whose live family differs from the plan's is a
// *TypeMismatchError (a type of no registered family an *OtherTypeError).
func readLive(ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan, groups []string) ([]Group, error) {
	planned := planFamilies(plan)
	typed, err := ClassifyNamed(ctx, cl, groups, OpApply)
	if err != nil {
		return nil, err
	}
	for _, id := range groups {
		// A group that is gone lists as nothing: it is missing, not
		// mismatched.
		if live := typed.FamilyOf(id); live != planned[id] && typed.listed(id) {
			return nil, &TypeMismatchError{Group: id, Planned: string(planned[id]), Live: string(live)}
		}
	}
	fam := func(id string) Family { return planned[id] }
	return readFamilies(ctx, cl, groups, fam, typed.readAs(fam))
}

// Check is a plan compared with the live cluster: everything apply
// re-checks before it writes, and what `kcg diff PLAN` reports.
type Check struct {
	Plan      *resetplan.Plan
	ClusterID string
	// ClusterMismatch: the plan was made against another cluster.
	ClusterMismatch bool
	// Active are the plan's groups that have members now, sorted.
	Active []ActiveGroup
	// Missing are the plan's groups that do not exist in the cluster now,
	// sorted: apply would create them (a plan made with --allow-new-group,
	// or a group deleted since). Not a refusal on its own.
	Missing []string
	// Live are the committed offsets now, of every group in the plan.
	Live resetplan.LiveOffsets
	// Drift are partitions whose commit moved since planning.
	Drift []resetplan.Drift
	// OutOfRange are targets outside the live log, or partitions gone.
	OutOfRange []RangeIssue
	// Pending are the partitions whose live commit differs from the
	// target: what apply would write now. Empty means "already applied".
	Pending []PendingWrite
	// Bounds are the live log bounds of the plan's partitions.
	Bounds map[TopicPartition]LogBounds
	// GroupDeletes are the groups of a delete-group plan that exist now:
	// apply deletes them (DeleteGroups), sorted.
	GroupDeletes []string
	// offsets backs the From and To pointers of Pending (offset).
	offsets []int64
}

// ActiveGroup is a group of the plan that has members now.
type ActiveGroup struct {
	Group   string
	State   string
	Members int
	// Static is how many of the members are static (group.instance.id).
	Static int
}

// activeGroup is the ActiveGroup of group, described as d.
func activeGroup(group string, d kafkaadmin.GroupDescription) ActiveGroup {
	a := ActiveGroup{Group: group, State: d.State, Members: len(d.Members)}
	for _, m := range d.Members {
		if m.InstanceID != nil {
			a.Static++
		}
	}
	return a
}

// refusal is why a is refused: its consumers must stop. Static members
// stay members for their session timeout after their consumers stop, so
// a group of stopped static consumers still looks active: that is said,
// with the way to wait for it.
func (a ActiveGroup) refusal() string {
	head := fmt.Sprintf("group %s has %s (state %s)", a.Group, vocab.Count(a.Members, "active member"), a.State)
	if a.Static == 0 {
		return head + ": stop its consumers first"
	}
	which := "all static"
	if a.Static < a.Members {
		which = fmt.Sprintf("%d of them static", a.Static)
	}
	return fmt.Sprintf("%s, %s (group.instance.id): a static member stays in the group for its session timeout (session.timeout.ms, 45s by default) after its consumer stops; stop its consumers, and apply with --wait-empty (e.g. --wait-empty 2m) to wait until they time out", head, which)
}

// RangeIssue is a target apply cannot write: outside the live log, or on
// a partition whose bounds are unknown.
type RangeIssue struct {
	Group      string
	TP         TopicPartition
	Target     int64
	Start, End *int64
	Err        error
}

func (r RangeIssue) String() string {
	if r.Err != nil {
		return fmt.Sprintf("%s %s: %v", r.Group, r.TP, r.Err)
	}
	if r.Start == nil || r.End == nil {
		return fmt.Sprintf("%s %s: the live log bounds are unknown", r.Group, r.TP)
	}
	return fmt.Sprintf("%s %s: target %d is outside the live log [%d, %d]", r.Group, r.TP, r.Target, *r.Start, *r.End)
}

// PendingWrite is one write apply would make now.
type PendingWrite struct {
	Group string
	TP    TopicPartition
	From  *int64
	To    *int64 // nil: delete the offset
}

// Ready reports whether apply may proceed without --force.
func (c *Check) Ready() bool {
	return !c.ClusterMismatch && len(c.Active) == 0 && len(c.Drift) == 0 && len(c.OutOfRange) == 0
}

// AlreadyApplied reports whether every target equals the live offset on
// the plan's own cluster: re-running apply would write nothing.
func (c *Check) AlreadyApplied() bool {
	return !c.ClusterMismatch && len(c.Pending) == 0 && len(c.GroupDeletes) == 0
}

// RefusedError is a precondition that refused an operation; nothing was
// written. The exit-code mapping turns it into 3.
type RefusedError struct {
	Reasons []string
}

func (e *RefusedError) Error() string {
	return "refusing to apply: " + strings.Join(e.Reasons, "; ") + "; nothing was written"
}

// Refusal returns why apply must not run (a *RefusedError), or nil. With
// force, drift is no reason; it is returned in warnings instead. A plan
// for another cluster is refused for that alone, force or not.
func (c *Check) Refusal(force bool) (warnings []string, err error) {
	if c.ClusterMismatch {
		// Nothing else of this cluster says anything of the plan (its
		// offsets are another cluster's), and no flag applies a plan to
		// another cluster: --force is not suggested, nor warned about.
		return nil, &RefusedError{Reasons: []string{fmt.Sprintf("the plan is for cluster %s, this is cluster %s: a plan applies only to the cluster it was made on (check --bootstrap-server and --profile, or make a new plan against this cluster)", c.Plan.Cluster.ID, c.ClusterID)}}
	}
	var reasons []string
	for _, a := range c.Active {
		reasons = append(reasons, a.refusal())
	}
	if len(c.Drift) > 0 {
		ds := make([]string, 0, len(c.Drift))
		for _, d := range c.Drift {
			ds = append(ds, d.String())
		}
		if force {
			warnings = append(warnings, "--force: applying although offsets moved since planning: "+strings.Join(ds, "; "))
		} else {
			reasons = append(reasons, "the plan is stale: "+strings.Join(ds, "; ")+" (re-plan, or --force)")
		}
	}
	for _, r := range c.OutOfRange {
		reasons = append(reasons, r.String())
	}
	if len(reasons) == 0 {
		return warnings, nil
	}
	return warnings, &RefusedError{Reasons: reasons}
}

// planGroupIDs are the ids of plan's groups, in its order.
func planGroupIDs(plan *resetplan.Plan) []string {
	ids := make([]string, len(plan.Groups))
	for i, g := range plan.Groups {
		ids[i] = g.Group
	}
	return ids
}

// Preflight reads the live state of every group and partition of plan in a
// bounded number of request phases (describe, offset fetch, two
// ListOffsets) and compares.
func Preflight(ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan) (*Check, error) {
	// The groups' coordinators then come with the cluster's first answer.
	cl.ExpectGroups(planGroupIDs(plan))
	info, err := cl.Cluster(ctx)
	if err != nil {
		return nil, err
	}
	c := &Check{Plan: plan, ClusterID: info.ClusterID, ClusterMismatch: info.ClusterID != plan.Cluster.ID, Live: resetplan.LiveOffsets{}}
	groups := make([]string, 0, len(plan.Groups))
	// The distinct partitions: 2,000 groups of one topic's 64 partitions
	// are 64 log bounds to read, not 128,000 entries to carry.
	seen := map[TopicPartition]bool{}
	var tps []TopicPartition
	n := 0
	for _, g := range plan.Groups {
		groups = append(groups, g.Group)
		n += len(g.Partitions)
		for _, pt := range g.Partitions {
			if tp := pt.TP(); !seen[tp] {
				seen[tp] = true
				tps = append(tps, tp)
			}
		}
	}
	if len(groups) == 0 {
		return c, nil
	}
	// Again at apply time: the id may have been deleted and reused as a
	// share or streams group since the plan was made.
	// Each group as its family reads it (share groups: start offsets).
	gs, err := readLive(ctx, cl, plan, groups)
	if err != nil {
		return nil, err
	}
	for _, g := range gs {
		if g.Err != nil {
			return nil, fmt.Errorf("group %s: %w", g.Name(), g.Err)
		}
		if !g.Desc.Exists {
			c.Missing = append(c.Missing, g.Name())
		}
		if g.Desc.HasMembers() {
			c.Active = append(c.Active, activeGroup(g.Name(), g.Desc))
		}
		m := make(map[TopicPartition]int64, len(g.Offsets))
		for tp, off := range g.Offsets {
			m[tp] = off.Offset
		}
		c.Live[g.Name()] = m
	}
	// A partition already at its target is no drift: there is nothing to
	// write, and what the plan wants is there. This is what lets an apply
	// that failed part way be re-run: the groups it wrote read "planned
	// from 5, now 1" with 1 the target, and must not make the plan stale
	// for the groups it did not reach.
	byName := make(map[string]*resetplan.Group, len(plan.Groups))
	for i := range plan.Groups {
		if _, dup := byName[plan.Groups[i].Group]; !dup { // a decoded plan has none
			byName[plan.Groups[i].Group] = &plan.Groups[i]
		}
	}
	drift := resetplan.FindDrift(plan, c.Live)
	done := deletedGroups(plan, c.Live)
	c.Drift = slices.DeleteFunc(drift, func(d resetplan.Drift) bool {
		if plan.Strategy.Type.IsDelete() {
			// A delete plan's group is done when every offset it lists
			// is gone; one gone of several was deleted by someone else,
			// and the plan is stale there.
			return done[d.Group]
		}
		return atTarget(byName[d.Group], d)
	})
	if plan.Strategy.Type == resetplan.StrategyDeleteGroup {
		c.Drift = append(c.Drift, gainedPartitions(plan, c.Live)...)
		for _, g := range gs {
			if g.Desc.Exists || len(c.Live[g.Name()]) > 0 {
				c.GroupDeletes = append(c.GroupDeletes, g.Name())
			}
		}
		slices.Sort(c.GroupDeletes)
	}
	if c.Bounds, err = listBounds(ctx, cl, tps, false); err != nil {
		return nil, err
	}
	// Sized once: every partition may be a write, with two offsets.
	c.Pending = make([]PendingWrite, 0, n)
	c.offsets = make([]int64, 0, 2*n)
	for _, g := range plan.Groups {
		live := c.Live[g.Group]
		for _, pt := range g.Partitions {
			c.checkPartition(g.Group, live, pt)
		}
	}
	slices.SortFunc(c.Active, func(a, b ActiveGroup) int { return strings.Compare(a.Group, b.Group) })
	slices.Sort(c.Missing)
	return c, nil
}

// checkPartition records whether pt's target lies in the live log and
// whether apply would write it.
func (c *Check) checkPartition(group string, live map[TopicPartition]int64, pt resetplan.Partition) {
	tp := pt.TP()
	var from *int64
	if v, ok := live[tp]; ok {
		from = c.offset(v)
	}
	target, hasTarget := pt.TargetOffset()
	if hasTarget {
		b := c.Bounds[tp]
		switch {
		case b.Err != nil || b.Start == nil || b.End == nil:
			c.OutOfRange = append(c.OutOfRange, RangeIssue{Group: group, TP: tp, Target: target, Err: b.Err})
		case target < *b.Start || target > *b.End:
			c.OutOfRange = append(c.OutOfRange, RangeIssue{Group: group, TP: tp, Target: target, Start: b.Start, End: b.End})
		}
	}
	switch {
	case hasTarget && (from == nil || *from != target):
		c.Pending = append(c.Pending, PendingWrite{Group: group, TP: tp, From: from, To: c.offset(target)})
	case !hasTarget && from != nil:
		c.Pending = append(c.Pending, PendingWrite{Group: group, TP: tp, From: from})
	}
}

// offset returns a pointer to v from c.offsets, which Preflight sizes for
// every offset it stores: one allocation instead of one per partition.
func (c *Check) offset(v int64) *int64 {
	if len(c.offsets) == cap(c.offsets) {
		return &v
	}
	c.offsets = append(c.offsets, v)
	return &c.offsets[len(c.offsets)-1]
}

// LiveOffset is group's committed offset of tp now; nil when it has none.
func (c *Check) LiveOffset(group string, tp TopicPartition) *int64 {
	if v, ok := c.Live[group][tp]; ok {
		return &v
	}
	return nil
}

// deletedGroups are the groups of a delete plan none of whose listed
// offsets is left: the plan has been applied to them.
func deletedGroups(plan *resetplan.Plan, live resetplan.LiveOffsets) map[string]bool {
	if !plan.Strategy.Type.IsDelete() {
		return nil
	}
	out := map[string]bool{}
	for _, g := range plan.Groups {
		left := false
		for _, pt := range g.Partitions {
			if _, ok := live[g.Group][pt.TP()]; ok {
				left = true
				break
			}
		}
		out[g.Group] = !left
	}
	return out
}

// gainedPartitions are the commits of a delete-group plan's groups on
// partitions the plan does not list: the group committed there since the
// plan was made, and deleting it would lose offsets that neither the plan
// shows nor its rollback restores, so the plan is stale there.
func gainedPartitions(plan *resetplan.Plan, live resetplan.LiveOffsets) []resetplan.Drift {
	var out []resetplan.Drift
	for _, g := range plan.Groups {
		listed := make(map[TopicPartition]bool, len(g.Partitions))
		for _, pt := range g.Partitions {
			listed[pt.TP()] = true
		}
		var gained []TopicPartition
		for tp := range live[g.Group] {
			if !listed[tp] {
				gained = append(gained, tp)
			}
		}
		vocab.SortPartitions(gained)
		for _, tp := range gained {
			v := live[g.Group][tp]
			out = append(out, resetplan.Drift{Group: g.Group, Topic: tp.Topic, Partition: tp.Partition, Live: &v})
		}
	}
	return out
}

// atTarget reports whether the live offset of d equals its plan target
// (or both are "no offset", a rollback's deletion already done).
func atTarget(g *resetplan.Group, d resetplan.Drift) bool {
	if g != nil {
		for _, pt := range g.Partitions {
			if pt.Topic != d.Topic || pt.Partition != d.Partition {
				continue
			}
			target, hasTarget := pt.TargetOffset()
			if !hasTarget {
				return d.Live == nil
			}
			return d.Live != nil && *d.Live == target
		}
	}
	return false
}

package groupops_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// A delete-group plan from PlanDelete lists every committed offset as a
// deletion; Preflight names the groups apply deletes, and a partition a
// group committed on since the plan was made (gained) as drift; Apply
// deletes the groups with DeleteGroups, and the plan then reads as
// applied.
func TestGcovDeleteGroupPlanAppliedAndStale(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 2)
	a, b, gains := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b"), kafkatest.UniqueName(t, "gains")
	e.Commit(t, a, topic, map[int32]int64{0: 3, 1: 4})
	e.Commit(t, b, topic, map[int32]int64{0: 2})
	e.Commit(t, gains, topic, map[int32]int64{0: 1})

	plan, _, err := groupops.PlanDelete(ctx, cl, []string{a, b, gains}, resetplan.StrategyDeleteGroup, nil, "kcg test")
	if err != nil {
		t.Fatal(err)
	}
	if plan.Strategy.Type != resetplan.StrategyDeleteGroup || plan.CreatedBy != "kcg test" || plan.Cluster.ID != gcClusterID(t, ctx, cl) {
		t.Errorf("plan strategy %s, created by %q, cluster %s", plan.Strategy.Type, plan.CreatedBy, plan.Cluster.ID)
	}
	type entry struct {
		group   string
		p       int32
		current int64
	}
	var got []entry
	for _, g := range plan.Groups {
		for _, pt := range g.Partitions {
			if pt.Topic != topic || pt.Current == nil || pt.Target != nil {
				t.Errorf("%s %s/%d: current %v target %v, want a deletion of a commit on %s", g.Group, pt.Topic, pt.Partition, gcOffset(pt.Current), gcOffset(pt.Target), topic)
				continue
			}
			got = append(got, entry{g.Group, pt.Partition, *pt.Current})
		}
	}
	want := []entry{{a, 0, 3}, {a, 1, 4}, {b, 0, 2}, {gains, 0, 1}}
	slices.SortFunc(want, func(x, y entry) int { return strings.Compare(x.group, y.group) })
	if !slices.Equal(got, want) {
		t.Fatalf("plan entries %v, want %v", got, want)
	}

	// gains commits on partition 1 after the plan: deleting it now would
	// lose an offset the plan does not show.
	e.Commit(t, gains, topic, map[int32]int64{0: 1, 1: 5})
	c, err := groupops.Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	wantDeletes := []string{a, b, gains}
	slices.Sort(wantDeletes)
	if !slices.Equal(c.GroupDeletes, wantDeletes) {
		t.Errorf("group deletes %v, want %v", c.GroupDeletes, wantDeletes)
	}
	if len(c.Drift) != 1 || c.Drift[0].Group != gains || c.Drift[0].Topic != topic || c.Drift[0].Partition != 1 ||
		c.Drift[0].Planned != nil || c.Drift[0].Live == nil || *c.Drift[0].Live != 5 {
		t.Fatalf("drift %+v, want %s %s/1 gained at 5", c.Drift, gains, topic)
	}
	if _, err := c.Refusal(false); err == nil || !strings.Contains(err.Error(), "the plan is stale: ") {
		t.Errorf("refusal %v, want the plan stale", err)
	}

	// Without gains, the plan applies: a and b are deleted as groups.
	plan.Groups = slices.DeleteFunc(plan.Groups, func(g resetplan.Group) bool { return g.Group == gains })
	_, res := gcApply(t, ctx, cl, plan)
	if res.FailedAt != -1 || len(res.Groups) != 2 {
		t.Fatalf("apply %+v, want both groups written", res)
	}
	for _, g := range res.Groups {
		if g.Outcome != groupops.Written || g.Err != nil {
			t.Errorf("%s: %s %v, want written", g.Group, g.Outcome, g.Err)
		}
		for _, p := range g.Partitions {
			if p.Outcome != groupops.Written || p.After != nil || p.Before == nil {
				t.Errorf("%s %s: %s, before %v after %v; want written, no offset left", g.Group, p.TP, p.Outcome, gcOffset(p.Before), gcOffset(p.After))
			}
		}
	}
	missing, _, err := groupops.MissingGroups(ctx, cl, []string{a, b, gains})
	if err != nil || !slices.Equal(missing, []string{a, b}) {
		t.Errorf("missing after the apply: %v, %v; want %s and %s", missing, err, a, b)
	}

	// Applied: every offset the plan lists is gone, so no drift, nothing
	// pending, no group to delete.
	c, err = groupops.Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Drift) != 0 || len(c.GroupDeletes) != 0 || !c.AlreadyApplied() || !slices.Equal(c.Missing, []string{a, b}) {
		t.Errorf("after the apply: drift %v, deletes %v, pending %v, missing %v", c.Drift, c.GroupDeletes, c.Pending, c.Missing)
	}
}

// A delete-offsets plan narrowed to the --topic arguments: PlanDelete
// keeps only the partitions they cover; Preflight finds a plan whose
// listed offsets are all gone applied, and one whose offsets were
// partly deleted by someone else stale.
func TestGcovDeleteOffsetsPlan(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic, other := gcTopic(t, e, 2), gcTopic(t, e, 1)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 3, 1: 4})
	e.Commit(t, g, other, map[int32]int64{0: 5})

	plan, _, err := groupops.PlanDelete(ctx, cl, []string{g}, resetplan.StrategyDeleteOffsets, []resetplan.TopicSpec{{Topic: topic, Partitions: []int32{1}}, {Topic: other}}, "kcg test")
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Groups) != 1 {
		t.Fatalf("plan groups %+v", plan.Groups)
	}
	var tps []string
	for _, pt := range plan.Groups[0].Partitions {
		tps = append(tps, pt.TP().String())
		if pt.Target != nil {
			t.Errorf("%s: target %d, want a deletion", pt.TP(), *pt.Target)
		}
	}
	want := []string{topic + "/1", other + "/0"}
	slices.Sort(want)
	if !slices.Equal(tps, want) {
		t.Fatalf("plan partitions %v, want %v", tps, want)
	}

	// Someone deletes one of the two listed offsets: stale there.
	if _, err := groupops.DeleteOffsets(ctx, cl, g, []resetplan.TopicSpec{{Topic: other}}); err != nil {
		t.Fatal(err)
	}
	c, err := groupops.Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Drift) != 1 || c.Drift[0].Topic != other || c.Drift[0].Live != nil {
		t.Errorf("drift %+v, want %s/0 deleted since the plan", c.Drift, other)
	}
	if len(c.GroupDeletes) != 0 {
		t.Errorf("a delete-offsets plan deletes no group: %v", c.GroupDeletes)
	}

	// Both gone: applied, no drift.
	if _, err := groupops.DeleteOffsets(ctx, cl, g, []resetplan.TopicSpec{{Topic: topic, Partitions: []int32{1}}}); err != nil {
		t.Fatal(err)
	}
	c, err = groupops.Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Drift) != 0 || !c.AlreadyApplied() {
		t.Errorf("drift %+v, pending %+v: want the plan applied", c.Drift, c.Pending)
	}
	if left := e.Committed(t, g)[topic]; len(left) != 1 || left[0] != 3 {
		t.Errorf("%s holds %v of %s, want only partition 0 at 3", g, left, topic)
	}
}

// KeepDeletedGroups drops from a delete plan the groups Kafka refused, and
// keeps those deleted or of unknown outcome.
func TestGcovKeepDeletedGroups(t *testing.T) {
	plan := &resetplan.Plan{Groups: []resetplan.Group{{Group: "deleted"}, {Group: "refused"}, {Group: "unknown"}, {Group: "missing"}}}
	res := []groupops.GroupDeletion{
		{Group: "deleted"},
		{Group: "refused", Err: errors.New("the group is not empty")},
		{Group: "unknown", Err: errors.Join(groupops.ErrOutcomeUnknown, errors.New("i/o timeout"))},
		{Group: "missing", Err: vocab.ErrGroupNotFound},
	}
	if !groupops.KeepDeletedGroups(plan, res) {
		t.Error("KeepDeletedGroups reports nothing dropped")
	}
	var names []string
	for _, g := range plan.Groups {
		names = append(names, g.Group)
	}
	if !slices.Equal(names, []string{"deleted", "unknown"}) {
		t.Errorf("kept %v, want deleted and unknown", names)
	}
	if groupops.KeepDeletedGroups(plan, res[:1]) {
		t.Error("nothing refused, yet KeepDeletedGroups reports a group dropped")
	}
}

// KeepDeletedOffsets drops the partitions whose OffsetDelete failed, all
// of the group's when it was refused as a whole, and leaves other groups
// alone.
func TestGcovKeepDeletedOffsets(t *testing.T) {
	part := func(topic string, p int32) resetplan.Partition {
		return resetplan.Partition{Topic: topic, Partition: p}
	}
	mk := func() *resetplan.Plan {
		return &resetplan.Plan{Groups: []resetplan.Group{
			{Group: "g", Partitions: []resetplan.Partition{part("t", 0), part("t", 1), part("u", 0)}},
			{Group: "other", Partitions: []resetplan.Partition{part("t", 1)}},
		}}
	}
	p0, p1 := int32(0), int32(1)
	tps := func(plan *resetplan.Plan) []string {
		var out []string
		for _, g := range plan.Groups {
			for _, pt := range g.Partitions {
				out = append(out, g.Group+" "+pt.TP().String())
			}
		}
		return out
	}
	cases := []struct {
		name    string
		r       groupops.OffsetDeletion
		dropped bool
		left    []string
	}{
		{
			name: "all deleted",
			r:    groupops.OffsetDeletion{Group: "g", Partitions: []groupops.PartitionDeletion{{Topic: "t", Partition: &p0}, {Topic: "t", Partition: &p1}, {Topic: "u", Partition: &p0}}},
			left: []string{"g t/0", "g t/1", "g u/0", "other t/1"},
		},
		{
			name:    "one partition refused, and a topic that does not exist",
			r:       groupops.OffsetDeletion{Group: "g", Partitions: []groupops.PartitionDeletion{{Topic: "t", Partition: &p1, Err: errors.New("the group is subscribed to the topic")}, {Topic: "nosuch", Err: errors.New("topic does not exist")}}},
			dropped: true,
			left:    []string{"g t/0", "g u/0", "other t/1"},
		},
		{
			name:    "the group refused",
			r:       groupops.OffsetDeletion{Group: "g", GroupErr: vocab.ErrGroupNotFound},
			dropped: true,
			left:    []string{"other t/1"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := mk()
			if dropped := groupops.KeepDeletedOffsets(plan, tc.r); dropped != tc.dropped {
				t.Errorf("dropped %v, want %v", dropped, tc.dropped)
			}
			if got := tps(plan); !slices.Equal(got, tc.left) {
				t.Errorf("left %v, want %v", got, tc.left)
			}
		})
	}
}

package groupops

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

// fakeFamily is a group family of the test's own: its groups and their
// positions live in memory, and it records every write and read. Only
// the orchestration (Describe, ReadForPlan's entry into a plan,
// Preflight, Apply) reaches it, through the registry, as it reaches the
// consumer, share and streams families.
type fakeFamily struct {
	mu      sync.Mutex
	busy    map[string]int // members per group
	offsets map[string]map[TopicPartition]int64
	writes  []string // "group t/p=offset" of every write, in order
	reads   int
}

const familyFake Family = "fake"

func (*fakeFamily) types() []string { return []string{string(familyFake)} }
func (*fakeFamily) batch() Family   { return familyFake }

func (f *fakeFamily) read(_ context.Context, _ *kafkaadmin.Client, ids []string) ([]Group, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	out := make([]Group, len(ids))
	for i, id := range ids {
		g := Group{Family: familyFake, Desc: kafkaadmin.GroupDescription{Group: id, Type: string(familyFake), State: "Empty"}, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}}
		if offs, ok := f.offsets[id]; ok {
			g.Desc.Exists = true
			for tp, o := range offs {
				g.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: o}
			}
		}
		for range f.busy[id] {
			g.Desc.State = "Stable"
			g.Desc.Members = append(g.Desc.Members, kafkaadmin.Member{MemberID: "m"})
		}
		out[i] = g
	}
	return out, nil
}

func (f *fakeFamily) members(ctx context.Context, cl *kafkaadmin.Client, ids []string) ([]kafkaadmin.GroupDescription, error) {
	gs, err := f.read(ctx, cl, ids)
	out := make([]kafkaadmin.GroupDescription, len(gs))
	for i, g := range gs {
		out[i] = g.Desc
	}
	return out, err
}

func (*fakeFamily) planEntry(g Group) (resetplan.GroupSnapshot, error) {
	snap := resetplan.GroupSnapshot{Group: g.Name(), Type: g.Desc.Type, State: g.Desc.State, Members: len(g.Desc.Members), Committed: map[TopicPartition]int64{}}
	for tp, o := range g.Offsets {
		snap.Committed[tp] = o.Offset
	}
	return snap, nil
}

func (*fakeFamily) refuseStrategy(string, resetplan.StrategyType) error  { return nil }
func (*fakeFamily) refusePartitions(string, []resetplan.TopicSpec) error { return nil }

func (f *fakeFamily) write(_ context.Context, _ *kafkaadmin.Client, _ *Check, group string, commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) (map[TopicPartition]error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.offsets[group] == nil {
		f.offsets[group] = map[TopicPartition]int64{}
	}
	for _, w := range commits {
		f.offsets[group][w.TopicPartition] = w.Offset
		f.writes = append(f.writes, group+" "+w.TopicPartition.String()+"="+strconv.FormatInt(w.Offset, 10))
	}
	for _, tp := range deletes {
		delete(f.offsets[group], tp)
		f.writes = append(f.writes, group+" "+tp.String()+" deleted")
	}
	return map[TopicPartition]error{}, nil
}

func (f *fakeFamily) readBack(_ context.Context, _ *kafkaadmin.Client, groups []string) ([]kafkaadmin.GroupOffsets, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []kafkaadmin.GroupOffsets
	for _, g := range groups {
		o := kafkaadmin.GroupOffsets{Group: g, Offsets: map[TopicPartition]kafkaadmin.CommittedOffset{}}
		for tp, v := range f.offsets[g] {
			o.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: v}
		}
		out = append(out, o)
	}
	return out, nil
}

func (*fakeFamily) deleteOffsets(_ context.Context, _ *kafkaadmin.Client, group string, _ []resetplan.TopicSpec) (OffsetDeletion, error) {
	return OffsetDeletion{Group: group}, nil
}
func (*fakeFamily) available(context.Context, *kafkaadmin.Client) (bool, error) { return true, nil }
func (*fakeFamily) unavailable() error                                          { return nil }
func (*fakeFamily) note() string                                                { return "" }
func (*fakeFamily) commits() bool                                               { return false }
func (*fakeFamily) tool() string                                                { return "" }
func (*fakeFamily) missing() error                                              { return nil }
func (*fakeFamily) list(context.Context, *kafkaadmin.Client, kafkaadmin.ListGroupsOptions) ([]kafkaadmin.GroupListing, error) {
	return nil, nil
}
func (*fakeFamily) foreign(kafkaadmin.GroupListing) error { return nil }
func (*fakeFamily) watchIn(s *Snapshot, g *Group, tp TopicPartition) partitionIn {
	return consumerFamily{}.watchIn(s, g, tp)
}

// registerFake adds f to the registry for the test.
func registerFake(t *testing.T, f *fakeFamily) {
	t.Helper()
	families[familyFake] = f
	t.Cleanup(func() { delete(families, familyFake) })
}

// Describe, Preflight, WaitEmpty and Apply run over any registered family: a fake
// one's groups are read by its read (positions, members), planned by its
// planEntry, checked against its live positions, written by its write and
// read back by its readBack; the cluster answers only what is no
// family's (its id, the log bounds).
func TestOrchestrationOverAFakeFamily(t *testing.T) {
	e := kafkatest.Fake(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 2)
	tp0, tp1 := TopicPartition{Topic: topic, Partition: 0}, TopicPartition{Topic: topic, Partition: 1}
	idle, busy := kafkatest.UniqueName(t, "idle"), kafkatest.UniqueName(t, "busy")
	f := &fakeFamily{busy: map[string]int{busy: 2}, offsets: map[string]map[TopicPartition]int64{
		idle: {tp0: 5, tp1: 4},
		busy: {tp0: 1},
	}}
	registerFake(t, f)
	if FamilyOf("FAKE") != familyFake || !Handles(familyFake, OpApply) {
		t.Fatalf("the registry does not know the fake family: %s", FamilyOf("fake"))
	}

	// Describe: the fake's groups and positions, the cluster's bounds.
	snap, err := DescribeTyped(ctx, cl, TypedAs(familyFake, []string{idle, busy}), DescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != 2 || snap.Groups[0].Name() != idle || snap.Groups[1].Name() != busy || f.reads != 1 {
		t.Fatalf("described %+v in %d reads, want %s and %s in one", snap.Groups, f.reads, idle, busy)
	}
	if g := snap.Groups[0]; g.Family != familyFake || g.Offsets[tp0].Offset != 5 || g.Offsets[tp1].Offset != 4 || g.Commits() {
		t.Errorf("%s: %+v, want the fake's offsets 5 and 4", idle, g)
	}
	if b := snap.Bounds[tp1]; b.End == nil || *b.End != 6 || b.Start == nil || *b.Start != 0 {
		t.Errorf("bounds of %s: %+v, want [0, 6]", tp1, b)
	}
	if len(snap.Groups[1].Desc.Members) != 2 {
		t.Errorf("%s: %d members, want the fake's 2", busy, len(snap.Groups[1].Desc.Members))
	}

	// A plan to offset 2 from what the fake read: entries of its type.
	snaps, err := planInputs(slices.Clone(snap.Groups[:1]))
	if err != nil {
		t.Fatal(err)
	}
	info, err := cl.Cluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	two := int64(2)
	plan, _, err := BuildPlan(ctx, cl, info, snaps, PlanRequest{Scope: resetplan.Scope{AllTopics: true}, Strategy: resetplan.StrategySpec{Type: resetplan.StrategyToOffset, Offset: two}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Groups) != 1 || plan.Groups[0].Type != string(familyFake) || len(plan.Groups[0].Partitions) != 2 || *plan.Groups[0].Partitions[0].Current != 5 {
		t.Fatalf("plan %+v, want %s (type fake) from 5 and 4 to 2", plan.Groups, idle)
	}

	// Preflight: the live positions are the fake's.
	c, err := Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Ready() || len(c.Pending) != 2 || *c.Pending[0].From != 5 || *c.Pending[1].From != 4 || !maps.Equal(c.Live[idle], f.offsets[idle]) {
		t.Fatalf("check: ready %v, pending %+v, live %v; want two writes from the fake's 5 and 4", c.Ready(), c.Pending, c.Live)
	}
	// Something moves the fake's offset: the plan is stale.
	f.mu.Lock()
	f.offsets[idle][tp1] = 3
	f.mu.Unlock()
	if c, err = Preflight(ctx, cl, plan); err != nil || len(c.Drift) != 1 || *c.Drift[0].Live != 3 {
		t.Fatalf("after the fake moved: drift %v, %v; want %s/1 now 3", c.Drift, err, topic)
	}
	f.mu.Lock()
	f.offsets[idle][tp1] = 4
	f.mu.Unlock()
	// A plan for the busy group: refused for its members, as the fake
	// reads them.
	busyPlan := &resetplan.Plan{Cluster: plan.Cluster, Groups: []resetplan.Group{{Group: busy, Type: string(familyFake), Partitions: []resetplan.Partition{planPart(topic, 0, ptr(1), ptr(2))}}}}
	if bc, err := Preflight(ctx, cl, busyPlan); err != nil || len(bc.Active) != 1 || bc.Active[0].Members != 2 {
		t.Errorf("busy: active %+v, %v; want %s with the fake's 2 members", bc.Active, err, busy)
	}

	// WaitEmpty polls the members as the fake describes them.
	wait := WaitOptions{Plan: busyPlan, Until: time.Now().Add(300 * time.Millisecond), Interval: 50 * time.Millisecond}
	if err := WaitEmpty(ctx, cl, []string{busy}, wait); !errors.As(err, new(*StillActiveError)) {
		t.Errorf("wait for %s with the fake's 2 members: %v, want still active", busy, err)
	}
	f.mu.Lock()
	f.busy[busy] = 0
	f.mu.Unlock()
	wait.Until = time.Now().Add(time.Second)
	if err := WaitEmpty(ctx, cl, []string{busy}, wait); err != nil {
		t.Errorf("wait for %s without members: %v", busy, err)
	}

	// Apply: the fake's write, then its read-back.
	if c, err = Preflight(ctx, cl, plan); err != nil {
		t.Fatal(err)
	}
	res := Apply(ctx, cl, c, ApplyOptions{})
	want := []string{idle + " " + tp0.String() + "=2", idle + " " + tp1.String() + "=2"}
	slices.Sort(f.writes)
	if !slices.Equal(f.writes, want) {
		t.Errorf("writes %q, want %q", f.writes, want)
	}
	if res.FailedAt != -1 || len(res.Groups) != 1 || res.Groups[0].Outcome != Written {
		t.Fatalf("apply: %+v, want %s written", res, idle)
	}
	for _, p := range res.Groups[0].Partitions {
		if p.Outcome != Written || p.After == nil || *p.After != 2 {
			t.Errorf("%s: %s, after %v; want written, read back at 2", p.TP, p.Outcome, p.After)
		}
	}
	// Applied: the fake now reads the targets, and nothing is pending.
	if c, err = Preflight(ctx, cl, plan); err != nil || !c.AlreadyApplied() {
		t.Errorf("after apply: pending %+v, %v; want already applied", c.Pending, err)
	}
}

// TestManagedTypesComeFromTheRegistry: the --type lists are the
// registered families' types (consumer's first), so a family registered
// in its own file is offered by `kcg list --type` and `plan --all-groups
// --type` without another edit.
func TestManagedTypesComeFromTheRegistry(t *testing.T) {
	want := []string{"classic", "consumer", "share", "streams"}
	if got := ManagedTypes(); !slices.Equal(got, want) {
		t.Fatalf("ManagedTypes() = %v, want %v", got, want)
	}
	registerFake(t, &fakeFamily{})
	got := ManagedTypes()
	if !slices.Contains(got, "fake") || !slices.Equal(got[:2], want[:2]) {
		t.Fatalf("with a fake family registered, ManagedTypes() = %v: want its type too, consumer's first", got)
	}
	if _, err := ParseListTypes("fake"); err != nil {
		t.Fatalf("ParseListTypes(fake) with the fake family registered: %v", err)
	}
}

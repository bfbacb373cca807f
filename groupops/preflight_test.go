package groupops

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// testClient is an admin client of e's cluster and a context for one
// test's requests.
func testClient(t *testing.T, e *kafkatest.Env) (*kafkaadmin.Client, context.Context) {
	t.Helper()
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{e.Bootstrap}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return cl, ctx
}

// sixRecords makes topic with n partitions, each holding offsets 0..5.
func sixRecords(t *testing.T, e *kafkatest.Env, topic string, n int) {
	t.Helper()
	e.CreateTopic(t, topic, n)
	for p := range n {
		e.Produce(t, topic, p, kafkatest.Record{Value: "0"}, kafkatest.Record{Value: "1"}, kafkatest.Record{Value: "2"},
			kafkatest.Record{Value: "3"}, kafkatest.Record{Value: "4"}, kafkatest.Record{Value: "5"})
	}
}

// planPart is one partition of a plan made by hand: current (nil: no
// commit at plan time) and target (nil: delete the offset).
func planPart(topic string, p int32, current, target *int64) resetplan.Partition {
	return resetplan.Partition{Topic: topic, Partition: p, Current: current, Target: target, LogEnd: 6, Reason: resetplan.Reason("resolved")}
}

// Preflight against the live groups: what it finds of each kind of group
// the plan names, and nothing it must not.
func TestPreflight(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 2)
	name := func(s string) string { return kafkatest.UniqueName(t, s) }
	idle, moved, done, fresh, far, busy := name("idle"), name("moved"), name("done"), name("fresh"), name("far"), name("busy")
	e.Commit(t, idle, topic, map[int32]int64{0: 5, 1: 3})
	e.Commit(t, moved, topic, map[int32]int64{0: 4})
	e.Commit(t, done, topic, map[int32]int64{0: 2})
	e.Commit(t, far, topic, map[int32]int64{0: 1})
	e.Commit(t, busy, topic, map[int32]int64{0: 1})
	e.ClassicMember(t, busy, topic)
	info, err := cl.Cluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plan := &resetplan.Plan{Cluster: resetplan.Cluster{ID: info.ClusterID}, Groups: []resetplan.Group{
		// t/1 is at its target already: no write.
		{Group: idle, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(5), ptr(2)), planPart(topic, 1, ptr(3), ptr(3))}},
		// Committed 4 since it was planned from 1: drift.
		{Group: moved, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(1), ptr(2))}},
		// Moved, but to the target (an apply that stopped part way): no drift.
		{Group: done, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(5), ptr(2))}},
		{Group: fresh, Partitions: []resetplan.Partition{planPart(topic, 0, nil, ptr(1))}},
		{Group: far, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(1), ptr(99))}},
		{Group: busy, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(1), ptr(0))}},
	}}
	c, err := Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if c.ClusterID != info.ClusterID || c.ClusterMismatch || c.Plan != plan {
		t.Errorf("cluster %s (mismatch %v), want %s", c.ClusterID, c.ClusterMismatch, info.ClusterID)
	}
	if len(c.Active) != 1 || c.Active[0].Group != busy || c.Active[0].Members != 1 || c.Active[0].State != "Stable" {
		t.Errorf("active %+v, want %s with one member, Stable", c.Active, busy)
	}
	if !slices.Equal(c.Missing, []string{fresh}) {
		t.Errorf("missing %v, want [%s]", c.Missing, fresh)
	}
	if len(c.Drift) != 1 || c.Drift[0].Group != moved || *c.Drift[0].Live != 4 || *c.Drift[0].Planned != 1 {
		t.Errorf("drift %v, want %s only, planned from 1, now 4", c.Drift, moved)
	}
	if len(c.OutOfRange) != 1 {
		t.Fatalf("out of range %v, want %s's target 99", c.OutOfRange, far)
	}
	if r := c.OutOfRange[0]; r.Group != far || r.Target != 99 || r.Start == nil || *r.Start != 0 || r.End == nil || *r.End != 6 {
		t.Errorf("out of range %s", r)
	}
	tp0 := TopicPartition{Topic: topic, Partition: 0}
	if b := c.Bounds[tp0]; b.Start == nil || *b.Start != 0 || b.End == nil || *b.End != 6 {
		t.Errorf("bounds of %s: %+v", tp0, b)
	}
	if got := c.LiveOffset(idle, TopicPartition{Topic: topic, Partition: 1}); got == nil || *got != 3 {
		t.Errorf("live offset of %s t/1 = %v, want 3", idle, got)
	}
	if got := c.LiveOffset(fresh, tp0); got != nil {
		t.Errorf("live offset of %s = %d, want none", fresh, *got)
	}
	type write struct {
		group    string
		p        int32
		from, to *int64
	}
	var pending []write
	for _, w := range c.Pending {
		pending = append(pending, write{w.Group, w.TP.Partition, w.From, w.To})
	}
	want := []write{{idle, 0, ptr(5), ptr(2)}, {moved, 0, ptr(4), ptr(2)}, {fresh, 0, nil, ptr(1)}, {far, 0, ptr(1), ptr(99)}, {busy, 0, ptr(1), ptr(0)}}
	if !slices.EqualFunc(pending, want, func(a, b write) bool {
		return a.group == b.group && a.p == b.p && sameOffset(a.from, b.from) && sameOffset(a.to, b.to)
	}) {
		t.Errorf("pending %+v, want %+v", pending, want)
	}
	if c.Ready() || c.AlreadyApplied() {
		t.Errorf("ready %v, already applied %v: want neither", c.Ready(), c.AlreadyApplied())
	}
	if _, err := c.Refusal(true); !errors.As(err, new(*RefusedError)) {
		t.Errorf("refusal with --force: %v, want the active group and the target out of range", err)
	}

	// Another cluster's plan: a mismatch, and an empty plan reads nothing.
	other := &resetplan.Plan{Cluster: resetplan.Cluster{ID: "another-cluster"}}
	c, err = Preflight(ctx, cl, other)
	if err != nil || !c.ClusterMismatch || c.AlreadyApplied() || len(c.Pending) != 0 {
		t.Errorf("another cluster's empty plan: %+v, %v", c, err)
	}
}

// Apply on the live cluster: every write of a checked plan committed, a
// rollback's deletion done, read back and reported; the same plan is then
// already applied.
func TestApplyWritesAndReadsBack(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 2)
	a, b, empty := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b"), kafkatest.UniqueName(t, "empty")
	e.Commit(t, a, topic, map[int32]int64{0: 5, 1: 5})
	e.Commit(t, b, topic, map[int32]int64{0: 1})
	info, err := cl.Cluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plan := &resetplan.Plan{Cluster: resetplan.Cluster{ID: info.ClusterID}, Groups: []resetplan.Group{
		{Group: a, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(5), ptr(2)), planPart(topic, 1, ptr(5), nil)}},
		{Group: b, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(1), ptr(6))}},
		{Group: empty},
	}}
	c, err := Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Refusal(false); err != nil {
		t.Fatal(err)
	}
	var sent []string
	var progress [][2]int
	var mu sync.Mutex
	readingBack := -1
	res := Apply(ctx, cl, c, ApplyOptions{
		Metadata:        `{"by":"test"}`,
		SkipEmptyGroups: true,
		BeforeGroup:     func(g string) { sent = append(sent, g) },
		Progress: func(n, total int) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, [2]int{n, total})
		},
		ReadingBack: func(n int) { readingBack = n },
	})
	if !slices.Equal(sent, []string{a, b}) || readingBack != 2 || len(progress) != 2 || progress[1] != [2]int{2, 2} {
		t.Errorf("started %v, progress %v, read back %d: want %s and %s, 2 of 2", sent, progress, readingBack, a, b)
	}
	if res.FailedAt != -1 || res.Interrupted || len(res.Groups) != 2 {
		t.Fatalf("result %+v, want two groups written", res)
	}
	for _, g := range res.Groups {
		if g.Outcome != Written || g.Err != nil {
			t.Errorf("%s: %s %v, want written", g.Group, g.Outcome, g.Err)
		}
	}
	pa := res.Groups[0].Partitions
	if len(pa) != 2 || pa[0].Outcome != Written || *pa[0].Before != 5 || *pa[0].After != 2 || pa[1].Outcome != Written || pa[1].After != nil {
		t.Errorf("%s: %+v, want t/0 5 → 2 and t/1's offset deleted", a, pa)
	}
	if got := e.Committed(t, a)[topic]; len(got) != 1 || got[0] != 2 {
		t.Errorf("%s holds %v, want only t/0 at 2", a, got)
	}
	if got := e.Committed(t, b)[topic]; got[0] != 6 {
		t.Errorf("%s holds %v, want t/0 at 6", b, got)
	}
	if v := res.Verdict(); v.Status != StatusApplied || len(v.Written) != 2 || v.Failed != nil {
		t.Errorf("verdict %+v, want applied", v)
	}

	c, err = Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !c.AlreadyApplied() {
		t.Fatalf("after the apply, pending %+v", c.Pending)
	}
	un := c.Unchanged()
	if v := un.Verdict(); v.Status != StatusAlreadyApplied || len(un.Groups) != 3 || un.Groups[0].Partitions[0].Outcome != Unchanged || *un.Groups[0].Partitions[0].After != 2 {
		t.Errorf("unchanged %+v, verdict %+v", un, v)
	}
}

// An apply stopped before it started writes nothing and says why of every
// group.
func TestApplyStoppedWritesNothing(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 1)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 5})
	info, err := cl.Cluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plan := &resetplan.Plan{Cluster: resetplan.Cluster{ID: info.ClusterID}, Groups: []resetplan.Group{
		{Group: g, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(5), ptr(0))}},
	}}
	c, err := Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	close(stop)
	res := Apply(ctx, cl, c, ApplyOptions{Stop: stop})
	if !res.Interrupted || res.FailedAt != 0 || res.Groups[0].Outcome != NotWritten || res.Groups[0].Err.Error() != whyInterrupted {
		t.Fatalf("result %+v, want interrupted before %s", res, g)
	}
	if p := res.Groups[0].Partitions[0]; p.Outcome != NotWritten || *p.Before != 5 || *p.After != 5 {
		t.Errorf("partition %+v, want not written, still 5", p)
	}
	if got := e.Committed(t, g)[topic][0]; got != 5 {
		t.Errorf("%s at %d, want 5", g, got)
	}
	if v := res.Verdict(); !v.Interrupted || v.Status != StatusFailed || !slices.Equal(v.NotWritten, []string{g}) {
		t.Errorf("verdict %+v", v)
	}
}

// A group the coordinator refuses for its members (they joined after the
// preflight) fails the apply: the group in flight with it finishes, no
// other starts, and the verdict names the refusal.
func TestApplyStopsAfterRefusedGroup(t *testing.T) {
	// kfake on both tiers: the refusal is injected.
	e := kafkatest.Fake(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 1)
	bad, next, last := kafkatest.UniqueName(t, "bad"), kafkatest.UniqueName(t, "next"), kafkatest.UniqueName(t, "last")
	for _, g := range []string{bad, next, last} {
		e.Commit(t, g, topic, map[int32]int64{0: 5})
	}
	info, err := cl.Cluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var groups []resetplan.Group
	for _, g := range []string{bad, next, last} {
		groups = append(groups, resetplan.Group{Group: g, Partitions: []resetplan.Partition{planPart(topic, 0, ptr(5), ptr(3))}})
	}
	plan := &resetplan.Plan{Cluster: resetplan.Cluster{ID: info.ClusterID}, Groups: groups}
	c, err := Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	// The control answers bad's one commit and is then dropped; it lets
	// every other commit through.
	e.Kfake.ControlKey(int16(kmsg.OffsetCommit), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		req := kr.(*kmsg.OffsetCommitRequest)
		if req.Group != bad {
			e.Kfake.KeepControl()
			return nil, nil, false
		}
		resp := req.ResponseKind().(*kmsg.OffsetCommitResponse)
		for _, rt := range req.Topics {
			st := kmsg.NewOffsetCommitResponseTopic()
			st.Topic = rt.Topic
			for _, rp := range rt.Partitions {
				sp := kmsg.NewOffsetCommitResponseTopicPartition()
				sp.Partition = rp.Partition
				sp.ErrorCode = kerr.UnknownMemberID.Code
				st.Partitions = append(st.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, st)
		}
		return resp, nil, true
	})
	// next starts only once bad's answer is in (Progress follows it), so
	// last is the one group that never starts.
	badDone := make(chan struct{})
	var once sync.Once
	res := Apply(ctx, cl, c, ApplyOptions{
		BeforeGroup: func(g string) {
			if g == next {
				select {
				case <-badDone:
				case <-time.After(30 * time.Second):
					t.Error("bad's commit never answered")
				}
			}
		},
		Progress: func(int, int) { once.Do(func() { close(badDone) }) },
	})
	if res.FailedAt != 0 || res.Interrupted || len(res.Groups) != 3 {
		t.Fatalf("result %+v, want failed at %s", res, bad)
	}
	outcomes := []Outcome{res.Groups[0].Outcome, res.Groups[1].Outcome, res.Groups[2].Outcome}
	if !slices.Equal(outcomes, []Outcome{NotWritten, Written, NotWritten}) {
		t.Errorf("outcomes %v, want bad not written, next written, last not started", outcomes)
	}
	if err := res.Groups[2].Err; err == nil || err.Error() != whyStoppedAfterFailure {
		t.Errorf("last: %v, want %q", err, whyStoppedAfterFailure)
	}
	v := res.Verdict()
	if v.Status != StatusPartial || v.Failed == nil || v.Failed.Group != bad || !v.GroupActive ||
		len(v.Written) != 1 || v.Written[0].Group != next || !slices.Equal(v.NotWritten, []string{bad, last}) {
		t.Errorf("verdict %+v", v)
	}
	if got := e.Committed(t, bad)[topic][0]; got != 5 {
		t.Errorf("%s at %d, want 5", bad, got)
	}
}

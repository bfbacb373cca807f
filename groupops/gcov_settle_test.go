package groupops_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// Settle after an apply: a consumer that commits without joining the group
// (assign() and commitSync) puts its position back on one partition; the
// watch marks that partition and its group overwritten, with what it read
// and when, moves FailedAt to that group, and leaves the quiet group and
// partition written. With a partition still at its target the watch runs
// its whole time.
func TestGcovSettleSeesAnOverwrite(t *testing.T) {
	t.Parallel() // seconds of waiting, its own groups
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 2)
	quiet, noisy := kafkatest.UniqueName(t, "quiet"), kafkatest.UniqueName(t, "noisy")
	e.Commit(t, quiet, topic, map[int32]int64{0: 5})
	e.Commit(t, noisy, topic, map[int32]int64{0: 5, 1: 5})
	plan := gcPlan(gcClusterID(t, ctx, cl),
		gcGroup(quiet, topic, [2]*int64{gcPtr(5), gcPtr(1)}),
		gcGroup(noisy, topic, [2]*int64{gcPtr(5), gcPtr(2)}, [2]*int64{gcPtr(5), gcPtr(3)}))
	c, res := gcApply(t, ctx, cl, plan)
	if res.FailedAt != -1 {
		t.Fatalf("apply %+v, want every group written", res)
	}
	e.AssignCommitter(t, noisy, topic, map[int32]int64{0: 5}, 50*time.Millisecond)

	const watch = 1500 * time.Millisecond
	out := groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{For: watch, Interval: 50 * time.Millisecond})
	if out.Stopped || out.Watched != watch {
		t.Errorf("settle %+v, want the whole %v watched", out, watch)
	}
	if res.FailedAt != 1 {
		t.Errorf("failed at %d, want 1 (%s)", res.FailedAt, noisy)
	}
	if g := res.Groups[0]; g.Outcome != groupops.Written || g.Err != nil || g.Partitions[0].Outcome != groupops.Written {
		t.Errorf("%s: %s %v, want written", g.Group, g.Outcome, g.Err)
	}
	g := res.Groups[1]
	wantErr := "overwritten after the write: " + topic + "/0 now 5 (target 2): the group has no members, so something commits to it without joining it (a consumer using assign(), a stream processor); stop it, then apply again"
	if g.Outcome != groupops.Overwritten || g.Err == nil || g.Err.Error() != wantErr {
		t.Errorf("%s: %s %v, want overwritten: %q", g.Group, g.Outcome, g.Err, wantErr)
	}
	p0, p1 := g.Partitions[0], g.Partitions[1]
	if p0.Outcome != groupops.Overwritten || p0.After == nil || *p0.After != 5 || !strings.HasSuffix(p0.Error, " after the write it reads 5, not the target 2") {
		t.Errorf("%s/0: %s after %v %q, want overwritten, reading 5", topic, p0.Outcome, gcOffset(p0.After), p0.Error)
	}
	if p1.Outcome != groupops.Written || p1.Error != "" || *p1.After != 3 {
		t.Errorf("%s/1: %s after %v %q, want written at 3", topic, p1.Outcome, gcOffset(p1.After), p1.Error)
	}
	if v := res.Verdict(); v.Status == groupops.StatusApplied {
		t.Errorf("verdict %+v: an overwritten group is not applied", v)
	}
}

// Once every watched partition is overwritten there is nothing left to
// watch: Settle returns before its time.
func TestGcovSettleEndsWhenAllOverwritten(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 1)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 5})
	c, res := gcApply(t, ctx, cl, gcPlan(gcClusterID(t, ctx, cl), gcGroup(g, topic, [2]*int64{gcPtr(5), gcPtr(0)})))
	e.AssignCommitter(t, g, topic, map[int32]int64{0: 4}, 50*time.Millisecond)
	const watch = time.Minute
	out := groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{For: watch})
	if out.Watched >= watch || out.Stopped {
		t.Errorf("settle %+v, want it ended early", out)
	}
	if res.FailedAt != 0 || res.Groups[0].Outcome != groupops.Overwritten || *res.Groups[0].Partitions[0].After != 4 {
		t.Errorf("result %+v, want %s overwritten to 4", res, g)
	}
}

// A watch of no time reads nothing; a watch stopped (Ctrl-C) says so; a
// quiet watch leaves the result as the apply made it.
func TestGcovSettleQuietStoppedOrOff(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 1)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 5})
	c, res := gcApply(t, ctx, cl, gcPlan(gcClusterID(t, ctx, cl), gcGroup(g, topic, [2]*int64{gcPtr(5), gcPtr(1)})))
	written := func(what string) {
		t.Helper()
		if res.FailedAt != -1 || res.Groups[0].Outcome != groupops.Written || res.Groups[0].Partitions[0].Outcome != groupops.Written {
			t.Errorf("%s: result %+v, want still written", what, res)
		}
	}

	if out := groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{}); out != (groupops.SettleResult{}) {
		t.Errorf("no watch: %+v", out)
	}
	written("no watch")

	stop := make(chan struct{})
	close(stop)
	if out := groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{For: time.Minute, Stop: stop}); !out.Stopped || out.Watched >= time.Minute {
		t.Errorf("stopped watch: %+v, want stopped early", out)
	}
	written("stopped watch")

	// The default interval: a fifth of a short watch.
	const watch = 300 * time.Millisecond
	if out := groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{For: watch}); out.Stopped || out.Watched != watch {
		t.Errorf("quiet watch: %+v, want %v watched", out, watch)
	}
	written("quiet watch")

	// Nothing written, nothing watched.
	res.Groups[0].Outcome = groupops.NotWritten
	if out := groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{For: time.Minute}); out != (groupops.SettleResult{}) {
		t.Errorf("nothing written: %+v, want no watch", out)
	}
}

// An apply that failed on a later group: an overwrite Settle sees on an
// earlier one moves FailedAt back to it, the first failure in plan order.
func TestGcovSettleMovesFailedAtBack(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 1)
	first, later := kafkatest.UniqueName(t, "first"), kafkatest.UniqueName(t, "later")
	e.Commit(t, first, topic, map[int32]int64{0: 5})
	e.Commit(t, later, topic, map[int32]int64{0: 5})
	c, res := gcApply(t, ctx, cl, gcPlan(gcClusterID(t, ctx, cl),
		gcGroup(first, topic, [2]*int64{gcPtr(5), gcPtr(1)}),
		gcGroup(later, topic, [2]*int64{gcPtr(5), gcPtr(2)})))
	// As if later's write had been refused.
	res.Groups[1].Outcome, res.FailedAt = groupops.NotWritten, 1
	e.AssignCommitter(t, first, topic, map[int32]int64{0: 5}, 50*time.Millisecond)
	groupops.Settle(ctx, cl, c, &res, groupops.SettleOptions{For: 20 * time.Second})
	if res.FailedAt != 0 || res.Groups[0].Outcome != groupops.Overwritten || res.Groups[1].Outcome != groupops.NotWritten {
		t.Errorf("failed at %d, outcomes %s and %s; want failed at 0 (%s overwritten)", res.FailedAt, res.Groups[0].Outcome, res.Groups[1].Outcome, first)
	}
}

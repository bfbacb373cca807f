package groupops_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/resetplan"
)

// WaitEmpty on the live cluster: groups without members end the wait at
// once; a member that stays makes it a *StillActiveError at its end, after
// telling Progress; a member that leaves ends it; Ctrl-C (the context
// cancelled) is the context's error.
func TestGcovWaitEmpty(t *testing.T) {
	t.Parallel() // seconds of waiting, its own groups
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 1)
	idle, busy := kafkatest.UniqueName(t, "idle"), kafkatest.UniqueName(t, "busy")
	e.Commit(t, idle, topic, map[int32]int64{0: 1})
	m := e.ClassicMember(t, busy, topic)

	start := time.Now()
	if err := groupops.WaitEmpty(ctx, cl, []string{idle}, groupops.WaitOptions{Until: time.Now().Add(time.Minute)}); err != nil {
		t.Errorf("a group without members: %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("an empty group took %v, want no wait", took)
	}

	var mu sync.Mutex
	var told [][]groupops.ActiveGroup
	err := groupops.WaitEmpty(ctx, cl, []string{idle, busy}, groupops.WaitOptions{
		Until:    time.Now().Add(1500 * time.Millisecond),
		Interval: 200 * time.Millisecond,
		Progress: func(active []groupops.ActiveGroup, left time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			if left <= 0 || left > 1500*time.Millisecond {
				t.Errorf("progress: %v left", left)
			}
			told = append(told, active)
		},
	})
	var still *groupops.StillActiveError
	if !errors.As(err, &still) || len(still.Active) != 1 || still.Active[0].Group != busy || still.Active[0].Members != 1 || still.Waited < time.Second {
		t.Fatalf("a member that stays: %v, want %s still active after the wait", err, busy)
	}
	if !strings.HasPrefix(err.Error(), "refusing to apply: still active after waiting ") || !strings.Contains(err.Error(), busy+" (1 active member, state ") {
		t.Errorf("error %q", err)
	}
	mu.Lock()
	if len(told) < 2 || len(told[0]) != 1 || told[0][0].Group != busy {
		t.Errorf("progress told %+v, want %s active, at every describe", told, busy)
	}
	mu.Unlock()

	// The context's deadline ends the wait when it comes first.
	dctx, dcancel := context.WithTimeout(ctx, time.Second)
	err = groupops.WaitEmpty(dctx, cl, []string{busy}, groupops.WaitOptions{Until: time.Now().Add(time.Hour), Interval: 100 * time.Millisecond})
	dcancel()
	if !errors.As(err, &still) || still.Waited > 5*time.Second {
		t.Errorf("bounded by the context: %v, want still active after about a second", err)
	}

	// Ctrl-C: the context's error, not a refusal.
	cctx, ccancel := context.WithCancel(ctx)
	err = groupops.WaitEmpty(cctx, cl, []string{busy}, groupops.WaitOptions{
		Until:    time.Now().Add(time.Minute),
		Interval: 100 * time.Millisecond,
		Progress: func([]groupops.ActiveGroup, time.Duration) { ccancel() },
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}

	// The member leaves during the wait: the wait ends without error.
	left := make(chan struct{})
	err = groupops.WaitEmpty(ctx, cl, []string{busy, idle}, groupops.WaitOptions{
		Until:    time.Now().Add(time.Minute),
		Interval: 100 * time.Millisecond,
		Progress: func([]groupops.ActiveGroup, time.Duration) {
			select {
			case <-left:
			default:
				close(left)
				go m.Stop()
			}
		},
	})
	if err != nil {
		t.Errorf("the member left: %v, want the wait over", err)
	}
}

// StillActiveError's text and its refusal lines, word for word.
func TestGcovStillActiveErrorText(t *testing.T) {
	err := &groupops.StillActiveError{
		Active: []groupops.ActiveGroup{{Group: "a", State: "Stable", Members: 2}, {Group: "b", State: "CompletingRebalance", Members: 1}},
		Waited: 2600 * time.Millisecond,
	}
	const want = "refusing to apply: still active after waiting 3s for the groups to be empty: a (2 active members, state Stable), b (1 active member, state CompletingRebalance); stop their consumers, or wait longer (--wait-empty, --timeout); nothing was written"
	if err.Error() != want {
		t.Errorf("Error()\n got %q\nwant %q", err.Error(), want)
	}
	wantReasons := []string{
		"group a still has 2 active members (state Stable) after waiting 3s: stop its consumers first",
		"group b still has 1 active member (state CompletingRebalance) after waiting 3s: stop its consumers first",
	}
	if got := err.Reasons(); !slices.Equal(got, wantReasons) {
		t.Errorf("Reasons()\n got %q\nwant %q", got, wantReasons)
	}
}

// OnlyActiveRefuses: waiting helps only when active groups are the one
// reason to refuse.
func TestGcovOnlyActiveRefuses(t *testing.T) {
	active := []groupops.ActiveGroup{{Group: "a", State: "Stable", Members: 1}}
	drift := []resetplan.Drift{{Group: "a", Topic: "t", Partition: 0, Planned: gcPtr(1), Live: gcPtr(2)}}
	cases := []struct {
		name  string
		c     groupops.Check
		force bool
		want  bool
	}{
		{"nothing active", groupops.Check{}, false, false},
		{"active only", groupops.Check{Active: active}, false, true},
		{"active and stale", groupops.Check{Active: active, Drift: drift}, false, false},
		{"active and stale, with --force", groupops.Check{Active: active, Drift: drift}, true, true},
		{"active, on another cluster", groupops.Check{Plan: gcPlan("y"), Active: active, ClusterID: "x", ClusterMismatch: true}, false, false},
		{"active, a target out of range", groupops.Check{Active: active, OutOfRange: []groupops.RangeIssue{{Group: "a", TP: groupops.TopicPartition{Topic: "t"}, Target: 9, Start: gcPtr(0), End: gcPtr(6)}}}, true, false},
	}
	for _, tc := range cases {
		if got := tc.c.OnlyActiveRefuses(tc.force); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

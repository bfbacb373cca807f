package groupops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// DefaultWaitInterval is how often WaitEmpty describes the groups: often
// enough that the apply follows the consumers' stop within a second, few
// enough requests (one DescribeGroups per coordinator) to be no load.
const DefaultWaitInterval = time.Second

// WaitOptions bound and report WaitEmpty.
type WaitOptions struct {
	// Until is when the wait gives up (kcg apply --wait-empty); the
	// context's deadline ends it earlier when it comes first.
	Until time.Time
	// Interval is the time between two describes; DefaultWaitInterval
	// when zero.
	Interval time.Duration
	// Progress, when set, is told after each describe the groups still
	// active and the time left.
	Progress func(active []ActiveGroup, left time.Duration)
	// Plan, when set, is the plan the groups are in: each is described as
	// its planned family describes its members (a share group with
	// ShareGroupDescribe); without it, as a consumer group.
	Plan *resetplan.Plan
}

// StillActiveError is a wait for empty groups that ended (at Until or the
// context's deadline) with some still active: a refusal, nothing written.
type StillActiveError struct {
	Active []ActiveGroup
	Waited time.Duration
}

func (e *StillActiveError) Error() string {
	var gs []string
	for _, a := range e.Active {
		gs = append(gs, fmt.Sprintf("%s (%s, state %s)", a.Group, vocab.Count(a.Members, "active member"), a.State))
	}
	return fmt.Sprintf("refusing to apply: still active after waiting %s for the groups to be empty: %s; stop their consumers, or wait longer (--wait-empty, --timeout); nothing was written",
		e.Waited.Round(time.Second), strings.Join(gs, ", "))
}

// Reasons are the refusal's lines, as RefusedError's.
func (e *StillActiveError) Reasons() []string {
	var out []string
	for _, a := range e.Active {
		out = append(out, fmt.Sprintf("group %s still has %s (state %s) after waiting %s: stop its consumers first",
			a.Group, vocab.Count(a.Members, "active member"), a.State, e.Waited.Round(time.Second)))
	}
	return out
}

// WaitEmpty describes groups every o.Interval until none has members, and
// returns nil then. It returns a *StillActiveError when o.Until or the
// context's deadline comes first, and the context's error when it is
// cancelled (Ctrl-C). It only reads: a caller re-checks the plan after it
// (Preflight), since the consumers may have committed as they stopped.
func WaitEmpty(ctx context.Context, cl *kafkaadmin.Client, groups []string, o WaitOptions) error {
	start := time.Now()
	end := o.Until
	if d, ok := ctx.Deadline(); ok && d.Before(end) {
		end = d
	}
	interval := o.Interval
	if interval <= 0 {
		interval = DefaultWaitInterval
	}
	// Each describe ends at the wait's end, so a wait bounded by the
	// command's deadline reports the active groups rather than a timeout.
	wctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	// A describe cut off by the wait's end fails with the connection's
	// deadline (an i/o timeout) a moment before the context says so.
	ended := func() bool { return wctx.Err() != nil || time.Until(end) < 100*time.Millisecond }
	var fam map[string]Family
	if o.Plan != nil {
		fam = planFamilies(o.Plan)
	}
	var active []ActiveGroup
	for {
		now, err := activeGroups(wctx, cl, groups, fam)
		switch {
		case ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
			return ctx.Err()
		case err != nil && !ended():
			return err
		case err == nil:
			active = now
		}
		if err == nil && len(active) == 0 {
			return nil
		}
		left := time.Until(end)
		if wctx.Err() != nil || left <= 0 {
			return &StillActiveError{Active: active, Waited: time.Since(start)}
		}
		if o.Progress != nil {
			o.Progress(active, left)
		}
		t := time.NewTimer(min(interval, left))
		select {
		case <-wctx.Done():
			t.Stop()
			if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return ctx.Err()
			}
			return &StillActiveError{Active: active, Waited: time.Since(start)}
		case <-t.C:
		}
	}
}

// activeGroups are the groups that have members now, sorted: each family
// batch (fam: each group's family) described by its family, one phase
// each.
func activeGroups(ctx context.Context, cl *kafkaadmin.Client, groups []string, fam map[string]Family) ([]ActiveGroup, error) {
	batches, byBatch := batchGroups(groups, func(g string) Family { return fam[g] })
	var out []ActiveGroup
	for _, b := range batches {
		ids := byBatch[b]
		descs, err := familyOf(b).members(ctx, cl, ids)
		if err != nil {
			return nil, err
		}
		for i, d := range descs {
			if d.Err != nil {
				return nil, fmt.Errorf("group %s: %w", ids[i], d.Err)
			}
			if d.HasMembers() {
				out = append(out, activeGroup(ids[i], d))
			}
		}
	}
	slices.SortFunc(out, func(a, b ActiveGroup) int { return strings.Compare(a.Group, b.Group) })
	return out, nil
}

// OnlyActiveRefuses reports whether the check's only refusals are its
// active groups: waiting for their consumers to stop may let the apply
// run. A plan that is stale, for another cluster or out of range is
// refused at once, since waiting cannot mend it.
func (c *Check) OnlyActiveRefuses(force bool) bool {
	if len(c.Active) == 0 {
		return false
	}
	rest := *c
	rest.Active = nil
	_, err := rest.Refusal(force)
	return err == nil
}

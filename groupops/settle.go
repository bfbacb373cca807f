package groupops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// Overwritten: a partition (or group) that was written and read back at
// its target, and then, while Settle watched it, read back another
// offset: something commits to the group without being a member of it.
const Overwritten Outcome = "overwritten"

// DefaultSettle is how long kcg apply (without --settle) and drop-in
// --execute watch the offsets they wrote.
const DefaultSettle = 2 * time.Second

// DefaultSettleInterval is how often Settle reads the written offsets.
const DefaultSettleInterval = 200 * time.Millisecond

// SettleOptions tune Settle.
type SettleOptions struct {
	// For is how long the written offsets are watched; 0 or less: not at
	// all.
	For time.Duration
	// Interval is the time between two reads; DefaultSettleInterval when 0.
	Interval time.Duration
	// Stop, when closed (Ctrl-C), ends the watch early.
	Stop <-chan struct{}
}

// SettleResult is what a watch saw.
type SettleResult struct {
	// Watched is how long the offsets were watched; less than For when
	// every watched offset was overwritten, or the watch was stopped.
	Watched time.Duration
	// Stopped: SettleOptions.Stop ended the watch early.
	Stopped bool
}

// watched is one written partition Settle keeps an eye on.
type watched struct {
	group, part int // indexes in ApplyResult.Groups and its Partitions
	name        string
	tp          TopicPartition
	target      *int64
}

// Settle watches, for o.For, the offsets res (Apply of c) wrote and read
// back at their targets, reading them again every o.Interval (batched
// OffsetFetch, as the read-back) and once more at the end. The groups
// apply writes have no members (apply refuses the others), so a member's
// commit cannot undo the write; but a consumer that commits without
// joining the group (assign() and commitSync, or a stream processor
// committing the same way) is invisible to DescribeGroups, and commits its
// own positions again within its commit interval. A partition that reads
// back anything but its target during the watch is marked Overwritten
// (After: the offset seen), its group too, with an error saying what
// happened, and res.FailedAt moves to the first such group in plan order
// if it comes before. Only the groups whose family commits offsets are
// watched (a share group's consumers are always members). A read that fails is skipped: the watch reports only
// what it saw.
func Settle(ctx context.Context, cl *kafkaadmin.Client, c *Check, res *ApplyResult, o SettleOptions) SettleResult {
	if o.For <= 0 {
		return SettleResult{}
	}
	if o.Interval <= 0 {
		// At least five reads in a short watch.
		o.Interval = max(min(DefaultSettleInterval, o.For/5), time.Millisecond)
	}
	fam := planFamilies(c.Plan)
	var ws []watched
	var groups []string
	for gi, g := range res.Groups {
		if !familyOf(fam[g.Group]).commits() || g.Outcome != Written {
			continue
		}
		n := len(ws)
		for pi, p := range g.Partitions {
			if p.Outcome == Written {
				ws = append(ws, watched{group: gi, part: pi, name: g.Group, tp: p.TP, target: p.Target})
			}
		}
		if len(ws) > n {
			groups = append(groups, g.Group)
		}
	}
	if len(ws) == 0 {
		return SettleResult{}
	}
	start := time.Now()
	seen := map[int]*int64{} // index in ws → the offset that replaced the target
	at := map[int]time.Duration{}
	tick := time.NewTicker(o.Interval)
	defer tick.Stop()
	end := time.NewTimer(o.For)
	defer end.Stop()
	out := SettleResult{}
	for len(seen) < len(ws) {
		select {
		case <-o.Stop:
			out.Stopped = true
		case <-ctx.Done():
		case <-end.C:
			// One last read: the watch covers all of o.For.
			readOverwrites(ctx, cl, groups, fam, ws, seen, at, time.Since(start))
		case <-tick.C:
			readOverwrites(ctx, cl, groups, fam, ws, seen, at, time.Since(start))
			continue
		}
		break
	}
	out.Watched = min(time.Since(start), o.For)
	markOverwritten(res, ws, seen, at)
	return out
}

// readOverwrites reads the watched groups' offsets once and notes, in
// seen and at, the partitions that no longer hold their targets.
func readOverwrites(ctx context.Context, cl *kafkaadmin.Client, groups []string, fam map[string]Family, ws []watched, seen map[int]*int64, at map[int]time.Duration, since time.Duration) {
	byGroup, err := readBack(ctx, cl, groups, fam)
	if err != nil {
		return
	}
	for i, w := range ws {
		if _, done := seen[i]; done {
			continue
		}
		g, ok := byGroup[w.name]
		if !ok || g.Err != nil {
			continue
		}
		var now *int64
		if co, ok := g.Offsets[w.tp]; ok {
			v := co.Offset
			now = &v
		}
		if !sameOffset(now, w.target) {
			seen[i] = now
			at[i] = since
		}
	}
}

// markOverwritten records in res the overwrites seen.
func markOverwritten(res *ApplyResult, ws []watched, seen map[int]*int64, at map[int]time.Duration) {
	byGroup := map[int][]string{}
	for i, w := range ws {
		now, ok := seen[i]
		if !ok {
			continue
		}
		p := &res.Groups[w.group].Partitions[w.part]
		p.After = now
		p.Outcome = Overwritten
		p.Error = fmt.Sprintf("%s after the write it reads %s, not the target %s", at[i].Round(10*time.Millisecond), offsetText(now), offsetText(w.target))
		byGroup[w.group] = append(byGroup[w.group], fmt.Sprintf("%s now %s (target %s)", w.tp, offsetText(now), offsetText(w.target)))
	}
	for gi := range res.Groups {
		parts, ok := byGroup[gi]
		if !ok {
			continue
		}
		g := &res.Groups[gi]
		g.Outcome = Overwritten
		g.Err = fmt.Errorf("overwritten after the write: %s: the group has no members, so something commits to it without joining it (a consumer using assign(), a stream processor); stop it, then apply again", strings.Join(parts, ", "))
		if res.FailedAt < 0 || gi < res.FailedAt {
			res.FailedAt = gi
		}
	}
}

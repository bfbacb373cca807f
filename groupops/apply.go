package groupops

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// Outcome is what happened to a group or partition in an apply.
type Outcome string

// The outcomes of a group or partition.
const (
	// Written: the new offset was committed (or deleted) and read back.
	Written Outcome = "written"
	// Unchanged: the live offset already equalled the target.
	Unchanged Outcome = "unchanged"
	// NotWritten: apply stopped before it, or the broker refused it; its
	// offset is as before.
	NotWritten Outcome = "not-written"
	// Partial: some of a group's partitions were written, others not.
	Partial Outcome = "partial"
	// Unknown: the request failed in a way that leaves the outcome
	// unknown, and reading the offset back failed too.
	Unknown Outcome = "unknown"
)

// PartitionResult is one partition's outcome.
type PartitionResult struct {
	TP TopicPartition
	// Before is the committed offset right before apply; Target the
	// plan's (nil: delete the offset); After the offset read back (nil:
	// none, or not read back).
	Before, Target, After *int64
	Outcome               Outcome
	// Error says why the partition was not written, one line; "" when it
	// was.
	Error string
}

// GroupResult is one group's outcome, partitions in plan order.
type GroupResult struct {
	Group      string
	Outcome    Outcome
	Err        error // why the group was not (fully) written and verified
	Partitions []PartitionResult
}

// wrote reports whether any offset of the group may have changed.
func (g GroupResult) wrote() bool {
	return g.Outcome == Written || g.Outcome == Partial || g.Outcome == Unknown || g.Outcome == Overwritten
}

// ApplyResult is the outcome of writing a plan.
type ApplyResult struct {
	Groups []GroupResult
	// FailedAt is the index in Groups of the first group (in plan order)
	// that was not fully written and verified, -1 when every group was.
	// Apply starts no group after a failure is seen; the groups that were
	// in flight with the failed one finish, so a group after FailedAt may
	// be Written, and the groups that never started are NotWritten.
	FailedAt int
	// Interrupted is true when ApplyOptions.Stop ended the apply before
	// every group had started; the groups not started are NotWritten.
	Interrupted bool
	// AlreadyApplied is true for Check.Unchanged: nothing was written
	// because every target already equalled the live offset.
	AlreadyApplied bool
}

// ApplyOptions tune Apply.
type ApplyOptions struct {
	// Metadata is stored with every committed offset.
	Metadata string
	// SkipEmptyGroups leaves groups without partitions out of the result
	// (drop-in mode: the Java tool has nothing to say of them).
	SkipEmptyGroups bool
	// BeforeGroup, when set, is called with each group's name right
	// before its writes are sent, from the one goroutine that starts the
	// groups in plan order (tests inject faults and interrupts there).
	BeforeGroup func(group string)
	// Stop, when set, interrupts the apply once it is closed (Ctrl-C): the
	// groups whose writes are in flight finish and are read back, no
	// group starts after it, and the rest are NotWritten. The writes and
	// the read-back use ctx, which the caller keeps alive (bounded by
	// --timeout) after Stop.
	Stop <-chan struct{}
	// Progress, when set, is called after each group's writes with the
	// number of groups sent so far and the number to send. It may be
	// called from several goroutines, one call at a time.
	Progress func(sent, total int)
	// ReadingBack, when set, is called with the number of groups sent,
	// right before they are read back.
	ReadingBack func(groups int)
}

// The bounds of the commit phase. OffsetCommit carries one group per
// request, so the groups are written in parallel: at most
// commitsInFlight groups' writes at once, of which at most
// commitsPerCoordinator on one coordinator, so that a cluster whose groups
// all live on one broker gets no more than that broker's share.
const (
	commitsInFlight       = 8
	commitsPerCoordinator = 4
)

// Why a group was not started.
const (
	whyStoppedAfterFailure = "apply stopped after an earlier group failed"
	whyInterrupted         = "apply was interrupted before this group"
)

// sent is the outcome of one group's writes, before the read-back.
type sent struct {
	started  bool
	perr     map[TopicPartition]error
	groupErr error
}

// Apply writes the pending writes of a checked plan (commits, and offset
// deletions for rollback entries), a bounded number of groups at a time,
// in plan order, then reads every written group back in batched
// OffsetFetch requests and returns each partition's outcome. It stops at
// the first group whose writes fail, or at o.Stop: the groups already in
// flight finish and are reported, no other group starts, and the groups
// after stay as they were. The result says exactly which were written.
// The caller has checked c.Refusal.
func Apply(ctx context.Context, cl *kafkaadmin.Client, c *Check, o ApplyOptions) ApplyResult {
	groups := c.groupsToApply(o.SkipEmptyGroups)
	out, interrupted := commitGroups(ctx, cl, c, groups, o)

	// One read-back for every group whose writes were sent, batched per
	// coordinator (the describe path): the report states what the broker
	// holds, not what was sent.
	var started []string
	for i, g := range groups {
		if out[i].started {
			started = append(started, g.Group)
		}
	}
	if o.ReadingBack != nil {
		o.ReadingBack(len(started))
	}
	after, rerr := readBack(ctx, cl, started, planFamilies(c.Plan))

	res := ApplyResult{FailedAt: -1, Interrupted: interrupted}
	for i, g := range groups {
		gr := c.groupResult(g, out[i], interrupted, after, rerr)
		res.Groups = append(res.Groups, gr)
		if gr.Err != nil && res.FailedAt < 0 {
			res.FailedAt = len(res.Groups) - 1
		}
	}
	return res
}

// groupsToApply are the plan's groups in plan order, without those that
// have no partition when skipEmpty.
func (c *Check) groupsToApply(skipEmpty bool) []resetplan.Group {
	var groups []resetplan.Group
	for _, g := range c.Plan.Groups {
		if skipEmpty && len(g.Partitions) == 0 {
			continue
		}
		groups = append(groups, g)
	}
	return groups
}

// commitGroups sends the writes of groups, in plan order, a bounded number
// at a time (commitSlots), and returns what each group's writes came to
// (index for index) and whether o.Stop ended the apply early. No group
// starts after one has failed.
func commitGroups(ctx context.Context, cl *kafkaadmin.Client, c *Check, groups []resetplan.Group, o ApplyOptions) ([]sent, bool) {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.Group
	}
	// The coordinators only shape the parallelism: a lookup that fails
	// puts every group in one lane, and the commit finds its coordinator
	// (or fails, and is reported) by itself.
	coords, _ := cl.CoordinatorIDs(ctx, names)
	slots := newCommitSlots(coords, o.Stop)

	writes := c.writesByGroup(o.Metadata)
	deleteGroup := map[string]bool{}
	for _, g := range c.GroupDeletes {
		deleteGroup[g] = true
	}
	// The writes stop short of the deadline: a commit that never answers
	// (a black-holed or dead coordinator) must leave time to read back
	// the groups that were written, or the report could only say
	// "unknown" of every group.
	wctx := ctx
	if dl, ok := writeDeadline(ctx); ok {
		var cancel context.CancelFunc
		wctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	out := make([]sent, len(groups))
	interrupted := false
	var failed atomic.Bool
	var progressMu sync.Mutex
	nSent := 0
	var wg sync.WaitGroup
	for i, g := range groups {
		if failed.Load() {
			break
		}
		release, ok := slots.take(g.Group)
		if !ok {
			interrupted = true
			break
		}
		// A failure may have come in while this group waited for a slot.
		if failed.Load() {
			release()
			break
		}
		if o.BeforeGroup != nil {
			o.BeforeGroup(g.Group)
		}
		out[i].started = true
		wg.Go(func() {
			defer release()
			var commits []kafkaadmin.OffsetToCommit
			var deletes []TopicPartition
			if gw := writes[g.Group]; gw != nil {
				commits, deletes = gw.commits, gw.deletes
			}
			var perr map[TopicPartition]error
			var err error
			if deleteGroup[g.Group] {
				err = sendGroupDelete(wctx, cl, g.Group)
			} else {
				perr, err = familyOfType(g.Type).write(wctx, cl, c, g.Group, commits, deletes)
			}
			out[i].perr, out[i].groupErr = perr, err
			if err != nil {
				failed.Store(true)
			}
			if o.Progress != nil {
				progressMu.Lock()
				nSent++
				o.Progress(nSent, len(groups))
				progressMu.Unlock()
			}
		})
	}
	wg.Wait()
	return out, interrupted
}

// commitSlots bound the groups whose writes are in flight: at most
// commitsInFlight in all, and commitsPerCoordinator in each coordinator's
// lane (the groups whose coordinator is unknown share one lane).
type commitSlots struct {
	coords  map[string]int32
	stop    <-chan struct{}
	overall chan struct{}
	lanes   map[int32]chan struct{}
}

func newCommitSlots(coords map[string]int32, stop <-chan struct{}) *commitSlots {
	return &commitSlots{coords: coords, stop: stop, overall: make(chan struct{}, commitsInFlight), lanes: map[int32]chan struct{}{}}
}

// take waits for a slot of group's lane, then an overall one, and returns
// the function that gives both back; ok is false when stop was closed
// first (nothing is then held).
func (s *commitSlots) take(group string) (release func(), ok bool) {
	id, known := s.coords[group]
	if !known {
		id = -1
	}
	lane := s.lanes[id]
	if lane == nil {
		lane = make(chan struct{}, commitsPerCoordinator)
		s.lanes[id] = lane
	}
	if !s.acquire(lane) {
		return nil, false
	}
	if !s.acquire(s.overall) {
		<-lane
		return nil, false
	}
	return func() { <-s.overall; <-lane }, true
}

// acquire takes a slot of ch unless stop is closed first.
func (s *commitSlots) acquire(ch chan struct{}) bool {
	select {
	case <-s.stop:
		return false
	default:
	}
	select {
	case ch <- struct{}{}:
		return true
	case <-s.stop:
		return false
	}
}

// groupResult is the outcome of g: classified from its writes and its
// offsets read back (after, or the read-back's error rerr) when it was
// started, else as it was, with why it was not started.
func (c *Check) groupResult(g resetplan.Group, s sent, interrupted bool, after map[string]kafkaadmin.GroupOffsets, rerr error) GroupResult {
	switch {
	case s.started:
		a, ok := after[g.Group]
		e := rerr
		if e == nil && !ok {
			e = fmt.Errorf("group %s: no offsets read back", g.Group)
		}
		if e == nil && !errors.Is(a.Err, vocab.ErrGroupNotFound) {
			// A group that does not exist (deleted) holds no offset.
			e = a.Err
		}
		offs := a.Offsets
		if e != nil {
			offs = nil
		}
		return classify(c, g, s.perr, s.groupErr, offs, e)
	case interrupted:
		return c.untouched(g, NotWritten, whyInterrupted)
	default:
		return c.untouched(g, NotWritten, whyStoppedAfterFailure)
	}
}

// writeDeadline is the deadline of Apply's writes when ctx has one: the
// read-back keeps a tenth of the time left, at least half a second and at
// most half of it.
func writeDeadline(ctx context.Context) (time.Time, bool) {
	dl, ok := ctx.Deadline()
	if !ok {
		return dl, false
	}
	left := time.Until(dl)
	reserve := min(max(left/10, 500*time.Millisecond), left/2)
	return dl.Add(-reserve), true
}

// Unchanged is the result of a plan that is already applied: every
// partition as it is.
func (c *Check) Unchanged() ApplyResult {
	res := ApplyResult{FailedAt: -1, AlreadyApplied: true}
	for _, g := range c.Plan.Groups {
		res.Groups = append(res.Groups, c.untouched(g, Unchanged, ""))
	}
	return res
}

// untouched is g with every partition's offset as it is now.
func (c *Check) untouched(g resetplan.Group, o Outcome, why string) GroupResult {
	gr := GroupResult{Group: g.Group, Outcome: o}
	if why != "" {
		gr.Err = fmt.Errorf("%s", why)
	}
	for _, pt := range g.Partitions {
		before := c.LiveOffset(g.Group, pt.TP())
		gr.Partitions = append(gr.Partitions, PartitionResult{TP: pt.TP(), Before: before, Target: pt.Target, After: before, Outcome: o})
	}
	return gr
}

// groupWrites is one group's pending writes, split into commits and
// deletions.
type groupWrites struct {
	commits []kafkaadmin.OffsetToCommit
	deletes []TopicPartition
}

// writesByGroup splits the check's pending writes by group, in one pass
// (128,000 pending writes of 2,000 groups: not one pass per group).
func (c *Check) writesByGroup(metadata string) map[string]*groupWrites {
	out := map[string]*groupWrites{}
	for _, w := range c.Pending {
		gw := out[w.Group]
		if gw == nil {
			gw = &groupWrites{}
			out[w.Group] = gw
		}
		if w.To == nil {
			gw.deletes = append(gw.deletes, w.TP)
		} else {
			gw.commits = append(gw.commits, kafkaadmin.OffsetToCommit{TopicPartition: w.TP, Offset: *w.To, Metadata: metadata})
		}
	}
	return out
}

// sendGroupDelete deletes group with its offsets (DeleteGroups, a
// delete-group plan's one write per group).
func sendGroupDelete(ctx context.Context, cl *kafkaadmin.Client, group string) error {
	res, err := cl.DeleteGroups(ctx, []string{group})
	if err != nil {
		return err
	}
	if e := res[group]; e != nil && !errors.Is(e, vocab.ErrGroupNotFound) {
		return e
	}
	return nil
}

// planFamilies is the family of each of plan's groups, as planned.
func planFamilies(plan *resetplan.Plan) map[string]Family {
	out := make(map[string]Family, len(plan.Groups))
	for _, g := range plan.Groups {
		out[g.Group] = FamilyOf(g.Type)
	}
	return out
}

// readBack reads the positions of groups after their writes, each family
// batch with its family's read-back (consumer and streams groups: batched
// multi-group OffsetFetch requests per coordinator; share groups:
// DescribeShareGroupOffsets). fam is each group's family.
func readBack(ctx context.Context, cl *kafkaadmin.Client, groups []string, fam map[string]Family) (map[string]kafkaadmin.GroupOffsets, error) {
	if len(groups) == 0 {
		return nil, nil
	}
	batches, byBatch := batchGroups(groups, func(g string) Family { return fam[g] })
	out := make(map[string]kafkaadmin.GroupOffsets, len(groups))
	for _, b := range batches {
		offs, err := familyOf(b).readBack(ctx, cl, byBatch[b])
		if err != nil {
			return nil, err
		}
		for _, o := range offs {
			out[o.Group] = o
		}
	}
	return out, nil
}

// classify turns one group's writes (perr, groupErr) and its offsets read
// back (after; nil when the read-back failed with rerr) into the outcome
// of each of its partitions; Err is set when the group was not fully
// written and verified.
func classify(c *Check, g resetplan.Group, perr map[TopicPartition]error, groupErr error, after map[TopicPartition]kafkaadmin.CommittedOffset, rerr error) GroupResult {
	if after == nil && rerr == nil {
		// Read back fine, and the group holds no commit at all.
		after = map[TopicPartition]kafkaadmin.CommittedOffset{}
	}
	gr := GroupResult{Group: g.Group}
	nWritten, nUnknown := 0, 0
	allReached := after != nil
	for _, pt := range g.Partitions {
		p := PartitionResult{TP: pt.TP(), Before: c.LiveOffset(g.Group, pt.TP()), Target: pt.Target}
		if co, ok := after[p.TP]; ok && after != nil {
			v := co.Offset
			p.After = &v
		}
		target, hasTarget := pt.TargetOffset()
		reached := after != nil && ((hasTarget && p.After != nil && *p.After == target) || (!hasTarget && p.After == nil))
		changed := !sameOffset(p.Before, p.After)
		if !reached {
			allReached = false
		}
		switch {
		case after == nil:
			p.Outcome = Unknown
			p.Error = fmt.Sprintf("could not read the offset back: %v", rerr)
		case reached && !changed:
			p.Outcome = Unchanged
		case reached:
			p.Outcome = Written
			nWritten++
		case !changed && lostAnswer(writeErr(perr[p.TP], groupErr)):
			// The commit was sent and its answer lost (a deadline, a
			// connection that failed): reading the old offset back does
			// not prove it will not land, as a request still queued at
			// the broker may be carried out after the read-back.
			p.Outcome = Unknown
			p.Error = "sent, but the answer was lost and the offset read back is not the target yet; it may still land: check with kcg describe: " + vocab.OneLine(writeErr(perr[p.TP], groupErr).Error())
			nUnknown++
		default:
			p.Outcome = NotWritten
			switch e := perr[p.TP]; {
			case e != nil:
				p.Error = vocab.OneLine(e.Error())
			case groupErr != nil:
				p.Error = vocab.OneLine(groupErr.Error())
			default:
				p.Error = "the offset read back differs from the target"
				groupErr = fmt.Errorf("verification failed: %s/%d reads back %s, planned %d", pt.Topic, pt.Partition, offsetText(p.After), target)
			}
			if changed {
				nWritten++
			}
		}
		gr.Partitions = append(gr.Partitions, p)
	}
	if groupErr != nil && allReached {
		// Every partition reads back at its target: the error lost only
		// the answer to writes the broker made (a connection cut after
		// the commit, a response that came too late), so the group is
		// written and verified, and apply goes on to the next one.
		groupErr = nil
	}
	if groupErr == nil && rerr != nil {
		groupErr = fmt.Errorf("reading the offsets back: %w", rerr)
	}
	gr.Err = groupErr
	switch {
	case groupErr == nil:
		gr.Outcome = Written
	case after == nil:
		gr.Outcome = Unknown
	case nWritten > 0:
		gr.Outcome = Partial
	case nUnknown > 0:
		gr.Outcome = Unknown
	default:
		gr.Outcome = NotWritten
	}
	return gr
}

// writeErr is a partition's write error, else its group's.
func writeErr(partition, group error) error {
	if partition != nil {
		return partition
	}
	return group
}

func sameOffset(a, b *int64) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func offsetText(v *int64) string {
	if v == nil {
		return "no offset"
	}
	return fmt.Sprint(*v)
}

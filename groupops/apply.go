package groupops

import (
	"context"
	"fmt"

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
	return g.Outcome == Written || g.Outcome == Partial || g.Outcome == Unknown
}

// ApplyResult is the outcome of writing a plan.
type ApplyResult struct {
	Groups []GroupResult
	// FailedAt is the index in Groups of the group that failed, -1 when
	// every group was written. Apply stops there: later groups are
	// NotWritten.
	FailedAt int
}

// Failure is the error of the group apply stopped at, nil when none.
func (r ApplyResult) Failure() error {
	if r.FailedAt < 0 {
		return nil
	}
	return r.Groups[r.FailedAt].Err
}

// WroteAny reports whether any group may have changed.
func (r ApplyResult) WroteAny() bool {
	for _, g := range r.Groups {
		if g.wrote() {
			return true
		}
	}
	return false
}

// Split lists, for the report of a failed apply, the groups written
// (fully: "group", partly: "group (partly)"), those not written, and those
// whose offsets could not be read back after their writes were sent
// (unknown: kcg cannot say whether the broker applied them, so it does not
// call them written or not written).
func (r ApplyResult) Split() (written, notWritten, unknown []string) {
	for _, g := range r.Groups {
		switch g.Outcome {
		case Written, Unchanged:
			written = append(written, g.Group)
		case Partial:
			written = append(written, g.Group+" (partly)")
		case Unknown:
			unknown = append(unknown, g.Group)
		default:
			notWritten = append(notWritten, g.Group)
		}
	}
	return written, notWritten, unknown
}

// ApplyOptions tune Apply.
type ApplyOptions struct {
	// Metadata is stored with every committed offset.
	Metadata string
	// SkipEmptyGroups leaves groups without partitions out of the result
	// (drop-in mode: the Java tool has nothing to say of them).
	SkipEmptyGroups bool
	// BeforeGroup, when set, is called with each group's name right
	// before its writes are sent (progress; tests inject faults there).
	BeforeGroup func(group string)
}

// Apply writes the pending writes of a checked plan group by group
// (commits, and offset deletions for rollback entries), reads every
// partition back and returns each one's outcome. It stops at the first
// group that fails: the groups after it stay as they were, and the result
// says exactly which were written. The caller has checked c.Refusal.
func Apply(ctx context.Context, cl *kafkaadmin.Client, c *Check, o ApplyOptions) ApplyResult {
	res := ApplyResult{FailedAt: -1}
	for _, g := range c.Plan.Groups {
		if o.SkipEmptyGroups && len(g.Partitions) == 0 {
			continue
		}
		if res.FailedAt >= 0 {
			res.Groups = append(res.Groups, c.untouched(g, NotWritten, "apply stopped after an earlier group failed"))
			continue
		}
		if o.BeforeGroup != nil {
			o.BeforeGroup(g.Group)
		}
		gr := applyGroup(ctx, cl, c, g, o.Metadata)
		res.Groups = append(res.Groups, gr)
		if gr.Err != nil {
			res.FailedAt = len(res.Groups) - 1
		}
	}
	return res
}

// Unchanged is the result of a plan that is already applied: every
// partition as it is.
func (c *Check) Unchanged() ApplyResult {
	res := ApplyResult{FailedAt: -1}
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

// writes splits the check's pending writes of group into commits and
// deletions.
func (c *Check) writes(group, metadata string) (commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) {
	for _, w := range c.Pending {
		if w.Group != group {
			continue
		}
		if w.To == nil {
			deletes = append(deletes, w.TP)
		} else {
			commits = append(commits, kafkaadmin.OffsetToCommit{TopicPartition: w.TP, Offset: *w.To, Metadata: metadata})
		}
	}
	return commits, deletes
}

// send commits and deletes group's pending writes; it returns the errors
// per partition and the first error of the group.
func send(ctx context.Context, cl *kafkaadmin.Client, group string, commits []kafkaadmin.OffsetToCommit, deletes []TopicPartition) (map[TopicPartition]error, error) {
	perr := map[TopicPartition]error{}
	var groupErr error
	note := func(res map[TopicPartition]error) {
		for tp, e := range res {
			if e != nil {
				perr[tp] = e
				if groupErr == nil {
					groupErr = e
				}
			}
		}
	}
	if len(commits) > 0 {
		res, err := cl.CommitOffsets(ctx, group, commits)
		groupErr = err
		note(res)
	}
	if len(deletes) > 0 && groupErr == nil {
		res, err := cl.DeleteOffsets(ctx, group, deletes)
		switch {
		case err != nil:
			groupErr = err
		case res.Err != nil:
			groupErr = res.Err
		}
		note(res.Partitions)
	}
	return perr, groupErr
}

// readBack fetches group's committed offsets after the writes: the report
// states what the broker holds, not what was sent.
func readBack(ctx context.Context, cl *kafkaadmin.Client, group string) (map[TopicPartition]kafkaadmin.CommittedOffset, error) {
	offs, err := cl.FetchOffsets(ctx, []string{group})
	if err == nil && offs[0].Err != nil {
		err = offs[0].Err
	}
	if err != nil {
		return nil, err
	}
	return offs[0].Offsets, nil
}

// applyGroup writes one group's pending partitions, reads every partition
// back and classifies each; Err is set when the group was not fully
// written and verified.
func applyGroup(ctx context.Context, cl *kafkaadmin.Client, c *Check, g resetplan.Group, metadata string) GroupResult {
	commits, deletes := c.writes(g.Group, metadata)
	perr, groupErr := send(ctx, cl, g.Group, commits, deletes)
	after, rerr := readBack(ctx, cl, g.Group)

	gr := GroupResult{Group: g.Group}
	nWritten := 0
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
	default:
		gr.Outcome = NotWritten
	}
	return gr
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

package groupops

import "github.com/kcg-dev/kcg/kafkaadmin"

// ApplyStatus is what an apply came to as a whole.
type ApplyStatus string

// The statuses of an apply.
const (
	// StatusApplied: every group was written and verified.
	StatusApplied ApplyStatus = "applied"
	// StatusAlreadyApplied: every target already equalled the live offset
	// (Check.Unchanged); nothing was written.
	StatusAlreadyApplied ApplyStatus = "already-applied"
	// StatusFailed: a group failed and no offset may have changed.
	StatusFailed ApplyStatus = "failed"
	// StatusPartial: a group failed after some offsets may have changed.
	StatusPartial ApplyStatus = "partial"
)

// WrittenGroup is a group of a verdict whose offsets were written (or
// already at their targets).
type WrittenGroup struct {
	Group string
	// Partly: only some of its partitions were written.
	Partly bool
}

// Label is the group as the last line of a failed apply names it:
// "group", or "group (partly)".
func (w WrittenGroup) Label() string {
	if w.Partly {
		return w.Group + " (partly)"
	}
	return w.Group
}

// Verdict is what an ApplyResult means, computed in one place for its
// three readers: kcg apply's exit code and last line, drop-in --execute's,
// and the ApplyReport document.
type Verdict struct {
	Status ApplyStatus
	// Written are the groups written, fully, partly or already at their
	// targets, in plan order; NotWritten those whose offsets are as
	// before; Unknown those whose writes were sent but could not be read
	// back (kcg cannot say whether the broker applied them, so it calls
	// them neither).
	Written    []WrittenGroup
	NotWritten []string
	Unknown    []string
	// Overwritten are the groups written, and then overwritten while
	// Settle watched them (by a consumer that commits without joining
	// the group).
	Overwritten []string
	// Interrupted: ApplyOptions.Stop ended the apply before every group
	// had started.
	Interrupted bool
	// Failed is the group apply stopped at: the first, in plan order, that
	// was not fully written and verified; nil when none. Failure is its
	// error.
	Failed  *GroupResult
	Failure error
	// GroupActive: Failure is the coordinator refusing a group that has
	// active members (they joined after the preflight), a refused
	// precondition rather than a failure.
	GroupActive bool
}

// Verdict is r's verdict.
func (r ApplyResult) Verdict() Verdict {
	v := Verdict{Interrupted: r.Interrupted}
	wrote := false
	for _, g := range r.Groups {
		switch g.Outcome {
		case Written, Unchanged:
			v.Written = append(v.Written, WrittenGroup{Group: g.Group})
		case Partial:
			v.Written = append(v.Written, WrittenGroup{Group: g.Group, Partly: true})
		case Unknown:
			v.Unknown = append(v.Unknown, g.Group)
		case Overwritten:
			v.Overwritten = append(v.Overwritten, g.Group)
		default:
			v.NotWritten = append(v.NotWritten, g.Group)
		}
		wrote = wrote || g.wrote()
	}
	if r.FailedAt >= 0 {
		v.Failed = &r.Groups[r.FailedAt]
		v.Failure = v.Failed.Err
		v.GroupActive = kafkaadmin.IsActiveGroupError(v.Failure)
	}
	switch {
	case r.AlreadyApplied:
		v.Status = StatusAlreadyApplied
	case v.Failed == nil:
		v.Status = StatusApplied
	case !wrote:
		v.Status = StatusFailed
	default:
		v.Status = StatusPartial
	}
	return v
}

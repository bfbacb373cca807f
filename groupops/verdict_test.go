package groupops

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/segmentio/kafka-go"
)

func TestVerdict(t *testing.T) {
	failed := errors.New("coordinator gone")
	active := fmt.Errorf("OffsetCommit group b: %w", kafka.UnknownMemberId)
	g := func(name string, o Outcome, err error) GroupResult {
		return GroupResult{Group: name, Outcome: o, Err: err}
	}
	cases := []struct {
		name    string
		r       ApplyResult
		status  ApplyStatus
		written []string // labels
		not     []string
		unknown []string
		failed  string // the failed group, "" for none
		active  bool
	}{
		{
			name:    "every group written",
			r:       ApplyResult{FailedAt: -1, Groups: []GroupResult{g("a", Written, nil), g("b", Written, nil)}},
			status:  StatusApplied,
			written: []string{"a", "b"},
		},
		{
			name:    "already applied",
			r:       ApplyResult{FailedAt: -1, AlreadyApplied: true, Groups: []GroupResult{g("a", Unchanged, nil)}},
			status:  StatusAlreadyApplied,
			written: []string{"a"},
		},
		{
			name:   "the first group refused for its members: nothing written",
			r:      ApplyResult{FailedAt: 0, Groups: []GroupResult{g("b", NotWritten, active), g("c", NotWritten, errors.New(whyStoppedAfterFailure))}},
			status: StatusFailed,
			not:    []string{"b", "c"},
			failed: "b",
			active: true,
		},
		{
			name:    "part way, a group after the failed one in flight with it",
			r:       ApplyResult{FailedAt: 1, Groups: []GroupResult{g("a", Written, nil), g("b", Partial, failed), g("c", Written, nil), g("d", NotWritten, errors.New(whyStoppedAfterFailure))}},
			status:  StatusPartial,
			written: []string{"a", "b (partly)", "c"},
			not:     []string{"d"},
			failed:  "b",
		},
		{
			name:    "a write whose answer was lost may have changed the group",
			r:       ApplyResult{FailedAt: 0, Groups: []GroupResult{g("a", Unknown, failed), g("b", NotWritten, errors.New(whyStoppedAfterFailure))}},
			status:  StatusPartial,
			not:     []string{"b"},
			unknown: []string{"a"},
			failed:  "a",
		},
		{
			name:    "interrupted",
			r:       ApplyResult{FailedAt: 1, Interrupted: true, Groups: []GroupResult{g("a", Written, nil), g("b", NotWritten, errors.New(whyInterrupted))}},
			status:  StatusPartial,
			written: []string{"a"},
			not:     []string{"b"},
			failed:  "b",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := c.r.Verdict()
			if v.Status != c.status {
				t.Errorf("status %s, want %s", v.Status, c.status)
			}
			var labels []string
			for _, w := range v.Written {
				labels = append(labels, w.Label())
			}
			if !slices.Equal(labels, c.written) || !slices.Equal(v.NotWritten, c.not) || !slices.Equal(v.Unknown, c.unknown) {
				t.Errorf("written %q, not written %q, unknown %q; want %q, %q, %q", labels, v.NotWritten, v.Unknown, c.written, c.not, c.unknown)
			}
			if v.Interrupted != c.r.Interrupted {
				t.Errorf("interrupted %v, want %v", v.Interrupted, c.r.Interrupted)
			}
			switch {
			case c.failed == "" && (v.Failed != nil || v.Failure != nil):
				t.Errorf("failed at %+v (%v), want none", v.Failed, v.Failure)
			case c.failed != "" && (v.Failed == nil || v.Failed.Group != c.failed || v.Failure != v.Failed.Err || v.Failure == nil):
				t.Errorf("failed at %+v (%v), want %s with its error", v.Failed, v.Failure, c.failed)
			}
			if v.GroupActive != c.active {
				t.Errorf("group active %v, want %v", v.GroupActive, c.active)
			}
		})
	}
}

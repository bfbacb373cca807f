package groupops

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

func ptr(v int64) *int64 { return &v }

var (
	tp0 = TopicPartition{Topic: "t", Partition: 0}
	tp1 = TopicPartition{Topic: "t", Partition: 1}
)

// committed is read-back offsets from topic t's partition → offset.
func committed(offs map[int32]int64) map[TopicPartition]kafkaadmin.CommittedOffset {
	out := map[TopicPartition]kafkaadmin.CommittedOffset{}
	for p, o := range offs {
		out[TopicPartition{Topic: "t", Partition: p}] = kafkaadmin.CommittedOffset{Offset: o}
	}
	return out
}

// classify, case by case: the group's outcome, each partition's, and the
// one-line reasons.
func TestClassify(t *testing.T) {
	// Live before the apply: t/0 at 5, t/1 at 3.
	c := &Check{Live: resetplan.LiveOffsets{"g": {tp0: 5, tp1: 3}}}
	group := func(targets ...*int64) resetplan.Group {
		g := resetplan.Group{Group: "g"}
		for i, tg := range targets {
			g.Partitions = append(g.Partitions, resetplan.Partition{Topic: "t", Partition: int32(i), Target: tg})
		}
		return g
	}
	refused := fmt.Errorf("OffsetCommit group g: %w", errors.New("the group has active members"))
	timeout := &kafkaadmin.TimeoutError{Bootstrap: "b:9092"}
	readFailed := errors.New("coordinator gone")
	type want struct {
		outcome  Outcome
		err      string // the group's error, "" for none
		parts    []Outcome
		perrs    []string
		afterOf0 *int64
	}
	cases := []struct {
		name     string
		g        resetplan.Group
		perr     map[TopicPartition]error
		groupErr error
		after    map[TopicPartition]kafkaadmin.CommittedOffset
		rerr     error
		want     want
	}{
		{
			name:  "written, and one partition already at its target",
			g:     group(ptr(2), ptr(3)),
			after: committed(map[int32]int64{0: 2, 1: 3}),
			want:  want{outcome: Written, parts: []Outcome{Written, Unchanged}, perrs: []string{"", ""}, afterOf0: ptr(2)},
		},
		{
			name: "read-back failed",
			g:    group(ptr(2), ptr(3)),
			rerr: readFailed,
			want: want{outcome: Unknown, err: "reading the offsets back: coordinator gone", parts: []Outcome{Unknown, Unknown},
				perrs: []string{"could not read the offset back: coordinator gone", "could not read the offset back: coordinator gone"}},
		},
		{
			name:     "the broker refused the commit",
			g:        group(ptr(2), ptr(3)),
			perr:     map[TopicPartition]error{tp0: refused},
			groupErr: refused,
			after:    committed(map[int32]int64{0: 5, 1: 3}),
			want: want{outcome: NotWritten, err: refused.Error(), parts: []Outcome{NotWritten, Unchanged},
				perrs: []string{refused.Error(), ""}, afterOf0: ptr(5)},
		},
		{
			name:     "a group error without partition errors names every partition not written",
			g:        group(ptr(2), ptr(1)),
			groupErr: refused,
			after:    committed(map[int32]int64{0: 5, 1: 3}),
			want:     want{outcome: NotWritten, err: refused.Error(), parts: []Outcome{NotWritten, NotWritten}, perrs: []string{refused.Error(), refused.Error()}, afterOf0: ptr(5)},
		},
		{
			name:     "answer lost, offset not moved: it may still land",
			g:        group(ptr(2), ptr(3)),
			groupErr: timeout,
			after:    committed(map[int32]int64{0: 5, 1: 3}),
			want: want{outcome: Unknown, err: timeout.Error(), parts: []Outcome{Unknown, Unchanged},
				perrs: []string{"sent, but the answer was lost and the offset read back is not the target yet; it may still land: check with kcg describe: " + timeout.Error(), ""}, afterOf0: ptr(5)},
		},
		{
			name:     "answer lost, every target read back: written and verified",
			g:        group(ptr(2), ptr(3)),
			groupErr: timeout,
			after:    committed(map[int32]int64{0: 2, 1: 3}),
			want:     want{outcome: Written, parts: []Outcome{Written, Unchanged}, perrs: []string{"", ""}, afterOf0: ptr(2)},
		},
		{
			name:     "one partition written, the other refused",
			g:        group(ptr(2), ptr(1)),
			perr:     map[TopicPartition]error{tp1: refused},
			groupErr: refused,
			after:    committed(map[int32]int64{0: 2, 1: 3}),
			want:     want{outcome: Partial, err: refused.Error(), parts: []Outcome{Written, NotWritten}, perrs: []string{"", refused.Error()}, afterOf0: ptr(2)},
		},
		{
			name:  "no error, but the offset read back is not the target",
			g:     group(ptr(2)),
			after: committed(map[int32]int64{0: 4}),
			want: want{outcome: Partial, err: "verification failed: t/0 reads back 4, planned 2", parts: []Outcome{NotWritten},
				perrs: []string{"the offset read back differs from the target"}, afterOf0: ptr(4)},
		},
		{
			// The commit of 5 is gone: the offset moved, so part of the
			// group changed.
			name:  "no error, and no offset read back",
			g:     group(ptr(2)),
			after: committed(nil),
			want: want{outcome: Partial, err: "verification failed: t/0 reads back no offset, planned 2", parts: []Outcome{NotWritten},
				perrs: []string{"the offset read back differs from the target"}},
		},
		{
			name: "a rollback's deletion, read back from a group with no commit at all",
			g:    group(nil),
			want: want{outcome: Written, parts: []Outcome{Written}, perrs: []string{""}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gr := classify(c, tc.g, tc.perr, tc.groupErr, tc.after, tc.rerr)
			if gr.Group != "g" || gr.Outcome != tc.want.outcome {
				t.Errorf("group %s %s, want g %s", gr.Group, gr.Outcome, tc.want.outcome)
			}
			switch {
			case tc.want.err == "" && gr.Err != nil:
				t.Errorf("error %v, want none", gr.Err)
			case tc.want.err != "" && (gr.Err == nil || gr.Err.Error() != tc.want.err):
				t.Errorf("error %v, want %q", gr.Err, tc.want.err)
			}
			if len(gr.Partitions) != len(tc.want.parts) {
				t.Fatalf("%d partitions, want %d", len(gr.Partitions), len(tc.want.parts))
			}
			for i, p := range gr.Partitions {
				if p.Outcome != tc.want.parts[i] || p.Error != tc.want.perrs[i] {
					t.Errorf("t/%d: %s %q, want %s %q", i, p.Outcome, p.Error, tc.want.parts[i], tc.want.perrs[i])
				}
				if p.TP.Partition != int32(i) || !sameOffset(p.Target, tc.g.Partitions[i].Target) || !sameOffset(p.Before, c.LiveOffset("g", p.TP)) {
					t.Errorf("t/%d: %+v: wrong partition, target or before", i, p)
				}
			}
			if a := gr.Partitions[0].After; !sameOffset(a, tc.want.afterOf0) {
				t.Errorf("t/0 reads back %s, want %s", offsetText(a), offsetText(tc.want.afterOf0))
			}
		})
	}
}

package commands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// A share group on the real broker goes plan → show → diff → apply →
// rollback, each step checked independently of kcg (franz-go's
// DescribeShareGroupOffsets, kafkatest.ShareStartOffsets): the Java
// console share consumer initialises the share-partitions, leaves, and
// the Empty group's start offsets are reset and restored. A stale plan
// and a group with a member are refused with nothing written.
func TestShareGroupResetFlow(t *testing.T) {
	f := newResetFixture(t)
	if !f.e.Real {
		t.Skip("real broker only: kfake drops a share group once its member leaves, so an Empty share group cannot be reset there (TestApplyShareGroupActive covers the refusal on kfake)")
	}
	share := kafkatest.UniqueName(t, "share")
	m := f.e.ShareGroupMember(t, share, f.topic)
	waitShareOffsets(t, f.e, share, f.topic, 2)
	m.Stop()
	waitShareState(t, f.e, share, "Empty")
	// Read once Empty: the member acknowledges until it leaves.
	before := f.e.ShareStartOffsets(t, share)[f.topic]

	plan := f.path("share.yaml")
	f.plan(t, "share.yaml", share, "--topic", f.topic, "--to-offset", "3")
	data := readFile(t, plan)
	for _, want := range []string{"type: share", "stateAtPlan: Empty", "target: 3", fmt.Sprintf("current: %d", before[0])} {
		if !strings.Contains(data, want) {
			t.Fatalf("plan lacks %q:\n%s", want, data)
		}
	}
	kcg(t, "show", plan).MustCode(t, 0)
	kcgOn(t, f.e, "diff", plan).MustCode(t, 0)

	r := kcgOn(t, f.e, "apply", plan, "-o", "json").MustCode(t, 0)
	var report struct {
		Result       string  `json:"result"`
		RollbackPlan *string `json:"rollbackPlan"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil || report.Result != "applied" || report.RollbackPlan == nil {
		t.Fatalf("report %v %s", err, r.Stdout)
	}
	if got := f.e.ShareStartOffsets(t, share)[f.topic]; !maps.Equal(got, map[int32]int64{0: 3, 1: 3}) {
		t.Fatalf("after apply, start offsets %v, want 3 and 3", got)
	}
	// Applied: apply again is a no-op, and the same plan reads as applied.
	r = kcgOn(t, f.e, "apply", plan).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "already applied") {
		t.Fatalf("apply again: %q", r.Stderr)
	}

	// A plan made before someone else moved the start offsets is stale.
	stale := f.path("stale.yaml")
	f.plan(t, "stale.yaml", share, "--topic", f.topic, "--to-offset", "4")
	f.plan(t, "other.yaml", share, "--topic", f.topic, "--to-offset", "6")
	kcgOn(t, f.e, "apply", f.path("other.yaml"), "--rollback-out", f.path("other-rb.yaml")).MustCode(t, 0)
	kcgOn(t, f.e, "apply", stale, "--rollback-out", f.path("stale-rb.yaml")).MustCode(t, 3)
	if got := f.e.ShareStartOffsets(t, share)[f.topic]; !maps.Equal(got, map[int32]int64{0: 6, 1: 6}) {
		t.Fatalf("a refused stale apply wrote: %v", got)
	}
	kcgOn(t, f.e, "apply", f.path("other-rb.yaml"), "--rollback-out", f.path("other-rb-rb.yaml")).MustCode(t, 0)

	// The rollback plan restores the start offsets from before.
	kcgOn(t, f.e, "apply", *report.RollbackPlan, "--rollback-out", f.path("undo-undo.yaml")).MustCode(t, 0)
	if got := f.e.ShareStartOffsets(t, share)[f.topic]; !maps.Equal(got, before) {
		t.Fatalf("after rollback, start offsets %v, want %v", got, before)
	}

	// With a member again: exit 3, nothing written.
	f.e.ShareGroupMember(t, share, f.topic)
	waitShareState(t, f.e, share, "Stable")
	kcgOn(t, f.e, "apply", stale, "--rollback-out", f.path("active-rb.yaml")).MustCode(t, 3)
	if got := f.e.ShareStartOffsets(t, share)[f.topic]; got[0] == 4 || got[1] == 4 {
		t.Fatalf("an apply refused for active members wrote: %v", got)
	}
}

// waitShareOffsets waits until group has a start offset on n partitions
// of the fixture's topic (the share consumer initialises them when it
// first fetches) and returns them.
func waitShareOffsets(t *testing.T, e *kafkatest.Env, group, topic string, n int) map[int32]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		// The share-partitions start at the log end when the member
		// first fetches; a record it then consumes sets the start offset.
		e.Produce(t, topic, 0, records(1)...)
		e.Produce(t, topic, 1, records(1)...)
		if ps := e.ShareStartOffsets(t, group)[topic]; len(ps) >= n {
			return ps
		}
		select {
		case <-ctx.Done():
			t.Fatalf("share group %s: no start offsets on %d partitions after 60s: %v", group, n, e.ShareStartOffsets(t, group))
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// describeShareStartOffsets checks kcg describe's startOffset and lag of
// share group's share-partitions of topic (two partitions) on the real
// broker, whose member (the console share consumer) consumes and
// acknowledges what is produced: once both are initialised, records
// produced after move the start offsets on. Share consumers acknowledge
// asynchronously, so it polls (60 s at most) until kcg shows the start
// offsets advanced and, where the broker gives lag
// (DescribeShareGroupOffsets v1, 4.2+), lag 0, twice alike; then the
// start offsets must equal franz-go's (kafkatest.ShareStartOffsets), and
// lag be null before 4.2.
func describeShareStartOffsets(t *testing.T, e *kafkatest.Env, group, topic string) {
	t.Helper()
	before := waitShareOffsets(t, e, group, topic, 2)
	e.Produce(t, topic, 0, records(3)...)
	e.Produce(t, topic, 1, records(3)...)
	type row struct {
		Partition    int32
		StartOffset  *int64
		LogEndOffset *int64
		Lag          *int64
	}
	read := func() (map[int32]row, string) {
		r := kcgOn(t, e, "describe", group, "--topic", topic, "-o", "json").MustCode(t, 0)
		var doc struct{ Groups []struct{ Offsets []row } }
		if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || len(doc.Groups) != 1 {
			t.Fatalf("describe -o json: %v\n%s", err, r.Stdout)
		}
		out := map[int32]row{}
		for _, o := range doc.Groups[0].Offsets {
			out[o.Partition] = o
		}
		return out, r.Stdout
	}
	// consumed: every start offset past where it was before the records
	// and within the log, and (4.2+) the broker's lag 0. The start
	// offset the broker reports is the persisted one, which may stay
	// behind the log end while lag is already 0 (4.4.0: 21 of 24).
	consumed := func(rs map[int32]row) bool {
		for p := range int32(2) {
			o, ok := rs[p]
			if !ok || o.StartOffset == nil || o.LogEndOffset == nil || *o.StartOffset <= before[p] || *o.StartOffset > *o.LogEndOffset {
				return false
			}
			if !e.Before(4, 2) && (o.Lag == nil || *o.Lag != 0) {
				return false
			}
		}
		return true
	}
	// values is rs by value (the rows hold pointers), to compare two reads.
	values := func(rs map[int32]row) string {
		v := func(p *int64) string {
			if p == nil {
				return "null"
			}
			return fmt.Sprint(*p)
		}
		var b strings.Builder
		for p := range int32(2) {
			o := rs[p]
			fmt.Fprintf(&b, "%d:%s/%s/%s ", p, v(o.StartOffset), v(o.LogEndOffset), v(o.Lag))
		}
		return b.String()
	}
	deadline := time.Now().Add(60 * time.Second)
	last := ""
	for {
		rs, out := read()
		if consumed(rs) && values(rs) == last {
			franz := e.ShareStartOffsets(t, group)[topic]
			for p, o := range rs {
				if franz[p] != *o.StartOffset {
					t.Fatalf("partition %d: kcg startOffset %d, franz-go %d\n%s", p, *o.StartOffset, franz[p], out)
				}
				if e.Before(4, 2) && o.Lag != nil {
					t.Fatalf("partition %d: lag %d from a broker before 4.2 (Kafka %s), want null\n%s", p, *o.Lag, e.Version, out)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("share group %s: the start offsets did not advance past %v (with lag 0 from 4.2) and hold there in 60s:\n%s", group, before, out)
		}
		last = values(rs)
		time.Sleep(500 * time.Millisecond)
	}
}

// waitShareState waits until kcg describe shows group in state.
func waitShareState(t *testing.T, e *kafkatest.Env, group, state string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := kcgOn(t, e, "describe", group, "-o", "json")
		if strings.Contains(r.Stdout, `"state": "`+state+`"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("share group %s not %s after 60s:\n%s", group, state, r.Stdout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// kcg delete of an Empty share group on the real broker: the undo plan
// (type share, the start offsets) is written first, then the group is
// gone, as the broker lists it.
func TestShareGroupDelete(t *testing.T) {
	f := newResetFixture(t)
	if !f.e.Real {
		t.Skip("real broker only: kfake drops a share group once its member leaves")
	}
	share := kafkatest.UniqueName(t, "share")
	m := f.e.ShareGroupMember(t, share, f.topic)
	waitShareOffsets(t, f.e, share, f.topic, 2)
	m.Stop()
	waitShareState(t, f.e, share, "Empty")
	r := kcgOn(t, f.e, "delete", "--yes", share).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "undo plan written to") {
		t.Fatalf("delete: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if typ, ok := f.e.GroupTypes(t)[share]; ok {
		t.Fatalf("the share group is still listed (type %s)", typ)
	}
	if got := f.e.ShareStartOffsets(t, share); len(got) != 0 {
		t.Fatalf("start offsets after delete: %v", got)
	}
}

// kcg delete-offsets of an Empty share group on the real broker: the undo
// plan first, then the topic's share-partition state is gone (franz-go
// reads no start offset), and the undo plan sets it again.
func TestShareGroupDeleteOffsets(t *testing.T) {
	f := newResetFixture(t)
	if !f.e.Real {
		t.Skip("real broker only: kfake drops a share group once its member leaves")
	}
	share := kafkatest.UniqueName(t, "share")
	m := f.e.ShareGroupMember(t, share, f.topic)
	waitShareOffsets(t, f.e, share, f.topic, 2)
	m.Stop()
	waitShareState(t, f.e, share, "Empty")
	before := f.e.ShareStartOffsets(t, share)[f.topic]
	r := kcgOn(t, f.e, "delete-offsets", "--yes", share, "--topic", f.topic).MustCode(t, 0)
	undo := undoPath(t, r.Stderr)
	if got := f.e.ShareStartOffsets(t, share)[f.topic]; len(got) != 0 {
		t.Fatalf("start offsets after delete-offsets: %v\n%s", got, r.Stderr)
	}
	data := readFile(t, undo)
	if !strings.Contains(data, "type: share") {
		t.Fatalf("undo plan:\n%s", data)
	}
	kcgOn(t, f.e, "apply", undo, "--rollback-out", f.path("undo-rb.yaml")).MustCode(t, 0)
	if got := f.e.ShareStartOffsets(t, share)[f.topic]; !maps.Equal(got, before) {
		t.Fatalf("after the undo plan, start offsets %v, want %v", got, before)
	}
}

// undoPath is the undo plan a delete named on stderr.
func undoPath(t *testing.T, stderr string) string {
	t.Helper()
	const marker = "undo plan written to "
	i := strings.Index(stderr, marker)
	if i < 0 {
		t.Fatalf("no undo plan named: %q", stderr)
	}
	rest := stderr[i+len(marker):]
	return strings.TrimSuffix(strings.Fields(rest)[0], ":")
}

package commands_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// Issue 30 item 5: kcg watch of a share group was refused as "not a
// consumer group … nothing was written". It watches a share group as
// describe describes it: its start offsets as the committed offsets, the
// broker's lag (describe's), in every format (json, table, none), beside
// a consumer group. On the real broker the group is Empty and lagging
// (the member left, records came after), so the numbers hold still and
// must equal describe's exactly, and --exit-on-breach sees its lag.
func TestWatchShareGroup(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	m := f.e.ShareGroupMember(t, share, f.topic)
	if f.e.Real { // kfake keeps no start offsets (TestDescribeShareGroup)
		waitShareOffsets(t, f.e, share, f.topic, 2)
		m.Stop()
		waitShareState(t, f.e, share, "Empty")
		f.e.Produce(t, f.topic, 0, records(4)...)
		f.e.Produce(t, f.topic, 1, records(7)...)
	}

	type offsets struct {
		Partition int32  `json:"partition"`
		Start     *int64 `json:"startOffset"`
		Committed *int64 `json:"committedOffset"`
		Lag       *int64 `json:"lag"`
	}
	var desc struct {
		Groups []struct {
			Group    string    `json:"group"`
			State    *string   `json:"state"`
			TotalLag *int64    `json:"totalLag"`
			Offsets  []offsets `json:"offsets"`
		} `json:"groups"`
	}
	r := kcgOn(t, f.e, "describe", share, "-o", "json").MustCode(t, 0)
	if err := json.Unmarshal([]byte(r.Stdout), &desc); err != nil || len(desc.Groups) != 1 {
		t.Fatalf("describe: %v\n%s", err, r.Stdout)
	}
	d := desc.Groups[0]

	var s struct {
		Groups []struct {
			Group      string    `json:"group"`
			State      *string   `json:"state"`
			Lag        *int64    `json:"lag"`
			Status     string    `json:"status"`
			Error      *string   `json:"error"`
			Partitions []offsets `json:"partitions"`
		} `json:"groups"`
	}
	r = kcgOn(t, f.e, "watch", share, f.group, "--interval", "200ms", "--count", "2", "-o", "json").MustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &s) != nil || len(s.Groups) != 2 {
		t.Fatalf("watch -o json: want 2 samples of 2 groups:\n%s", r.Stdout)
	}
	w := s.Groups[0]
	if w.Group != share {
		w = s.Groups[1]
	}
	if w.Group != share || w.Error != nil || w.State == nil || len(w.Partitions) != len(d.Offsets) {
		t.Fatalf("the share group's sample %+v, describe's %+v:\n%s", w, d, lines[1])
	}
	for i, p := range w.Partitions {
		if f.e.Real && p.Committed == nil {
			t.Errorf("partition %d: no committedOffset (the start offset)", p.Partition)
		}
		if f.e.Real && (!eqInt(p.Committed, d.Offsets[i].Start) || !eqInt(p.Lag, d.Offsets[i].Lag)) {
			t.Errorf("partition %d: watch committedOffset %s lag %s, describe startOffset %s lag %s",
				p.Partition, intOrNull(p.Committed), intOrNull(p.Lag), intOrNull(d.Offsets[i].Start), intOrNull(d.Offsets[i].Lag))
		}
	}
	if f.e.Real && (!eqInt(w.Lag, d.TotalLag) || *w.State != *d.State) {
		t.Errorf("watch lag %s state %s, describe totalLag %s state %s", intOrNull(w.Lag), *w.State, intOrNull(d.TotalLag), *d.State)
	}

	// The table: the group's row has describe's total lag.
	r = kcgOn(t, f.e, "watch", share, "--interval", "200ms", "--count", "2").MustCode(t, 0)
	rs := rows(r.Stdout, share)
	if len(rs) != 2 || len(rs[1]) < 4 {
		t.Fatalf("watch table: rows %q\n%s", rs, r.Stdout)
	}
	if f.e.Real && rs[1][3] != intOrNull(d.TotalLag) && !(d.TotalLag == nil && rs[1][3] == "-") {
		t.Errorf("watch table: LAG %s, describe totalLag %s", rs[1][3], intOrNull(d.TotalLag))
	}
	if r := kcgOn(t, f.e, "watch", share, "--count", "1", "-o", "none").MustCode(t, 0); r.Stdout != "" || r.Stderr != "" {
		t.Errorf("watch -o none: stdout %q stderr %q, want nothing", r.Stdout, r.Stderr)
	}
	if f.e.Real && d.TotalLag != nil && *d.TotalLag > 0 {
		r = kcgOn(t, f.e, "watch", share, "--count", "1", "-o", "none", "--exit-on-breach", "--max-lag", "0").MustCode(t, 5)
		if !strings.Contains(r.Stderr, share) || !strings.Contains(r.Stderr, strconv.FormatInt(*d.TotalLag, 10)) {
			t.Errorf("--exit-on-breach: stderr %q, want the group and its lag %d", r.Stderr, *d.TotalLag)
		}
	}
}

func eqInt(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func intOrNull(v *int64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatInt(*v, 10)
}

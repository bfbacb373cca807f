package clienttest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/output"
)

// The records of the scenario: first per partition (consumed by the two
// members and committed), then more while they are stopped, so that the
// old offsets the rollback restores are below the log end and a restarted
// member receives records from there.
const (
	firstRecords = 6
	moreRecords  = 3
)

// planned are the offsets the reset plan sets (partition → offset): below
// the committed ones and different per partition, so a member starting
// anywhere else (the log start, the committed offsets, a swapped
// partition) is seen.
var planned = map[int32]int64{0: 2, 1: 4}

// startFunc starts the member id ("a", "b") of s's group; probe: a
// restarted member that only reports what it receives, committing nothing.
type startFunc func(t *testing.T, s *scenario, id string, probe bool) *member

// scenario is one client's group: a two-partition topic and the group.
type scenario struct {
	e     *kafkatest.Env
	topic string
	group string
	dir   string
}

func newScenario(t *testing.T, e *kafkatest.Env) *scenario {
	t.Helper()
	s := &scenario{e: e, topic: kafkatest.UniqueName(t, "t"), group: kafkatest.UniqueName(t, "g"), dir: t.TempDir()}
	e.CreateTopic(t, s.topic, 2)
	s.produce(t, firstRecords)
	return s
}

func (s *scenario) produce(t *testing.T, n int) {
	t.Helper()
	for p := range 2 {
		recs := make([]kafkatest.Record, n)
		for i := range recs {
			recs[i] = kafkatest.Record{Value: fmt.Sprintf("r-%d-%d", p, i)}
		}
		s.e.Produce(t, s.topic, p, recs...)
	}
}

// kcg runs kcg in-process against the scenario's broker.
func (s *scenario) kcg(t *testing.T, args ...string) clitest.Result {
	t.Helper()
	return clitest.Run(t, append(args, "--bootstrap-server", s.e.Bootstrap)...)
}

// describe is kcg's describe -o json of the group.
func (s *scenario) describe(t *testing.T) output.GroupDescription {
	t.Helper()
	return s.describeCode(t, 0)
}

// describeCode is describe exiting code (1: the group does not exist yet).
func (s *scenario) describeCode(t *testing.T, code int) output.GroupDescription {
	t.Helper()
	r := s.kcg(t, "describe", s.group, "-o", "json")
	if r.Code != 0 && r.Code != code {
		r.MustCode(t, 0)
	}
	var l output.GroupDescriptionList
	if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil || len(l.Groups) != 1 {
		t.Fatalf("describe -o json: %v, %d groups\n%s", err, len(l.Groups), r.Stdout)
	}
	return l.Groups[0]
}

// committed returns the group's committed offsets on the topic.
func (s *scenario) committed(t *testing.T) map[int32]int64 {
	t.Helper()
	return s.e.Committed(t, s.group)[s.topic]
}

// waitUntil polls describe until ok says the group is there, for at most
// 90 s (or until a member dies).
func (s *scenario) waitUntil(t *testing.T, what string, members []*member, ok func(d output.GroupDescription) bool) output.GroupDescription {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		for _, m := range members {
			if err := m.exited(); err != nil {
				t.Fatalf("waiting for %s: %v", what, err)
			}
		}
		d := s.describeCode(t, 1)
		if ok(d) {
			return d
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(d, "", "  ")
			var logs strings.Builder
			for _, m := range members {
				fmt.Fprintf(&logs, "\n%s stderr (tail):\n%s", m.name, m.stderr())
			}
			t.Fatalf("gave up waiting 90s for %s; last describe:\n%s%s", what, b, logs.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// caughtUp: every partition committed at want.
func caughtUp(d output.GroupDescription, want int64) bool {
	n := 0
	for _, o := range d.Offsets {
		if o.CommittedOffset == nil || *o.CommittedOffset != want {
			return false
		}
		n++
	}
	return n == 2
}

// settled: Stable, n members, each assigned (and reconciled: its target
// assignment, where it has one, is its assignment), every partition
// committed at want.
func settled(d output.GroupDescription, n int, want int64) bool {
	if d.State == nil || *d.State != "Stable" || len(d.Members) != n || !caughtUp(d, want) {
		return false
	}
	for _, m := range d.Members {
		if m.NumPartitions() == 0 {
			return false
		}
		if m.TargetAssignments != nil && fmt.Sprint(*m.TargetAssignments) != fmt.Sprint(m.Assignments) {
			return false
		}
	}
	return true
}

// firstOffsets reads m's records until it has one of each partition and
// returns the first offset of each.
func firstOffsets(t *testing.T, m *member) map[int32]int64 {
	t.Helper()
	got := map[int32]int64{}
	timeout := time.After(90 * time.Second)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for len(got) < 2 {
		select {
		case d := <-m.recs:
			if _, seen := got[d.Partition]; !seen {
				got[d.Partition] = d.Offset
			}
		case <-tick.C:
			if err := m.exited(); err != nil {
				t.Fatalf("%s: %v (received first: %v)", m.name, err, got)
			}
		case <-timeout:
			t.Fatalf("%s received the first records of %v only in 90s", m.name, got)
		}
	}
	return got
}

// sameOffsets fails unless got equals want.
func sameOffsets(t *testing.T, what string, want, got map[int32]int64) {
	t.Helper()
	if fmt.Sprint(want) != fmt.Sprint(got) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
}

// writePlan plans the reset to planned with --from-file (the Java tool's
// CSV), as an operator would.
func (s *scenario) writePlan(t *testing.T) string {
	t.Helper()
	csv := filepath.Join(s.dir, "offsets.csv")
	var b strings.Builder
	for _, p := range []int32{0, 1} {
		fmt.Fprintf(&b, "%s,%d,%d\n", s.topic, p, planned[p])
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(s.dir, "plan.yaml")
	s.kcg(t, "plan", s.group, "--from-file", csv, "--out", plan).MustCode(t, 0)
	return plan
}

// apply applies plan after waiting for the group to be empty (static
// members and classic Kafka Streams stay members until their session times
// out), and returns the rollback plan's path.
func (s *scenario) apply(t *testing.T, plan, rollback string) {
	t.Helper()
	s.kcg(t, "apply", plan, "--wait-empty", "60s", "--rollback-out", rollback).MustCode(t, 0)
}

// refusedWhileRunning: apply while the members run. A group with members is
// refused (exit 3, nothing written); a group whose consumers use assign()
// has none, so apply writes and its settle watch sees the consumers take
// the offsets back (exit 4, "overwritten").
func (s *scenario) refusedWhileRunning(t *testing.T, plan string, assignOnly bool) {
	t.Helper()
	before := s.committed(t)
	r := s.kcg(t, "apply", plan, "--rollback-out", filepath.Join(s.dir, "refused-rollback.yaml"))
	if assignOnly {
		r.MustCode(t, 4)
		if !strings.Contains(r.Stderr, "overwritten") {
			t.Fatalf("apply over assign() consumers: stderr %q, want the overwritten line", r.Stderr)
		}
		// The consumers commit their positions again within a poll.
		deadline := time.Now().Add(10 * time.Second)
		for fmt.Sprint(s.committed(t)) != fmt.Sprint(before) && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
	} else {
		r.MustCode(t, 3)
		if !strings.Contains(r.Stderr, "active") || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Fatalf("apply while members run: stderr %q, want one line about the active members", r.Stderr)
		}
	}
	sameOffsets(t, "committed after the refused apply", before, s.committed(t))
}

// watchSane runs watch -o json for two samples and checks them against
// describe d: state, member count, lag and each partition's numbers.
func (s *scenario) watchSane(t *testing.T, d output.GroupDescription) {
	t.Helper()
	r := s.kcg(t, "watch", s.group, "-o", "json", "--count", "2", "--interval", "300ms").MustCode(t, 0)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("watch --count 2: %d lines:\n%s", len(lines), r.Stdout)
	}
	for i, line := range lines {
		var smp output.LagSample
		if err := json.Unmarshal([]byte(line), &smp); err != nil || len(smp.Groups) != 1 {
			t.Fatalf("watch sample %d: %v\n%s", i, err, line)
		}
		g := smp.Groups[0]
		if g.Group != s.group || str(g.State) != str(d.State) || g.Members != len(d.Members) || num(g.Lag) != num(d.TotalLag) || g.Error != nil {
			t.Fatalf("watch sample %d: group %s state %s members %d lag %s error %v; describe: state %s members %d lag %s",
				i, g.Group, str(g.State), g.Members, num(g.Lag), g.Error, str(d.State), len(d.Members), num(d.TotalLag))
		}
		var wp, dp []string
		for _, p := range g.Partitions {
			wp = append(wp, fmt.Sprintf("%s/%d %s %s %s", p.Topic, p.Partition, num(p.CommittedOffset), num(p.EndOffset), num(p.Lag)))
		}
		for _, o := range d.Offsets {
			dp = append(dp, fmt.Sprintf("%s/%d %s %s %s", o.Topic, o.Partition, num(o.CommittedOffset), num(o.LogEndOffset), num(o.Lag)))
		}
		slices.Sort(wp)
		slices.Sort(dp)
		if !slices.Equal(wp, dp) {
			t.Fatalf("watch sample %d partitions %q, describe %q", i, wp, dp)
		}
	}
}

// str and num print an optional value as the Java tool does: "-" for none.
func str(p *string) string {
	if p == nil {
		return "-"
	}
	return *p
}

func num[T int32 | int64](p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

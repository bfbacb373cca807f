package groupops_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/resetplan"
)

// gcOldRecords makes a topic of n partitions (with configs), each holding
// six records stamped base, base+1m, ..., base+5m, and returns its name.
// The records have keys: a compacted topic refuses records without one.
func gcOldRecords(t *testing.T, e *kafkatest.Env, n int, base time.Time, configs ...string) string {
	t.Helper()
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, n, configs...)
	for p := range n {
		var recs []kafkatest.Record
		for i := range 6 {
			recs = append(recs, kafkatest.Record{Key: fmt.Sprint("k", i), Value: "v", Time: base.Add(time.Duration(i) * time.Minute)})
		}
		e.Produce(t, topic, p, recs...)
	}
	return topic
}

// Describe with time lags: each phase told to Progress; the time lag of a
// commit behind the log end is its next record's; the retention headroom
// is that record's time + retention.ms - now (nil on a compacted topic, 0
// below the log start); the topics' retention is kept in the snapshot.
func TestGcovDescribeTimeLagAndRetention(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	base := time.Now().Add(-50 * time.Minute).Truncate(time.Millisecond)
	const hour = int64(time.Hour / time.Millisecond)
	kept := gcOldRecords(t, e, 2, base, "retention.ms=3600000")
	compact := gcOldRecords(t, e, 1, base, "cleanup.policy=compact")
	e.DeleteRecords(t, kept, map[int32]int64{1: 3})
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, kept, map[int32]int64{0: 2, 1: 1})
	e.Commit(t, g, compact, map[int32]int64{0: 6})

	for _, classified := range []bool{false, true} {
		var phases []string
		s, err := groupops.Describe(ctx, cl, []string{g}, groupops.DescribeOptions{TimeLag: true, Classified: classified, Progress: func(p string) { phases = append(phases, p) }})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(phases); n < 2 || !slices.Equal(phases[n-2:], []string{"reading record timestamps", "reading topic retention"}) {
			t.Errorf("classified %v: phases %q, want the time lags and retention read last", classified, phases)
		}
		if r := s.Retention[kept]; r.Err != nil || r.Ms == nil || *r.Ms != hour {
			t.Errorf("retention of %s: %+v, want an hour", kept, r)
		}
		if r := s.Retention[compact]; r.Err != nil || r.Ms != nil {
			t.Errorf("retention of %s: %+v, want none by age (compact)", compact, r)
		}
		if s.Now.IsZero() || len(s.TimeLagErrors()) != 0 {
			t.Errorf("measured at %v, errors %v", s.Now, s.TimeLagErrors())
		}

		// kept/0 committed at 2: the record at 2 is base+2m.
		tl, ok := s.TimeLagAt(groupops.TopicPartition{Topic: kept, Partition: 0}, 2)
		next := base.Add(2 * time.Minute)
		if !ok || tl.Timestamp == nil || !tl.Timestamp.Equal(next) || tl.Millis == nil || *tl.Millis != s.Now.Sub(next).Milliseconds() {
			t.Errorf("time lag of %s/0 at 2: %+v, want the record at %v", kept, tl, next)
		}
		if h := tl.RetentionHeadroomMs; h == nil || *h != next.UnixMilli()+hour-s.Now.UnixMilli() {
			t.Errorf("headroom of %s/0: %v, want %d", kept, gcOffset(h), next.UnixMilli()+hour-s.Now.UnixMilli())
		}
		// kept/1 committed at 1, below the log start 3: no headroom left.
		tl, ok = s.TimeLagAt(groupops.TopicPartition{Topic: kept, Partition: 1}, 1)
		if !ok || !slices.Contains(tl.Flags, groupops.FlagBelowLogStart) || tl.RetentionHeadroomMs == nil || *tl.RetentionHeadroomMs != 0 {
			t.Errorf("time lag of %s/1 at 1: %+v (headroom %v), want below the log start, headroom 0", kept, tl, gcOffset(tl.RetentionHeadroomMs))
		}
		// compact/0 caught up: time lag 0, no headroom (nothing deleted by age).
		tl, ok = s.TimeLagAt(groupops.TopicPartition{Topic: compact, Partition: 0}, 6)
		if !ok || tl.Millis == nil || *tl.Millis != 0 || tl.RetentionHeadroomMs != nil {
			t.Errorf("time lag of %s/0 at 6: %+v, want 0, no headroom", compact, tl)
		}
	}

	// Without TimeLag nothing of it is read.
	s, err := groupops.Describe(ctx, cl, []string{g}, groupops.DescribeOptions{ReadCommitted: true})
	if err != nil {
		t.Fatal(err)
	}
	if !s.ReadCommitted || s.Retention != nil || !s.Now.IsZero() {
		t.Errorf("describe without time lags: read committed %v, retention %v, now %v", s.ReadCommitted, s.Retention, s.Now)
	}
	if _, ok := s.TimeLagAt(groupops.TopicPartition{Topic: kept, Partition: 0}, 2); ok {
		t.Error("a time lag without TimeLag")
	}
}

// --to-datetime through BuildPlan: Lookup.OffsetsForTime finds the first
// record at or after the time; past the last record the target is the log
// end.
func TestGcovPlanToDatetime(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	base := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	topic := gcOldRecords(t, e, 1, base)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 5})
	scope, err := resetplan.ParseScope(false, []string{topic})
	if err != nil {
		t.Fatal(err)
	}
	info, snaps, err := groupops.ReadForPlan(ctx, cl, []string{g}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   time.Time
		want int64
	}{
		{base.Add(150 * time.Second), 3},
		{base.Add(2 * time.Minute), 2},
		{base.Add(-time.Minute), 0},
		{base.Add(10 * time.Minute), 6},
	} {
		plan, _, err := groupops.BuildPlan(ctx, cl, info, snaps, groupops.PlanRequest{Scope: scope, Strategy: resetplan.StrategySpec{Type: resetplan.StrategyToDatetime, Time: c.at}})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Groups) != 1 || len(plan.Groups[0].Partitions) != 1 || plan.Groups[0].Partitions[0].Target == nil || *plan.Groups[0].Partitions[0].Target != c.want {
			t.Errorf("to-datetime %v (base %+v): %+v, want target %d", c.at, c.at.Sub(base), plan.Groups, c.want)
		}
	}
}

// Lookup.Partitions leaves out a topic that does not exist, so Build can
// name every missing partition at once.
func TestGcovLookupPartitions(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 3)
	got, err := groupops.Lookup{Client: cl}.Partitions(ctx, []string{topic, topic + "-nosuch"})
	if err != nil {
		t.Fatal(err)
	}
	ps := got[topic]
	slices.Sort(ps)
	if len(got) != 1 || !slices.Equal(ps, []int32{0, 1, 2}) {
		t.Errorf("partitions %v, want only %s's 0, 1, 2", got, topic)
	}
}

// --to-group SOURCE: ReadForPlan reads the source in the same phases as
// the targets and hands its commits to the strategy; a source that does
// not exist is a *SourceMissingError.
func TestGcovReadForPlanToGroup(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 2)
	src, dst := kafkatest.UniqueName(t, "src"), kafkatest.UniqueName(t, "dst")
	e.Commit(t, src, topic, map[int32]int64{0: 4, 1: 2})
	e.Commit(t, dst, topic, map[int32]int64{0: 1})

	st := resetplan.StrategySpec{Type: resetplan.StrategyToGroup, Source: src}
	groups := []string{dst}
	_, snaps, err := groupops.ReadForPlan(ctx, cl, groups, &st)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 1 || snaps[0].Group != dst {
		t.Errorf("snapshots %+v, want %s's only", snaps, dst)
	}
	if !slices.Equal(groups, []string{dst}) {
		t.Errorf("the caller's groups became %v", groups)
	}
	want := map[groupops.TopicPartition]int64{{Topic: topic, Partition: 0}: 4, {Topic: topic, Partition: 1}: 2}
	if len(st.SourceCommits) != len(want) {
		t.Errorf("source commits %v, want %v", st.SourceCommits, want)
	}
	for tp, o := range want {
		if st.SourceCommits[tp] != o {
			t.Errorf("source commits %v, want %v", st.SourceCommits, want)
		}
	}

	nosuch := src + "-nosuch"
	st = resetplan.StrategySpec{Type: resetplan.StrategyToGroup, Source: nosuch}
	_, _, err = groupops.ReadForPlan(ctx, cl, []string{dst}, &st)
	var sm *groupops.SourceMissingError
	if !errors.As(err, &sm) || sm.Group != nosuch ||
		err.Error() != `source group "`+nosuch+`" does not exist: --to-group copies the committed offsets of an existing group; check the name; no plan was written` {
		t.Errorf("a source that does not exist: %v", err)
	}
}

// GroupNames lists every group of the cluster once, sorted.
func TestGcovGroupNames(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 1)
	b, a := kafkatest.UniqueName(t, "b"), kafkatest.UniqueName(t, "a")
	e.Commit(t, b, topic, map[int32]int64{0: 1})
	e.Commit(t, a, topic, map[int32]int64{0: 1})
	names, err := groupops.GroupNames(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("names %v, want sorted and distinct", names)
	}
	for _, g := range []string{a, b} {
		if !slices.Contains(names, g) {
			t.Errorf("%s is not among %d names", g, len(names))
		}
	}
}

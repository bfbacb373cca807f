package resetplan

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// group returns an Empty classic group with the given commits (topic "t").
func group(name string, commits map[TopicPartition]int64) GroupSnapshot {
	return GroupSnapshot{Group: name, Type: "classic", State: "Empty", Committed: commits}
}

func mustSpec(t *testing.T, name, value string) StrategySpec {
	t.Helper()
	s, err := ParseStrategy(name, value)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func build(t *testing.T, f *fakeLookup, req Request) (*Plan, []Warning) {
	t.Helper()
	if req.Now.IsZero() {
		req.Now = testNow
	}
	p, w, err := Build(context.Background(), f, req)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p, w
}

type wantPart struct {
	tp     TopicPartition
	cur    *int64
	target int64
	reason Reason
}

func checkParts(t *testing.T, name string, g Group, want []wantPart) {
	t.Helper()
	if len(g.Partitions) != len(want) {
		t.Fatalf("%s: %d partitions, want %d: %+v", name, len(g.Partitions), len(want), g.Partitions)
	}
	for i, w := range want {
		p := g.Partitions[i]
		if p.TP() != w.tp || p.Target == nil || *p.Target != w.target || p.Reason != w.reason ||
			(p.Current == nil) != (w.cur == nil) || (p.Current != nil && *p.Current != *w.cur) {
			cur, tgt := "null", "null"
			if p.Current != nil {
				cur = itoa(*p.Current)
			}
			if p.Target != nil {
				tgt = itoa(*p.Target)
			}
			t.Errorf("%s: partition %d = %s current=%s target=%s %s; want %s target=%d %s", name, i, p.TP(), cur, tgt, p.Reason, w.tp, w.target, w.reason)
		}
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestBuildStrategies is every strategy (docs/plan-format.md, "How the
// targets are resolved") on one partition t-0 with log [0, 6) and committed 3, plus t-1 without a commit
// and an empty t-2 (start == end == 4).
func TestBuildStrategies(t *testing.T) {
	// Records of t-0 at 1000, 2000, ... ms; t-1 at 5000..; t-2 empty.
	newCluster := func() *fakeLookup {
		return newFake().
			add("t", 0, 0, 6, 1000, 2000, 3000, 4000, 5000, 6000).
			add("t", 1, 2, 5, 5000, 6000, 7000).
			add("t", 2, 4, 4)
	}
	three := i64(3)
	all := Scope{Topics: []TopicSpec{{Topic: "t"}}}
	g := group("g", map[TopicPartition]int64{tp("t", 0): 3})
	ms := func(v int64) time.Time { return time.UnixMilli(v).UTC() }
	cases := []struct {
		name     string
		spec     StrategySpec
		now      time.Time
		want     []wantPart
		warnings []string
	}{
		{"to-earliest", mustSpec(t, "to-earliest", ""), testNow, []wantPart{
			{tp("t", 0), three, 0, ReasonResolved}, {tp("t", 1), nil, 2, ReasonResolved}, {tp("t", 2), nil, 4, ReasonResolved}}, nil},
		{"to-latest", mustSpec(t, "to-latest", ""), testNow, []wantPart{
			{tp("t", 0), three, 6, ReasonResolved}, {tp("t", 1), nil, 5, ReasonResolved}, {tp("t", 2), nil, 4, ReasonResolved}}, nil},
		{"to-current", mustSpec(t, "to-current", ""), testNow, []wantPart{
			{tp("t", 0), three, 3, ReasonResolved}, {tp("t", 1), nil, 5, ReasonNoCommitUsedEnd}, {tp("t", 2), nil, 4, ReasonNoCommitUsedEnd}}, nil},
		{"to-offset in range", mustSpec(t, "to-offset", "4"), testNow, []wantPart{
			{tp("t", 0), three, 4, ReasonResolved}, {tp("t", 1), nil, 4, ReasonResolved}, {tp("t", 2), nil, 4, ReasonResolved}}, nil},
		{"to-offset 99 clamps to end", mustSpec(t, "to-offset", "99"), testNow, []wantPart{
			{tp("t", 0), three, 6, ReasonClampedToEnd}, {tp("t", 1), nil, 5, ReasonClampedToEnd}, {tp("t", 2), nil, 4, ReasonClampedToEnd}},
			[]string{
				"New offset (99) is higher than latest offset for topic partition t-0. Value will be set to 6.",
				"New offset (99) is higher than latest offset for topic partition t-1. Value will be set to 5.",
				"New offset (99) is higher than latest offset for topic partition t-2. Value will be set to 4.",
			}},
		{"to-offset -1 clamps to start", mustSpec(t, "to-offset", "-1"), testNow, []wantPart{
			{tp("t", 0), three, 0, ReasonClampedToStart}, {tp("t", 1), nil, 2, ReasonClampedToStart}, {tp("t", 2), nil, 4, ReasonClampedToStart}},
			[]string{
				"New offset (-1) is lower than earliest offset for topic partition t-0. Value will be set to 0.",
				"New offset (-1) is lower than earliest offset for topic partition t-1. Value will be set to 2.",
				"New offset (-1) is lower than earliest offset for topic partition t-2. Value will be set to 4.",
			}},
		{"to-datetime finds records, falls back to end", mustSpec(t, "to-datetime", "1970-01-01T00:00:03.500Z"), testNow, []wantPart{
			{tp("t", 0), three, 3, ReasonResolved}, {tp("t", 1), nil, 2, ReasonResolved}, {tp("t", 2), nil, 4, ReasonNoRecordAfterTime}},
			[]string{"Partition 2 from topic t is empty. Falling back to latest known offset."}},
		{"to-datetime after every record", mustSpec(t, "to-datetime", "1970-01-01T00:00:06.500Z"), testNow, []wantPart{
			{tp("t", 0), three, 6, ReasonNoRecordAfterTime}, {tp("t", 1), nil, 4, ReasonResolved}, {tp("t", 2), nil, 4, ReasonNoRecordAfterTime}},
			[]string{"Partition 0 from topic t is empty. Falling back to latest known offset.", "Partition 2 from topic t is empty. Falling back to latest known offset."}},
		{"by-duration", mustSpec(t, "by-duration", "PT2S"), ms(6000), []wantPart{
			{tp("t", 0), three, 3, ReasonResolved}, {tp("t", 1), nil, 2, ReasonResolved}, {tp("t", 2), nil, 4, ReasonNoRecordAfterTime}},
			[]string{"Partition 2 from topic t is empty. Falling back to latest known offset."}},
	}
	for _, tc := range cases {
		f := newCluster()
		p, warns := build(t, f, Request{Groups: []GroupSnapshot{g}, Scope: all, Strategy: tc.spec, Now: tc.now})
		checkParts(t, tc.name, p.Groups[0], tc.want)
		var msgs []string
		for _, w := range warns {
			msgs = append(msgs, w.Message)
			if w.Group != "g" {
				t.Errorf("%s: warning without group: %+v", tc.name, w)
			}
		}
		if strings.Join(msgs, "\n") != strings.Join(tc.warnings, "\n") {
			t.Errorf("%s: warnings\n%s\nwant\n%s", tc.name, strings.Join(msgs, "\n"), strings.Join(tc.warnings, "\n"))
		}
		for _, pt := range p.Groups[0].Partitions {
			l := f.logs[pt.TP()]
			if pt.LogStart != l.start || pt.LogEnd != l.end {
				t.Errorf("%s: %s bounds %d..%d, want %d..%d", tc.name, pt.TP(), pt.LogStart, pt.LogEnd, l.start, l.end)
			}
		}
	}
}

// TestBuildShiftBy: committed 3 on a log [0, 6), shifted within the log,
// to its end, past either bound, and by the largest shift.
func TestBuildShiftBy(t *testing.T) {
	for _, tc := range []struct {
		by     string
		target int64
		reason Reason
		warn   string
	}{
		{"2", 5, ReasonResolved, ""},
		{"3", 6, ReasonResolved, ""}, // exactly the end is allowed
		{"-3", 0, ReasonResolved, ""},
		{"-10", 0, ReasonClampedToStart, "New offset (-7) is lower than earliest offset for topic partition t-0. Value will be set to 0."},
		{"10", 6, ReasonClampedToEnd, "New offset (13) is higher than latest offset for topic partition t-0. Value will be set to 6."},
		{"9223372036854775807", 6, ReasonClampedToEnd, "New offset (9223372036854775807) is higher than latest offset for topic partition t-0. Value will be set to 6."},
	} {
		f := newFake().add("t", 0, 0, 6)
		p, w := build(t, f, Request{Groups: []GroupSnapshot{group("g", map[TopicPartition]int64{tp("t", 0): 3})},
			Scope: Scope{AllTopics: true}, Strategy: mustSpec(t, "shift-by", tc.by)})
		checkParts(t, "shift-by "+tc.by, p.Groups[0], []wantPart{{tp("t", 0), i64(3), tc.target, tc.reason}})
		if tc.warn == "" && len(w) > 0 || tc.warn != "" && (len(w) != 1 || w[0].Message != tc.warn) {
			t.Errorf("shift-by %s: warnings %+v, want %q", tc.by, w, tc.warn)
		}
		if *p.Strategy.ShiftBy != mustSpec(t, "shift-by", tc.by).Offset {
			t.Errorf("strategy record %+v", p.Strategy)
		}
	}
}

func TestBuildShiftByWithoutCommitFails(t *testing.T) {
	f := newFake().add("t", 0, 0, 6).add("t", 1, 0, 6)
	_, _, err := Build(context.Background(), f, Request{
		Groups:   []GroupSnapshot{group("a", map[TopicPartition]int64{tp("t", 0): 1, tp("t", 1): 1}), group("b", map[TopicPartition]int64{tp("t", 0): 3})},
		Scope:    Scope{Topics: []TopicSpec{{Topic: "t"}}},
		Strategy: mustSpec(t, "shift-by", "1"), Now: testNow})
	var nc *NoCommitError
	if !errors.As(err, &nc) || !errors.Is(err, ErrNoCommittedOffset) || nc.Group != "b" {
		t.Fatalf("err = %v, want NoCommitError for b", err)
	}
	if want := "Cannot shift offset for partition t-1 since there is no current committed offset"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if f.calls["StartOffsets"] != 0 {
		t.Error("listed offsets before refusing")
	}
}

// TestBuildBatching: many groups and topics, one call per lookup method.
func TestBuildBatching(t *testing.T) {
	f := newFake()
	var groups []GroupSnapshot
	for _, topic := range []string{"a", "b", "c"} {
		for p := int32(0); p < 4; p++ {
			f.add(topic, p, 0, 100, 10, 20, 30)
		}
	}
	for _, name := range []string{"g3", "g1", "g2", "g1"} { // duplicate g1 collapses
		groups = append(groups, group(name, map[TopicPartition]int64{tp("a", 0): 5, tp("b", 3): 7}))
	}
	p, _ := build(t, f, Request{Groups: groups, Scope: Scope{Topics: []TopicSpec{{Topic: "a"}, {Topic: "b", Partitions: []int32{1, 3}}, {Topic: "c"}}},
		Strategy: mustSpec(t, "to-datetime", "1970-01-01T00:00:00.015Z")})
	for _, m := range []string{"Partitions", "StartOffsets", "EndOffsets", "OffsetsForTime"} {
		if f.calls[m] != 1 {
			t.Errorf("%s called %d times, want 1", m, f.calls[m])
		}
	}
	if f.lastTimeMs != 15 {
		t.Errorf("OffsetsForTime(%d), want 15", f.lastTimeMs)
	}
	if len(p.Groups) != 3 || p.Groups[0].Group != "g1" || p.Groups[2].Group != "g3" {
		t.Fatalf("groups %+v", p.Groups)
	}
	if n := len(p.Groups[0].Partitions); n != 4+2+4 {
		t.Errorf("%d partitions per group, want 10", n)
	}
	if pt := p.Groups[0].Partitions[4]; pt.TP() != tp("b", 1) {
		t.Errorf("order: partition 4 is %s", pt.TP())
	}
	f2 := newFake().add("t", 0, 0, 1)
	build(t, f2, Request{Groups: []GroupSnapshot{group("g", nil)}, Scope: Scope{AllTopics: true}, Strategy: mustSpec(t, "to-earliest", "")})
	if len(f2.calls) != 0 {
		t.Errorf("a plan with no partitions called the cluster: %v", f2.calls)
	}
}

// TestBuildRequestPhases: the cluster is asked each question once:
// metadata, then log starts, ends, and times only for the time strategies,
// those together (their order is the scheduler's).
func TestBuildRequestPhases(t *testing.T) {
	for _, tc := range []struct {
		spec StrategySpec
		want string
	}{
		{mustSpec(t, "to-earliest", ""), "Partitions StartOffsets EndOffsets"},
		{mustSpec(t, "shift-by", "1"), "Partitions StartOffsets EndOffsets"},
		{mustSpec(t, "to-datetime", "1970-01-01T00:00:00Z"), "Partitions StartOffsets EndOffsets OffsetsForTime"},
		{mustSpec(t, "by-duration", "PT1S"), "Partitions StartOffsets EndOffsets OffsetsForTime"},
	} {
		f := newFake().add("t", 0, 0, 6).add("u", 0, 0, 6)
		groups := []GroupSnapshot{group("a", map[TopicPartition]int64{tp("t", 0): 1, tp("u", 0): 1}), group("b", map[TopicPartition]int64{tp("t", 0): 2, tp("u", 0): 2})}
		build(t, f, Request{Groups: groups, Scope: Scope{AllTopics: true}, Strategy: tc.spec})
		order := f.order
		if len(order) > 1 {
			slices.Sort(order[1:])
		}
		want := strings.Fields(tc.want)
		slices.Sort(want[1:])
		if got := strings.Join(order, " "); got != strings.Join(want, " ") {
			t.Errorf("%s: calls %s, want %s", tc.spec.Type, got, tc.want)
		}
	}
}

func TestBuildScopeErrors(t *testing.T) {
	f := newFake().add("t", 0, 0, 6)
	run := func(scope Scope, spec StrategySpec) error {
		_, _, err := Build(context.Background(), f, Request{Groups: []GroupSnapshot{group("g", nil)}, Scope: scope, Strategy: spec, Now: testNow})
		return err
	}
	err := run(Scope{Topics: []TopicSpec{{Topic: "t", Partitions: []int32{0, 2, 3}}}}, mustSpec(t, "to-earliest", ""))
	if !errors.Is(err, ErrUnknownPartition) || err.Error() != `The partitions "t-2,t-3" do not exist` {
		t.Errorf("missing partitions: %v", err)
	}
	err = run(Scope{Topics: []TopicSpec{{Topic: "nope"}, {Topic: "t", Partitions: []int32{7}}}}, mustSpec(t, "to-earliest", ""))
	if !errors.Is(err, ErrUnknownTopic) || !errors.Is(err, ErrUnknownPartition) || err.Error() != `topic "nope" does not exist; The partitions "t-7" do not exist` {
		t.Errorf("missing topic: %v", err)
	}
	err = run(Scope{}, mustSpec(t, "to-earliest", ""))
	var ae *ArgError
	if !errors.As(err, &ae) || ae.JavaMessage() != NoScopeMessage || !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("no scope: %v", err)
	}
	err = run(Scope{AllTopics: true}, StrategySpec{})
	if !errors.As(err, &ae) || ae.JavaMessage() != ScenarioMissingMessage {
		t.Errorf("no strategy: %v", err)
	}
	err = run(Scope{AllTopics: true}, StrategySpec{Type: StrategyRollback})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("rollback as a strategy: %v", err)
	}
	// --all-topics wins over --topic, as in Java: the bad --topic is not checked.
	if err := run(Scope{AllTopics: true, Topics: []TopicSpec{{Topic: "nope"}}}, mustSpec(t, "to-earliest", "")); err != nil {
		t.Errorf("all-topics with topic: %v", err)
	}
}

func TestBuildLookupGaps(t *testing.T) {
	f := newFake().add("t", 0, 0, 6)
	f.missingEnd = &TopicPartition{Topic: "t", Partition: 0}
	_, _, err := Build(context.Background(), f, Request{Groups: []GroupSnapshot{group("g", nil)}, Scope: Scope{Topics: []TopicSpec{{Topic: "t"}}},
		Strategy: mustSpec(t, "to-latest", ""), Now: testNow})
	if err == nil || err.Error() != "Error getting ending offset of topic partition: t-0" {
		t.Errorf("err = %v", err)
	}
}

func TestBuildAllTopics(t *testing.T) {
	f := newFake().add("t", 0, 0, 6).add("t", 1, 0, 6).add("u", 0, 0, 9)
	g := group("g", map[TopicPartition]int64{tp("t", 1): 2, tp("u", 0): 4, tp("gone", 0): 1})
	p, w := build(t, f, Request{Groups: []GroupSnapshot{g, group("empty", nil)}, Scope: Scope{AllTopics: true}, Strategy: mustSpec(t, "to-earliest", "")})
	if len(p.Groups[0].Partitions) != 0 || p.Groups[0].Group != "empty" {
		t.Errorf("group without commits: %+v", p.Groups[0])
	}
	checkParts(t, "all-topics", p.Groups[1], []wantPart{{tp("t", 1), i64(2), 0, ReasonResolved}, {tp("u", 0), i64(4), 0, ReasonResolved}})
	if len(w) != 1 || w[0].Kind != WarnPartitionGone || w[0].Topic != "gone" {
		t.Errorf("warnings %+v", w)
	}
}

// A partition the group's offsets list with -1 (Uncommitted) is in
// --all-topics' scope with no current offset, as in the Java tool: planned
// like a partition without a commit (to-current: the log end; shift-by:
// refused). Only --all-topics looks at it.
func TestBuildAllTopicsUncommitted(t *testing.T) {
	f := newFake().add("t", 0, 2, 6).add("t", 1, 0, 6)
	g := group("g", map[TopicPartition]int64{tp("t", 1): 3})
	g.Uncommitted = []TopicPartition{tp("t", 0)}
	all := Scope{AllTopics: true}
	p, _ := build(t, f, Request{Groups: []GroupSnapshot{g}, Scope: all, Strategy: mustSpec(t, "to-earliest", "")})
	checkParts(t, "to-earliest", p.Groups[0], []wantPart{{tp("t", 0), nil, 2, ReasonResolved}, {tp("t", 1), i64(3), 0, ReasonResolved}})
	p, _ = build(t, f, Request{Groups: []GroupSnapshot{g}, Scope: all, Strategy: mustSpec(t, "to-current", "")})
	checkParts(t, "to-current", p.Groups[0], []wantPart{{tp("t", 0), nil, 6, ReasonNoCommitUsedEnd}, {tp("t", 1), i64(3), 3, ReasonResolved}})
	_, _, err := Build(context.Background(), f, Request{Groups: []GroupSnapshot{g}, Scope: all, Strategy: mustSpec(t, "shift-by", "1"), Now: testNow})
	if want := "Cannot shift offset for partition t-0 since there is no current committed offset"; err == nil || err.Error() != want {
		t.Errorf("shift-by: err = %v, want %q", err, want)
	}
	p, _ = build(t, f, Request{Groups: []GroupSnapshot{g}, Scope: Scope{Topics: []TopicSpec{{Topic: "t", Partitions: []int32{1}}}}, Strategy: mustSpec(t, "shift-by", "1")})
	checkParts(t, "shift-by --topic t:1", p.Groups[0], []wantPart{{tp("t", 1), i64(3), 4, ReasonResolved}})
}

func TestBuildFromFile(t *testing.T) {
	f := newFake().add("t", 0, 2, 6).add("t", 1, 0, 6)
	spec := mustSpec(t, "from-file", "offsets.csv")
	var err error
	spec.Targets, _, err = parseCSV([]byte("g,t,0,4\ng,t,1,9\nother,t,0,1\nh,t,0,0\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	p, w := build(t, f, Request{Groups: []GroupSnapshot{group("g", map[TopicPartition]int64{tp("t", 0): 3}), group("h", nil), group("absent", nil)}, Strategy: spec})
	if len(p.Groups) != 3 || len(p.Groups[0].Partitions) != 0 {
		t.Fatalf("groups %+v", p.Groups)
	}
	checkParts(t, "g", p.Groups[1], []wantPart{{tp("t", 0), i64(3), 4, ReasonFromFile}, {tp("t", 1), nil, 6, ReasonClampedToEnd}})
	checkParts(t, "h", p.Groups[2], []wantPart{{tp("t", 0), nil, 2, ReasonClampedToStart}})
	var kinds []string
	for _, x := range w {
		kinds = append(kinds, string(x.Kind)+":"+x.Group)
	}
	if got := strings.Join(kinds, " "); got != "no-plan-for-group:absent clamped-to-end:g clamped-to-start:h" {
		t.Errorf("warnings %s", got)
	}
	if w[0].Message != "No reset plan for group absent found." {
		t.Errorf("message %q", w[0].Message)
	}
	if p.Strategy.File != "offsets.csv" || p.Strategy.Type != StrategyFromFile {
		t.Errorf("strategy %+v", p.Strategy)
	}
	// File rows for partitions that do not exist are named, like scope ones.
	spec.Targets = FileTargets{"g": {tp("t", 5): 1}}
	_, _, err = Build(context.Background(), f, Request{Groups: []GroupSnapshot{group("g", nil)}, Strategy: spec, Now: testNow})
	if !errors.Is(err, ErrUnknownPartition) {
		t.Errorf("from-file missing partition: %v", err)
	}
}

func TestBuildPlanHeader(t *testing.T) {
	f := newFake().add("t", 0, 0, 6)
	active := GroupSnapshot{Group: "live", Type: "consumer", State: "Stable", Members: 2}
	p, w := build(t, f, Request{Groups: []GroupSnapshot{active}, Scope: Scope{Topics: []TopicSpec{{Topic: "t"}}},
		Strategy: mustSpec(t, "by-duration", "PT1H"), Cluster: Cluster{ID: "c1", Bootstrap: "b:9092"}, CreatedBy: "kcg test",
		Annotations: &Annotations{}})
	if p.APIVersion != APIVersion || p.Kind != Kind || !p.CreatedAt.Equal(testNow.Truncate(time.Second)) || p.CreatedBy != "kcg test" || p.Cluster.ID != "c1" {
		t.Errorf("header %+v", p)
	}
	if p.Annotations != nil {
		t.Error("empty annotations kept")
	}
	if p.Strategy.Duration != "PT1H" || !p.Strategy.ResolvedTime.Equal(time.UnixMilli(testNow.Add(-time.Hour).UnixMilli())) {
		t.Errorf("strategy %+v", p.Strategy)
	}
	if len(w) != 2 || w[0].Kind != WarnGroupActive || w[0].Message != "Assignments can only be reset if the group 'live' is inactive, but the current state is Stable." {
		t.Errorf("warnings %+v", w)
	}
	if p.Groups[0].StateAtPlan != "Stable" || p.Groups[0].Type != "consumer" {
		t.Errorf("group %+v", p.Groups[0])
	}
}

// TestBuildTimeBeforeEpoch: a timestamp before 1970 would be a ListOffsets
// sentinel (-1 latest, -2 earliest); kcg asks for 0 instead.
func TestBuildTimeBeforeEpoch(t *testing.T) {
	for _, spec := range []StrategySpec{mustSpec(t, "to-datetime", "1960-01-01T00:00:00Z"), mustSpec(t, "by-duration", "P36500D")} {
		f := newFake().add("t", 0, 0, 2, 5, 6)
		p, _ := build(t, f, Request{Groups: []GroupSnapshot{group("g", nil)}, Scope: Scope{Topics: []TopicSpec{{Topic: "t"}}}, Strategy: spec,
			Now: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)})
		if f.lastTimeMs != 0 {
			t.Errorf("%s: asked for %d", spec.Type, f.lastTimeMs)
		}
		if *p.Groups[0].Partitions[0].Target != 0 {
			t.Errorf("%s: target %d", spec.Type, *p.Groups[0].Partitions[0].Target)
		}
	}
	// A sub-millisecond datetime rounds up.
	f := newFake().add("t", 0, 0, 2, 1, 2)
	p, _ := build(t, f, Request{Groups: []GroupSnapshot{group("g", nil)}, Scope: Scope{Topics: []TopicSpec{{Topic: "t"}}},
		Strategy: mustSpec(t, "to-datetime", "1970-01-01T00:00:00.0015Z")})
	if f.lastTimeMs != 2 || *p.Groups[0].Partitions[0].Target != 1 || formatTime(p.Strategy.Datetime) != "1970-01-01T00:00:00.002Z" {
		t.Errorf("ceil: asked %d, target %d, datetime %s", f.lastTimeMs, *p.Groups[0].Partitions[0].Target, formatTime(p.Strategy.Datetime))
	}
}

func TestInactive(t *testing.T) {
	for _, tc := range []struct {
		state   string
		members int
		want    bool
	}{{"Empty", 0, true}, {"Dead", 0, true}, {"", 0, true}, {"Stable", 1, false}, {"PreparingRebalance", 0, false}, {"Empty", 1, false}} {
		if got := (GroupSnapshot{State: tc.state, Members: tc.members}).Inactive(); got != tc.want {
			t.Errorf("Inactive(%s, %d) = %v", tc.state, tc.members, got)
		}
	}
}

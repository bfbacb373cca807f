package resetplan

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A delete-group plan lists every committed partition of the group, none
// without a commit, each with target null and reason delete-offset; it
// encodes, decodes back to the same digest in both formats, and its undo
// restores every offset.
func TestBuildDeleteGroup(t *testing.T) {
	t0, t1, o0 := TopicPartition{Topic: "t", Partition: 0}, TopicPartition{Topic: "t", Partition: 1}, TopicPartition{Topic: "o", Partition: 0}
	f := newFake().add("t", 0, 0, 10).add("t", 1, 0, 10).add("o", 0, 2, 5)
	g := group("g", map[TopicPartition]int64{t0: 3, o0: 4})
	g.Uncommitted = []TopicPartition{t1}
	p, _ := build(t, f, Request{Groups: []GroupSnapshot{g}, Strategy: StrategySpec{Type: StrategyDeleteGroup}})
	if p.Strategy.Type != StrategyDeleteGroup || len(p.Groups) != 1 || len(p.Groups[0].Partitions) != 2 {
		t.Fatalf("plan %+v", p)
	}
	for _, pt := range p.Groups[0].Partitions {
		if pt.Target != nil || pt.Reason != ReasonDeleteOffset || pt.Current == nil {
			t.Fatalf("partition %+v", pt)
		}
	}
	if p.IsNew(p.Groups[0]) {
		t.Fatal("a delete plan's group is new")
	}
	for _, fm := range []Format{FormatYAML, FormatJSON} {
		data, err := Encode(p, fm)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", fm, err, data)
		}
		if Digest(back) != Digest(p) {
			t.Fatalf("%s: digest changed", fm)
		}
	}
	undo := UndoOfDelete(p, testNow)
	if undo.Strategy.Type != StrategyRollback || undo.Strategy.RollbackOf != Digest(p) {
		t.Fatalf("undo strategy %+v", undo.Strategy)
	}
	for _, pt := range undo.Groups[0].Partitions {
		want := map[TopicPartition]int64{t0: 3, o0: 4}[pt.TP()]
		if pt.Target == nil || *pt.Target != want || pt.Reason != ReasonRestore || pt.Current != nil {
			t.Fatalf("undo partition %+v", pt)
		}
	}
	// A scope is refused: the group goes with every offset.
	if _, _, err := Build(context.Background(), f, Request{Groups: []GroupSnapshot{g}, Scope: Scope{AllTopics: true}, Strategy: StrategySpec{Type: StrategyDeleteGroup}}); err == nil {
		t.Fatal("delete-group with a scope accepted")
	}
}

// delete-offsets keeps the scope's committed partitions; KeepCovered
// narrows an --all-topics plan to --topic arguments.
func TestBuildDeleteOffsets(t *testing.T) {
	t0, t1, o0 := TopicPartition{Topic: "t", Partition: 0}, TopicPartition{Topic: "t", Partition: 1}, TopicPartition{Topic: "o", Partition: 0}
	f := newFake().add("t", 0, 0, 10).add("t", 1, 0, 10).add("o", 0, 0, 5)
	g := group("g", map[TopicPartition]int64{t0: 3, t1: 4, o0: 1})
	p, _ := build(t, f, Request{Groups: []GroupSnapshot{g}, Scope: Scope{Topics: []TopicSpec{{Topic: "t"}}}, Strategy: StrategySpec{Type: StrategyDeleteOffsets}})
	if got := p.Groups[0].Partitions; len(got) != 2 || got[0].TP() != t0 || got[1].TP() != t1 {
		t.Fatalf("partitions %+v", got)
	}
	all, _ := build(t, f, Request{Groups: []GroupSnapshot{g}, Scope: Scope{AllTopics: true}, Strategy: StrategySpec{Type: StrategyDeleteOffsets}})
	KeepCovered(all, []TopicSpec{{Topic: "t", Partitions: []int32{1}}, {Topic: "nosuch"}})
	if got := all.Groups[0].Partitions; len(got) != 1 || got[0].TP() != t1 {
		t.Fatalf("covered %+v", got)
	}
}

// A delete plan holds only deletions, and delete-offset is valid in no
// reset plan.
func TestDecodeDeletePlanEntries(t *testing.T) {
	f := newFake().add("t", 0, 0, 10)
	p, _ := build(t, f, Request{Groups: []GroupSnapshot{group("g", map[TopicPartition]int64{{Topic: "t", Partition: 0}: 3})}, Strategy: StrategySpec{Type: StrategyDeleteGroup}})
	data, err := Encode(p, FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"target: null, logStart: 0, logEnd: 10, reason: delete-offset", "target: 5, logStart: 0, logEnd: 10, reason: resolved", "a delete-group plan only deletes offsets"},
		{"type: delete-group", "type: to-earliest", "only valid in a rollback or delete plan"},
		{"type: delete-group", "type: delete-offsets, offset: 3", "does not take offset"},
	} {
		bad := bytes.Replace(data, []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(bad, data) {
			t.Fatalf("%q not in the plan:\n%s", c.from, data)
		}
		if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

package resetplan

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestBuildToGroup is --to-group on t-0 [0, 6), t-1 [2, 5), t-2 [4, 4):
// the source's commits become the targets, clamped to the live log, and
// partitions the source never committed are left out with one warning.
func TestBuildToGroup(t *testing.T) {
	newCluster := func() *fakeLookup {
		return newFake().add("t", 0, 0, 6).add("t", 1, 2, 5).add("t", 2, 4, 4).add("u", 0, 0, 9)
	}
	all := Scope{Topics: []TopicSpec{{Topic: "t"}}}
	src := func(commits map[TopicPartition]int64) StrategySpec {
		return StrategySpec{Type: StrategyToGroup, Source: "prod", SourceCommits: commits}
	}
	cases := []struct {
		name     string
		target   GroupSnapshot
		scope    Scope
		commits  map[TopicPartition]int64
		want     []wantPart
		warnings []string
	}{
		{name: "copied, new group", target: group("canary", nil), scope: all,
			commits: map[TopicPartition]int64{tp("t", 0): 3, tp("t", 1): 4, tp("t", 2): 4},
			want:    []wantPart{{tp("t", 0), nil, 3, ReasonCopiedFromGroup}, {tp("t", 1), nil, 4, ReasonCopiedFromGroup}, {tp("t", 2), nil, 4, ReasonCopiedFromGroup}}},
		{name: "target's own commits are current", target: group("canary", map[TopicPartition]int64{tp("t", 0): 1}), scope: Scope{Topics: []TopicSpec{{Topic: "t", Partitions: []int32{0}}}},
			commits: map[TopicPartition]int64{tp("t", 0): 5},
			want:    []wantPart{{tp("t", 0), i64(1), 5, ReasonCopiedFromGroup}}},
		{name: "log end exactly is not clamped", target: group("canary", nil), scope: Scope{Topics: []TopicSpec{{Topic: "t", Partitions: []int32{0}}}},
			commits: map[TopicPartition]int64{tp("t", 0): 6},
			want:    []wantPart{{tp("t", 0), nil, 6, ReasonCopiedFromGroup}}},
		{name: "clamped both ways", target: group("canary", nil), scope: Scope{Topics: []TopicSpec{{Topic: "t", Partitions: []int32{0, 1}}}},
			commits:  map[TopicPartition]int64{tp("t", 0): 9, tp("t", 1): 0},
			want:     []wantPart{{tp("t", 0), nil, 6, ReasonClampedToEnd}, {tp("t", 1), nil, 2, ReasonClampedToStart}},
			warnings: []string{"higher than latest offset for topic partition t-0", "lower than earliest offset for topic partition t-1"}},
		{name: "uncommitted partitions left out", target: group("canary", nil), scope: all,
			commits:  map[TopicPartition]int64{tp("t", 1): 3, tp("u", 0): 1},
			want:     []wantPart{{tp("t", 1), nil, 3, ReasonCopiedFromGroup}},
			warnings: []string{"prod has no committed offset on t-0, t-2: left out of the plan for group canary"}},
		{name: "all-topics is the target's committed partitions", target: group("canary", map[TopicPartition]int64{tp("u", 0): 8}), scope: Scope{AllTopics: true},
			commits: map[TopicPartition]int64{tp("t", 0): 3, tp("u", 0): 2},
			want:    []wantPart{{tp("u", 0), i64(8), 2, ReasonCopiedFromGroup}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ws := build(t, newCluster(), Request{Groups: []GroupSnapshot{c.target}, Scope: c.scope, Strategy: src(c.commits)})
			if p.Strategy.Type != StrategyToGroup || p.Strategy.Group != "prod" {
				t.Errorf("strategy = %+v, want to-group prod", p.Strategy)
			}
			checkParts(t, c.name, p.Groups[0], c.want)
			if len(ws) != len(c.warnings) {
				t.Fatalf("warnings = %+v, want %q", ws, c.warnings)
			}
			for i, w := range c.warnings {
				if !strings.Contains(ws[i].Message, w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, ws[i].Message, w)
				}
			}
		})
	}
}

func TestBuildToGroupRefusals(t *testing.T) {
	f := newFake().add("t", 0, 0, 6).add("t", 1, 0, 6)
	scope := Scope{Topics: []TopicSpec{{Topic: "t"}}}
	cases := []struct {
		name   string
		groups []GroupSnapshot
		spec   StrategySpec
		is     error
		text   string
	}{
		{name: "source is a target", groups: []GroupSnapshot{group("a", nil), group("prod", nil)},
			spec: StrategySpec{Type: StrategyToGroup, Source: "prod"}, is: ErrInvalidArgument, text: `invalid --to-group "prod": the source group is also a group to reset`},
		{name: "no source", groups: []GroupSnapshot{group("a", nil)},
			spec: StrategySpec{Type: StrategyToGroup}, is: ErrInvalidArgument, text: "a source group id is required"},
		{name: "nothing committed in scope", groups: []GroupSnapshot{group("a", nil), group("b", nil)},
			spec: StrategySpec{Type: StrategyToGroup, Source: "prod", SourceCommits: map[TopicPartition]int64{tp("u", 0): 1}},
			is:   ErrNoSourceCommit, text: "prod has no committed offset on t-0, t-1; no plan was written"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Build(context.Background(), f, Request{Groups: c.groups, Scope: scope, Strategy: c.spec, Now: testNow})
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("err = %v, want %v containing %q", err, c.is, c.text)
			}
		})
	}
}

func TestParseToGroup(t *testing.T) {
	s, err := ParseStrategy("--to-group", "prod")
	if err != nil || s.Type != StrategyToGroup || s.Source != "prod" {
		t.Fatalf("ParseStrategy = %+v, %v", s, err)
	}
	if _, err := ParseStrategy("to-group", " "); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("empty source: err = %v", err)
	}
}

// TestDecodeToGroup: the strategy takes exactly group, and
// copied-from-group belongs to to-group plans only.
func TestDecodeToGroup(t *testing.T) {
	y, err := EncodeYAML(plansForGolden()["to-group"])
	if err != nil {
		t.Fatal(err)
	}
	p, err := Decode(y)
	if err != nil || p.Strategy.Group != "billing-v1" {
		t.Fatalf("Decode = %+v, %v", p, err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"{type: to-group, group: billing-v1}", "{type: to-group}", "strategy to-group needs group"},
		{"{type: to-group, group: billing-v1}", "{type: to-group, group: billing-v1, file: x}", "strategy to-group does not take file"},
		{"{type: to-group, group: billing-v1}", `{type: to-group, group: ""}`, "strategy.group is empty"},
		{"{type: to-group, group: billing-v1}", "{type: to-earliest}", "reason copied-from-group is only valid in a to-group plan"},
		{"{type: to-group, group: billing-v1}", "{type: to-earliest, group: x}", "strategy to-earliest does not take group"},
	} {
		bad := strings.Replace(string(y), c.from, c.to, 1)
		if _, err := Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.to, err, c.want)
		}
	}
}

package resetplan

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestBuildTranslateFrom is --translate-from on src.t-0 [0, 6),
// src.t-1 [2, 5): each group's checkpoint downstream offsets become its
// targets, clamped to the target's live log, with the checkpoint's
// upstream offset and time recorded; the failover warnings name stale
// checkpoints, rewinds and target commits without a checkpoint.
func TestBuildTranslateFrom(t *testing.T) {
	f := newFake().add("src.t", 0, 0, 6).add("src.t", 1, 2, 5).add("other", 0, 0, 3)
	fresh := testNow.Add(-time.Minute).Truncate(time.Millisecond)
	stale := testNow.Add(-time.Hour).Truncate(time.Millisecond)
	spec := StrategySpec{Type: StrategyTranslateFrom, Alias: "src", CheckpointsTopic: "src.checkpoints.internal", MaxCheckpointAge: 5 * time.Minute,
		Checkpoints: map[string]map[TopicPartition]Checkpoint{
			"orders": {tp("src.t", 0): {Upstream: 10, Downstream: 4, Time: fresh}, tp("src.t", 1): {Upstream: 99, Downstream: 40, Time: stale}},
			"other":  {tp("other", 0): {Upstream: 1, Downstream: 1, Time: fresh}},
		}}
	target := group("orders", map[TopicPartition]int64{tp("src.t", 0): 5, tp("other", 0): 2})
	target.State = "Dead"
	p, ws := build(t, f, Request{Groups: []GroupSnapshot{target}, Strategy: spec})
	if p.Strategy.Type != StrategyTranslateFrom || p.Strategy.Alias != "src" || p.Strategy.CheckpointsTopic != "src.checkpoints.internal" {
		t.Fatalf("strategy = %+v", p.Strategy)
	}
	checkParts(t, "translate", p.Groups[0], []wantPart{{tp("src.t", 0), i64(5), 4, ReasonTranslated}, {tp("src.t", 1), nil, 5, ReasonClampedToEnd}})
	if u := p.Groups[0].Partitions[1].Upstream; u == nil || *u != 99 || !p.Groups[0].Partitions[1].CheckpointTime.Equal(stale) {
		t.Errorf("partition 1 records upstream %v at %v, want 99 at %v", u, p.Groups[0].Partitions[1].CheckpointTime, stale)
	}
	var kinds []string
	for _, w := range ws {
		kinds = append(kinds, string(w.Kind)+": "+w.Message)
	}
	all := strings.Join(kinds, "\n")
	for _, want := range []string{"clamped-to-end: New offset (40)", "checkpoint-old: group orders: its oldest checkpoint is 1h0m0s old",
		"rewind: group orders has already committed on the target past its translation on src.t-0",
		"no-checkpoint: group orders has committed on the target on other-0"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	// The file form round-trips, both encodings, and the new fields are
	// in the digest.
	for _, format := range []Format{FormatYAML, FormatJSON} {
		data, err := Encode(p, format)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "upstreamOffset") || !strings.Contains(string(data), "checkpointTime") {
			t.Fatalf("%s lacks the checkpoint fields:\n%s", format, data)
		}
		q, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, data)
		}
		if Digest(q) != Digest(p) {
			t.Errorf("%s: digest changed on the round trip", format)
		}
		if format == FormatYAML {
			golden(t, "plan-translate-from.yaml", data)
		}
	}
	moved := *p
	moved.Groups = []Group{p.Groups[0]}
	moved.Groups[0].Partitions = append([]Partition(nil), p.Groups[0].Partitions...)
	moved.Groups[0].Partitions[0].Upstream = i64(11)
	if Digest(&moved) == Digest(p) {
		t.Error("the upstream offset is not part of the digest")
	}
}

func TestBuildTranslateFromRefusals(t *testing.T) {
	f := newFake().add("src.t", 0, 0, 6)
	spec := StrategySpec{Type: StrategyTranslateFrom, Alias: "src", CheckpointsTopic: "src.checkpoints.internal",
		Checkpoints: map[string]map[TopicPartition]Checkpoint{"a": {tp("src.t", 0): {Upstream: 1, Downstream: 1, Time: testNow}}}}
	_, _, err := Build(context.Background(), f, Request{Groups: []GroupSnapshot{group("a", nil), group("b", nil), group("c", nil)}, Strategy: spec, Now: testNow})
	var nc *NoCheckpointError
	if !errors.As(err, &nc) || !errors.Is(err, ErrNoCheckpoint) || strings.Join(nc.Groups, ",") != "b,c" {
		t.Fatalf("err = %v, want NoCheckpointError naming b and c", err)
	}
	// --topic narrows the checkpoints: none left for a is the same refusal.
	_, _, err = Build(context.Background(), f.add("u", 0, 0, 1), Request{Groups: []GroupSnapshot{group("a", nil)}, Strategy: spec,
		Scope: Scope{Topics: []TopicSpec{{Topic: "u"}}}, Now: testNow})
	if !errors.As(err, &nc) || nc.Groups[0] != "a" {
		t.Fatalf("err = %v, want NoCheckpointError naming a", err)
	}
}

// The checkpoint fields belong to translate-from plans only, in full.
func TestDecodeTranslateFromFields(t *testing.T) {
	head := "apiVersion: kcg/v1\nkind: OffsetResetPlan\ncreatedAt: \"2026-11-29T07:10:00Z\"\ncreatedBy: kcg\ncluster: {id: c, bootstrap: \"b:9092\"}\n"
	part := func(st, extra string) string {
		return head + "strategy: " + st + "\ngroups:\n  - group: g\n    type: classic\n    stateAtPlan: Empty\n    partitions:\n      - {topic: t, partition: 0, current: null, target: 1, logStart: 0, logEnd: 2, reason: resolved" + extra + "}\n"
	}
	for name, c := range map[string]struct{ doc, want string }{
		"fields in another plan": {part("{type: to-earliest}", ", upstreamOffset: 1"), "only valid in a translate-from plan"},
		"fields missing":         {part("{type: translate-from, alias: src, checkpointsTopic: src.checkpoints.internal}", ""), "needs upstreamOffset and checkpointTime"},
		"bad time":               {part("{type: translate-from, alias: src, checkpointsTopic: x}", `, upstreamOffset: 1, checkpointTime: "yesterday"`), "not an RFC 3339 time"},
		"no alias":               {part("{type: translate-from}", `, upstreamOffset: 1, checkpointTime: "2026-11-29T07:10:00Z"`), "needs alias"},
	} {
		_, err := Decode([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
}

// A newer checkpoint with the same target is a change diff names.
func TestDiffTranslateFromFields(t *testing.T) {
	f := newFake().add("src.t", 0, 0, 6)
	at := testNow.Add(-time.Minute).Truncate(time.Millisecond)
	spec := func(up int64, when time.Time) StrategySpec {
		return StrategySpec{Type: StrategyTranslateFrom, Alias: "src", CheckpointsTopic: "src.checkpoints.internal",
			Checkpoints: map[string]map[TopicPartition]Checkpoint{"g": {tp("src.t", 0): {Upstream: up, Downstream: 4, Time: when}}}}
	}
	x, _ := build(t, f, Request{Groups: []GroupSnapshot{group("g", nil)}, Strategy: spec(10, at)})
	y, _ := build(t, f, Request{Groups: []GroupSnapshot{group("g", nil)}, Strategy: spec(11, at.Add(time.Second))})
	d := Diff(x, y)
	if len(d.Partitions) != 1 || strings.Join(d.Partitions[0].Fields, ",") != "upstreamOffset,checkpointTime" {
		t.Fatalf("diff = %+v, want upstreamOffset and checkpointTime changed", d.Partitions)
	}
}

// A checkpoint below the target's log start (the target topic's records
// were deleted, or retention ran ahead of MM2) is clamped up to the log
// start, reason clamped-to-start, with the upstream offset and time still
// recorded and the tool's clamp warning.
func TestBuildTranslateFromClampedToStart(t *testing.T) {
	f := newFake().add("src.t", 0, 7, 12).add("src.t", 1, 0, 12)
	at := testNow.Add(-time.Minute).Truncate(time.Millisecond)
	spec := StrategySpec{Type: StrategyTranslateFrom, Alias: "src", CheckpointsTopic: "src.checkpoints.internal", MaxCheckpointAge: 5 * time.Minute,
		Checkpoints: map[string]map[TopicPartition]Checkpoint{"g": {
			tp("src.t", 0): {Upstream: 30, Downstream: 3, Time: at},
			tp("src.t", 1): {Upstream: 31, Downstream: 4, Time: at}}}}
	p, ws := build(t, f, Request{Groups: []GroupSnapshot{group("g", nil)}, Strategy: spec})
	checkParts(t, "clamped-to-start", p.Groups[0], []wantPart{{tp("src.t", 0), nil, 7, ReasonClampedToStart}, {tp("src.t", 1), nil, 4, ReasonTranslated}})
	if u := p.Groups[0].Partitions[0].Upstream; u == nil || *u != 30 || !p.Groups[0].Partitions[0].CheckpointTime.Equal(at) {
		t.Errorf("partition 0 records upstream %v at %v, want 30 at %v", u, p.Groups[0].Partitions[0].CheckpointTime, at)
	}
	if len(ws) != 1 || ws[0].Kind != WarnClampedToStart || ws[0].Message != "New offset (3) is lower than earliest offset for topic partition src.t-0. Value will be set to 7." {
		t.Errorf("warnings = %+v, want the one clamped-to-start warning for src.t-0", ws)
	}
}

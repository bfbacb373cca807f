package groupops

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

func TestResolveStrategy(t *testing.T) {
	spec, err := ResolveStrategy("to-offset", "4", "")
	if err != nil || spec.Type != resetplan.StrategyToOffset || spec.Offset != 4 {
		t.Errorf("to-offset 4: %+v, %v", spec, err)
	}
	if _, err := ResolveStrategy("shift-by", "many", ""); err == nil || errors.As(err, new(*FromFileError)) {
		t.Errorf("shift-by many: %v, want ParseStrategy's error", err)
	}

	dir := t.TempDir()
	csv := filepath.Join(dir, "reset.csv")
	if err := os.WriteFile(csv, []byte("payments,0,5\npayments,1,7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err = ResolveStrategy("from-file", csv, "billing")
	if err != nil {
		t.Fatal(err)
	}
	want := map[TopicPartition]int64{{Topic: "payments", Partition: 0}: 5, {Topic: "payments", Partition: 1}: 7}
	if spec.Type != resetplan.StrategyFromFile || len(spec.Targets) != 1 || len(spec.Targets["billing"]) != 2 ||
		spec.Targets["billing"][TopicPartition{Topic: "payments", Partition: 1}] != want[TopicPartition{Topic: "payments", Partition: 1}] {
		t.Errorf("from-file: %+v", spec)
	}

	missing := filepath.Join(dir, "missing.csv")
	_, err = ResolveStrategy("from-file", missing, "billing")
	var fe *FromFileError
	if !errors.As(err, &fe) || !fe.Read || fe.Path != missing || !errors.Is(err, os.ErrNotExist) ||
		err.Error() != "--from-file: open "+missing+": no such file or directory" {
		t.Errorf("missing file: %v", err)
	}

	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("payments,zero,five\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ResolveStrategy("from-file", bad, "billing")
	if !errors.As(err, &fe) || fe.Read || !strings.HasPrefix(err.Error(), "--from-file "+bad+": ") {
		t.Errorf("bad file: %v", err)
	}

	big := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(big, make([]byte, resetplan.MaxResetFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ResolveStrategy("from-file", big, "billing")
	var tl *resetplan.TooLargeError
	if !errors.As(err, &fe) || fe.Read || !errors.As(err, &tl) || tl.What != "--from-file" {
		t.Errorf("big file: %v", err)
	}
}

func TestParseStates(t *testing.T) {
	for in, want := range map[string][]string{
		"stable":             {"Stable"},
		"Empty, dead,":       {"Empty", "Dead"},
		"PREPARINGREBALANCE": {"PreparingRebalance"},
	} {
		got, err := ParseStates(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseStates(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", ",", "stable,,empty", "running"} {
		_, err := ParseStates(bad)
		if want := "Invalid state list '" + bad + "'. Valid states are: " + strings.Join(vocab.States, ", "); err == nil || err.Error() != want {
			t.Errorf("ParseStates(%q): %v, want %q", bad, err, want)
		}
	}
	got, err := ParseTypes("Classic,consumer")
	if err != nil || !slices.Equal(got, []string{"classic", "consumer"}) {
		t.Errorf("ParseTypes = %v, %v", got, err)
	}
	if _, err := ParseTypes("classic,"); err != nil {
		t.Errorf("ParseTypes drops a trailing empty item as Java does: %v", err)
	}
	if _, err := ParseTypes("simple"); err == nil || !strings.HasPrefix(err.Error(), "Invalid types list 'simple'. Valid types are: ") {
		t.Errorf("ParseTypes(simple): %v", err)
	}
}

// Listing, existence, snapshot and plan on the live cluster: the groups
// this test made, among whatever else the cluster holds.
func TestListSnapshotAndPlan(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 2)
	a, b := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b")
	e.Commit(t, a, topic, map[int32]int64{0: 4, 1: 6})
	e.Commit(t, b, topic, map[int32]int64{0: 1})

	listed, err := ListConsumerGroups(ctx, cl, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range listed {
		names = append(names, g.Group)
	}
	if !slices.IsSorted(names) || !slices.Contains(names, a) || !slices.Contains(names, b) {
		t.Errorf("ListConsumerGroups: %v, want sorted, with %s and %s", names, a, b)
	}
	ids, _, err := AllGroupIDs(ctx, cl)
	if err != nil || !slices.IsSorted(ids) || !slices.Contains(ids, a) || !slices.Contains(ids, b) {
		t.Errorf("AllGroupIDs: %v, %v", ids, err)
	}
	has := func(gs []kafkaadmin.GroupListing, id string) bool {
		return slices.ContainsFunc(gs, func(g kafkaadmin.GroupListing) bool { return g.Group == id })
	}
	for _, types := range [][]string{nil, {TypeAll}, {"classic"}} {
		typed, err := ListGroupsOfTypes(ctx, cl, []string{"Empty"}, types)
		if err != nil || !has(typed, a) {
			t.Errorf("ListGroupsOfTypes(Empty, %v): %v, %v; want %s in it", types, typed, err, a)
		}
	}
	if typed, err := ListGroupsOfTypes(ctx, cl, []string{"Stable"}, nil); err != nil || has(typed, a) {
		t.Errorf("ListGroupsOfTypes(Stable): %v, %v; want %s left out", typed, err, a)
	}

	nosuch := a + "-nosuch"
	missing, existing, err := MissingGroups(ctx, cl, []string{a, nosuch, b})
	if err != nil || !slices.Equal(missing, []string{nosuch}) || !slices.Contains(existing, a) || !slices.Contains(existing, b) {
		t.Errorf("MissingGroups: %v, %v, %v", missing, existing, err)
	}
	if missing, existing, err := MissingGroups(ctx, cl, []string{a}); err != nil || missing != nil || existing != nil {
		t.Errorf("MissingGroups of an existing group: %v, %v, %v", missing, existing, err)
	}

	var phases []string
	s, err := TakeSnapshot(ctx, cl, []string{a, b}, func(p string) { phases = append(phases, p) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(phases, []string{"describing groups", "listing log offsets"}) {
		t.Errorf("phases %q", phases)
	}
	if len(s.Groups) != 2 || s.Groups[0].Name() != a || s.Groups[1].Name() != b || s.Groups[0].Offsets[TopicPartition{Topic: topic, Partition: 1}].Offset != 6 {
		t.Fatalf("snapshot groups %+v", s.Groups)
	}
	for p := range int32(2) {
		if bd := s.Bounds[TopicPartition{Topic: topic, Partition: p}]; bd.Start == nil || *bd.Start != 0 || bd.End == nil || *bd.End != 6 {
			t.Errorf("bounds of %s/%d: %+v", topic, p, bd)
		}
	}
	// Describe's snapshot reads the last stable offsets beside the bounds.
	d, err := Describe(ctx, cl, []string{a, b}, DescribeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bd := d.Bounds[TopicPartition{Topic: topic, Partition: 0}]; bd.Stable == nil || *bd.Stable != 6 {
		t.Errorf("stable offset %v, want 6", bd.Stable)
	}
	if err := ReadTimeLags(ctx, cl, s); err != nil {
		t.Fatal(err)
	}
	if tl, ok := s.TimeLagAt(TopicPartition{Topic: topic, Partition: 1}, 6); !ok || tl.Millis == nil || *tl.Millis != 0 {
		t.Errorf("time lag of a caught-up commit: %+v, %v; want 0", tl, ok)
	}
	if tl, ok := s.TimeLagAt(TopicPartition{Topic: topic, Partition: 0}, 4); !ok || tl.Timestamp == nil || time.Since(*tl.Timestamp) > time.Hour {
		t.Errorf("time lag at offset 4: %+v, %v; want the record's time", tl, ok)
	}

	// A plan to the earliest offsets: Lookup over the live partitions.
	scope, err := resetplan.ParseScope(false, []string{topic})
	if err != nil {
		t.Fatal(err)
	}
	info, snaps, err := ReadForPlan(ctx, cl, []string{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, _, err := BuildPlan(ctx, cl, info, snaps, PlanRequest{Scope: scope, Strategy: resetplan.StrategySpec{Type: resetplan.StrategyToEarliest}, CreatedBy: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Cluster.ID != info.ClusterID || len(plan.Groups) != 2 || plan.Groups[0].Group != a || len(plan.Groups[0].Partitions) != 2 {
		t.Fatalf("plan %+v", plan)
	}
	for _, g := range plan.Groups {
		for _, p := range g.Partitions {
			if p.Target == nil || *p.Target != 0 || p.LogEnd != 6 {
				t.Errorf("%s %s/%d: target %v, log end %d; want 0 and 6", g.Group, p.Topic, p.Partition, p.Target, p.LogEnd)
			}
		}
	}
	plan, _, err = BuildPlan(ctx, cl, info, snaps, PlanRequest{Scope: scope, Strategy: resetplan.StrategySpec{Type: resetplan.StrategyToLatest}})
	if err != nil || *plan.Groups[1].Partitions[0].Target != 6 {
		t.Errorf("to-latest: %+v, %v", plan, err)
	}
}

func TestDeleteGroupsAndOffsets(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 2)
	gone, keep := kafkatest.UniqueName(t, "gone"), kafkatest.UniqueName(t, "keep")
	e.Commit(t, gone, topic, map[int32]int64{0: 1})
	e.Commit(t, keep, topic, map[int32]int64{0: 2, 1: 3})

	nosuch := gone + "-nosuch"
	ds, err := DeleteGroups(ctx, cl, []string{nosuch, gone, gone})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Group != gone || ds[0].Err != nil || ds[1].Group != nosuch || !errors.Is(ds[1].Err, vocab.ErrGroupNotFound) {
		t.Errorf("DeleteGroups: %+v, want %s deleted and %s not found", ds, gone, nosuch)
	}
	if got := e.Committed(t, gone); len(got) != 0 {
		t.Errorf("%s still holds %v", gone, got)
	}
	if ds, err := DeleteGroups(ctx, cl, nil); ds != nil || err != nil {
		t.Errorf("DeleteGroups of none: %v, %v", ds, err)
	}

	missingTopic := topic + "-nosuch"
	r, err := DeleteOffsets(ctx, cl, keep, []resetplan.TopicSpec{{Topic: topic}, {Topic: missingTopic}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range r.Partitions {
		s := p.Name()
		if p.Err != nil {
			s += " failed"
		}
		got = append(got, s)
	}
	want := []string{missingTopic + " failed", topic + "/0", topic + "/1"}
	if r.Group != keep || r.GroupErr != nil || !slices.Equal(got, want) {
		t.Errorf("DeleteOffsets: %s %v %q, want %q", r.Group, r.GroupErr, got, want)
	}
	if left := e.Committed(t, keep); len(left[topic]) != 0 {
		t.Errorf("%s still holds %v", keep, left)
	}

	r, err = DeleteOffsets(ctx, cl, nosuch, []resetplan.TopicSpec{{Topic: topic, Partitions: []int32{1}}})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(r.GroupErr, vocab.ErrGroupNotFound) || len(r.Partitions) != 1 || r.Partitions[0].Err != r.GroupErr {
		t.Errorf("DeleteOffsets of a group that does not exist: %+v", r)
	}
}

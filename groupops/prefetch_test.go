package groupops

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/segmentio/kafka-go"
)

// An --all-topics plan on a small cluster reads its log bounds beside the
// Metadata of its topics (prefetchBounds: kafkaadmin's ListOffsets
// fan-out) and builds exactly the plan Lookup builds, asking the Metadata
// first: the same targets, log bounds and warnings, for a group with
// commits on a live topic and on a topic deleted since (Kafka drops its
// commits a moment after the topic, kfake with it: the partition-gone
// warnings are there when the read came first). Both tiers.
func TestPlanPrefetchSameAsLookup(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic, gone, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "gone"), kafkatest.UniqueName(t, "g")
	sixRecords(t, e, topic, 3)
	e.Commit(t, group, topic, map[int32]int64{0: 2, 1: 4, 2: 6})
	e.CreateTopic(t, gone, 2)
	e.Commit(t, group, gone, map[int32]int64{0: 0, 1: 0})
	ctx0, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := e.Client.DeleteTopics(ctx0, &kafka.DeleteTopicsRequest{Topics: []string{gone}}); err != nil {
		t.Fatal(err)
	}
	probe, ctx := testClient(t, e)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		ts, err := probe.Topics(ctx, []string{gone})
		if err != nil {
			t.Fatal(err)
		}
		if ts[gone].Err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("topic %s still described 30 s after its deletion", gone)
		}
	}
	for _, st := range []resetplan.StrategyType{resetplan.StrategyToEarliest, resetplan.StrategyToLatest, resetplan.StrategyToCurrent} {
		r := PlanRequest{Scope: resetplan.Scope{AllTopics: true}, Strategy: resetplan.StrategySpec{Type: st}, CreatedBy: "test"}
		cl, ctx := testClient(t, e)
		info, snaps, err := ReadForPlan(ctx, cl, []string{group}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if prefetchBounds(ctx, cl, snaps, r) == nil {
			t.Fatalf("%s: the bounds were not prefetched on a one-broker cluster", st)
		}
		got, gotWarn, gotErr := BuildPlan(ctx, cl, info, snaps, r)

		// The same group snapshot: Kafka drops a deleted topic's commits
		// some time after the topic, and a second read may come after.
		ref, refCtx := testClient(t, e)
		want, wantWarn, wantErr := resetplan.Build(refCtx, Lookup{ref}, resetplan.Request{Groups: snaps, Scope: r.Scope, Strategy: r.Strategy,
			Cluster: resetplan.Cluster{ID: info.ClusterID, Bootstrap: ref.Bootstrap()}, CreatedBy: r.CreatedBy})
		if gotErr != nil || wantErr != nil {
			t.Fatalf("%s: %v; Lookup's %v", st, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got.Groups, want.Groups) || !reflect.DeepEqual(gotWarn, wantWarn) {
			t.Errorf("%s: plan %+v warnings %+v; Lookup's %+v, %+v", st, got.Groups, gotWarn, want.Groups, wantWarn)
		}
		if len(got.Groups) != 1 || len(got.Groups[0].Partitions) != 3 {
			t.Errorf("%s: plan %+v, want the three partitions of %s", st, got.Groups, topic)
		}
	}
}

package groupops

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ReadForPlan reads --to-group's SOURCE in the targets' offset-fetch
// phase: one OffsetFetch request for the targets and SOURCE together
// (one coordinator on kfake), and SOURCE's commits land in the spec. A
// SOURCE that does not exist is a *SourceMissingError.
func TestReadForPlanReadsSourceWithTargets(t *testing.T) {
	// kfake on both tiers: only kfake counts requests.
	e := kafkatest.Fake(t)
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{e.Bootstrap}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, kafkatest.Record{Value: "a"}, kafkatest.Record{Value: "b"})
	src, target := kafkatest.UniqueName(t, "src"), kafkatest.UniqueName(t, "target")
	e.Commit(t, src, topic, map[int32]int64{0: 2})
	e.Commit(t, target, topic, map[int32]int64{0: 1})
	if _, err := cl.Cluster(ctx); err != nil {
		t.Fatal(err)
	}

	var fetches atomic.Int64
	e.Kfake.ControlKey(int16(kmsg.OffsetFetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		fetches.Add(1)
		e.Kfake.KeepControl()
		return nil, nil, false
	})
	spec := resetplan.StrategySpec{Type: resetplan.StrategyToGroup, Source: src}
	_, snaps, err := ReadForPlan(ctx, cl, []string{target}, &spec)
	if err != nil {
		t.Fatal(err)
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d OffsetFetch requests, want 1 (source and targets in one phase)", n)
	}
	tp0 := TopicPartition{Topic: topic, Partition: 0}
	if len(snaps) != 1 || snaps[0].Group != target || snaps[0].Committed[tp0] != 1 {
		t.Errorf("snapshots = %+v, want the target only", snaps)
	}
	if len(spec.SourceCommits) != 1 || spec.SourceCommits[tp0] != 2 {
		t.Errorf("source commits = %v", spec.SourceCommits)
	}

	spec = resetplan.StrategySpec{Type: resetplan.StrategyToGroup, Source: "nosuch-" + src}
	_, _, err = ReadForPlan(ctx, cl, []string{target}, &spec)
	var sme *SourceMissingError
	if !errors.As(err, &sme) || sme.Group != "nosuch-"+src {
		t.Fatalf("missing source: err = %v", err)
	}
}

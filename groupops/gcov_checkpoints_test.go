package groupops_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/groupops/mm2"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/resetplan"
)

// gcCheckpoint is a MirrorMaker 2 checkpoint record in the bytes MM2
// writes.
func gcCheckpoint(group, topic string, p int32, up, down int64, at time.Time) kafkatest.Record {
	return kafkatest.Record{Key: string(mm2.EncodeKey(mm2.Key{Group: group, Topic: topic, Partition: p})),
		Value: string(mm2.EncodeValue(mm2.Value{Upstream: up, Downstream: down}, mm2.Version)), Time: at}
}

// ReadCheckpoints reads every partition of the checkpoints topic and keeps
// the newest checkpoint of each group and partition as compaction would:
// the last of a key in its partition, none after a tombstone.
func TestGcovReadCheckpoints(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	alias := kafkatest.UniqueName(t, "src")
	cps := resetplan.DefaultCheckpointsTopic(alias)
	remote := alias + ".orders"
	e.CreateTopic(t, cps, 2)
	g1, g2, g3 := kafkatest.UniqueName(t, "g1"), kafkatest.UniqueName(t, "g2"), kafkatest.UniqueName(t, "g3")
	now := time.Now().Truncate(time.Millisecond)
	e.Produce(t, cps, 0,
		gcCheckpoint(g1, remote, 0, 100, 3, now.Add(-3*time.Second)),
		gcCheckpoint(g2, remote, 1, 7, 2, now.Add(-time.Hour)),
		gcCheckpoint(g1, remote, 0, 120, 5, now.Add(-2*time.Second)), // the newer of g1/0
		gcCheckpoint(g3, remote, 0, 1, 1, now),
		kafkatest.Record{Key: string(mm2.EncodeKey(mm2.Key{Group: g3, Topic: remote, Partition: 0})), Tombstone: true},
	)
	e.Produce(t, cps, 1, gcCheckpoint(g1, remote, 1, 50, 4, now))

	got, err := groupops.ReadCheckpoints(ctx, cl, cps)
	if err != nil {
		t.Fatal(err)
	}
	tp := func(p int32) groupops.TopicPartition { return groupops.TopicPartition{Topic: remote, Partition: p} }
	want := map[string]map[groupops.TopicPartition]resetplan.Checkpoint{
		g1: {tp(0): {Upstream: 120, Downstream: 5, Time: now.Add(-2 * time.Second).UTC()}, tp(1): {Upstream: 50, Downstream: 4, Time: now.UTC()}},
		g2: {tp(1): {Upstream: 7, Downstream: 2, Time: now.Add(-time.Hour).UTC()}},
	}
	if len(got) != len(want) {
		t.Errorf("groups %v, want %s and %s (%s's only checkpoint is deleted)", got, g1, g2, g3)
	}
	for g, parts := range want {
		if len(got[g]) != len(parts) {
			t.Errorf("%s: %v, want %v", g, got[g], parts)
		}
		for tp, w := range parts {
			if c, ok := got[g][tp]; !ok || c.Upstream != w.Upstream || c.Downstream != w.Downstream || !c.Time.Equal(w.Time) || c.Time.Location() != time.UTC {
				t.Errorf("%s %s: %+v, want %+v", g, tp, c, w)
			}
		}
	}

	// The checkpoints topic of an alias this cluster has none of.
	missing := resetplan.DefaultCheckpointsTopic(alias + "-nosuch")
	_, err = groupops.ReadCheckpoints(ctx, cl, missing)
	var me *groupops.CheckpointsTopicMissingError
	if !errors.As(err, &me) || me.Topic != missing || !strings.HasPrefix(err.Error(), "checkpoints topic "+missing+" does not exist on this cluster: ") || !strings.HasSuffix(err.Error(), "; no plan was written") {
		t.Errorf("a topic that does not exist: %v", err)
	}

	// A record that is no checkpoint fails the whole read, named by its
	// place.
	e.Produce(t, cps, 1, kafkatest.Record{Key: "not a checkpoint key", Value: "x"})
	_, err = groupops.ReadCheckpoints(ctx, cl, cps)
	var re *groupops.CheckpointRecordError
	var inner *mm2.RecordError
	if !errors.As(err, &re) || !errors.As(err, &inner) || inner.Partition != 1 || inner.Offset != 1 ||
		!strings.HasPrefix(err.Error(), "checkpoints topic "+cps+" partition 1 offset 1: ") || !strings.HasSuffix(err.Error(), "; no plan was written") {
		t.Errorf("a malformed record: %v", err)
	}
}

// ReadSourcePositions reads, on the source cluster, each group's commit on
// the source topic (the remote name less "ALIAS.") and the time between
// the record at the checkpoint's upstream offset and the last record
// before the commit: the records a failover consumes twice.
func TestGcovReadSourcePositions(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	alias := kafkatest.UniqueName(t, "src")
	source := kafkatest.UniqueName(t, "orders")
	remote := alias + "." + source
	e.CreateTopic(t, source, 3)
	base := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	for p := range 3 {
		var recs []kafkatest.Record
		for i := range 10 {
			recs = append(recs, kafkatest.Record{Value: "v", Time: base.Add(time.Duration(i) * time.Minute)})
		}
		e.Produce(t, source, p, recs...)
	}
	g, none := kafkatest.UniqueName(t, "g"), kafkatest.UniqueName(t, "none")
	// p0: committed 8 past the checkpoint's upstream 3; p1: committed at
	// the checkpoint; p2: no commit.
	e.Commit(t, g, source, map[int32]int64{0: 8, 1: 4})
	part := func(p int32, upstream int64) resetplan.Partition {
		return resetplan.Partition{Topic: remote, Partition: p, Target: gcPtr(upstream), Upstream: gcPtr(upstream)}
	}
	plan := &resetplan.Plan{
		Strategy: resetplan.Strategy{Type: resetplan.StrategyTranslateFrom, Alias: alias},
		Groups: []resetplan.Group{
			{Group: g, Partitions: []resetplan.Partition{part(0, 3), part(1, 4), part(2, 0)}},
			{Group: none, Partitions: []resetplan.Partition{part(0, 1)}},
		},
	}
	got, err := groupops.ReadSourcePositions(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	at := func(group string, p int32) groupops.SourcePosition {
		return got[group][groupops.TopicPartition{Topic: remote, Partition: p}]
	}
	if sp := at(g, 0); sp.SourceTopic != source || sp.Err != nil || sp.Committed == nil || *sp.Committed != 8 || sp.Span == nil || *sp.Span != 4*time.Minute {
		t.Errorf("%s/0: %+v (span %v), want committed 8, records 3..7 four minutes apart", remote, sp, sp.Span)
	}
	if sp := at(g, 1); sp.Committed == nil || *sp.Committed != 4 || sp.Span != nil {
		t.Errorf("%s/1: %+v, want committed 4 at the checkpoint, no span", remote, sp)
	}
	if sp := at(g, 2); sp.SourceTopic != source || sp.Committed != nil || sp.Span != nil {
		t.Errorf("%s/2: %+v, want no commit", remote, sp)
	}
	if sp := at(none, 0); sp.Committed != nil || sp.Span != nil || sp.Err != nil {
		t.Errorf("%s: %+v, want no commit", none, sp)
	}
}

// SourceTopic takes "ALIAS." off a remote topic's name
// (DefaultReplicationPolicy) and leaves any other name as it is
// (IdentityReplicationPolicy).
func TestGcovSourceTopic(t *testing.T) {
	for _, c := range []struct{ alias, remote, want string }{
		{"src", "src.orders", "orders"},
		{"src", "src.src.orders", "src.orders"},
		{"src", "orders", "orders"},
		{"src", "src.", "src."},
		{"src", "other.orders", "other.orders"},
		{"src", "srcorders", "srcorders"},
	} {
		if got := groupops.SourceTopic(c.alias, c.remote); got != c.want {
			t.Errorf("SourceTopic(%q, %q) = %q, want %q", c.alias, c.remote, got, c.want)
		}
	}
}

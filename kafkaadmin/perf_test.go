package kafkaadmin_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A describe-like sequence (Cluster, DescribeGroups, FetchOffsets and two
// ListOffsets phases) asks Metadata once for the cluster and once for the
// topics' leaders, not once per call; the several batches of one
// coordinator all come back, each group described once.
func TestDescribeSequenceReusesMetadata(t *testing.T) {
	// kfake on both tiers: the real broker has no request counter to read
	// (bench/run counts them there from the outside). A cluster of this
	// test's own: on the shared one the test helpers' kafka-go transport
	// (and other tests) ask Metadata too, and one of theirs once landed in
	// the window (4 in 12 ms).
	e := kafkatest.FakeBrokers(t, 1)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 4)
	var groups []string
	for i := 0; i < 1001; i++ { // describe batches of 500: three per phase
		g := kafkatest.UniqueName(t, fmt.Sprintf("g%04d", i))
		groups = append(groups, g)
		e.Commit(t, g, topic, map[int32]int64{0: 0, 1: 0, 2: 0, 3: 0})
	}
	// The helpers' transport refreshes its metadata every second while it
	// holds a connection: close it before counting.
	e.Transport.CloseIdleConnections()
	var metadata, describes atomic.Int64
	count := func(n *atomic.Int64) func(kmsg.Request) (kmsg.Response, error, bool) {
		return func(kmsg.Request) (kmsg.Response, error, bool) {
			n.Add(1)
			e.Kfake.KeepControl()
			return nil, nil, false
		}
	}
	e.Kfake.ControlKey(int16(kmsg.Metadata), count(&metadata))
	e.Kfake.ControlKey(int16(kmsg.DescribeGroups), count(&describes))
	defer e.Kfake.DropControl()

	start := time.Now()
	if _, err := cl.Cluster(ctx); err != nil {
		t.Fatal(err)
	}
	descs, err := cl.DescribeGroups(ctx, groups)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range descs {
		if d.Group != groups[i] || d.Err != nil || !d.Exists {
			t.Fatalf("description %d: %+v, want group %s described", i, d, groups[i])
		}
	}
	if _, err := cl.FetchOffsets(ctx, groups); err != nil {
		t.Fatal(err)
	}
	tps := []kafkaadmin.TopicPartition{tp(topic, 0), tp(topic, 1), tp(topic, 2), tp(topic, 3)}
	for _, spec := range []int64{kafkaadmin.Latest, kafkaadmin.Earliest} {
		got, err := cl.ListOffsets(ctx, tps, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tps {
			if got[p].Err != nil {
				t.Fatalf("ListOffsets %d %s: %v", spec, p, got[p].Err)
			}
		}
	}
	// Cluster, the topics' leaders, and at most one of kafka-go's own
	// (its Transport's broker cache, when it dials). An answer serves for
	// 2 s (metadataReuse): on a machine so loaded that the sequence took
	// longer, one more per 2 s elapsed is the reuse working as designed;
	// one per call would be 7 or more at any speed.
	want := 3 + int64(time.Since(start)/(2*time.Second))
	if n := metadata.Load(); n > want {
		t.Errorf("Metadata requests: %d in %v, want at most %d", n, time.Since(start).Round(time.Millisecond), want)
	}
	if n := describes.Load(); n != 3 {
		t.Errorf("DescribeGroups requests for 1,001 groups on one coordinator: %d, want 3", n)
	}
}

package kafkaadmin_test

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// fanOutCounts counts, on a kfake cluster of the test's own, the
// ListOffsets requests and kcg's Metadata requests of named topics
// (kafka-go's own ask for none), and how many ListOffsets had reached the
// brokers when the first of those Metadata requests was answered: the
// Metadata is held (SleepControl, which lets the other requests run) until
// want ListOffsets arrived or 2 s passed. With the fan-out they all
// arrive beside it; on the leader-routed path none can before its answer.
// moved, when set, runs once the wait is over, before the Metadata is
// answered.
type fanOutCounts struct {
	listOffsets, metadata, early atomic.Int64
}

func countFanOut(e *kafkatest.Env, want int64, moved func()) *fanOutCounts {
	n := &fanOutCounts{}
	n.early.Store(-1)
	e.Transport.CloseIdleConnections()
	e.Kfake.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		n.listOffsets.Add(1)
		return nil, nil, false
	})
	e.Kfake.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		if len(req.(*kmsg.MetadataRequest).Topics) == 0 {
			return nil, nil, false
		}
		if n.metadata.Add(1) == 1 {
			e.Kfake.SleepControl(func() {
				for end := time.Now().Add(2 * time.Second); n.listOffsets.Load() < want && time.Now().Before(end); {
					time.Sleep(2 * time.Millisecond)
				}
				n.early.Store(n.listOffsets.Load())
				if moved != nil {
					moved()
				}
			})
		}
		return nil, nil, false
	})
	return n
}

// fanOutFixture is a kfake cluster of brokers brokers with a topic of
// four partitions holding 1 to 4 records, and the partitions to look up:
// those four, a partition the topic does not have, one of a topic that
// does not exist, and one of the four again (asked once).
func fanOutFixture(t *testing.T, brokers int) (*kafkatest.Env, string, []kafkaadmin.TopicPartition) {
	e := kafkatest.FakeBrokers(t, brokers)
	topic, tps := seedFanOut(t, e)
	return e, topic, tps
}

// seedFanOut makes fanOutFixture's topic on e and returns it and the
// partitions to look up.
func seedFanOut(t *testing.T, e *kafkatest.Env) (string, []kafkaadmin.TopicPartition) {
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 4)
	for p := range 4 {
		for range p + 1 {
			e.Produce(t, topic, p, kafkatest.Record{Value: "v"})
		}
	}
	tps := []kafkaadmin.TopicPartition{tp(topic, 0), tp(topic, 1), tp(topic, 2), tp(topic, 3), tp(topic, 9), tp(kafkatest.UniqueName(t, "gone"), 0), tp(topic, 1)}
	return topic, tps
}

var fanOutPhases = []kafkaadmin.OffsetQuery{
	{Spec: kafkaadmin.Latest}, {Spec: kafkaadmin.Earliest}, {Spec: kafkaadmin.Latest, Isolation: kafkaadmin.ReadCommitted},
}

// sameAsLeaderPath checks got, phase by phase, against what the
// leader-routed path alone answers (a client of its own), and that the
// existing partitions have their offsets and the others the error of a
// partition or topic that does not exist.
func sameAsLeaderPath(t *testing.T, e *kafkatest.Env, tps []kafkaadmin.TopicPartition, qs []kafkaadmin.OffsetQuery, got []map[kafkaadmin.TopicPartition]kafkaadmin.ListedOffset) {
	t.Helper()
	ref := newClient(t, e)
	for i, q := range qs {
		want, err := ref.ListOffsetsLeaderPathForTest(ctxFor(t), tps, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tps {
			g, w := got[i][p], want[p]
			if g.Offset != w.Offset || g.Timestamp != w.Timestamp || g.Found != w.Found || fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
				t.Errorf("phase %+v %s: got %+v, the leader path %+v", q, p, g, w)
			}
			exists := p.Topic == tps[0].Topic && p.Partition < 4
			switch {
			case exists && (g.Err != nil || (q.Spec == kafkaadmin.Latest && g.Offset != int64(p.Partition+1))):
				t.Errorf("phase %+v %s: %+v, want offset %d", q, p, g, p.Partition+1)
			case !exists && !kafkaadminIsUnknown(g.Err):
				t.Errorf("phase %+v %s: %v, want UNKNOWN_TOPIC_OR_PARTITION", q, p, g.Err)
			}
		}
	}
}

func kafkaadminIsUnknown(err error) bool {
	return err != nil && errors.Is(err, kafka.UnknownTopicOrPartition)
}

// On a cluster of one to three brokers, ListOffsetsAll sends each phase
// to every broker beside the Metadata of the topics while brokers ×
// phases and that Metadata fit within the eight requests in flight, and
// answers exactly what the leader-routed path answers; above the bound
// (three brokers, three phases) it sends exactly the leader-routed
// path's requests: the Metadata, then one request per leader per phase
// (and, as before, a Metadata per phase for the topic that does not
// exist, which no answer keeps).
func TestListOffsetsFanOut(t *testing.T) {
	for _, c := range []struct {
		brokers, phases int
		fanOut          bool
	}{
		{1, 1, true}, {1, 3, true}, {2, 2, true}, {2, 3, true}, {3, 2, true}, {3, 3, false},
	} {
		t.Run(fmt.Sprintf("%d brokers %d phases", c.brokers, c.phases), func(t *testing.T) {
			e, topic, tps := fanOutFixture(t, c.brokers)
			cl := newClient(t, e)
			ctx := ctxFor(t)
			if _, err := cl.Cluster(ctx); err != nil {
				t.Fatal(err)
			}
			leaders := map[int32]bool{}
			for p := range int32(4) {
				leaders[e.Kfake.LeaderFor(topic, p)] = true
			}
			qs := fanOutPhases[:c.phases]
			n := countFanOut(e, int64(c.brokers*c.phases), nil)
			got, err := cl.ListOffsetsAll(ctx, tps, qs)
			if err != nil {
				t.Fatal(err)
			}
			lo, meta, early := n.listOffsets.Load(), n.metadata.Load(), n.early.Load()
			if c.fanOut {
				if want := int64(c.brokers * c.phases); lo != want || early != want || meta != 1 {
					t.Errorf("fan-out: %d ListOffsets (%d of them before the Metadata answer), %d Metadata; want %d, %d and 1", lo, early, meta, want, want)
				}
			} else if want := int64(len(leaders) * c.phases); lo != want || early != 0 || meta != int64(1+c.phases) {
				t.Errorf("above the bound: %d ListOffsets (%d before the Metadata answer), %d Metadata; want %d, 0 and %d", lo, early, meta, want, 1+c.phases)
			}
			sameAsLeaderPath(t, e, tps, qs, got)
		})
	}
}

// A partition whose leader moved between the fan-out's ListOffsets and
// the Metadata answer: the broker that Metadata names answered
// NOT_LEADER_OR_FOLLOWER (it was not the leader yet) and the old leader's
// answer is not kept; the partition goes to its new leader by the
// leader-routed path (one more request per phase), and the results are
// that path's. A single ListOffsets phase (ListOffsets, as plan's lookups
// ask) takes the fan-out too.
func TestListOffsetsFanOutLeaderMoved(t *testing.T) {
	for _, phases := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d phases", phases), func(t *testing.T) {
			e, topic, tps := fanOutFixture(t, 2)
			cl := newClient(t, e)
			ctx := ctxFor(t)
			if _, err := cl.Cluster(ctx); err != nil {
				t.Fatal(err)
			}
			to := 1 - e.Kfake.LeaderFor(topic, 0)
			n := countFanOut(e, int64(2*phases), func() {
				if err := e.Kfake.MoveTopicPartition(topic, 0, to); err != nil {
					t.Error(err)
				}
			})
			qs := fanOutPhases[:phases]
			var got []map[kafkaadmin.TopicPartition]kafkaadmin.ListedOffset
			if phases == 1 {
				one, err := cl.ListOffsets(ctx, tps, qs[0].Spec)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, one)
			} else {
				var err error
				if got, err = cl.ListOffsetsAll(ctx, tps, qs); err != nil {
					t.Fatal(err)
				}
			}
			if lo, early := n.listOffsets.Load(), n.early.Load(); early != int64(2*phases) || lo != int64(3*phases) {
				t.Errorf("%d ListOffsets (%d before the Metadata answer), want %d (%d)", lo, early, 3*phases, 2*phases)
			}
			if l := e.Kfake.LeaderFor(topic, 0); l != to {
				t.Fatalf("leader of %s-0: %d, want %d", topic, l, to)
			}
			sameAsLeaderPath(t, e, tps, qs, got)
		})
	}
}

// The fan-out's results on the test tier's cluster (a real broker with
// KCG_TEST_BOOTSTRAP) are the leader-routed path's: existing partitions,
// one asked twice, a partition the topic does not have, a topic that does
// not exist, every phase.
func TestListOffsetsFanOutBothTiers(t *testing.T) {
	e := kafkatest.Cluster(t)
	_, tps := seedFanOut(t, e)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	if _, err := cl.Cluster(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := cl.ListOffsetsAll(ctx, tps, fanOutPhases)
	if err != nil {
		t.Fatal(err)
	}
	sameAsLeaderPath(t, e, tps, fanOutPhases, got)
}

// A broker that leads none of the partitions holds nothing up: once the
// Metadata and the leaders have answered, the fan-out's request to it is
// abandoned, as the leader-routed path would not have asked it (here it
// does not answer for 5 s).
func TestListOffsetsFanOutIdleBrokerNotAwaited(t *testing.T) {
	e, topic, tps := fanOutFixture(t, 2)
	for p := range int32(4) {
		if err := e.Kfake.MoveTopicPartition(topic, p, 0); err != nil {
			t.Fatal(err)
		}
	}
	cl := newClient(t, e)
	ctx := ctxFor(t)
	if _, err := cl.Cluster(ctx); err != nil {
		t.Fatal(err)
	}
	// The Metadata waits until all four requests reached the brokers.
	countFanOut(e, 4, nil)
	var held atomic.Int64
	e.Kfake.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		if e.Kfake.CurrentNode() == 1 {
			held.Add(1)
			e.Kfake.SleepControl(func() { time.Sleep(5 * time.Second) })
		}
		return nil, nil, false
	})
	start := time.Now()
	got, err := cl.ListOffsetsAll(ctx, tps, fanOutPhases[:2])
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if held.Load() != 2 || took > 2*time.Second {
		t.Errorf("%d requests held at the idle broker, the call took %v; want 2 and well under 5 s", held.Load(), took.Round(time.Millisecond))
	}
	sameAsLeaderPath(t, e, tps, fanOutPhases[:2], got)
}

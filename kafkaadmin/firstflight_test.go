package kafkaadmin_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/internal/faultproxy"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/segmentio/kafka-go/sasl/plain"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// The first flight (firstflight.go) is Metadata v7 and FindCoordinator v2
// written behind kafka-go's ApiVersions before its answer. A broker that
// serves them answers all three and the coordinator is then known without
// a FindCoordinator of kcg's own; a broker that does not (Kafka 2.0 has
// Metadata up to v6) drops the connection, and the client dials again and
// carries on: the same answers, no wait for a timeout.
func TestFirstFlight(t *testing.T) {
	for _, v := range []struct {
		name   string
		max    *kversion.Versions
		flight bool // the first flight is served
	}{{"4.x", nil, true}, {"2.3", kversion.V2_3_0(), true}, {"2.0", kversion.V2_0_0(), false}} {
		t.Run(v.name, func(t *testing.T) {
			opts := []kfake.Opt{kfake.NumBrokers(1), kfake.ClusterID("ff")}
			if v.max != nil {
				opts = append(opts, kfake.MaxVersions(v.max))
			}
			c, err := kfake.NewCluster(opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.CreateTopic("t", 1, nil); err != nil {
				t.Fatal(err)
			}
			// The versions of the FindCoordinator and Metadata requests
			// kfake sees: the flight's are v2 and v7; kcg's own
			// FindCoordinator is v4 on a 4.x broker.
			var mu sync.Mutex
			seen := map[int16][]int16{}
			for _, key := range []int16{kmsg.FindCoordinator.Int16(), kmsg.Metadata.Int16()} {
				c.ControlKey(key, func(r kmsg.Request) (kmsg.Response, error, bool) {
					c.KeepControl()
					mu.Lock()
					seen[key] = append(seen[key], r.GetVersion())
					mu.Unlock()
					return nil, nil, false
				})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: c.ListenAddrs()})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			// Before the first request, as describe G does through
			// its coordinators.
			cl.ExpectGroups([]string{"g"})
			res, err := cl.CommitOffsets(ctx, "g", []kafkaadmin.OffsetToCommit{{TopicPartition: kafkaadmin.TopicPartition{Topic: "t", Partition: 0}, Offset: 0}})
			if err != nil || res[kafkaadmin.TopicPartition{Topic: "t", Partition: 0}] != nil {
				t.Fatalf("commit within 5 s: %v %v", err, res)
			}
			info, err := cl.Cluster(ctx)
			if err != nil || info.ClusterID != "ff" || len(info.Brokers) != 1 {
				t.Fatalf("cluster: %+v %v", info, err)
			}
			mu.Lock()
			defer mu.Unlock()
			finds, metas := seen[kmsg.FindCoordinator.Int16()], seen[kmsg.Metadata.Int16()]
			if len(metas) == 0 || metas[0] != 7 {
				t.Errorf("Metadata versions %v: the first flight's v7 was not sent first", metas)
			}
			if v.flight && (len(finds) != 1 || finds[0] != 2) {
				t.Errorf("FindCoordinator versions %v: want the first flight's v2 alone", finds)
			}
			if !v.flight && len(metas) < 2 {
				t.Errorf("Metadata versions %v: kafka-go's own Metadata was not sent after the dropped flight", metas)
			}
		})
	}
}

// With SASL the first flight is not written (the handshake must come
// first), and the coordinators go behind kafka-go's own Metadata instead
// (piggyback.go): through a 100 ms each-way wire, a group's coordinator is
// known after five round trips (TCP, ApiVersions, SaslHandshake,
// SaslAuthenticate, Metadata with FindCoordinator), not six.
func TestPiggybackUnderSASL(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser("PLAIN", "admin", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pc, err := faultproxy.New(c.ListenAddrs())
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	const oneWay = 100 * time.Millisecond
	if err := pc.SetAll(faultproxy.Fault{Mode: faultproxy.Latency, Delay: oneWay}); err != nil {
		t.Fatal(err)
	}
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{pc.Bootstrap()}, SASL: plain.Mechanism{Username: "admin", Password: "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := cl.CoordinatorOf(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("coordinator after %v, %.1f round trips", took, float64(took)/float64(2*oneWay))
	if limit := 6 * 2 * oneWay; took >= limit {
		t.Errorf("the coordinator took %v: more than 5 round trips of %v", took, 2*oneWay)
	}
	if errs := pc.Errors(); len(errs) > 0 {
		t.Errorf("proxy: %v", errs)
	}
}

package kafkaadmin_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// A broker without the KIP-848 APIs (and, for 2.3, without multi-group
// OffsetFetch, batched FindCoordinator and ListGroups state filters) still
// works: describe falls back to DescribeGroups, offsets are fetched per
// group, coordinators looked up one by one, states filtered client-side.
// kfake only: it can pretend to be an old broker; the real broker is 4.4.
func TestOlderBrokers(t *testing.T) {
	for _, v := range []struct {
		name string
		max  *kversion.Versions
	}{{"3.5", kversion.V3_5_0()}, {"2.3", kversion.V2_3_0()}} {
		t.Run(v.name, func(t *testing.T) {
			c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.MaxVersions(v.max), kfake.ClusterID("old"))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			addr := c.ListenAddrs()[0]
			if err := c.CreateTopic("t", 2, nil); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{addr}})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			if ok, err := cl.SupportsForTest(ctx, kmsg.NewPtrConsumerGroupDescribeRequest(), 0); err != nil || ok {
				t.Fatalf("ConsumerGroupDescribe advertised by a %s broker: %v %v", v.name, ok, err)
			}
			var groups []string
			for i := 0; i < 3; i++ {
				g := fmt.Sprintf("g%d", i)
				groups = append(groups, g)
				res, err := cl.CommitOffsets(ctx, g, []kafkaadmin.OffsetToCommit{{TopicPartition: kafkaadmin.TopicPartition{Topic: "t", Partition: 1}, Offset: 0}})
				if err != nil || res[kafkaadmin.TopicPartition{Topic: "t", Partition: 1}] != nil {
					t.Fatalf("commit: %v %v", err, res)
				}
			}
			r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{addr}, GroupID: "live", GroupTopics: []string{"t"}, MaxWait: 200 * time.Millisecond, HeartbeatInterval: time.Second})
			defer r.Close()
			rctx, rcancel := context.WithCancel(ctx)
			defer rcancel()
			go func() {
				for rctx.Err() == nil {
					_, _ = r.FetchMessage(rctx)
				}
			}()
			if _, err := c.WaitGroupStable(ctx, "live", 1); err != nil {
				t.Fatal(err)
			}
			ds, err := cl.DescribeGroups(ctx, append(groups, "live", "missing"))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds[:3] {
				if d.Err != nil || d.Type != kafkaadmin.TypeClassic || d.State != "Empty" {
					t.Fatalf("%+v", d)
				}
			}
			if live := ds[3]; live.Err != nil || live.State != "Stable" || len(live.Members) != 1 || len(live.Members[0].Assignment) != 1 {
				t.Fatalf("live group %+v", live)
			}
			if ds[4].Exists {
				t.Fatalf("missing group %+v", ds[4])
			}
			offs, err := cl.FetchOffsets(ctx, groups)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range offs {
				if o.Err != nil || len(o.Offsets) != 1 {
					t.Fatalf("%+v", o)
				}
			}
			list, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{States: []string{"Stable"}, WithStates: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || list[0].Group != "live" {
				t.Fatalf("ListGroups --state Stable on %s: %+v", v.name, list)
			}
			// Without WithStates: no states before ListGroups v4 (2.6),
			// and a state filter fails there, as in the Java admin client.
			list, err = cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
			if err != nil || len(list) != 4 {
				t.Fatalf("ListGroups on %s: %+v %v", v.name, list, err)
			}
			old := v.name == "2.3"
			for _, g := range list {
				if (g.State == "") != old {
					t.Errorf("ListGroups on %s: %+v (want a state only from ListGroups v4 on)", v.name, g)
				}
			}
			_, err = cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{States: []string{"Stable"}})
			var se *kafkaadmin.FilterError
			if errors.As(err, &se) != old || (old && (se.Version >= 4 || se.Broker.Addr() != addr)) {
				t.Errorf("ListGroups --state Stable without WithStates on %s: %v", v.name, err)
			}
			res, err := cl.DeleteGroups(ctx, groups)
			if err != nil {
				t.Fatal(err)
			}
			for g, e := range res {
				if e != nil {
					t.Fatalf("delete %s: %v", g, e)
				}
			}
		})
	}
}

// Kafka 3.9.1 answers a ConsumerGroupDescribe batch that names a group it
// does not know as a consumer group with every group twice: the described
// ones first, then GROUP_ID_NOT_FOUND for the whole batch (seen on a real
// 3.9.1 broker; 4.0.2 answers once per group). A described group must stay
// described, not fall back to DescribeGroups (which says Dead for a
// consumer group on 3.9). kfake answers the way 3.9.1 did; the real 3.9.1
// broker is covered by TestDescribeEveryKindOfGroup in CI.
func TestConsumerGroupDescribeDuplicateEntries(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ClusterID("dup"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	c.ControlKey(int16(kmsg.ConsumerGroupDescribe), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.ConsumerGroupDescribeRequest)
		resp := r.ResponseKind().(*kmsg.ConsumerGroupDescribeResponse)
		for _, g := range r.Groups {
			if g == "live" {
				d := kmsg.NewConsumerGroupDescribeResponseGroup()
				d.Group, d.State, d.Epoch, d.AssignmentEpoch, d.AssignorName = g, "Stable", 3, 3, "uniform"
				resp.Groups = append(resp.Groups, d)
			}
		}
		for _, g := range r.Groups {
			d := kmsg.NewConsumerGroupDescribeResponseGroup()
			d.Group, d.ErrorCode = g, kerr.GroupIDNotFound.Code
			resp.Groups = append(resp.Groups, d)
		}
		return resp, nil, true
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{c.ListenAddrs()[0]}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.CommitOffsets(ctx, "empty", []kafkaadmin.OffsetToCommit{{TopicPartition: kafkaadmin.TopicPartition{Topic: "t", Partition: 0}, Offset: 0}}); err != nil {
		t.Fatal(err)
	}
	descs, err := cl.DescribeGroups(ctx, []string{"empty", "live", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if d := descs[0]; d.Err != nil || !d.Exists || d.Type != kafkaadmin.TypeClassic || d.State != "Empty" {
		t.Fatalf("empty: %+v", d)
	}
	if d := descs[1]; d.Err != nil || !d.Exists || d.Type != kafkaadmin.TypeConsumer || d.State != "Stable" || d.Assignor != "uniform" {
		t.Fatalf("live: %+v", d)
	}
	if d := descs[2]; d.Err != nil || d.Exists {
		t.Fatalf("missing: %+v", d)
	}
}

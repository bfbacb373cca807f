package kafkaadmin_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func newClient(t *testing.T, e *kafkatest.Env) *kafkaadmin.Client {
	t.Helper()
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{e.Bootstrap}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func tp(topic string, p int32) kafkaadmin.TopicPartition {
	return kafkaadmin.TopicPartition{Topic: topic, Partition: p}
}

// An unreachable cluster is an error naming the address within the
// deadline — never an empty group list, which is what kafka-go's own
// ListGroups returns.
func TestUnreachableFailsFast(t *testing.T) {
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	groups, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
	if err == nil {
		t.Fatalf("ListGroups on an unreachable cluster returned %v and no error", groups)
	}
	var ue *kafkaadmin.UnreachableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("error %q (%T) does not name the unreachable address", err, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestClusterIdentity(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	info, err := cl.Cluster(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.ClusterID == "" || len(info.Brokers) == 0 {
		t.Fatalf("cluster info %+v", info)
	}
	if !e.Real && info.ClusterID != kafkatest.KfakeClusterID {
		t.Fatalf("cluster id %q, want %q", info.ClusterID, kafkatest.KfakeClusterID)
	}
}

// A committed offset carries leader epoch -1 (not kafka-go's 0) and the
// metadata given.
func TestCommitLeaderEpochAndMetadata(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, kafkatest.Record{Value: "a"}, kafkatest.Record{Value: "b"})
	res, err := cl.CommitOffsets(ctx, group, []kafkaadmin.OffsetToCommit{
		{TopicPartition: tp(topic, 0), Offset: 1, Metadata: "kcg CHG-1"},
		{TopicPartition: tp(topic, 1), Offset: 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, e := range res {
		if e != nil {
			t.Fatalf("%s: %v", p, e)
		}
	}
	offs, err := cl.FetchOffsets(ctx, []string{group})
	if err != nil {
		t.Fatal(err)
	}
	got := offs[0]
	if got.Err != nil {
		t.Fatal(got.Err)
	}
	c0, ok := got.Offsets[tp(topic, 0)]
	if !ok || c0.Offset != 1 || c0.Metadata != "kcg CHG-1" {
		t.Fatalf("partition 0: %+v (present %v)", c0, ok)
	}
	if c0.LeaderEpoch != nil {
		t.Fatalf("leader epoch %d stored; want none (-1)", *c0.LeaderEpoch)
	}
	// Read the raw stored epoch independently of kcg's decoding.
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Version = 7
	req.Group = group
	raw, err := kmsgRequest(ctx, e, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range raw.(*kmsg.OffsetFetchResponse).Topics {
		for _, p := range rt.Partitions {
			if p.LeaderEpoch != -1 {
				t.Fatalf("%s/%d stored leader epoch %d, want -1", rt.Topic, p.Partition, p.LeaderEpoch)
			}
		}
	}
	if e.Kfake != nil {
		gi := e.Kfake.GroupInfo(group)
		if gi == nil || gi.Commits[topic][0].LeaderEpoch != -1 || gi.Commits[topic][0].Metadata != "kcg CHG-1" {
			t.Fatalf("kfake group info %+v", gi)
		}
	}
}

// kmsgRequest sends a request with an independent client (franz-go's
// request sharding would hide routing; a plain kafka-go Transport is
// enough for a coordinator-bound fetch on one broker).
func kmsgRequest(ctx context.Context, e *kafkatest.Env, req kmsg.Request) (kmsg.Response, error) {
	cl := kafkaadmin.NewRawForTest(e.Bootstrap)
	defer cl.Close()
	return cl.RawForTest(ctx, req)
}

// A group with a classic member (kafka-go Reader: subscription v1) is
// described with its member, assignment and subscription.
func TestDescribeClassicGroup(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 3)
	m := e.ClassicMember(t, group, topic)
	ds, err := cl.DescribeGroups(ctx, []string{group})
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	if d.Err != nil || !d.Exists || d.Type != kafkaadmin.TypeClassic || d.State != "Stable" || d.ProtocolType != "consumer" {
		t.Fatalf("description %+v", d)
	}
	if len(d.Members) != 1 || d.Members[0].ClientID != m.ClientID {
		t.Fatalf("members %+v", d.Members)
	}
	mem := d.Members[0]
	if mem.DecodeErr != nil {
		t.Fatal(mem.DecodeErr)
	}
	if fmt.Sprint(mem.Subscribed) != fmt.Sprint([]string{topic}) {
		t.Fatalf("subscribed %v", mem.Subscribed)
	}
	if len(mem.Assignment) != 1 || mem.Assignment[0].Topic != topic || fmt.Sprint(mem.Assignment[0].Partitions) != "[0 1 2]" {
		t.Fatalf("assignment %+v", mem.Assignment)
	}
	if d.Assignor == "" {
		t.Fatal("no assignor")
	}
	if d.GroupEpoch != nil || mem.MemberEpoch != nil {
		t.Fatal("classic group has KIP-848 epochs")
	}
}

// A member that sends ConsumerProtocol subscription v3 — what Java and
// franz-go classic consumers send, and what kafka-go's own DescribeGroups
// fails on — decodes.
func TestDescribeSubscriptionV3Member(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	m := e.JavaStyleClassicMember(t, group, topic)
	ds, err := cl.DescribeGroups(ctx, []string{group})
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	if d.Err != nil || d.Type != kafkaadmin.TypeClassic || len(d.Members) != 1 {
		t.Fatalf("description %+v", d)
	}
	mem := d.Members[0]
	if mem.ClientID != m.ClientID || mem.DecodeErr != nil {
		t.Fatalf("member %+v", mem)
	}
	if fmt.Sprint(mem.Subscribed) != fmt.Sprint([]string{topic}) || len(mem.Assignment) != 1 {
		t.Fatalf("member subscription %v assignment %v", mem.Subscribed, mem.Assignment)
	}
}

// A KIP-848 group is recognised as such and described through
// ConsumerGroupDescribe: epochs, assignor, assignments with topic names.
func TestDescribeConsumerProtocolGroup(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	m := e.ConsumerProtocolMember(t, group, topic)
	ds, err := cl.DescribeGroups(ctx, []string{group})
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	if d.Err != nil || d.Type != kafkaadmin.TypeConsumer || d.State != "Stable" || d.GroupEpoch == nil || d.AssignmentEpoch == nil {
		t.Fatalf("description %+v", d)
	}
	if d.Assignor == "" {
		t.Fatal("no server assignor")
	}
	if len(d.Members) != 1 || d.Members[0].ClientID != m.ClientID || d.Members[0].MemberEpoch == nil {
		t.Fatalf("members %+v", d.Members)
	}
	a := d.Members[0].Assignment
	if len(a) != 1 || a[0].Topic != topic || fmt.Sprint(a[0].Partitions) != "[0 1]" {
		t.Fatalf("assignment %+v", a)
	}
	list, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{Types: []string{"consumer"}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range list {
		if g.Group == group {
			found = g.Type == kafkaadmin.TypeConsumer
		}
	}
	if !found {
		t.Fatalf("ListGroups --type consumer misses %s: %+v", group, list)
	}
	// An admin commit to an active KIP-848 group is refused.
	res, err := cl.CommitOffsets(ctx, group, []kafkaadmin.OffsetToCommit{{TopicPartition: tp(topic, 0), Offset: 0}})
	if err == nil {
		err = res[tp(topic, 0)]
	}
	if err == nil {
		t.Fatal("commit to an active KIP-848 group was accepted")
	}
}

func TestDescribeMissingAndEmptyGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	empty := kafkatest.UniqueName(t, "empty")
	missing := kafkatest.UniqueName(t, "missing")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, empty, topic, map[int32]int64{0: 0})
	ds, err := cl.DescribeGroups(ctx, []string{missing, empty})
	if err != nil {
		t.Fatal(err)
	}
	if ds[0].Group != missing || ds[0].Err != nil || ds[0].Exists {
		t.Fatalf("missing group: %+v", ds[0])
	}
	if ds[1].Group != empty || ds[1].Err != nil || !ds[1].Exists || ds[1].State != "Empty" || ds[1].HasMembers() {
		t.Fatalf("empty group: %+v", ds[1])
	}
	offs, err := cl.FetchOffsets(ctx, []string{missing, empty})
	if err != nil {
		t.Fatal(err)
	}
	if offs[0].Err != nil || len(offs[0].Offsets) != 0 {
		t.Fatalf("missing group offsets: %+v", offs[0])
	}
	if offs[1].Err != nil || len(offs[1].Offsets) != 1 {
		t.Fatalf("empty group offsets: %+v", offs[1])
	}
}

// The broker's refusal of an admin commit to a group with members reads as
// "the group has active members".
func TestCommitToActiveClassicGroupRefused(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.ClassicMember(t, group, topic)
	res, err := cl.CommitOffsets(ctx, group, []kafkaadmin.OffsetToCommit{{TopicPartition: tp(topic, 0), Offset: 0}})
	if err != nil {
		t.Fatal(err)
	}
	perr := res[tp(topic, 0)]
	if !kafkaadmin.IsActiveGroupError(perr) || !strings.Contains(perr.Error(), "active members") {
		t.Fatalf("commit error %v", perr)
	}
}

// Deleting several groups at once succeeds for each (kafka-go's own call
// sends them all to the first group's coordinator).
func TestDeleteManyGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	var groups []string
	for i := 0; i < 6; i++ {
		g := kafkatest.UniqueName(t, fmt.Sprintf("g%d", i))
		e.Commit(t, g, topic, map[int32]int64{0: 0})
		groups = append(groups, g)
	}
	missing := kafkatest.UniqueName(t, "missing")
	res, err := cl.DeleteGroups(ctx, append(groups, missing))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if res[g] != nil {
			t.Fatalf("%s: %v", g, res[g])
		}
	}
	if !errors.Is(res[missing], kafka.GroupIdNotFound) {
		t.Fatalf("missing group: %v", res[missing])
	}
	ds, err := cl.DescribeGroups(ctx, groups)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Exists {
			t.Fatalf("%s still exists: %+v", d.Group, d)
		}
	}
}

func TestDeleteOffsets(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Commit(t, group, topic, map[int32]int64{0: 0, 1: 0})
	res, err := cl.DeleteOffsets(ctx, group, []kafkaadmin.TopicPartition{tp(topic, 1)})
	if err != nil || res.Err != nil || res.Partitions[tp(topic, 1)] != nil {
		t.Fatalf("delete offsets: %v %+v", err, res)
	}
	got := e.Committed(t, group)
	if _, ok := got[topic][1]; ok || got[topic][0] != 0 {
		t.Fatalf("committed after delete: %v", got)
	}
}

// ListOffsets answers earliest, latest and by-time lookups with one request
// per partition leader per lookup, not one per partition.
func TestListOffsetsBatched(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 4)
	base := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	for p := 0; p < 4; p++ {
		var recs []kafkatest.Record
		for i := 0; i < 3+p; i++ {
			recs = append(recs, kafkatest.Record{Value: "v", Time: base.Add(time.Duration(i) * time.Minute)})
		}
		e.Produce(t, topic, p, recs...)
	}
	var tps []kafkaadmin.TopicPartition
	for p := int32(0); p < 4; p++ {
		tps = append(tps, tp(topic, p))
	}
	ends, err := cl.ListOffsets(ctx, tps, kafkaadmin.Latest)
	if err != nil {
		t.Fatal(err)
	}
	starts, err := cl.ListOffsets(ctx, tps, kafkaadmin.Earliest)
	if err != nil {
		t.Fatal(err)
	}
	at, err := cl.ListOffsets(ctx, tps, base.Add(90*time.Second).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	future, err := cl.ListOffsets(ctx, tps, time.Now().Add(time.Hour).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	for p := int32(0); p < 4; p++ {
		k := tp(topic, p)
		if ends[k].Err != nil || ends[k].Offset != int64(3+p) {
			t.Fatalf("end of %s: %+v", k, ends[k])
		}
		if starts[k].Err != nil || starts[k].Offset != 0 {
			t.Fatalf("start of %s: %+v", k, starts[k])
		}
		// Records at base+0,1,2… minutes: the first at or after base+90s is
		// offset 2, and its own timestamp (not the asked one) is reported.
		if at[k].Err != nil || !at[k].Found || at[k].Offset != 2 || at[k].Timestamp != base.Add(2*time.Minute).UnixMilli() {
			t.Fatalf("by time %s: %+v", k, at[k])
		}
		if future[k].Err != nil || future[k].Found {
			t.Fatalf("future time %s: %+v", k, future[k])
		}
	}
	unknown, err := cl.ListOffsets(ctx, []kafkaadmin.TopicPartition{tp(topic, 9), tp(kafkatest.UniqueName(t, "nope"), 0)}, kafkaadmin.Latest)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range unknown {
		if !errors.Is(v.Err, kafka.UnknownTopicOrPartition) {
			t.Fatalf("%s: %+v", k, v)
		}
	}
}

// The wire-request count is what makes describe scale: count ListOffsets
// and OffsetFetch requests with kfake's observer (kfake only: the real
// broker has no request counter we can read).
func TestRequestCountsBounded(t *testing.T) {
	// kfake on both tiers: the real broker has no request counter to read.
	e := kafkatest.Fake(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 16)
	var groups []string
	for i := 0; i < 40; i++ {
		g := kafkatest.UniqueName(t, fmt.Sprintf("g%02d", i))
		groups = append(groups, g)
		offs := map[int32]int64{}
		for p := int32(0); p < 16; p++ {
			offs[p] = 0
		}
		e.Commit(t, g, topic, offs)
	}
	var listOffsets, offsetFetch atomic.Int64
	e.Kfake.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		listOffsets.Add(1)
		e.Kfake.KeepControl()
		return nil, nil, false
	})
	e.Kfake.ControlKey(int16(kmsg.OffsetFetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		offsetFetch.Add(1)
		e.Kfake.KeepControl()
		return nil, nil, false
	})
	defer e.Kfake.DropControl()
	offs, err := cl.FetchOffsets(ctx, groups)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range offs {
		if o.Err != nil || len(o.Offsets) != 16 {
			t.Fatalf("%s: %+v", o.Group, o)
		}
	}
	var tps []kafkaadmin.TopicPartition
	for p := int32(0); p < 16; p++ {
		tps = append(tps, tp(topic, p))
	}
	if _, err := cl.ListOffsets(ctx, tps, kafkaadmin.Latest); err != nil {
		t.Fatal(err)
	}
	if n := offsetFetch.Load(); n != 1 {
		t.Fatalf("OffsetFetch requests for 40 groups on one coordinator: %d, want 1", n)
	}
	if n := listOffsets.Load(); n != 1 {
		t.Fatalf("ListOffsets requests for 16 partitions on one leader: %d, want 1", n)
	}
}

// Coordinator errors are retried with backoff (kafka-go retries nothing).
func TestCoordinatorErrorsRetried(t *testing.T) {
	// kfake on both tiers: a real broker cannot be told to fail on demand.
	e := kafkatest.Fake(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	h1 := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.FindCoordinator}, Group: group, Err: kerr.CoordinatorNotAvailable, Count: 2})
	h2 := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetFetch}, Group: group, Err: kerr.CoordinatorLoadInProgress, Count: 2})
	h3 := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: group, Err: kerr.NotCoordinator, Count: 1})
	defer h1.Remove()
	defer h2.Remove()
	defer h3.Remove()
	offs, err := cl.FetchOffsets(ctx, []string{group})
	if err != nil || offs[0].Err != nil || len(offs[0].Offsets) != 1 {
		t.Fatalf("fetch through injected coordinator errors: %v %+v", err, offs)
	}
	res, err := cl.CommitOffsets(ctx, group, []kafkaadmin.OffsetToCommit{{TopicPartition: tp(topic, 0), Offset: 0}})
	if err != nil || res[tp(topic, 0)] != nil {
		t.Fatalf("commit through injected NOT_COORDINATOR: %v %+v", err, res)
	}
	if h1.Hits() < 1 || h2.Hits() < 1 || h3.Hits() < 1 {
		t.Fatalf("faults not hit: %d %d %d", h1.Hits(), h2.Hits(), h3.Hits())
	}
}

func TestListGroupsStatesAndTypes(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	empty := kafkatest.UniqueName(t, "empty")
	stable := kafkatest.UniqueName(t, "stable")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, empty, topic, map[int32]int64{0: 0})
	e.ClassicMember(t, stable, topic)
	all, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]kafkaadmin.GroupListing{}
	var ids []string
	for _, g := range all {
		got[g.Group] = g
		ids = append(ids, g.Group)
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("ListGroups not sorted")
	}
	if got[empty].State != "Empty" || got[stable].State != "Stable" || got[stable].Type != kafkaadmin.TypeClassic {
		t.Fatalf("listing: empty %+v stable %+v", got[empty], got[stable])
	}
	onlyStable, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{States: []string{"Stable"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range onlyStable {
		if g.Group == empty {
			t.Fatal("state filter kept an Empty group")
		}
	}
}

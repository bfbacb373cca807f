package kafkatest

import (
	"context"
	"encoding/binary"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/protocol/describegroups"
)

func TestUniqueName(t *testing.T) {
	a, b := UniqueName(t, "topic"), UniqueName(t, "topic")
	if a == b {
		t.Fatalf("two calls gave the same name %q", a)
	}
	if !regexp.MustCompile(`^topic-TestUniqueName-[0-9a-f]{8}$`).MatchString(a) {
		t.Fatalf("unexpected name %q", a)
	}
	t.Run("sub test/with spaces_and:colons", func(t *testing.T) {
		n := UniqueName(t, "")
		if !regexp.MustCompile(`^[A-Za-z0-9.-]+$`).MatchString(n) || len(n) > 249 {
			t.Fatalf("not a legal topic name: %q", n)
		}
	})
}

func TestClusterTier(t *testing.T) {
	e := Cluster(t)
	t.Logf("running against %s", e.Name())
	if e.Real != (e.Kfake == nil) {
		t.Fatalf("Real=%v but Kfake=%v", e.Real, e.Kfake)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := e.Client.Metadata(ctx, &kafka.MetadataRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// kfake runs one broker; the real tier as many as kafka.sh started
	// (KCG_TEST_BROKERS: 3 in CI, 1 for a quick local run).
	if want := e.Brokers(); len(md.Brokers) != want {
		t.Fatalf("want %d broker(s) (%s=%q), got %d: %v", want, EnvBrokers, os.Getenv(EnvBrokers), len(md.Brokers), md.Brokers)
	}
	if !e.Real && md.ClusterID != KfakeClusterID {
		t.Fatalf("kfake cluster id %q, want %q", md.ClusterID, KfakeClusterID)
	}
}

// Topic, records with explicit CreateTimes, an admin commit and the
// committed offsets read back.
func TestProduceCommitRoundTrip(t *testing.T) {
	e := Cluster(t)
	topic, group := UniqueName(t, "t"), UniqueName(t, "g")
	e.CreateTopic(t, topic, 3)

	t0 := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	base := e.Produce(t, topic, 1,
		Record{Key: "k0", Value: "v0", Time: t0},
		Record{Key: "k1", Value: "v1", Time: t0.Add(time.Minute)},
		Record{Value: "v2", Time: t0.Add(2 * time.Minute)},
	)
	if base != 0 {
		t.Fatalf("first offset %d, want 0", base)
	}
	if next := e.Produce(t, topic, 1, Record{Value: "v3", Time: t0.Add(3 * time.Minute)}); next != 3 {
		t.Fatalf("second batch at offset %d, want 3", next)
	}

	// The stored CreateTimes are exactly the given ones: a lookup by time
	// finds the first record at or after it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range []struct {
		at   time.Time
		want int64
	}{
		{t0.Add(-time.Hour), 0},
		{t0, 0},
		{t0.Add(time.Millisecond), 1},
		{t0.Add(time.Minute), 1},
		{t0.Add(150 * time.Second), 3},
		{t0.Add(3 * time.Minute), 3},
		{t0.Add(time.Hour), -1}, // nothing at or after
	} {
		res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{
			topic: {kafka.TimeOffsetOf(1, c.at)},
		}})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Topics[topic][0]
		if got.Error != nil {
			t.Fatalf("ListOffsets by time %v: %v", c.at, got.Error)
		}
		// kafka-go gives offset → requested timestamp.
		if _, ok := got.Offsets[c.want]; !ok || len(got.Offsets) != 1 {
			t.Errorf("offset for time %v: %v, want %d", c.at, got.Offsets, c.want)
		}
	}

	// The records themselves carry the timestamps and keys.
	fres, err := e.Client.Fetch(ctx, &kafka.FetchRequest{Topic: topic, Partition: 1, Offset: 0, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if fres.Error != nil {
		t.Fatal(fres.Error)
	}
	var got []string
	for {
		r, err := fres.Records.ReadRecord()
		if err != nil {
			break
		}
		got = append(got, r.Time.UTC().Format(time.TimeOnly))
		if r.Offset == 2 && r.Key != nil {
			t.Errorf("record 2 should have a null key")
		}
	}
	if want := "12:00:00 12:01:00 12:02:00 12:03:00"; strings.Join(got, " ") != want {
		t.Errorf("record times %q, want %q", strings.Join(got, " "), want)
	}

	if c := e.Committed(t, group); len(c) != 0 {
		t.Fatalf("unknown group should have no offsets, got %v", c)
	}
	e.Commit(t, group, topic, map[int32]int64{0: 0, 1: 2})
	e.Commit(t, group, topic, map[int32]int64{1: 3}) // again: the group now exists, Empty
	got2 := e.Committed(t, group)
	if len(got2) != 1 || len(got2[topic]) != 2 || got2[topic][0] != 0 || got2[topic][1] != 3 {
		t.Fatalf("committed %v, want %s: {0:0, 1:3}", got2, topic)
	}
	if e.Kfake != nil {
		// The admin commit stores leader epoch -1, as the Java tool does.
		gi := e.Kfake.GroupInfo(group)
		if gi == nil {
			t.Fatal("kfake has no group info")
		}
		for tp, parts := range gi.Commits {
			for p, c := range parts {
				if c.LeaderEpoch != -1 {
					t.Errorf("commit %s/%d %+v: leader epoch %d, want -1", tp, p, c, c.LeaderEpoch)
				}
			}
		}
	}
}

func TestClassicMember(t *testing.T) {
	e := Cluster(t)
	topic, group := UniqueName(t, "t"), UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	m := e.ClassicMember(t, group, topic)

	types := e.GroupTypes(t)
	if types[group] != "classic" {
		t.Errorf("group type %q, want classic", types[group])
	}
	// Active group: an admin commit is rejected (checked by the broker).
	// Leaving: the group empties and the committed offsets stay.
	m.Stop()
	waitEmpty(t, e, group)
	if c := e.Committed(t, group); c[topic][0] != 0 {
		t.Fatalf("committed %v after the member left", c)
	}
}

// The Java-style classic member sends ConsumerProtocol subscription v3.
func TestJavaStyleClassicMember(t *testing.T) {
	e := Cluster(t)
	topic, group := UniqueName(t, "t"), UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	m := e.JavaStyleClassicMember(t, group, topic)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := e.Transport.RoundTrip(ctx, e.Client.Addr, &describegroups.Request{Groups: []string{group}})
	if err != nil {
		t.Fatal(err)
	}
	g := res.(*describegroups.Response).Groups[0]
	if g.GroupState != "Stable" || g.ProtocolType != "consumer" || len(g.Members) != 1 {
		t.Fatalf("group %s: state %q protocol type %q, %d members", group, g.GroupState, g.ProtocolType, len(g.Members))
	}
	mem := g.Members[0]
	if mem.ClientID != m.ClientID {
		t.Fatalf("member client id %q, want %q", mem.ClientID, m.ClientID)
	}
	if len(mem.MemberMetadata) < 2 || binary.BigEndian.Uint16(mem.MemberMetadata) != 3 {
		t.Fatalf("subscription metadata %x: want version 3", mem.MemberMetadata)
	}
	if types := e.GroupTypes(t); types[group] != "classic" {
		t.Errorf("group type %q, want classic", types[group])
	}
	m.Stop()
	waitEmpty(t, e, group)
}

func TestConsumerProtocolMember(t *testing.T) {
	e := Cluster(t)
	topic, group := UniqueName(t, "t"), UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	m := e.ConsumerProtocolMember(t, group, topic)

	types := e.GroupTypes(t)
	if types[group] != "consumer" {
		t.Errorf("group type %q, want consumer (KIP-848)", types[group])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := e.describeConsumerGroup(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Members) != 1 || g.Members[0].ClientID != m.ClientID {
		t.Fatalf("members %+v, want just %s", g.Members, m.ClientID)
	}
	var assigned []int32
	for _, tp := range g.Members[0].Assignment.TopicPartitions {
		assigned = append(assigned, tp.Partitions...)
	}
	if len(assigned) != 2 {
		t.Errorf("assigned partitions %v, want both", assigned)
	}
	m.Stop()
	waitEmpty(t, e, group)
}

func TestJavaToolList(t *testing.T) {
	e := Cluster(t)
	e.RequireReal(t, "compares with the Java kafka-consumer-groups")
	topic, group := UniqueName(t, "t"), UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})

	stdout, stderr, code := e.JavaTool(t, "--bootstrap-server", e.Bootstrap, "--list")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains("\n"+stdout, "\n"+group+"\n") {
		t.Fatalf("--list does not show %s:\n%s", group, stdout)
	}
	if strings.TrimSpace(stderr) != "" {
		t.Errorf("unexpected stderr:\n%s", stderr)
	}

	// A KIP-848 member (Java console consumer) shows as type Consumer.
	g848 := UniqueName(t, "g848")
	e.ConsumerProtocolMember(t, g848, topic)
	stdout, stderr, code = e.JavaTool(t, "--bootstrap-server", e.Bootstrap, "--list", "--type")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(g848) + `\s+Consumer\s*$`).MatchString(stdout) {
		t.Fatalf("--list --type does not show %s as Consumer:\n%s", g848, stdout)
	}

	// Errors go to stdout/stderr and the exit code as with the real script.
	_, _, code = e.JavaTool(t, "--bootstrap-server", e.Bootstrap, "--no-such-option")
	if code == 0 {
		t.Fatalf("an unknown option should fail")
	}
}

func TestConsoleProduce(t *testing.T) {
	e := Cluster(t)
	e.RequireReal(t, "uses the Java console producer")
	topic := UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.ConsoleProduce(t, topic, []string{"a", "b", "c"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{topic: {kafka.LastOffsetOf(0)}}})
	if err != nil {
		t.Fatal(err)
	}
	if end := res.Topics[topic][0].LastOffset; end != 3 {
		t.Fatalf("end offset %d, want 3", end)
	}
}

// waitEmpty waits until the group has no members (classic DescribeGroups
// for classic groups, ListGroups v5 state otherwise).
func waitEmpty(t *testing.T, e *Env, group string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		g, err := e.describeConsumerGroup(ctx, group)
		cancel()
		state := ""
		switch {
		case err != nil:
			state = err.Error()
		case g.ErrorCode == 0:
			state = g.State
			if state == "Empty" {
				return
			}
		default:
			// Not a KIP-848 group: ask the classic way.
			res, derr := e.Client.DescribeGroups(context.Background(), &kafka.DescribeGroupsRequest{GroupIDs: []string{group}})
			if derr == nil && len(res.Groups) == 1 {
				state = res.Groups[0].GroupState
				if state == "Empty" {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s not Empty after 30s (state %q)", group, state)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

package kafkatest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/protocol/describegroups"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// memberTimeout bounds the wait for a member to join and get its assignment.
const memberTimeout = 90 * time.Second

// Member is a live group member started by ClassicMember or
// ConsumerProtocolMember. It stays in the group until Stop or the end of
// the test, and never commits offsets: the group's committed offsets are
// the ones the test set with Commit.
type Member struct {
	Group    string
	ClientID string // unique; identifies the member in describe output
	stopOnce sync.Once
	stop     func()
}

// Stop makes the member leave the group (idempotent; also run at cleanup).
func (m *Member) Stop() { m.stopOnce.Do(m.stop) }

// ClassicMember starts a classic-protocol consumer (kafka-go Reader,
// protocol type "consumer", range/round-robin assignors) in group,
// subscribed to topics, and waits until the group is Stable with this member
// in it. The member leaves the group at Stop or test cleanup.
func (e *Env) ClassicMember(t testing.TB, group string, topics ...string) *Member {
	t.Helper()
	if len(topics) == 0 {
		t.Fatal("kafkatest: ClassicMember needs at least one topic")
	}
	clientID := UniqueName(t, "classic-member")
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:           []string{e.Bootstrap},
		GroupID:           group,
		GroupTopics:       topics,
		Dialer:            &kafka.Dialer{ClientID: clientID, Timeout: 10 * time.Second},
		HeartbeatInterval: time.Second,
		SessionTimeout:    10 * time.Second,
		RebalanceTimeout:  10 * time.Second,
		MaxWait:           500 * time.Millisecond,
		StartOffset:       kafka.FirstOffset,
		// CommitInterval 0 and FetchMessage (not ReadMessage): no commits.
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			if _, err := r.FetchMessage(ctx); err != nil && ctx.Err() == nil {
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	m := &Member{Group: group, ClientID: clientID, stop: func() {
		cancel()
		<-done
		_ = r.Close() // leaves the group
	}}
	t.Cleanup(m.Stop)

	e.waitClassic(t, group, clientID, nil)
	return m
}

// JavaStyleClassicMember starts a classic-protocol member that sends
// ConsumerProtocol subscription v3 (with owned partitions, generation and
// rack), as Java and franz-go classic consumers do — the metadata kafka-go's
// own DescribeGroups cannot decode. On the real broker it is Apache Kafka's
// Java console consumer with group.protocol=classic (needs
// KCG_TEST_KAFKA_CLASSPATH); on kfake a franz-go classic consumer
// (cooperative-sticky). It waits until the group is Stable with this member
// assigned, and leaves the group at Stop or test cleanup.
func (e *Env) JavaStyleClassicMember(t testing.TB, group, topic string) *Member {
	t.Helper()
	clientID := UniqueName(t, "classic-v3-member")
	m := &Member{Group: group, ClientID: clientID}
	var exited func() error
	if e.Real {
		m.stop, exited = e.javaConsumer(t, group, topic, clientID, "classic")
	} else {
		m.stop = e.kgoConsumer(t, group, topic, clientID, false)
	}
	t.Cleanup(m.Stop)
	e.waitClassic(t, group, clientID, exited)
	return m
}

// StaticClassicMember starts a classic-protocol member with static
// membership (group.instance.id: franz-go's InstanceID), and waits until
// the group is Stable with it assigned. A static member does not leave the
// group when it stops: it stays a member until its session timeout runs
// out.
func (e *Env) StaticClassicMember(t testing.TB, group, topic string) *Member {
	t.Helper()
	clientID := UniqueName(t, "static-member")
	m := &Member{Group: group, ClientID: clientID}
	m.stop = e.kgoConsumer(t, group, topic, clientID, false, kgo.InstanceID(clientID), kgo.SessionTimeout(10*time.Second))
	t.Cleanup(m.Stop)
	e.waitClassic(t, group, clientID, nil)
	return m
}

// waitClassic waits until DescribeGroups shows group Stable with the member
// clientID in it, assigned. Uses kafka-go's low-level DescribeGroups, which
// leaves the member metadata undecoded.
func (e *Env) waitClassic(t testing.TB, group, clientID string, exited func() error) {
	t.Helper()
	e.waitFor(t, fmt.Sprintf("classic member %s to be in Stable group %s", clientID, group), exited, func(ctx context.Context) (bool, string, error) {
		m, err := e.Transport.RoundTrip(ctx, e.Client.Addr, &describegroups.Request{Groups: []string{group}})
		if err != nil {
			return false, "", err
		}
		res := m.(*describegroups.Response)
		if len(res.Groups) != 1 {
			return false, fmt.Sprintf("%d groups in the response", len(res.Groups)), nil
		}
		g := res.Groups[0]
		if g.ErrorCode != 0 {
			return false, "", kafka.Error(g.ErrorCode)
		}
		in := false
		for _, mem := range g.Members {
			if mem.ClientID == clientID && len(mem.MemberAssignment) > 0 {
				in = true
			}
		}
		return g.GroupState == "Stable" && in, fmt.Sprintf("state %s, %d members, ours assigned: %v", g.GroupState, len(g.Members), in), nil
	})
}

// ConsumerProtocolMember starts a KIP-848 member (group.protocol=consumer)
// in group, subscribed to topic, and waits until ConsumerGroupDescribe shows
// the group Stable with this member in it. On the real broker the member is
// Apache Kafka's Java console consumer (needs KCG_TEST_KAFKA_CLASSPATH); on
// kfake it is a franz-go consumer with the server-side assignor. The member
// leaves the group at Stop or test cleanup.
//
// On a broker without KIP-848 consumer groups (Apache Kafka 2.x, 3.x
// before 3.9 as kafka.sh starts them: HasConsumerProtocol) the test skips,
// saying so: what such a broker answers instead is asserted by the tests
// of those answers.
func (e *Env) ConsumerProtocolMember(t testing.TB, group, topic string) *Member {
	t.Helper()
	if !e.HasConsumerProtocol(t) {
		t.Skipf("%s has no KIP-848 consumer groups (no ConsumerGroupDescribe in its ApiVersions)", e.Name())
	}
	clientID := UniqueName(t, "kip848-member")
	m := &Member{Group: group, ClientID: clientID}
	var exited func() error // non-nil error: the member died while we wait
	if e.Real {
		m.stop, exited = e.javaConsumer(t, group, topic, clientID, "consumer")
	} else {
		m.stop = e.kgoConsumer(t, group, topic, clientID, true)
	}
	t.Cleanup(m.Stop)

	e.waitFor(t, fmt.Sprintf("KIP-848 member %s to be in Stable group %s", clientID, group), exited, func(ctx context.Context) (bool, string, error) {
		g, err := e.describeConsumerGroup(ctx, group)
		if err != nil {
			return false, "", err
		}
		if g.ErrorCode != 0 {
			return false, fmt.Sprintf("ConsumerGroupDescribe error %v", kafka.Error(g.ErrorCode)), nil
		}
		// In: present and reconciled (assigned something, or at the
		// assignment epoch with nothing to get — more members than
		// partitions).
		in := false
		for _, mem := range g.Members {
			if mem.ClientID == clientID && (len(mem.Assignment.TopicPartitions) > 0 || mem.MemberEpoch == g.AssignmentEpoch) {
				in = true
			}
		}
		return g.State == "Stable" && in, fmt.Sprintf("state %s, %d members, ours in and reconciled: %v", g.State, len(g.Members), in), nil
	})
	return m
}

// kgoConsumer starts a franz-go group consumer: KIP-848 when kip848, else
// classic (cooperative-sticky, subscription v3).
func (e *Env) kgoConsumer(t testing.TB, group, topic, clientID string, kip848 bool, extra ...kgo.Opt) (stop func()) {
	t.Helper()
	opts := []kgo.Opt{
		kgo.SeedBrokers(e.Bootstrap),
		kgo.ClientID(clientID),
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topic),
		kgo.Balancers(kgo.CooperativeStickyBalancer()),
		kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
	}
	if kip848 {
		// KIP-848 in franz-go v1.22: ServerSideBalancer plus a range or
		// sticky balancer (sticky → server assignor "uniform").
		opts = append(opts, kgo.ServerSideBalancer())
	}
	cl, err := kgo.NewClient(append(opts, extra...)...)
	if err != nil {
		t.Fatalf("kafkatest: franz-go consumer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	return func() {
		cancel()
		<-done
		cl.Close() // leaves the group
	}
}

// javaConsumer starts Apache Kafka's console consumer in group with the given
// group.protocol ("consumer" or "classic").
func (e *Env) javaConsumer(t testing.TB, group, topic, clientID, protocol string) (stop func(), exited func() error) {
	t.Helper()
	return startJava(t, ConsoleConsumerClass, clientID,
		"--bootstrap-server", e.Bootstrap, "--topic", topic, "--group", group,
		"--command-property", "group.protocol="+protocol,
		"--command-property", "client.id="+clientID,
		"--command-property", "enable.auto.commit=false")
}

// startJava starts a long-running Java client (a console consumer) named
// name in messages; stop sends SIGTERM, whose shutdown hook closes the
// client so it leaves its group, and kills it after 20 s.
func startJava(t testing.TB, class, name string, args ...string) (stop func(), exited func() error) {
	t.Helper()
	return StartProcess(t, javaCommand(t, class, args...), class+" "+name, io.Discard)
}

// StartProcess starts cmd, a long-running client (a Java consumer, or
// clienttest's Python members), named name in messages, its stdout written
// to stdout. stop sends SIGTERM (the client closes and leaves its group)
// and kills it after 20 s; exited returns an error, with the end of its
// stderr, once it has exited on its own. A cmd without SysProcAttr gets
// this package's (on Linux: killed when the test binary dies).
func StartProcess(t testing.TB, cmd *exec.Cmd, name string, stdout io.Writer) (stop func(), exited func() error) {
	t.Helper()
	stop, exited, _ = StartProcessLogged(t, cmd, name, stdout)
	return stop, exited
}

// StartProcessLogged is StartProcess that also returns the last 4,000
// bytes of the process's stderr so far, for a test that gives up waiting
// on a process that is still running.
func StartProcessLogged(t testing.TB, cmd *exec.Cmd, name string, stdout io.Writer) (stop func(), exited func() error, stderrTail func() string) {
	t.Helper()
	var stderr lockedBuffer
	cmd.Stdout = stdout
	cmd.Stderr = &stderr
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = childProcAttr()
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("kafkatest: starting %s: %v", name, err)
	}
	waited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(waited) }()
	exited = func() error {
		select {
		case <-waited:
			return fmt.Errorf("%s exited (%v); stderr:\n%s", name, waitErr, stderr.tail(4000))
		default:
			return nil
		}
	}
	stop = func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-waited:
		case <-time.After(20 * time.Second):
			t.Logf("kafkatest: %s did not stop in 20s; killing it", name)
			_ = cmd.Process.Kill()
			<-waited
		}
	}
	return stop, exited, func() string { return stderr.tail(4000) }
}

// HasConsumerProtocol tells whether the cluster serves KIP-848 consumer
// groups: it advertises ConsumerGroupDescribe. kfake does; Apache Kafka
// does from 3.9 with the consumer protocol enabled (kafka.sh enables it
// there) and by default from 4.0.
func (e *Env) HasConsumerProtocol(t testing.TB) bool {
	t.Helper()
	return e.MaxVersion(t, kmsg.ConsumerGroupDescribe) >= 0
}

// MaxVersion is the highest version of the API key the cluster's
// bootstrap broker advertises in ApiVersions, -1 when it has none (asked
// once per Env): for the tests of what differs by broker version.
func (e *Env) MaxVersion(t testing.TB, key kmsg.Key) int16 {
	t.Helper()
	e.apisOnce.Do(func() {
		cl := e.kgoClient(t)
		retry(t, "ApiVersions", func(ctx context.Context) error {
			res, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, cl)
			if err != nil {
				return err
			}
			e.apis = map[kmsg.Key]int16{}
			for _, k := range res.ApiKeys {
				e.apis[kmsg.Key(k.ApiKey)] = k.MaxVersion
			}
			return nil
		})
	})
	if v, ok := e.apis[key]; ok {
		return v
	}
	return -1
}

// describeConsumerGroup sends ConsumerGroupDescribe (KIP-848) for one group.
func (e *Env) describeConsumerGroup(ctx context.Context, group string) (*kmsg.ConsumerGroupDescribeResponseGroup, error) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{group}
	res, err := req.RequestWith(ctx, e.kgo)
	if err != nil {
		return nil, err
	}
	if len(res.Groups) != 1 {
		return nil, fmt.Errorf("ConsumerGroupDescribe returned %d groups", len(res.Groups))
	}
	return &res.Groups[0], nil
}

// GroupTypes lists the cluster's groups with ListGroups v5: group → type
// ("classic", "consumer", ...); "classic" for every group of a broker
// before v5 (2.8.2, 3.7.2), which has no other.
func (e *Env) GroupTypes(t testing.TB) map[string]string {
	t.Helper()
	cl := e.kgoClient(t)
	out := map[string]string{}
	retry(t, "list groups", func(ctx context.Context) error {
		clear(out)
		req := kmsg.NewPtrListGroupsRequest()
		shards := cl.RequestSharded(ctx, req)
		for _, s := range shards {
			if s.Err != nil {
				return s.Err
			}
			res := s.Resp.(*kmsg.ListGroupsResponse)
			if res.ErrorCode != 0 {
				return kafka.Error(res.ErrorCode)
			}
			for _, g := range res.Groups {
				out[g.Group] = g.GroupType
				if res.Version < 5 {
					// No group types before v5 (KIP-848): every group
					// of such a broker is classic.
					out[g.Group] = "classic"
				}
			}
		}
		return nil
	})
	return out
}

// waitFor polls check until it reports done, check's error is not
// retriable, exited reports an error, or memberTimeout passes.
func (e *Env) waitFor(t testing.TB, what string, exited func() error, check func(ctx context.Context) (bool, string, error)) {
	t.Helper()
	e.kgoClient(t)
	deadline := time.Now().Add(memberTimeout)
	last := ""
	for {
		if exited != nil {
			if err := exited(); err != nil {
				t.Fatalf("kafkatest: waiting for %s: %v", what, err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ok, status, err := check(ctx)
		cancel()
		switch {
		case err != nil && !retriable(err):
			t.Fatalf("kafkatest: waiting for %s: %v", what, err)
		case err != nil:
			last = err.Error()
		case ok:
			return
		default:
			last = status
		}
		if time.Now().After(deadline) {
			t.Fatalf("kafkatest: gave up waiting %v for %s; last: %s", memberTimeout, what, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// lockedBuffer is a bytes.Buffer safe for a process's output goroutine and
// the test reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(b.b.String())
}

// tail is String's last n bytes at most.
func (b *lockedBuffer) tail(n int) string {
	s := b.String()
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}

// OtherProtocolMember joins group as a classic member of protocolType
// (Kafka Connect's workers use "connect") with one protocol named
// "default" and empty metadata, syncs it, and leaves at cleanup. It sends
// no heartbeats: the member stays for the session timeout (30 s), long
// enough for a test's describe.
func (e *Env) OtherProtocolMember(t testing.TB, group, protocolType string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), memberTimeout)
	defer cancel()
	cl := e.kgoClient(t)
	join := kmsg.NewPtrJoinGroupRequest()
	join.Group, join.ProtocolType = group, protocolType
	join.SessionTimeoutMillis, join.RebalanceTimeoutMillis = 30000, 30000
	p := kmsg.NewJoinGroupRequestProtocol()
	p.Name = "default"
	join.Protocols = append(join.Protocols, p)
	var res *kmsg.JoinGroupResponse
	for range 2 { // the first answer of v4+ is MEMBER_ID_REQUIRED with the id to use
		var err error
		if res, err = join.RequestWith(ctx, cl); err != nil {
			t.Fatalf("kafkatest: join %s: %v", group, err)
		}
		if res.ErrorCode == 0 {
			break
		}
		join.MemberID = res.MemberID
	}
	if res.ErrorCode != 0 {
		t.Fatalf("kafkatest: join %s: error code %d", group, res.ErrorCode)
	}
	sync := kmsg.NewPtrSyncGroupRequest()
	sync.Group, sync.Generation, sync.MemberID = group, res.Generation, res.MemberID
	sync.ProtocolType, sync.Protocol = &protocolType, res.Protocol
	if sres, err := sync.RequestWith(ctx, cl); err != nil || sres.ErrorCode != 0 {
		t.Fatalf("kafkatest: sync %s: %v %v", group, err, sres)
	}
	t.Cleanup(func() {
		leave := kmsg.NewPtrLeaveGroupRequest()
		leave.Group = group
		m := kmsg.NewLeaveGroupRequestMember()
		m.MemberID = res.MemberID
		leave.Members = append(leave.Members, m)
		_, _ = leave.RequestWith(context.Background(), cl)
	})
}

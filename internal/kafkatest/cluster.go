package kafkatest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
)

// Environment variables of a multi-broker cluster (kafka.sh start
// --brokers N writes them; see docs/testing.md).
const (
	// EnvBrokers is how many brokers the real cluster has.
	EnvBrokers = "KCG_TEST_BROKERS"
	// EnvKafkaSh and EnvKafkaState are kafka.sh and its state folder, for
	// the tests that stop and start a broker.
	EnvKafkaSh    = "KCG_TEST_KAFKA_SH"
	EnvKafkaState = "KCG_TEST_KAFKA_STATE"
)

// Brokers is the number of brokers of the cluster: KCG_TEST_BROKERS on the
// real tier (1 when unset: a one-node run of an older env file), 1 on
// kfake.
func (e *Env) Brokers() int {
	if !e.Real {
		return 1
	}
	n, err := strconv.Atoi(strings.TrimSpace(os.Getenv(EnvBrokers)))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// RequireBrokers skips the test unless the real cluster has at least n
// brokers.
func (e *Env) RequireBrokers(t testing.TB, n int, why string) {
	t.Helper()
	e.RequireReal(t, why)
	if got := e.Brokers(); got < n {
		t.Skipf("%d brokers needed (%s=%d): %s; start the cluster with kafka.sh start --brokers 3 (as .ci/run does)", n, EnvBrokers, got, why)
	}
}

// RequireBrokerControl skips the test unless it may stop and start brokers
// of the real cluster (KCG_TEST_KAFKA_SH and KCG_TEST_KAFKA_STATE set,
// at least n brokers).
func (e *Env) RequireBrokerControl(t testing.TB, n int, why string) {
	t.Helper()
	e.RequireBrokers(t, n, why)
	if os.Getenv(EnvKafkaSh) == "" || os.Getenv(EnvKafkaState) == "" {
		t.Skipf("%s and %s needed to stop and start brokers: %s", EnvKafkaSh, EnvKafkaState, why)
	}
}

func kafkaSh(t testing.TB, timeout time.Duration, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{os.Getenv(EnvKafkaSh)}, args...)...)
	cmd.Env = append(os.Environ(), "KCG_KAFKA_STATE="+os.Getenv(EnvKafkaState))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kafkatest: kafka.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// StopBroker kills broker n (SIGKILL, its data stays) and makes sure it is
// started again when the test ends, whatever happens.
func (e *Env) StopBroker(t testing.TB, n int) {
	t.Helper()
	if n == 1 {
		// The fixtures and kcg's --bootstrap-server are broker 1.
		t.Fatalf("kafkatest: StopBroker(1): broker 1 is the tests' bootstrap server; stop another")
	}
	kafkaSh(t, time.Minute, "stop-broker", strconv.Itoa(n))
	t.Cleanup(func() { e.StartBroker(t, n) })
}

// StartBroker starts broker n again (a no-op if it runs), returns once the
// controller has unfenced it, then moves the leadership of
// __consumer_offsets back to the preferred replicas: a returning broker
// leads nothing until Kafka's leader rebalance (every 5 minutes), and the
// next test wants coordinators on all three brokers again.
func (e *Env) StartBroker(t testing.TB, n int) {
	t.Helper()
	kafkaSh(t, 3*time.Minute, "start-broker", strconv.Itoa(n))
	e.preferredCoordinators(t)
}

// preferredCoordinators moves the leadership of __consumer_offsets back to
// the preferred replicas and returns once every partition is led by its
// first replica. A returning broker leads nothing until Kafka's leader
// rebalance (every 5 minutes), and a broker fenced for a moment under load
// loses its leaderships the same way.
func (e *Env) preferredCoordinators(t testing.TB) {
	t.Helper()
	const offsets = "__consumer_offsets"
	retry(t, "preferred leaders of "+offsets, func(ctx context.Context) error {
		md, err := e.Client.Metadata(ctx, &kafka.MetadataRequest{Topics: []string{offsets}})
		if err != nil {
			return err
		}
		var off []int
		for _, tp := range md.Topics {
			for _, p := range tp.Partitions {
				if len(p.Replicas) > 0 && p.Leader.ID != p.Replicas[0].ID {
					off = append(off, p.ID)
				}
			}
		}
		if len(off) == 0 {
			return nil
		}
		// The returning replica must catch up (join the ISR) before it
		// can be elected: until then the election fails, and this asks
		// again.
		// Its per-partition errors (not in the ISR yet, election not
		// needed) only say to look again.
		_, _ = e.Client.ElectLeaders(ctx, &kafka.ElectLeadersRequest{Topic: offsets, Partitions: off, Timeout: 10 * time.Second})
		return fmt.Errorf("%s partitions %v not on their preferred leader yet: %w", offsets, off, kafka.LeaderNotAvailable)
	})
}

// FindCoordinator returns the node id of group's coordinator.
func (e *Env) FindCoordinator(t testing.TB, group string) int {
	t.Helper()
	id := -1
	retry(t, "find coordinator of "+group, func(ctx context.Context) error {
		res, err := e.Client.FindCoordinator(ctx, &kafka.FindCoordinatorRequest{Key: group, KeyType: kafka.CoordinatorKeyTypeConsumer})
		if err != nil {
			return err
		}
		if res.Error != nil {
			return res.Error
		}
		id = res.Coordinator.NodeID
		return nil
	})
	return id
}

// GroupOn returns a new unique group name (as UniqueName) whose coordinator
// is broker node.
func (e *Env) GroupOn(t testing.TB, prefix string, node int) string {
	t.Helper()
	// 100 names miss a broker that leads a third of the 12 partitions
	// with a chance of (2/3)^100; a miss means the broker leads none
	// (it came back from a failure test, or was fenced for a moment), so
	// the leaders are moved back and it asks again, within the fixture
	// timeout.
	deadline := time.Now().Add(fixtureTimeout)
	for {
		for range 100 {
			g := UniqueName(t, prefix)
			if e.FindCoordinator(t, g) == node {
				return g
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("kafkatest: no group name with coordinator %d in %v; leaders of __consumer_offsets: %v",
				node, fixtureTimeout, e.Leaders(t, "__consumer_offsets"))
		}
		t.Logf("kafkatest: broker %d leads no __consumer_offsets partition; electing the preferred leaders", node)
		e.preferredCoordinators(t)
		time.Sleep(time.Second)
	}
}

// CreateTopicOn creates a topic with one partition per entry of replicas:
// partition p is on the brokers replicas[p], the first of them its
// (preferred) leader. It waits until every partition's leader is the one
// asked for and answers.
func (e *Env) CreateTopicOn(t testing.TB, name string, replicas ...[]int) {
	t.Helper()
	assign := make([]kafka.ReplicaAssignment, len(replicas))
	for p, r := range replicas {
		assign[p] = kafka.ReplicaAssignment{Partition: p, Replicas: r}
	}
	retry(t, "create topic "+name, func(ctx context.Context) error {
		res, err := e.Client.CreateTopics(ctx, &kafka.CreateTopicsRequest{Topics: []kafka.TopicConfig{{
			Topic: name, NumPartitions: -1, ReplicationFactor: -1, ReplicaAssignments: assign,
		}}})
		if err != nil {
			return err
		}
		if err := res.Errors[name]; err != nil && !errors.Is(err, kafka.TopicAlreadyExists) {
			return err
		}
		return nil
	})
	retry(t, "wait for the leaders of "+name, func(ctx context.Context) error {
		leaders, err := e.leaders(ctx, name)
		if err != nil {
			return err
		}
		for p, r := range replicas {
			if leaders[p] != r[0] {
				return fmt.Errorf("%s/%d led by %d, want %d: %w", name, p, leaders[p], r[0], kafka.LeaderNotAvailable)
			}
		}
		return nil
	})
	reqs := make([]kafka.OffsetRequest, len(replicas))
	for p := range reqs {
		reqs[p] = kafka.LastOffsetOf(p)
	}
	retry(t, "wait for topic "+name, func(ctx context.Context) error {
		res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{name: reqs}})
		if err != nil {
			return err
		}
		if len(res.Topics[name]) != len(replicas) {
			return kafka.LeaderNotAvailable
		}
		for _, p := range res.Topics[name] {
			if p.Error != nil {
				return p.Error
			}
		}
		return nil
	})
}

// Leaders returns the leader node id of each partition of topic (-1: none).
func (e *Env) Leaders(t testing.TB, topic string) map[int]int {
	t.Helper()
	var out map[int]int
	retry(t, "metadata of "+topic, func(ctx context.Context) (err error) {
		out, err = e.leaders(ctx, topic)
		return err
	})
	return out
}

func (e *Env) leaders(ctx context.Context, topic string) (map[int]int, error) {
	md, err := e.Client.Metadata(ctx, &kafka.MetadataRequest{Topics: []string{topic}})
	if err != nil {
		return nil, err
	}
	out := map[int]int{}
	for _, tp := range md.Topics {
		if tp.Name != topic {
			continue
		}
		if tp.Error != nil {
			return nil, tp.Error
		}
		for _, p := range tp.Partitions {
			out[p.ID] = p.Leader.ID
			if p.Leader.Host == "" {
				out[p.ID] = -1
			}
		}
	}
	return out, nil
}

// EnvBootstrapServers is every broker of the real cluster, comma-separated
// (kafka.sh writes it beside EnvBootstrap).
const EnvBootstrapServers = "KCG_TEST_BOOTSTRAP_SERVERS"

// FakeBrokers returns an in-process kfake cluster of n brokers of its own
// (not shared with other tests), closed when the test ends; cluster id
// KfakeClusterID, topic auto-creation on. It is for the tests that need
// several brokers on the kfake tier, e.g. behind internal/faultproxy.
// opts add kfake options (kfake.MaxVersions: a broker of an older
// Kafka version).
func FakeBrokers(t testing.TB, n int, opts ...kfake.Opt) *Env {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{
		kfake.NumBrokers(n),
		kfake.ClusterID(KfakeClusterID),
		kfake.AllowAutoTopicCreation(),
		kfake.DefaultNumPartitions(1),
	}, opts...)...)
	if err != nil {
		t.Fatalf("kafkatest: starting kfake with %d brokers: %v", n, err)
	}
	cl, tr := newClient(c.ListenAddrs()[0])
	e := &Env{Bootstrap: c.ListenAddrs()[0], Kfake: c, Client: cl, Transport: tr}
	t.Cleanup(func() {
		if e.kgo != nil {
			e.kgo.Close()
		}
		tr.CloseIdleConnections()
		c.Close()
	})
	return e
}

// BrokerAddrs returns the address of every broker: on kfake its
// listeners, on the real tier KCG_TEST_BOOTSTRAP_SERVERS (the bootstrap
// address alone when that is unset).
func (e *Env) BrokerAddrs() []string {
	if e.Kfake != nil {
		return e.Kfake.ListenAddrs()
	}
	var out []string
	for _, a := range strings.Split(os.Getenv(EnvBootstrapServers), ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = []string{e.Bootstrap}
	}
	return out
}

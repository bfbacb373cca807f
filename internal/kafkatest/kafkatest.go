// Package kafkatest is kcg's test helper: a Kafka cluster for tests, fixtures
// that put topics, records, committed offsets and live group members on it,
// and the real Java kafka-consumer-groups tool to compare against.
//
// Two tiers, chosen by the environment:
//
//   - KCG_TEST_BOOTSTRAP set (as .ci/run does, after .ci/kafka/kafka.sh
//     start): the real Apache Kafka broker at that address. The Java tools
//     come from KCG_TEST_KAFKA_CLASSPATH.
//   - otherwise: an in-process kfake cluster (github.com/twmb/franz-go/pkg/kfake),
//     so `go test ./...` passes on a machine with only Go. Tests that need the
//     real broker call [Env.RequireReal] and are skipped with the reason.
//
// The fixtures use kafka-go (and, for KIP-848 groups, franz-go) directly,
// never kcg's own packages, so they cannot share a bug with the code under
// test. Both tiers are shared by every test of a process: give topics and
// groups names from [UniqueName].
package kafkatest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Environment variables read by this package. .ci/kafka/kafka.sh start
// writes them to .ci/kafka/.state/env; .ci/run exports them.
const (
	// EnvBootstrap is the real broker's address (host:port). Unset: kfake.
	EnvBootstrap = "KCG_TEST_BOOTSTRAP"
	// EnvClasspath is the Java classpath of Apache Kafka's jars (a "dir/*"
	// wildcard is fine); needed by JavaTool and, on the real broker, by
	// ConsumerProtocolMember.
	EnvClasspath = "KCG_TEST_KAFKA_CLASSPATH"
	// EnvVersion is the real broker's Apache Kafka version: for messages,
	// and for the tests of what differs by broker version.
	EnvVersion = "KCG_TEST_KAFKA_VERSION"
	// EnvToolsVersion is the version of the Java tools on EnvClasspath
	// (kafka.sh uses 4.4.0's whatever the broker's version).
	EnvToolsVersion = "KCG_TEST_KAFKA_TOOLS_VERSION"
	// EnvToolsLog4j is the log4j2 config for the Java tools (optional; the
	// default is .ci/kafka/tools-log4j2.yaml of this repository).
	EnvToolsLog4j = "KCG_TEST_KAFKA_TOOLS_LOG4J"
)

// KfakeClusterID is the cluster id of the in-process kfake cluster.
const KfakeClusterID = "kfake-test"

// Env is the cluster a test runs against.
type Env struct {
	// Real is true on the real Apache Kafka broker, false on kfake.
	Real bool
	// Bootstrap is the address to give to the code under test.
	Bootstrap string
	// Version is the Apache Kafka version on the real broker ("" on kfake).
	Version string
	// ToolsVersion is the version of the Java tools JavaTool runs (from
	// KCG_TEST_KAFKA_TOOLS_VERSION; Version when that is unset, as the
	// tools and the broker were then the same jars).
	ToolsVersion string
	// Kfake is the in-process cluster on the kfake tier (nil on the real
	// broker), for fault injection and inspection.
	Kfake *kfake.Cluster
	// Client and Transport are a kafka-go client for the cluster, for
	// assertions the fixtures do not cover.
	Client    *kafka.Client
	Transport *kafka.Transport

	kgoOnce sync.Once
	kgo     *kgo.Client
	kgoErr  error

	apisOnce sync.Once
	apis     map[kmsg.Key]int16 // MaxVersion
}

// Name says which tier this is, for messages.
func (e *Env) Name() string {
	if e.Real {
		return "Apache Kafka " + e.Version + " at " + e.Bootstrap
	}
	return "kfake at " + e.Bootstrap
}

// Before tells whether this is a real broker older than Apache Kafka
// major.minor, for the tests of what differs by broker version: false on
// kfake (it speaks the newest protocol versions) and when the version is
// unknown or not X.Y[.Z].
func (e *Env) Before(major, minor int) bool {
	if !e.Real {
		return false
	}
	var ma, mi int
	if n, _ := fmt.Sscanf(e.Version, "%d.%d", &ma, &mi); n != 2 {
		return false
	}
	return ma < major || (ma == major && mi < minor)
}

var (
	realMu  sync.Mutex
	realEnv *Env

	kfakeMu    sync.Mutex
	kfakeEnv   *Env
	kfakeUsers int
)

// Cluster returns the cluster for this test: the real broker when
// KCG_TEST_BOOTSTRAP is set, otherwise an in-process kfake cluster (one
// broker, cluster id KfakeClusterID, topic auto-creation on with one
// partition, like the real broker's config). The kfake cluster is shared by
// the tests that are running at the same time and closed after the last of
// them ends.
func Cluster(t testing.TB) *Env {
	t.Helper()
	if addr := strings.TrimSpace(os.Getenv(EnvBootstrap)); addr != "" {
		return realCluster(t, addr)
	}
	return kfakeCluster(t)
}

// Fake returns the in-process kfake cluster whatever the environment, for
// the tests that need what only kfake offers (fault injection, request
// observers, old protocol versions). With KCG_TEST_BOOTSTRAP set they still
// run, beside the real-broker tests: CI runs both tiers.
func Fake(t testing.TB) *Env {
	t.Helper()
	return kfakeCluster(t)
}

func newClient(addr string) (*kafka.Client, *kafka.Transport) {
	tr := &kafka.Transport{
		ClientID:    "kcg-kafkatest",
		DialTimeout: 10 * time.Second,
		// Short, so topics created by a test are seen quickly.
		MetadataTTL: time.Second,
	}
	return &kafka.Client{Addr: kafka.TCP(addr), Timeout: 30 * time.Second, Transport: tr}, tr
}

func realCluster(t testing.TB, addr string) *Env {
	t.Helper()
	realMu.Lock()
	defer realMu.Unlock()
	if realEnv != nil {
		return realEnv
	}
	c, tr := newClient(addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Metadata(ctx, &kafka.MetadataRequest{}); err != nil {
		t.Fatalf("kafkatest: %s=%s but the broker does not answer: %v (start it with .ci/kafka/kafka.sh start, or unset %s to use kfake)",
			EnvBootstrap, addr, err, EnvBootstrap)
	}
	version := os.Getenv(EnvVersion)
	if version == "" {
		version = "(version unknown)"
	}
	tools := os.Getenv(EnvToolsVersion)
	if tools == "" {
		tools = version
	}
	realEnv = &Env{Real: true, Bootstrap: addr, Version: version, ToolsVersion: tools, Client: c, Transport: tr}
	return realEnv
}

func kfakeCluster(t testing.TB) *Env {
	t.Helper()
	kfakeMu.Lock()
	defer kfakeMu.Unlock()
	if kfakeEnv == nil {
		c, err := kfake.NewCluster(
			kfake.NumBrokers(1),
			kfake.ClusterID(KfakeClusterID),
			kfake.AllowAutoTopicCreation(),
			kfake.DefaultNumPartitions(1),
		)
		if err != nil {
			t.Fatalf("kafkatest: starting kfake: %v", err)
		}
		addr := c.ListenAddrs()[0]
		cl, tr := newClient(addr)
		kfakeEnv = &Env{Bootstrap: addr, Kfake: c, Client: cl, Transport: tr}
	}
	env := kfakeEnv
	kfakeUsers++
	t.Cleanup(func() {
		kfakeMu.Lock()
		defer kfakeMu.Unlock()
		kfakeUsers--
		if kfakeUsers > 0 || kfakeEnv != env {
			return
		}
		kfakeEnv = nil
		if env.kgo != nil {
			env.kgo.Close()
		}
		env.Transport.CloseIdleConnections()
		env.Kfake.Close()
	})
	return env
}

// RequireReal skips the test unless it runs against the real broker.
func (e *Env) RequireReal(t testing.TB, why string) {
	t.Helper()
	if !e.Real {
		t.Skipf("real Apache Kafka broker needed: %s; set %s (see .ci/run)", why, EnvBootstrap)
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9.-]+`)

// UniqueName returns a topic/group name made of prefix, the test's name and
// a random suffix, using only characters legal in topic names.
func UniqueName(t testing.TB, prefix string) string {
	t.Helper()
	name := unsafeName.ReplaceAllString(t.Name(), "-")
	name = strings.Trim(name, "-.")
	if len(name) > 80 {
		name = name[:80]
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	parts := []string{}
	if p := strings.Trim(unsafeName.ReplaceAllString(prefix, "-"), "-."); p != "" {
		parts = append(parts, p)
	}
	if name != "" {
		parts = append(parts, name)
	}
	parts = append(parts, hex.EncodeToString(b[:]))
	return strings.Join(parts, "-")
}

// kgoClient is a franz-go client used for the KIP-848 admin requests kafka-go
// lacks (ConsumerGroupDescribe, ListGroups v5).
func (e *Env) kgoClient(t testing.TB) *kgo.Client {
	t.Helper()
	e.kgoOnce.Do(func() {
		e.kgo, e.kgoErr = kgo.NewClient(kgo.SeedBrokers(e.Bootstrap), kgo.ClientID("kcg-kafkatest-admin"))
	})
	if e.kgoErr != nil {
		t.Fatalf("kafkatest: franz-go client: %v", e.kgoErr)
	}
	return e.kgo
}

package kafkatest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ConsoleShareConsumerClass is Apache Kafka's console share consumer
// (kafka-console-share-consumer.sh), a KIP-932 share-group member.
const ConsoleShareConsumerClass = "org.apache.kafka.tools.consumer.ConsoleShareConsumer"

// ShareGroupMember makes group a share group (KIP-932) with one live
// member subscribed to topic, and waits until ListGroups v5 lists it with
// type "share". On the real broker the member is Apache Kafka's console
// share consumer, from the same jars as the broker; on kfake, which
// implements share groups, one ShareGroupHeartbeat joins it (kfake drops
// an empty share group, so the member stays until Stop). Share groups
// never commit offsets.
func (e *Env) ShareGroupMember(t testing.TB, group, topic string) *Member {
	t.Helper()
	e.requireAPI(t, kmsg.ShareGroupHeartbeat, "share groups (KIP-932)")
	m := &Member{Group: group, ClientID: UniqueName(t, "share")}
	var exited func() error
	if e.Real {
		m.stop, exited = startJava(t, ConsoleShareConsumerClass, m.ClientID,
			"--bootstrap-server", e.Bootstrap, "--topic", topic, "--group", group,
			"--command-property", "client.id="+m.ClientID)
	} else {
		m.stop = e.kfakeShareMember(t, group, topic)
	}
	t.Cleanup(m.Stop)
	e.waitFor(t, "share group "+group, exited, func(ctx context.Context) (bool, string, error) {
		typ := e.GroupTypes(t)[group]
		return typ == "share", "type " + typ, nil
	})
	return m
}

// kfakeShareMember joins group with one ShareGroupHeartbeat (epoch 0) and
// returns the leave (epoch -1).
func (e *Env) kfakeShareMember(t testing.TB, group, topic string) (leave func()) {
	t.Helper()
	cl := e.kgoClient(t)
	member := UniqueName(t, "m")
	if len(member) > 36 {
		member = member[len(member)-36:]
	}
	beat := func(ctx context.Context, epoch int32) error {
		req := kmsg.NewPtrShareGroupHeartbeatRequest()
		req.GroupID, req.MemberID, req.MemberEpoch = group, member, epoch
		if epoch == 0 {
			req.SubscribedTopicNames = []string{topic}
		}
		res, err := req.RequestWith(ctx, cl)
		if err != nil {
			return err
		}
		return kerr.ErrorForCode(res.ErrorCode)
	}
	retry(t, "join share group "+group, func(ctx context.Context) error { return beat(ctx, 0) })
	return func() { _ = beat(context.Background(), -1) }
}

// streamsApp is the smallest Kafka Streams application
// (testdata/StreamsGroupApp.java, run as a single-file source program with
// kafka-streams from .ci/kafka/pom.xml on the classpath); its arguments are
// a properties file and the topic it consumes.
func streamsApp(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "StreamsGroupApp.java")
}

// StreamsGroupMember makes group a streams group (KIP-1071): it starts
// a minimal Kafka Streams application with application.id = group and
// group.protocol=streams, and waits until ListGroups v5 lists the group
// with type "streams". Real broker only (kfake has no streams groups): it
// skips on kfake.
func (e *Env) StreamsGroupMember(t testing.TB, group string) *Member {
	t.Helper()
	e.RequireReal(t, "a streams group needs Kafka Streams on the real broker")
	e.requireAPI(t, kmsg.StreamsGroupHeartbeat, "streams groups (KIP-1071)")
	input := UniqueName(t, "streams-input")
	e.CreateTopic(t, input, 1)
	props := filepath.Join(t.TempDir(), "streams.properties")
	conf := "application.id=" + group + "\nbootstrap.servers=" + e.Bootstrap + "\ngroup.protocol=streams\n" +
		"state.dir=" + filepath.Join(t.TempDir(), "state") + "\n"
	if err := os.WriteFile(props, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &Member{Group: group, ClientID: group}
	var exited func() error
	m.stop, exited = startJava(t, streamsApp(t), group, props, input)
	t.Cleanup(m.Stop)
	e.waitFor(t, "streams group "+group, exited, func(ctx context.Context) (bool, string, error) {
		typ := e.GroupTypes(t)[group]
		return typ == "streams", "type " + typ, nil
	})
	return m
}

// requireAPI skips t when the cluster does not offer the request key: a
// group type the broker does not have cannot be made, and what kcg does
// with the groups it does have is tested on that broker by the other
// tests (Kafka 3.9 has neither share nor streams groups; see
// docs/compatibility.md).
func (e *Env) requireAPI(t testing.TB, key kmsg.Key, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, e.kgoClient(t))
	if err != nil {
		t.Fatalf("kafkatest: ApiVersions: %v", err)
	}
	for _, k := range res.ApiKeys {
		if k.ApiKey == int16(key) {
			return
		}
	}
	t.Skipf("the broker (Kafka %s) has no %s: it does not offer %s", e.Version, what, key.Name())
}

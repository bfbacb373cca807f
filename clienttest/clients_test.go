// Package clienttest is kcg's real-clients tier (issue 32): consumer
// groups made by the clients people run — librdkafka (confluent-kafka-
// python), kafka-python, the Java 4.4 consumer, Sarama and Kafka Streams —
// each with two members committing, and kcg checked against them: the
// drop-in describe views equal to the 4.4.0 Java tool's and kcg's own
// describe JSON consistent with them, watch, apply refused while the
// members run, and a restarted member's first records exactly at the
// planned offsets after apply, and at the old ones after the rollback.
//
// Only tests live here (and testdata: the Python member, the Java member
// and Kafka Streams application, run as single-file source programs).
// `.ci/clients` runs it against its own one-node Apache Kafka 4.4.0 broker
// with a Python virtual environment (docs/testing.md); without a broker the
// clients that need one skip saying why, and Sarama runs on kfake.
package clienttest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/IBM/sarama"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/output"
)

// client is one row of the matrix.
type client struct {
	name  string
	start startFunc
	// second starts member b when it differs from member a (a group
	// mixing protocols); nil: start.
	second startFunc
	// assignOnly: the consumers use assign() and are no members.
	assignOnly bool
}

const (
	cooperativeSticky = "partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
	javaClassic       = "group.protocol=classic"
	javaSession       = "session.timeout.ms=6000"
	javaHeartbeat     = "heartbeat.interval.ms=1000"
)

var clients = []client{
	// Java and Kafka Streams first, then librdkafka, kafka-python, Sarama.
	{name: "streams-classic", start: streamsMember},
	{name: "java-static", start: javaMember("subscribe", javaClassic, cooperativeSticky, javaSession, javaHeartbeat, "group.instance.id={id}")},
	{name: "mixed-kip848-classic", start: javaMember("subscribe", "group.protocol=consumer"),
		second: javaMember("subscribe", javaClassic, cooperativeSticky, javaSession, javaHeartbeat)},
	{name: "java-kip848-static", start: javaMember("subscribe", "group.protocol=consumer", "group.instance.id={id}")},
	{name: "java-kip848", start: javaMember("subscribe", "group.protocol=consumer")},
	{name: "java-assign", start: javaMember("assign:"), assignOnly: true},
	{name: "java-cooperative-sticky", start: javaMember("subscribe", javaClassic, cooperativeSticky, javaSession, javaHeartbeat)},
	{name: "librdkafka-static", start: pythonMember("confluent", "--assignor", "range", "--instance-id", "{id}")},
	{name: "librdkafka-range", start: pythonMember("confluent", "--assignor", "range")},
	{name: "librdkafka-roundrobin", start: pythonMember("confluent", "--assignor", "roundrobin")},
	{name: "librdkafka-cooperative-sticky", start: pythonMember("confluent", "--assignor", "cooperative-sticky")},
	{name: "librdkafka-kip848", start: pythonMember("confluent", "--protocol", "consumer")},
	{name: "kafka-python", start: pythonMember("kafka-python")},
	{name: "sarama-sticky", start: saramaMember(sarama.NewBalanceStrategySticky())},
	{name: "sarama-roundrobin", start: saramaMember(sarama.NewBalanceStrategyRoundRobin())},
}

// TestClients runs every client's scenario, in parallel (each has its own
// topic and group; go test's -parallel bounds how many at once).
//
// On a real broker it runs only with KCG_CLIENTS_PYTHON set, as
// .ci/clients sets it on its own broker: CI's `go test ./...` on the
// three-broker cluster would otherwise run the Java clients a second time.
// On kfake (plain `go test ./...`) the Sarama groups run; the others skip.
func TestClients(t *testing.T) {
	e := kafkatest.Cluster(t)
	if e.Real && os.Getenv(EnvPython) == "" {
		t.Skipf("the real-clients tier runs with .ci/clients, which sets %s (a Python with the pinned clients) and starts its own broker", EnvPython)
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runScenario(t, e, c)
		})
	}
}

// runScenario: member a consumes and commits everything alone, member b
// joins, the group settles (assign() consumers: one partition each, both
// committed); then the checks, the refused apply, the stop,
// apply → restarted member at the planned offsets, rollback → at the old
// ones.
func runScenario(t *testing.T, e *kafkatest.Env, c client) {
	s := newScenario(t, e)
	began := time.Now()
	step := func(what string) { t.Logf("%5.1fs %s", time.Since(began).Seconds(), what) }
	second := c.second
	if second == nil {
		second = c.start
	}
	a := c.start(t, s, "a", false)
	if !c.assignOnly { // an assign() consumer has one partition: b has the other
		s.waitUntil(t, "member a to commit every record", []*member{a}, func(d output.GroupDescription) bool { return caughtUp(d, firstRecords) })
	}
	b := second(t, s, "b", false)
	d := s.waitUntil(t, "the group to settle with both members", []*member{a, b}, func(d output.GroupDescription) bool {
		if c.assignOnly {
			return caughtUp(d, firstRecords) && len(d.Members) == 0
		}
		return settled(d, 2, firstRecords)
	})
	step("settled")
	s.sideBySide(t, d)
	step("side by side")
	s.watchSane(t, d)

	step("watch")
	plan := s.writePlan(t)
	s.refusedWhileRunning(t, plan, c.assignOnly)
	step("apply while running")
	a.Stop()
	b.Stop()
	step("stopped")
	s.produce(t, moreRecords)

	old := s.committed(t)
	sameOffsets(t, "committed before apply", map[int32]int64{0: firstRecords, 1: firstRecords}, old)
	rollback := filepath.Join(s.dir, "rollback.yaml")
	s.apply(t, plan, rollback)
	sameOffsets(t, "committed after apply", planned, s.committed(t))
	step("applied")
	p := c.start(t, s, "a", true)
	sameOffsets(t, "first records of the restarted member after apply", planned, firstOffsets(t, p))
	p.Stop()
	step("restarted member checked")

	s.apply(t, rollback, filepath.Join(s.dir, "rollback-of-rollback.yaml"))
	sameOffsets(t, "committed after the rollback", old, s.committed(t))
	step("rolled back")
	p = c.start(t, s, "a", true)
	sameOffsets(t, "first records of the restarted member after the rollback", old, firstOffsets(t, p))
	p.Stop()
	step("restarted member checked")
}

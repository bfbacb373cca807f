package resetplan

import (
	"strings"
	"testing"
	"time"
)

func connectorPlan() *Plan {
	cur, tgt := int64(10), int64(3)
	return &Plan{APIVersion: APIVersion, Kind: Kind, CreatedAt: time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC), CreatedBy: "kcg test",
		Cluster:  Cluster{ID: "c1", Bootstrap: "localhost:9092"},
		Strategy: Strategy{Type: StrategyToOffset, Offset: &tgt},
		Connector: &Connector{Connect: "http://localhost:8083", Name: "sink", Class: "org.example.Sink", StateAtPlan: "RUNNING", Tasks: 2,
			ConfigDigest: "sha256:ab", Offsets: []ConnectorOffset{{Topic: "t", Partition: 1, Offset: 10}, {Topic: "t", Partition: 0, Offset: 10}}},
		Groups: []Group{{Group: "connect-sink", Type: "classic", StateAtPlan: "Stable", Partitions: []Partition{
			{Topic: "t", Partition: 0, Current: &cur, Target: &tgt, LogEnd: 20, Reason: ReasonResolved},
			{Topic: "t", Partition: 1, Current: &cur, Target: &tgt, LogEnd: 20, Reason: ReasonResolved},
		}}},
	}
}

// TestConnectorRoundTrip: the connector record survives YAML and JSON,
// is part of the digest, and a plan without one encodes as before.
func TestConnectorRoundTrip(t *testing.T) {
	p := connectorPlan()
	for _, f := range []Format{FormatYAML, FormatJSON} {
		b, err := Encode(p, f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "configDigest") {
			t.Fatalf("%s: no connector in\n%s", f, b)
		}
		q, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, b)
		}
		if q.Connector == nil || q.Connector.Name != "sink" || q.Connector.Tasks != 2 || len(q.Connector.Offsets) != 2 || q.Connector.Offsets[0].Partition != 0 {
			t.Fatalf("%s: connector %+v", f, q.Connector)
		}
		if Digest(q) != Digest(p) {
			t.Fatalf("%s: digest changed on a round trip", f)
		}
	}
	bare := connectorPlan()
	bare.Connector = nil
	if Digest(bare) == Digest(p) {
		t.Fatal("the connector is not part of the digest")
	}
	d := Diff(bare, p)
	if len(d.Plan) == 0 || d.Plan[0].Field != "connector" {
		t.Fatalf("diff: %+v", d.Plan)
	}
	rb := RollbackOf(p, Digest(p), LiveOffsets{"connect-sink": {{Topic: "t", Partition: 0}: 10, {Topic: "t", Partition: 1}: 10}}, time.Now())
	if rb.Connector == nil || rb.Connector.StateAtPlan != "RUNNING" || rb.Connector.Offsets[0].Offset != 3 {
		t.Fatalf("rollback connector %+v", rb.Connector)
	}
}

package commands_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/connectfake"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// connFixture is a sink connector's group on the test cluster and a fake
// Kafka Connect that runs the connector: GET offsets reads the group,
// PATCH offsets commits to it, as a worker does.
type connFixture struct {
	e                  *kafkatest.Env
	fake               *connectfake.Fake
	name, group, topic string
	dir                string
	alters             int
}

func newConnFixture(t *testing.T) *connFixture {
	t.Helper()
	e := kafkatest.Cluster(t)
	f := &connFixture{e: e, fake: connectfake.New(t), name: kafkatest.UniqueName(t, "sink"), topic: kafkatest.UniqueName(t, "t"), dir: t.TempDir()}
	f.group = "connect-" + f.name
	e.CreateTopic(t, f.topic, 2)
	e.Produce(t, f.topic, 0, records(10)...)
	e.Produce(t, f.topic, 1, records(10)...)
	e.Commit(t, f.group, f.topic, map[int32]int64{0: 8, 1: 9})
	f.fake.Add(connectfake.Connector{Name: f.name, Type: "sink", Tasks: 2,
		Config: map[string]string{"connector.class": "org.example.FileSink", "topics": f.topic}})
	f.fake.Offsets = func(string) []connect.Offset {
		var out []connect.Offset
		for p, o := range e.Committed(t, f.group)[f.topic] {
			out = append(out, connect.Offset{Topic: f.topic, Partition: p, Offset: o})
		}
		return out
	}
	f.fake.OnAlter = func(_ string, offs []connect.Offset) error {
		f.alters++
		m := map[int32]int64{}
		for _, o := range offs {
			m[o.Partition] = o.Offset
		}
		e.Commit(t, f.group, f.topic, m)
		return nil
	}
	return f
}

func (f *connFixture) kcg(t *testing.T, args ...string) clitest.Result {
	t.Helper()
	return kcgOn(t, f.e, append(args, "--connect", f.fake.URL)...)
}

func (f *connFixture) path(name string) string { return filepath.Join(f.dir, name) }

// TestConnectOwnerInDescribeAndList: with --connect, describe and list
// name the sink connector that owns a group (JSON, YAML, table); a group
// no connector owns has owner null; without --connect there is no owner
// field at all.
func TestConnectOwnerInDescribeAndList(t *testing.T) {
	f := newConnFixture(t)
	other := kafkatest.UniqueName(t, "plain")
	f.e.Commit(t, other, f.topic, map[int32]int64{0: 1})

	r := f.kcg(t, "describe", f.group, other, "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, false)
	var d struct {
		Groups []map[string]json.RawMessage `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatal(err)
	}
	for _, g := range d.Groups {
		owner, ok := g["owner"]
		switch string(g["group"]) {
		case `"` + f.group + `"`:
			var o struct {
				Connector, State, Class, Connect string
				Tasks                            []struct{ ID int }
			}
			if !ok || json.Unmarshal(owner, &o) != nil || o.Connector != f.name || o.State != "RUNNING" || len(o.Tasks) != 2 || o.Connect != f.fake.URL {
				t.Fatalf("owner of %s: %s", f.group, r.Stdout)
			}
		case `"` + other + `"`:
			if !ok || string(owner) != "null" {
				t.Fatalf("owner of %s should be null: %s", other, r.Stdout)
			}
		default:
			t.Fatalf("group %s", g["group"])
		}
	}
	if !strings.Contains(r.Stdout, `"owner": null`) {
		t.Fatalf("no null owner in %s", r.Stdout)
	}
	r = f.kcg(t, "describe", f.group).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "OWNER (CONNECTOR)") || !strings.Contains(r.Stdout, f.name) || !strings.Contains(r.Stdout, "0:RUNNING,1:RUNNING") {
		t.Fatalf("describe table:\n%s", r.Stdout)
	}
	r = f.kcg(t, "describe", f.group, "-o", "yaml").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "connector: "+f.name) {
		t.Fatalf("describe yaml:\n%s", r.Stdout)
	}
	r = f.kcg(t, "list", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "GroupList", r.Stdout, false)
	if !strings.Contains(r.Stdout, `"connector": "`+f.name+`"`) {
		t.Fatalf("list json:\n%s", r.Stdout)
	}
	r = f.kcg(t, "list").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "OWNER") || !strings.Contains(r.Stdout, f.name+" (RUNNING)") {
		t.Fatalf("list table:\n%s", r.Stdout)
	}
	r = kcgOn(t, f.e, "describe", f.group, "-o", "json").MustCode(t, 0)
	if strings.Contains(r.Stdout, `"owner"`) {
		t.Fatalf("an owner field without --connect:\n%s", r.Stdout)
	}
}

// A Connect that cannot be read: describe prints what it has, says so
// on one line, and exits 1.
func TestConnectOwnerConnectDown(t *testing.T) {
	f := newConnFixture(t)
	f.fake.Fail(http.MethodGet, "/connectors", 500, "worker broken", 0)
	r := f.kcg(t, "describe", f.group, "-o", "json").MustCode(t, 1)
	if !strings.Contains(r.Stderr, "kcg: owners not known: Kafka Connect "+f.fake.URL) || !strings.Contains(r.Stderr, "worker broken") {
		t.Fatalf("stderr: %q", r.Stderr)
	}
	if !strings.Contains(r.Stdout, `"group": "`+f.group+`"`) {
		t.Fatalf("stdout: %s", r.Stdout)
	}
}

package commands_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
	r = f.kcg(t, "describe", f.group, other, "-o", "markdown").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "Owners (Kafka Connect)") || !strings.Contains(r.Stdout, "| `"+f.group+"` | `"+f.name+"` | RUNNING |") {
		t.Fatalf("describe markdown:\n%s", r.Stdout)
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

// planConnector plans the connector's reset to offset 3 and returns the
// plan's path.
func (f *connFixture) planConnector(t *testing.T, extra ...string) string {
	t.Helper()
	p := f.path("reset.yaml")
	r := f.kcg(t, append([]string{"plan", "--connector", f.name, "--all-topics", "--to-offset", "3", "--out", p}, extra...)...).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "connector "+f.name+" (org.example.FileSink, RUNNING, 2 tasks) owns group "+f.group) {
		t.Fatalf("plan stderr: %q", r.Stderr)
	}
	return p
}

func (f *connFixture) committed(t *testing.T) map[int32]int64 {
	return f.e.Committed(t, f.group)[f.topic]
}

func mustOffsets(t *testing.T, got map[int32]int64, want map[int32]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("committed %v, want %v", got, want)
	}
	for p, o := range want {
		if got[p] != o {
			t.Fatalf("committed %v, want %v", got, want)
		}
	}
}

// TestConnectPlanApplyRollbackOverFake: plan --connector records the
// connector (show and markdown render it), apply stops it, writes the
// offsets through PATCH offsets, reads them back from the group and from
// Connect, resumes it, and its rollback does the same backwards.
func TestConnectPlanApplyRollbackOverFake(t *testing.T) {
	f := newConnFixture(t)
	p := f.planConnector(t)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	schematest.MustMatch(t, "OffsetResetPlan", string(data), true)
	for _, want := range []string{"connector:", "name: " + f.name, "stateAtPlan: RUNNING", "tasks: 2", "{topic: " + f.topic + ", partition: 1, offset: 9}"} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("plan lacks %q:\n%s", want, data)
		}
	}
	show := kcg(t, "show", p).MustCode(t, 0)
	if !strings.Contains(show.Stdout, "connector "+f.name+" (org.example.FileSink) on Kafka Connect "+f.fake.URL+": RUNNING with 2 tasks") {
		t.Fatalf("show:\n%s", show.Stdout)
	}
	md := kcg(t, "show", p, "-o", "markdown").MustCode(t, 0)
	if !strings.Contains(md.Stdout, "**Connector:** `"+f.name+"`") {
		t.Fatalf("show -o markdown:\n%s", md.Stdout)
	}

	r := f.kcg(t, "apply", p, "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "ApplyReport", r.Stdout, false)
	mustOffsets(t, f.committed(t), map[int32]int64{0: 3, 1: 3})
	if f.alters != 1 {
		t.Fatalf("PATCH offsets called %d times", f.alters)
	}
	var rep struct {
		Result       string `json:"result"`
		RollbackPlan string `json:"rollbackPlan"`
		Connector    struct {
			Via      string
			Verified bool
			Resumed  bool
			State    string
			Steps    []struct{ Step string }
		} `json:"connector"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, s := range rep.Connector.Steps {
		steps = append(steps, s.Step)
	}
	if rep.Result != "applied" || rep.Connector.Via != "connect" || !rep.Connector.Verified || !rep.Connector.Resumed || rep.Connector.State != "RUNNING" ||
		strings.Join(steps, ",") != "preflight,stopped,tasks gone,rollback plan written,offsets written,verified,resumed" {
		t.Fatalf("report: %+v\n%s", rep, r.Stdout)
	}
	calls := strings.Join(f.fake.Calls(), "\n")
	stop, patch, resume := strings.Index(calls, "PUT /connectors/"+f.name+"/stop"), strings.Index(calls, "PATCH /connectors/"+f.name+"/offsets"), strings.Index(calls, "PUT /connectors/"+f.name+"/resume")
	if stop < 0 || patch < stop || resume < patch {
		t.Fatalf("calls out of order:\n%s", calls)
	}
	if !strings.Contains(r.Stderr, "applied "+p+": connector "+f.name+"'s offsets written (connect) and verified (2 partitions); resumed: RUNNING") {
		t.Fatalf("stderr: %q", r.Stderr)
	}

	rb := f.kcg(t, "apply", rep.RollbackPlan).MustCode(t, 0)
	mustOffsets(t, f.committed(t), map[int32]int64{0: 8, 1: 9})
	if f.alters != 2 || !strings.Contains(rb.Stdout, "resumed") {
		t.Fatalf("rollback: %d alters\n%s\n%s", f.alters, rb.Stdout, rb.Stderr)
	}
	if k, _ := f.fake.Get(f.name); k.State != connect.StateRunning {
		t.Fatalf("connector %s after the rollback", k.State)
	}
}

// On a Connect 3.5 (stop, no PATCH offsets) apply writes to the group
// directly and says so; before 3.5 plan refuses, naming the version
// needed.
func TestConnectOldWorkers(t *testing.T) {
	f := newConnFixture(t)
	p := f.planConnector(t)
	f.fake.Version = "3.5.2"
	r := f.kcg(t, "apply", p, "-o", "json").MustCode(t, 0)
	mustOffsets(t, f.committed(t), map[int32]int64{0: 3, 1: 3})
	if f.alters != 0 || !strings.Contains(r.Stdout, `"via": "group"`) || !strings.Contains(r.Stderr, "to group "+f.group+" directly: Kafka Connect 3.5 has no PATCH") {
		t.Fatalf("alters %d\n%s\n%s", f.alters, r.Stdout, r.Stderr)
	}
	f.fake.Version = "3.4.1"
	r = f.kcg(t, "plan", "--connector", f.name, "--all-topics", "--to-earliest", "--out", f.path("old.yaml")).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "is version 3.4.1: resetting a connector needs PUT /connectors/NAME/stop and its offsets endpoints, Kafka Connect 3.5 or later") || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("stderr: %q", r.Stderr)
	}
}

// The refusals, one line each, nothing done: a source connector, a
// connector no Connect runs, one deleted or recreated since the plan, a
// group with a member that is not a task.
func TestConnectRefusals(t *testing.T) {
	f := newConnFixture(t)
	f.fake.Add(connectfake.Connector{Name: "src", Type: "source", Config: map[string]string{"connector.class": "org.example.Source"}})
	r := f.kcg(t, "plan", "--connector", "src", "--all-topics", "--to-earliest", "--out", f.path("src.yaml")).MustCode(t, 3)
	if !strings.Contains(r.Stderr, `connector "src" is a source connector: kcg resets the consumer group of a sink connector only`) {
		t.Fatalf("source: %q", r.Stderr)
	}
	r = f.kcg(t, "plan", "--connector", f.name+"x", "--all-topics", "--to-earliest", "--out", f.path("nope.yaml")).MustCode(t, 3)
	if !strings.Contains(r.Stderr, `connector "`+f.name+`x" not found on Kafka Connect `+f.fake.URL+" (closest: "+f.name+")") {
		t.Fatalf("missing: %q", r.Stderr)
	}
	r = kcgOn(t, f.e, "plan", "--connector", f.name, "--all-topics", "--to-earliest", "--out", f.path("x.yaml")).MustCode(t, 64)
	if !strings.Contains(r.Stderr, "needs Kafka Connect: give --connect URL") {
		t.Fatalf("no connect: %q", r.Stderr)
	}

	p := f.planConnector(t)
	k, _ := f.fake.Get(f.name)
	k.Config["topics.regex"] = ".*"
	f.fake.Add(k)
	r = f.kcg(t, "apply", p).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "is not the one planned: its config changed since the plan (deleted and recreated, or reconfigured)") {
		t.Fatalf("recreated: %q", r.Stderr)
	}
	f.fake.Remove(f.name)
	r = f.kcg(t, "apply", p).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "is gone from Kafka Connect "+f.fake.URL+": deleted since the plan; nothing was done") {
		t.Fatalf("deleted: %q", r.Stderr)
	}
	if slices.Contains(f.fake.Calls(), "PUT /connectors/"+f.name+"/stop") {
		t.Fatal("a refused apply stopped the connector")
	}
	mustOffsets(t, f.committed(t), map[int32]int64{0: 8, 1: 9})
}

// A member that is not one of the connector's tasks: stopping the
// connector would not empty the group; refused before the stop.
func TestConnectRefusesForeignMember(t *testing.T) {
	f := newConnFixture(t)
	p := f.planConnector(t)
	m := f.e.ClassicMember(t, f.group, f.topic)
	defer m.Stop()
	r := f.kcg(t, "apply", p).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "has members that are not connector "+f.name+"'s tasks (their client ids do not start with connector-consumer-"+f.name+"-)") || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("stderr: %q", r.Stderr)
	}
	if slices.Contains(f.fake.Calls(), "PUT /connectors/"+f.name+"/stop") {
		t.Fatal("a refused apply stopped the connector")
	}
}

// The failures after the stop, each reported exactly: the connector is
// left STOPPED (never resumed over offsets not verified) and the one
// command that resumes it is printed.
func TestConnectFailuresAfterStop(t *testing.T) {
	resume := func(f *connFixture) string { return "curl -X PUT " + f.fake.URL + "/connectors/" + f.name + "/resume" }
	t.Run("connect-down-after-stop", func(t *testing.T) {
		f := newConnFixture(t)
		p := f.planConnector(t)
		f.fake.DownAfter(http.MethodPut, "/stop")
		r := f.kcg(t, "apply", p).MustCode(t, 1)
		if !strings.Contains(r.Stderr, "kcg: connector "+f.name+" left STOPPED: ") || !strings.Contains(r.Stderr, "done: preflight, stopped; no offset was written; resume it with: "+resume(f)) {
			t.Fatalf("stderr: %q", r.Stderr)
		}
		mustOffsets(t, f.committed(t), map[int32]int64{0: 8, 1: 9})
	})
	t.Run("409-on-patch", func(t *testing.T) {
		f := newConnFixture(t)
		p := f.planConnector(t)
		f.fake.Fail(http.MethodPatch, "/offsets", 409, "Cannot complete request momentarily due to stale configuration (typically caused by a concurrent config change)", 0)
		r := f.kcg(t, "apply", p).MustCode(t, 1)
		if !strings.Contains(r.Stderr, "PATCH /connectors/"+f.name+"/offsets: Kafka Connect "+f.fake.URL+": PATCH /connectors/"+f.name+"/offsets: Cannot complete request momentarily") ||
			!strings.Contains(r.Stderr, "(409: Connect is rebalancing or busy") || !strings.Contains(r.Stderr, "left STOPPED") ||
			!strings.Contains(r.Stderr, "no offset was written; rollback plan ") || !strings.Contains(r.Stderr, "resume it with: "+resume(f)) {
			t.Fatalf("stderr: %q", r.Stderr)
		}
		if k, _ := f.fake.Get(f.name); k.State != connect.StateStopped {
			t.Fatalf("connector %s", k.State)
		}
		mustOffsets(t, f.committed(t), map[int32]int64{0: 8, 1: 9})
	})
	t.Run("fails-on-resume", func(t *testing.T) {
		f := newConnFixture(t)
		p := f.planConnector(t)
		f.fake.OnResume = func(string) error { return errTaskFailed }
		r := f.kcg(t, "apply", p).MustCode(t, 4)
		if !strings.Contains(r.Stderr, "kcg: connector "+f.name+" resumed, and is FAILED: resumed, but connector "+f.name+" is FAILED") ||
			!strings.Contains(r.Stderr, "done: preflight, stopped, tasks gone, rollback plan written, offsets written, verified; rollback plan ") {
			t.Fatalf("stderr: %q", r.Stderr)
		}
		mustOffsets(t, f.committed(t), map[int32]int64{0: 3, 1: 3})
	})
	t.Run("stale-after-stop", func(t *testing.T) {
		f := newConnFixture(t)
		p := f.planConnector(t)
		f.fake.OnStop = func(string) { f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 10}) }
		r := f.kcg(t, "apply", p).MustCode(t, 1)
		if !strings.Contains(r.Stderr, "after the stop: ") || !strings.Contains(r.Stderr, "stale") || !strings.Contains(r.Stderr, "left STOPPED") {
			t.Fatalf("stderr: %q", r.Stderr)
		}
		if f.alters != 0 {
			t.Fatal("offsets written over a stale plan")
		}
	})
}

var errTaskFailed = errors.New("fail.if.exists: the task refuses to start")

// kcg diff PLAN reports a connector whose state or config changed since
// the plan (exit 2), and none for one as planned (its tasks in the group
// are no difference: apply stops them).
func TestConnectDiffLive(t *testing.T) {
	f := newConnFixture(t)
	p := f.planConnector(t)
	r := f.kcg(t, "diff", p, "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "PlanStatus", r.Stdout, false)
	k, _ := f.fake.Get(f.name)
	k.State = connect.StatePaused
	k.Config["topics.regex"] = ".*"
	f.fake.Add(k)
	r = f.kcg(t, "diff", p, "-o", "json").MustCode(t, 2)
	schematest.MustMatch(t, "PlanStatus", r.Stdout, false)
	if !strings.Contains(r.Stdout, "connector "+f.name+": PAUSED, planned RUNNING") || !strings.Contains(r.Stdout, "config changed since the plan") || !strings.Contains(r.Stdout, `"ready": false`) {
		t.Fatalf("diff: %s", r.Stdout)
	}
	r = f.kcg(t, "diff", p).MustCode(t, 2)
	if !strings.Contains(r.Stdout, "connector  ") && !strings.Contains(r.Stdout, "PAUSED, planned RUNNING") {
		t.Fatalf("diff table: %s", r.Stdout)
	}
	f.fake.Remove(f.name)
	r = f.kcg(t, "diff", p).MustCode(t, 2)
	if !strings.Contains(r.Stdout, "deleted since the plan") {
		t.Fatalf("diff table: %s", r.Stdout)
	}
	// Two plans: the connector record is compared too.
	q := f.path("other.yaml")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(q, []byte(strings.Replace(string(data), "stateAtPlan: RUNNING", "stateAtPlan: PAUSED", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	r = kcg(t, "diff", p, q).MustCode(t, 2)
	if !strings.Contains(r.Stdout, "connector.stateAtPlan") {
		t.Fatalf("diff of two plans: %s", r.Stdout)
	}
}

// Kafka Connect over https with basic auth, from the flags and from a
// profile's connect: section (password by reference); a wrong password
// is one line naming what to check, exit 1.
func TestConnectTLSAndBasicAuth(t *testing.T) {
	e := kafkatest.Cluster(t)
	fake := connectfake.NewTLS(t)
	fake.RequireBasicAuth("kcg-ops", "s3cret")
	name := kafkatest.UniqueName(t, "sink")
	fake.Add(connectfake.Connector{Name: name, Type: "sink", Tasks: 1, Config: map[string]string{"connector.class": "org.example.FileSink"}})
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, "connect-"+name, topic, map[int32]int64{0: 0})
	dir := t.TempDir()
	ca := fake.CAFile(t, dir)

	t.Setenv("KCG_CONNECT_PASSWORD", "s3cret")
	r := kcgOn(t, e, "list", "-o", "json", "--connect", fake.URL, "--connect-ca-file", ca, "--connect-username", "kcg-ops").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"connector": "`+name+`"`) {
		t.Fatalf("list over https: %s", r.Stdout)
	}
	r = kcgOn(t, e, "list", "--connect", fake.URL, "--connect-username", "kcg-ops").MustCode(t, 1)
	if !strings.Contains(r.Stderr, "certificate") || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("no CA: %q", r.Stderr)
	}
	t.Setenv("KCG_CONNECT_PASSWORD", "wrong")
	r = kcgOn(t, e, "list", "--connect", fake.URL, "--connect-ca-file", ca, "--connect-username", "kcg-ops").MustCode(t, 1)
	if !strings.Contains(r.Stderr, "kcg: Kafka Connect "+fake.URL+": GET /connectors?expand=info&expand=status: User cannot access the resource. (401: check the Connect user and password)") || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("wrong password: %q", r.Stderr)
	}

	t.Setenv("KCG_CONNECT_PASSWORD", "")
	t.Setenv("PROD_CONNECT_PASSWORD", "s3cret")
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("profiles:\n  prod:\n    bootstrap: "+e.Bootstrap+"\n    connect:\n      urls: "+fake.URL+"\n      caFile: connect-ca.pem\n      username: kcg-ops\n      passwordEnv: PROD_CONNECT_PASSWORD\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KCG_CONFIG", cfg)
	r = kcg(t, "describe", "connect-"+name, "--profile", "prod").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "OWNER (CONNECTOR)") || !strings.Contains(r.Stdout, name) {
		t.Fatalf("describe with the profile's connect: %s\n%s", r.Stdout, r.Stderr)
	}
	r = kcgOn(t, e, "list", "--connect", "connect.prod:8083").MustCode(t, 64)
	if !strings.Contains(r.Stderr, `"connect.prod:8083" is not a Connect REST URL: use http://HOST:PORT or https://HOST:PORT`) {
		t.Fatalf("bad URL: %q", r.Stderr)
	}
}

// Ctrl-C while apply waits for the tasks to leave: the connector is left
// STOPPED (as far as kcg knows), the line says so with the resume
// command, exit 130, nothing written.
func TestConnectInterruptedWhileWaiting(t *testing.T) {
	f := newConnFixture(t)
	p := f.planConnector(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.fake.OnStop = func(name string) {
		// A connector whose tasks do not stop: Connect keeps saying RUNNING.
		k, _ := f.fake.Get(name)
		k.State = connect.StateRunning
		f.fake.Add(k)
		time.AfterFunc(500*time.Millisecond, cancel)
	}
	r := clitest.RunContext(ctx, "apply", p, "--bootstrap-server", f.e.Bootstrap, "--connect", f.fake.URL).MustCode(t, 130)
	if !strings.Contains(r.Stderr, "kcg: connector "+f.name+" left STOPPED: interrupted; done: preflight, stopped; no offset was written; resume it with: curl -X PUT "+f.fake.URL+"/connectors/"+f.name+"/resume") {
		t.Fatalf("stderr: %q", r.Stderr)
	}
	if f.alters != 0 {
		t.Fatal("offsets written after Ctrl-C")
	}
	mustOffsets(t, f.committed(t), map[int32]int64{0: 8, 1: 9})
}

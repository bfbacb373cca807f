package commands_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Every document kcg prints matches its schema in docs/schema: each
// command runs on the test cluster (kfake, or the real broker when
// KCG_TEST_BOOTSTRAP is set) with -o json and -o yaml, in the variants
// that change what a document holds (--time-lag, --isolation, views,
// groups with members of both protocols, a group that does not exist,
// applied, already-applied and refused applies, rollbacks, failed
// deletes), and each kind is seen at least once.
func TestDocumentsMatchSchemas(t *testing.T) {
	e := kafkatest.Cluster(t)
	dir := t.TempDir()
	path := func(name string) string { return dir + "/" + name }
	topic := kafkatest.UniqueName(t, "payments")
	idle := kafkatest.UniqueName(t, "idle")
	spare := kafkatest.UniqueName(t, "spare")
	classic := kafkatest.UniqueName(t, "classic")
	kip848 := kafkatest.UniqueName(t, "kip848")
	missing := kafkatest.UniqueName(t, "missing")
	e.CreateTopic(t, topic, 3)
	e.Produce(t, topic, 0, recordsAt(10, time.Now().Add(-10*time.Minute))...)
	e.Produce(t, topic, 1, records(10)...)
	e.Produce(t, topic, 2, recordsAt(4, time.Now().Add(time.Hour))...)
	e.Commit(t, idle, topic, map[int32]int64{0: 4, 1: 10, 2: 0})
	e.Commit(t, spare, topic, map[int32]int64{0: 1, 1: 2})
	e.ClassicMember(t, classic, topic)
	e.ConsumerProtocolMember(t, classic+"-x", topic) // a second active group, of the other protocol
	e.ConsumerProtocolMember(t, kip848, topic)

	seen := map[string]int{}
	// run is kcgOn, or kcg for the commands that read only files.
	run := func(args ...string) clitest.Result {
		t.Helper()
		if args[0] == "show" {
			return kcg(t, args...)
		}
		return kcgOn(t, e, args...)
	}
	// check runs a command that prints a document, with -o json and -o
	// yaml, validates both and returns the JSON.
	check := func(kind string, code int, args ...string) string {
		t.Helper()
		r := run(append(args, "-o", "json")...).MustCode(t, code)
		schematest.MustMatch(t, kind, r.Stdout, false)
		seen[kind]++
		schematest.MustMatch(t, kind, run(append(args, "-o", "yaml")...).MustCode(t, code).Stdout, true)
		return r.Stdout
	}

	// Reads.
	check("GroupList", 0, "list")
	check("GroupList", 0, "list", "--type", "all")
	check("GroupList", 0, "list", "--state", "Empty")
	groups := []string{idle, classic, kip848}
	check("GroupDescriptionList", 0, "describe", idle, classic, kip848)
	check("GroupDescriptionList", 0, append([]string{"describe", "--time-lag"}, groups...)...)
	check("GroupDescriptionList", 0, append([]string{"describe", "--isolation", "read-committed"}, groups...)...)
	check("GroupDescriptionList", 0, append([]string{"describe", "--members", "--verbose"}, groups...)...)
	check("GroupDescriptionList", 0, append([]string{"describe", "--state", "--verbose"}, groups...)...)
	check("GroupDescriptionList", 0, "describe", idle, "--topic", topic+":0", "--time-lag")
	// A group that does not exist keeps its entry, with an error.
	out := check("GroupDescriptionList", 1, "describe", idle, missing)
	if !strings.Contains(out, `"error": "`) {
		t.Fatalf("no error entry for %s:\n%s", missing, out)
	}
	r := kcgOn(t, e, "watch", idle, kip848, "--interval", "1s", "--count", "2", "-o", "json").MustCode(t, 0)
	if n := schematest.MustMatchLines(t, "LagSample", r.Stdout); n != 2 {
		t.Fatalf("%d samples, want 2", n)
	}
	seen["LagSample"]++
	r = kcgOn(t, e, "watch", idle, "--interval", "1s", "--count", "2", "--time-lag", "-o", "json").MustCode(t, 0)
	schematest.MustMatchLines(t, "LagSample", r.Stdout)

	// Plans: the file (YAML and JSON), plan -o, show -o.
	plan := func(out string, args ...string) {
		t.Helper()
		r := kcgOn(t, e, append([]string{"plan", "--out", path(out), "-o", "json"}, args...)...).MustCode(t, 0)
		schematest.MustMatch(t, "OffsetResetPlan", r.Stdout, false)
		data, err := os.ReadFile(path(out))
		if err != nil {
			t.Fatal(err)
		}
		schematest.MustMatch(t, "OffsetResetPlan", string(data), !strings.HasSuffix(out, ".json"))
		seen["OffsetResetPlan"]++
	}
	plan("earliest.yaml", idle, "--all-topics", "--to-earliest", "--ticket", "CHG-1", "--note", "schema test")
	plan("shift.json", idle, "--topic", topic, "--shift-by", "-2")
	plan("duration.yaml", idle, "--topic", topic+":0,1", "--by-duration", "PT1H")
	plan("datetime.yaml", idle, "--all-topics", "--to-datetime", "2020-01-01T00:00:00.000")
	plan("offset.yaml", idle, "--all-topics", "--to-offset", "100")
	plan("current.yaml", idle, "--all-topics", "--to-current")
	plan("togroup.yaml", idle, "--all-topics", "--to-group", spare)
	csv := path("offsets.csv")
	if err := os.WriteFile(csv, []byte(topic+",0,3\n"+topic+",1,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan("fromfile.yaml", idle, "--from-file", csv)
	plan("active.yaml", kip848, "--topic", topic, "--to-latest")
	for _, f := range []string{"earliest.yaml", "shift.json", "togroup.yaml"} {
		check("OffsetResetPlan", 0, "show", path(f))
	}

	// diff: two plans, and a plan against the cluster.
	check("PlanDiff", 2, "diff", path("earliest.yaml"), path("shift.json"))
	check("PlanDiff", 0, "diff", path("earliest.yaml"), path("earliest.yaml"))
	check("PlanStatus", 0, "diff", path("earliest.yaml"))
	check("PlanStatus", 2, "diff", path("active.yaml"))

	// apply: refused (an active group, a wrong digest), applied, already
	// applied, and its rollback.
	out = check("ApplyReport", 3, "apply", path("active.yaml"))
	if !strings.Contains(out, `"result": "refused"`) {
		t.Fatalf("active group not refused:\n%s", out)
	}
	check("ApplyReport", 3, "apply", path("earliest.yaml"), "--expect-digest", "sha256:"+strings.Repeat("0", 64))
	r = kcgOn(t, e, "apply", path("earliest.yaml"), "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "ApplyReport", r.Stdout, false)
	var rep struct {
		Result       string `json:"result"`
		RollbackPlan string `json:"rollbackPlan"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil || rep.Result != "applied" || rep.RollbackPlan == "" {
		t.Fatalf("apply: %v %+v\n%s", err, rep, r.Stdout)
	}
	out = check("ApplyReport", 0, "apply", path("earliest.yaml"))
	if !strings.Contains(out, `"result": "already-applied"`) {
		t.Fatalf("second apply:\n%s", out)
	}
	out = check("PlanStatus", 0, "diff", path("earliest.yaml"))
	if !strings.Contains(out, `"alreadyApplied": true`) {
		t.Fatalf("diff after apply:\n%s", out)
	}
	check("OffsetResetPlan", 0, "show", rep.RollbackPlan)
	check("PlanStatus", 0, "diff", rep.RollbackPlan)
	check("PlanDiff", 2, "diff", path("earliest.yaml"), rep.RollbackPlan)
	check("ApplyReport", 3, "apply", path("shift.json")) // stale now
	r = kcgOn(t, e, "apply", rep.RollbackPlan, "--rollback-out", path("rollback-of-rollback.yaml"), "-o", "yaml").MustCode(t, 0)
	schematest.MustMatch(t, "ApplyReport", r.Stdout, true)
	data, err := os.ReadFile(path("rollback-of-rollback.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	schematest.MustMatch(t, "OffsetResetPlan", string(data), true)

	// Deletes: offsets (a partition, a topic that does not exist, an
	// active group's), groups (one deleted, one Kafka refuses: active; a
	// group that does not exist is refused before the delete, exit 3).
	check("OffsetDeleteResult", 0, "delete-offsets", "--yes", idle, "--topic", topic+":2")
	check("OffsetDeleteResult", 1, "delete-offsets", "--yes", idle, "--topic", kafkatest.UniqueName(t, "nosuch"))
	check("OffsetDeleteResult", 1, "delete-offsets", "--yes", kip848, "--topic", topic)
	r = kcgOn(t, e, "delete", "--yes", spare, kip848, "-o", "json").MustCode(t, 1)
	schematest.MustMatch(t, "GroupDeleteResult", r.Stdout, false)
	seen["GroupDeleteResult"]++
	check("GroupDeleteResult", 1, "delete", "--yes", kip848)

	for _, o := range []string{"json", "yaml"} {
		schematest.MustMatch(t, "Version", kcg(t, "version", "-o", o).MustCode(t, 0).Stdout, o == "yaml")
	}
	seen["Version"]++

	// The profile documents read only the config file.
	writeConfig(t, "current: prod\nprofiles:\n  prod:\n    bootstrap: [prod-1:9093, prod-2:9093]\n"+
		"    securityProtocol: SASL_SSL\n    tls: {caFile: ca.pem}\n    sasl: {mechanism: SCRAM-SHA-512, username: ops, passwordEnv: PROD_PW}\n"+
		"  dev:\n    bootstrap: localhost:9092\n")
	for _, o := range []string{"json", "yaml"} {
		schematest.MustMatch(t, "ProfileList", kcg(t, "profile", "list", "-o", o).MustCode(t, 0).Stdout, o == "yaml")
		for _, name := range []string{"prod", "dev"} {
			schematest.MustMatch(t, "Profile", kcg(t, "profile", "show", name, "-o", o).MustCode(t, 0).Stdout, o == "yaml")
		}
	}
	seen["ProfileList"]++
	seen["Profile"]++
	for _, k := range schema.Kinds() {
		if seen[k] == 0 {
			t.Errorf("no %s document was checked", k)
		}
	}
}

// The documents of failures a shared real broker cannot be made to produce
// on demand match their schemas too: a partial and a failed apply (exit 4
// and 1), and a describe in which one group's offsets cannot be read. On
// kfake on both tiers (kafkatest.Fake), with its fault injection.
func TestFailureDocumentsMatchSchemas(t *testing.T) {
	e := kafkatest.Fake(t)
	topic := kafkatest.UniqueName(t, "t")
	g1, g2 := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(10)...)
	e.Produce(t, topic, 1, records(10)...)
	e.Commit(t, g1, topic, map[int32]int64{0: 5, 1: 5})
	e.Commit(t, g2, topic, map[int32]int64{0: 6})
	plan := t.TempDir() + "/p.yaml"
	kcgOn(t, e, "plan", g1, g2, "--topic", topic, "--to-earliest", "--out", plan).MustCode(t, 0)

	// Groups are committed several at a time, so a failed apply (nothing
	// written) needs both groups' commits to fail.
	for _, tc := range []struct {
		groups []string
		code   int
		result string
	}{{[]string{g2}, 4, "partial"}, {[]string{g1, g2}, 1, "failed"}} {
		var faults []kfake.Fault
		for _, g := range tc.groups {
			faults = append(faults, kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: g, Err: kerr.UnknownServerError, Count: -1})
		}
		h := e.Kfake.Fault(faults...)
		r := kcgOn(t, e, "apply", plan, "--rollback-out", plan+"."+tc.result+".yaml", "-o", "json").MustCode(t, tc.code)
		h.Remove()
		schematest.MustMatch(t, "ApplyReport", r.Stdout, false)
		if !strings.Contains(r.Stdout, `"result": "`+tc.result+`"`) || !strings.Contains(r.Stdout, `"result": "not-written"`) {
			t.Fatalf("%s apply:\n%s", tc.result, r.Stdout)
		}
		if tc.result == "partial" {
			// Put g1 back, so the plan is not stale for the next case.
			e.Commit(t, g1, topic, map[int32]int64{0: 5, 1: 5})
		}
	}

	h := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetFetch}, Group: g2, Err: kerr.GroupAuthorizationFailed, Count: -1})
	defer h.Remove()
	for _, o := range []string{"json", "yaml"} {
		r := kcgOn(t, e, "describe", g1, g2, "-o", o).MustCode(t, 1)
		schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, o == "yaml")
		if !strings.Contains(r.Stdout, "not authorized") {
			t.Fatalf("no error entry:\n%s", r.Stdout)
		}
	}
}

package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// resetFixture: a 2-partition topic with 10 records per partition and a
// group committed at 5 on partition 0 and never on partition 1.
type resetFixture struct {
	e            *kafkatest.Env
	topic, group string
	dir          string
}

func newResetFixture(t *testing.T) *resetFixture {
	e := kafkatest.Cluster(t)
	f := &resetFixture{e: e, topic: kafkatest.UniqueName(t, "t"), group: kafkatest.UniqueName(t, "g"), dir: t.TempDir()}
	e.CreateTopic(t, f.topic, 2)
	e.Produce(t, f.topic, 0, records(10)...)
	e.Produce(t, f.topic, 1, records(10)...)
	e.Commit(t, f.group, f.topic, map[int32]int64{0: 5})
	return f
}

func (f *resetFixture) path(name string) string { return filepath.Join(f.dir, name) }

var digestRE = regexp.MustCompile(`digest: (sha256:[0-9a-f]{64})`)

// plan makes a plan and returns its digest.
func (f *resetFixture) plan(t *testing.T, out string, args ...string) string {
	t.Helper()
	r := kcgOn(t, f.e, append([]string{"plan", "--out", f.path(out)}, args...)...).MustCode(t, 0)
	m := digestRE.FindStringSubmatch(r.Stderr)
	if m == nil {
		t.Fatalf("no digest on stderr: %q", r.Stderr)
	}
	return m[1]
}

func (f *resetFixture) committed(t *testing.T) map[int32]int64 {
	t.Helper()
	got := f.e.Committed(t, f.group)[f.topic]
	if got == nil {
		got = map[int32]int64{}
	}
	return got
}

func (f *resetFixture) mustCommitted(t *testing.T, want map[int32]int64) {
	t.Helper()
	if got := f.committed(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("committed %v, want %v", got, want)
	}
}

// Planning writes nothing to Kafka, whatever the strategy (every one of
// the eight) and scope, and whether the group exists or not.
func TestPlanWritesNothing(t *testing.T) {
	f := newResetFixture(t)
	fresh := kafkatest.UniqueName(t, "fresh")
	csv := f.path("in.csv")
	if err := os.WriteFile(csv, []byte(fmt.Sprintf("%[1]s,%[3]s,0,1\n%[1]s,%[3]s,1,3\n%[2]s,%[3]s,1,4\n\n", f.group, fresh, f.topic)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, strategy := range [][]string{{"--to-earliest"}, {"--to-latest"}, {"--to-current"}, {"--to-offset", "7"}, {"--shift-by", "-2"},
		{"--to-datetime", "2020-01-01T00:00:00.000"}, {"--by-duration", "PT1H"}, {"--from-file", csv}} {
		f.plan(t, "p.yaml", append([]string{f.group, "--all-topics", "--overwrite"}, strategy...)...)
		f.mustCommitted(t, map[int32]int64{0: 5})
		if strategy[0] != "--shift-by" {
			scope := []string{"--topic", f.topic}
			if strategy[0] == "--from-file" {
				scope = nil // the file is the scope: --topic beside it is refused (64)
			}
			f.plan(t, "p.yaml", append(append([]string{f.group, fresh, "--overwrite", "--allow-new-group"}, scope...), strategy...)...)
			f.mustCommitted(t, map[int32]int64{0: 5})
			if got := f.e.Committed(t, fresh); len(got) != 0 {
				t.Fatalf("%v: planning committed %v for a new group", strategy, got)
			}
		}
	}
}

// plan → apply → describe shows the targets; the rollback plan restores the
// old offsets exactly, deleting the one that had no commit.
func TestApplyAndRollback(t *testing.T) {
	f := newResetFixture(t)
	digest := f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2", "--ticket", "CHG-42", "--note", "replay after outage")
	r := kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--expect-digest", digest, "-o", "json").MustCode(t, 0)
	f.mustCommitted(t, map[int32]int64{0: 2, 1: 2})
	var report applyReportJSON
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if report.Kind != "ApplyReport" || report.Result != "applied" || report.RollbackPlan == nil || len(report.Groups) != 1 || report.Groups[0].Result != "written" {
		t.Fatalf("report %+v", report)
	}
	p := report.Groups[0].Partitions
	if *p[0].Before != 5 || *p[0].After != 2 || p[1].Before != nil || *p[1].After != 2 {
		t.Fatalf("partitions %+v", p)
	}

	// describe shows the targets, and the annotations in the metadata.
	r = kcgOn(t, f.e, "describe", f.group, "-o", "json").MustCode(t, 0)
	d := parseDescribe(t, r.Stdout)
	o := offsetOf(t, d, f.group, f.topic, 0)
	meta, _ := o["metadata"].(string)
	if o["committedOffset"] != 2.0 || !strings.Contains(meta, `"ticket":"CHG-42"`) || !strings.Contains(meta, digest) || !strings.Contains(meta, "replay after outage") {
		t.Fatalf("offset entry %v", o)
	}

	// Applying again: already applied, exit 0, nothing written.
	r = kcgOn(t, f.e, "apply", f.path("reset.yaml")).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "already applied") {
		t.Fatalf("stderr %q", r.Stderr)
	}

	// The rollback plan restores 5 and deletes partition 1's offset.
	rb := *report.RollbackPlan
	if _, err := os.Stat(rb); err != nil {
		t.Fatal(err)
	}
	// Its own rollback gets a new name: in the same second the default
	// would be rb itself, which apply refuses.
	kcgOn(t, f.e, "apply", rb, "--rollback-out", f.path("undo-undo.yaml")).MustCode(t, 0)
	f.mustCommitted(t, map[int32]int64{0: 5})
}

// A consumer committed after the plan was made: apply exits 3, names the
// partition, and nothing changed anywhere.
func TestApplyRefusesStalePlan(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-earliest")
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 7})
	r := kcgOn(t, f.e, "apply", f.path("reset.yaml")).MustCode(t, 3)
	if !strings.Contains(r.Stderr, fmt.Sprintf("%s/0: planned from 5, now 7", f.topic)) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
		t.Fatalf("stderr %q", r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 7})
	matches, _ := filepath.Glob(f.path("reset.rollback-*"))
	if len(matches) != 0 {
		t.Fatalf("a refused apply wrote a rollback plan: %v", matches)
	}
	// diff against the live cluster shows the drift: exit 2.
	r = kcgOn(t, f.e, "diff", f.path("reset.yaml")).MustCode(t, 2)
	if !strings.Contains(r.Stdout, "drift") || !strings.Contains(r.Stdout, "planned from 5, now 7") {
		t.Fatalf("diff:\n%s", r.Stdout)
	}
	// --force applies anyway.
	kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--force").MustCode(t, 0)
	f.mustCommitted(t, map[int32]int64{0: 0, 1: 0})
}

func TestApplyRefusesActiveGroups(t *testing.T) {
	for _, kind := range []string{"classic", "kip848"} {
		t.Run(kind, func(t *testing.T) {
			f := newResetFixture(t)
			var m *kafkatest.Member
			if kind == "classic" {
				m = f.e.ClassicMember(t, f.group, f.topic)
			} else {
				m = f.e.ConsumerProtocolMember(t, f.group, f.topic)
			}
			r := kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-earliest", "--out", f.path("p.yaml")).MustCode(t, 0)
			if !strings.Contains(r.Stderr, "active members") {
				t.Fatalf("no warning when planning an active group: %q", r.Stderr)
			}
			r = kcgOn(t, f.e, "apply", f.path("p.yaml")).MustCode(t, 3)
			if !strings.Contains(r.Stderr, "has 1 active member (state Stable): stop its consumers first") {
				t.Fatalf("stderr %q", r.Stderr)
			}
			r = kcgOn(t, f.e, "diff", f.path("p.yaml"), "-o", "json").MustCode(t, 2)
			if !strings.Contains(r.Stdout, `"activeGroups": [`) || strings.Contains(r.Stdout, `"activeGroups": []`) {
				t.Fatalf("diff:\n%s", r.Stdout)
			}
			m.Stop()
			f.mustCommitted(t, map[int32]int64{0: 5})
		})
	}
}

// An edited plan applied with the reviewed digest, and a plan for another
// cluster: exit 3, nothing written.
func TestApplyRefusesEditedPlanAndOtherCluster(t *testing.T) {
	f := newResetFixture(t)
	digest := f.plan(t, "reset.yaml", f.group, "--topic", f.topic+":0", "--to-offset", "3")
	data, err := os.ReadFile(f.path("reset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "target: 3", "target: 9", 1)
	if edited == string(data) {
		t.Fatalf("plan has no target 3:\n%s", data)
	}
	if err := os.WriteFile(f.path("edited.yaml"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r := kcgOn(t, f.e, "apply", f.path("edited.yaml"), "--expect-digest", digest).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "changed since review") {
		t.Fatalf("stderr %q", r.Stderr)
	}
	other := regexp.MustCompile(`cluster: \{id: [^,]+,`).ReplaceAllString(string(data), "cluster: {id: some-other-cluster,")
	if err := os.WriteFile(f.path("other.yaml"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	r = kcgOn(t, f.e, "apply", f.path("other.yaml")).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "some-other-cluster") {
		t.Fatalf("stderr %q", r.Stderr)
	}
	kcgOn(t, f.e, "diff", f.path("other.yaml")).MustCode(t, 2)
	f.mustCommitted(t, map[int32]int64{0: 5})
	// The reviewed file itself applies.
	kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--expect-digest", strings.TrimPrefix(digest, "sha256:")).MustCode(t, 0)
	f.mustCommitted(t, map[int32]int64{0: 3})
}

// A broker failure between groups: exit 4, and the report matches what the
// broker holds. The failure is injected with kfake's fault injection; a
// shared real broker cannot be made to fail one request on demand.
func TestApplyPartialFailure(t *testing.T) {
	// kfake on both tiers: the shared real broker cannot fail one group's
	// commit on demand.
	e := kafkatest.Fake(t)
	topic := kafkatest.UniqueName(t, "t")
	g1, g2 := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(10)...)
	e.Commit(t, g1, topic, map[int32]int64{0: 5})
	e.Commit(t, g2, topic, map[int32]int64{0: 6})
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.yaml")
	kcgOn(t, e, "plan", g1, g2, "--topic", topic, "--to-earliest", "--out", plan).MustCode(t, 0)
	h := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: g2, Err: kerr.UnknownServerError, Count: -1})
	defer h.Remove()
	r := kcgOn(t, e, "apply", plan, "-o", "json").MustCode(t, 4)
	h.Remove()
	if !strings.Contains(r.Stderr, "written: "+g1) || !strings.Contains(r.Stderr, "not written: "+g2) {
		t.Fatalf("stderr %q", r.Stderr)
	}
	var report struct {
		Result string `json:"result"`
		Groups []struct {
			Group      string `json:"group"`
			Result     string `json:"result"`
			Partitions []struct {
				After *int64 `json:"after"`
			} `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil {
		t.Fatal(err)
	}
	if report.Result != "partial" || report.Groups[0].Result != "written" || report.Groups[1].Result != "not-written" {
		t.Fatalf("report %+v", report)
	}
	// The report says what the broker holds.
	held1, held2 := e.Committed(t, g1)[topic][0], e.Committed(t, g2)[topic][0]
	if held1 != 0 || held2 != 6 || *report.Groups[0].Partitions[0].After != held1 || *report.Groups[1].Partitions[0].After != held2 {
		t.Fatalf("broker holds %d/%d, report %+v", held1, held2, report)
	}
}

func TestDiffTwoPlans(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "a.yaml", f.group, "--topic", f.topic, "--to-earliest")
	f.plan(t, "b.yaml", f.group, "--topic", f.topic, "--to-earliest")
	f.plan(t, "c.yaml", f.group, "--topic", f.topic, "--to-offset", "3")
	kcg(t, "diff", f.path("a.yaml"), f.path("b.yaml")).MustCode(t, 0)
	r := kcg(t, "diff", f.path("a.yaml"), f.path("c.yaml")).MustCode(t, 2)
	if !strings.Contains(r.Stdout, "0 → 3") || !strings.Contains(r.Stdout, "strategy") {
		t.Fatalf("diff:\n%s", r.Stdout)
	}
	r = kcg(t, "diff", f.path("a.yaml"), f.path("c.yaml"), "-o", "json").MustCode(t, 2)
	if !strings.Contains(r.Stdout, `"kind": "PlanDiff"`) || !strings.Contains(r.Stdout, `"equal": false`) {
		t.Fatalf("diff json:\n%s", r.Stdout)
	}
	// A fresh plan against the live cluster: no difference.
	kcgOn(t, f.e, "diff", f.path("a.yaml")).MustCode(t, 0)
}

// Garbage and Java CSV files given as plans are bad input (exit 65), named.
func TestBadPlanFiles(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "reset.csv")
	os.WriteFile(csv, []byte("orders,0,5\norders,1,7\n"), 0o644)
	garbage := filepath.Join(dir, "junk.yaml")
	os.WriteFile(garbage, []byte("\x00\x01 not a plan {{{"), 0o644)
	v2 := filepath.Join(dir, "v2.yaml")
	os.WriteFile(v2, []byte("apiVersion: kcg/v2\nkind: OffsetResetPlan\n"), 0o644)
	for _, p := range []string{csv, garbage, v2, filepath.Join(dir, "missing.yaml")} {
		for _, args := range [][]string{{"show", p}, {"apply", p, "--bootstrap-server", "127.0.0.1:1"}, {"diff", p, p}} {
			cmd := args[0]
			r := kcg(t, args...).MustCode(t, 65)
			if r.Stdout != "" || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 || !strings.Contains(r.Stderr, filepath.Base(p)) {
				t.Fatalf("%s %s: stdout %q stderr %q", cmd, p, r.Stdout, r.Stderr)
			}
		}
	}
	if r := kcg(t, "show", csv); !strings.Contains(r.Stderr, "CSV") {
		t.Fatalf("a CSV is not named as such: %q", r.Stderr)
	}
}

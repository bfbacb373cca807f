package commands_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// streamsFixture is a streams group (KIP-1071) on the real broker: the
// application testdata/StreamsTopologyApp.java on a 2-partition input
// topic with 6 records per partition, consumed and committed; the
// application is still running.
type streamsFixture struct {
	e     *kafkatest.Env
	group string
	input string
	app   *kafkatest.Member
	dir   string
}

func newStreamsFixture(t *testing.T) *streamsFixture {
	t.Helper()
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "streams groups need Kafka Streams on the real broker")
	f := &streamsFixture{e: e, group: kafkatest.UniqueName(t, "streams"), input: kafkatest.UniqueName(t, "streams-in"), dir: t.TempDir()}
	e.CreateTopic(t, f.input, 2)
	for p := 0; p < 2; p++ {
		var recs []kafkatest.Record
		for i := 0; i < 6; i++ {
			recs = append(recs, kafkatest.Record{Value: fmt.Sprintf("v%d", i%3)})
		}
		e.Produce(t, f.input, p, recs...)
	}
	f.app = e.StreamsTopologyMember(t, f.group, f.input)
	deadline := time.Now().Add(90 * time.Second)
	for {
		all := e.Committed(t, f.group)
		c, repart := all[f.input], int64(0)
		for topic, ps := range all {
			if strings.HasSuffix(topic, "-repartition") {
				for _, o := range ps {
					repart += o
				}
			}
		}
		// The 12 records re-keyed went through the repartition topic too.
		if c[0] == 6 && c[1] == 6 && repart == 12 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the streams application did not commit 6,6 on %s: %v", f.input, e.Committed(t, f.group))
		}
		time.Sleep(300 * time.Millisecond)
	}
	return f
}

// stop stops the application and waits until the group is Empty.
func (f *streamsFixture) stop(t *testing.T) {
	t.Helper()
	f.app.Stop()
	deadline := time.Now().Add(90 * time.Second)
	for {
		r := kcgOn(t, f.e, "describe", f.group, "-o", "json").MustCode(t, 0)
		if strings.Contains(r.Stdout, `"state": "Empty"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("streams group %s not Empty after the application stopped:\n%s", f.group, r.Stdout)
		}
		time.Sleep(time.Second)
	}
}

// describe of a running streams group: type streams, the member with its
// tasks and process id, the committed offsets and lag of every source
// topic, each named by its kind in the topology (input, repartition,
// changelog); the JSON matches its schema.
func TestStreamsGroupDescribe(t *testing.T) {
	f := newStreamsFixture(t)
	r := kcgOn(t, f.e, "describe", f.group, "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, false)
	var doc struct {
		Groups []struct {
			State   string `json:"state"`
			Type    string `json:"type"`
			Offsets []struct {
				Topic           string  `json:"topic"`
				StreamsTopic    *string `json:"streamsTopic"`
				CommittedOffset *int64  `json:"committedOffset"`
				Lag             *int64  `json:"lag"`
			} `json:"offsets"`
			Streams *struct {
				InputTopics       []string `json:"inputTopics"`
				RepartitionTopics []string `json:"repartitionTopics"`
				ChangelogTopics   []string `json:"changelogTopics"`
				Subtopologies     []any    `json:"subtopologies"`
				Members           []struct {
					ProcessID     string `json:"processId"`
					TopologyEpoch int32  `json:"topologyEpoch"`
					Tasks         struct {
						Active []struct {
							Subtopology string  `json:"subtopology"`
							Partitions  []int32 `json:"partitions"`
						} `json:"active"`
					} `json:"tasks"`
				} `json:"members"`
			} `json:"streams"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || len(doc.Groups) != 1 {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	g := doc.Groups[0]
	s := g.Streams
	if g.Type != "streams" || g.State != "Stable" || s == nil {
		t.Fatalf("type %q state %q streams %v", g.Type, g.State, s)
	}
	if !slices.Equal(s.InputTopics, []string{f.input}) || len(s.RepartitionTopics) != 1 || !strings.HasSuffix(s.RepartitionTopics[0], "-repartition") ||
		len(s.ChangelogTopics) != 1 || !strings.HasSuffix(s.ChangelogTopics[0], "-changelog") || len(s.Subtopologies) != 2 {
		t.Fatalf("topology %+v", s)
	}
	if len(s.Members) != 1 || s.Members[0].ProcessID == "" || len(s.Members[0].Tasks.Active) != 2 {
		t.Fatalf("members %+v", s.Members)
	}
	kinds := map[string]string{}
	for _, o := range g.Offsets {
		if o.StreamsTopic == nil {
			t.Fatalf("offset of %s without its kind", o.Topic)
		}
		kinds[o.Topic] = *o.StreamsTopic
		if o.Topic == f.input && (o.CommittedOffset == nil || *o.CommittedOffset != 6 || o.Lag == nil || *o.Lag != 0) {
			t.Fatalf("input offset %+v", o)
		}
	}
	if kinds[f.input] != "input" || kinds[s.RepartitionTopics[0]] != "repartition" {
		t.Fatalf("offset kinds %v", kinds)
	}
	r = kcgOn(t, f.e, "describe", f.group).MustCode(t, 0)
	for _, want := range []string{"STREAMS-TOPIC", "ACTIVE-TASKS", "0_0,0_1,1_0,1_1"} {
		if !strings.Contains(r.Stdout, want) {
			t.Fatalf("table lacks %q:\n%s", want, r.Stdout)
		}
	}
	if !regexp.MustCompile(regexp.QuoteMeta(s.ChangelogTopics[0]) + `\s+changelog\n`).MatchString(r.Stdout) {
		t.Fatalf("the changelog topic is not named as such:\n%s", r.Stdout)
	}
}

// javaStreamsReset runs Java 4.4's kafka-streams-groups --reset-offsets
// --all-input-topics with strategy (e.g. --to-current) and --dry-run, and
// returns its NEW-OFFSET column by "topic:partition". With --to-current
// it is the Java tool's reading of the committed offsets (its --describe
// --offsets prints nothing for an Empty group).
func (f *streamsFixture) javaStreamsReset(t *testing.T, strategy ...string) map[string]string {
	t.Helper()
	args := append([]string{"--bootstrap-server", f.e.Bootstrap, "--reset-offsets", "--group", f.group, "--all-input-topics", "--dry-run"}, strategy...)
	out, stderr, code := f.e.JavaRun(t, streamsGroupCommandClass, "", args...)
	if code != 0 {
		t.Fatalf("kafka-streams-groups %v: exit %d: %s", args, code, stderr)
	}
	got := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if fs := strings.Fields(line); len(fs) == 4 && fs[0] == f.group {
			got[fs[1]+":"+fs[2]] = fs[3]
		}
	}
	return got
}

// A streams group goes plan → show → diff → apply → rollback on the real
// broker: refused (exit 3, nothing written) while the application runs;
// once it stopped, --all-topics resets the input topic only (as
// kafka-streams-groups --all-input-topics), checked with the Java tool
// and an independent OffsetFetch, and the rollback plan restores it.
func TestStreamsGroupPlanApplyRollback(t *testing.T) {
	f := newStreamsFixture(t)
	repart := ""
	for tp := range f.e.Committed(t, f.group) {
		if strings.HasSuffix(tp, "-repartition") {
			repart = tp
		}
	}
	if repart == "" {
		t.Fatalf("no commit on the repartition topic: %v", f.e.Committed(t, f.group))
	}
	before := f.e.Committed(t, f.group)[repart]
	plan := filepath.Join(f.dir, "streams.yaml")
	kcgOn(t, f.e, "plan", f.group, "--all-topics", "--to-earliest", "--out", plan).MustCode(t, 0)
	r := kcgOn(t, f.e, "apply", plan).MustCode(t, 3)
	if !strings.Contains(r.Stderr, f.group) {
		t.Fatalf("apply of a running streams group: %q", r.Stderr)
	}
	if c := f.e.Committed(t, f.group)[f.input]; c[0] != 6 || c[1] != 6 {
		t.Fatalf("a refused apply wrote: %v", c)
	}

	f.stop(t)
	kcgOn(t, f.e, "plan", f.group, "--all-topics", "--to-earliest", "--out", plan, "--overwrite").MustCode(t, 0)
	data, err := os.ReadFile(plan)
	t.Logf("plan:\n%s", data)
	if err != nil {
		t.Fatal(err)
	}
	schematest.MustMatch(t, "OffsetResetPlan", string(data), true)
	if !strings.Contains(string(data), "type: streams") || strings.Contains(string(data), repart) {
		t.Fatalf("plan (type streams, input topic only):\n%s", data)
	}
	r = kcg(t, "show", plan).MustCode(t, 0)
	t.Logf("show:\n%s", r.Stdout)
	// Side by side: Java's --all-input-topics --to-earliest --dry-run
	// resets the same partitions to the same offsets.
	if got, want := f.javaStreamsReset(t, "--to-earliest"), map[string]string{f.input + ":0": "0", f.input + ":1": "0"}; !maps.Equal(got, want) {
		t.Fatalf("Java kafka-streams-groups --to-earliest --dry-run: %v, kcg planned %v", got, want)
	}
	kcgOn(t, f.e, "diff", plan).MustCode(t, 0)
	r = kcgOn(t, f.e, "apply", plan, "-o", "json").MustCode(t, 0)
	var report struct {
		Result       string  `json:"result"`
		RollbackPlan *string `json:"rollbackPlan"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil || report.Result != "applied" || report.RollbackPlan == nil {
		t.Fatalf("%v: %s", err, r.Stdout)
	}
	if got, want := f.javaStreamsReset(t, "--to-current"), map[string]string{f.input + ":0": "0", f.input + ":1": "0"}; !maps.Equal(got, want) {
		t.Fatalf("Java kafka-streams-groups after apply: %v", got)
	}
	c := f.e.Committed(t, f.group)
	if c[f.input][0] != 0 || c[f.input][1] != 0 || !maps.Equal(c[repart], before) {
		t.Fatalf("committed after apply: %v (repartition before: %v)", c, before)
	}
	kcgOn(t, f.e, "apply", *report.RollbackPlan, "--rollback-out", filepath.Join(f.dir, "undo-undo.yaml")).MustCode(t, 0)
	if got, want := f.javaStreamsReset(t, "--to-current"), map[string]string{f.input + ":0": "6", f.input + ":1": "6"}; !maps.Equal(got, want) {
		t.Fatalf("Java kafka-streams-groups after rollback: %v", got)
	}
	if c := f.e.Committed(t, f.group)[f.input]; c[0] != 6 || c[1] != 6 {
		t.Fatalf("committed after rollback: %v", c)
	}
}

// delete-offsets and delete of a streams group, as for consumer groups:
// refused while the application runs (nothing deleted); once it stopped,
// delete-offsets --topic deletes the input topic's offsets only and
// delete removes the group, and kcg deletes none of its internal topics.
func TestStreamsGroupDeletes(t *testing.T) {
	f := newStreamsFixture(t)
	r := kcgOn(t, f.e, "delete", "--yes", f.group)
	if r.Code == 0 {
		t.Fatalf("delete of a running streams group exited 0:\n%s%s", r.Stdout, r.Stderr)
	}
	if c := f.e.Committed(t, f.group)[f.input]; c[0] != 6 || c[1] != 6 {
		t.Fatalf("a refused delete deleted: %v", c)
	}
	internal := map[string]bool{}
	for topic := range f.e.Committed(t, f.group) {
		if topic != f.input {
			internal[topic] = true
		}
	}
	f.stop(t)
	kcgOn(t, f.e, "delete-offsets", "--yes", f.group, "--topic", f.input).MustCode(t, 0)
	c := f.e.Committed(t, f.group)
	if _, ok := c[f.input]; ok || len(c) != len(internal) {
		t.Fatalf("after delete-offsets --topic %s: %v", f.input, c)
	}
	if got := f.javaStreamsReset(t, "--to-current"); len(got) != 0 {
		t.Fatalf("Java still sees offsets of the input topic: %v", got)
	}
	kcgOn(t, f.e, "delete", "--yes", f.group).MustCode(t, 0)
	if typ, ok := f.e.GroupTypes(t)[f.group]; ok {
		t.Fatalf("the group is still listed (type %s)", typ)
	}
	for topic := range internal {
		if len(f.e.Leaders(t, topic)) == 0 {
			t.Fatalf("internal topic %s is gone", topic)
		}
	}
}

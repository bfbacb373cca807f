package commands_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops/mm2"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// checkpoint is a hand-made MirrorMaker 2 checkpoint record, in the bytes
// MM2's Checkpoint class writes.
func checkpoint(group, topic string, p int32, up, down int64, at time.Time) kafkatest.Record {
	return kafkatest.Record{Key: string(mm2.EncodeKey(mm2.Key{Group: group, Topic: topic, Partition: p})),
		Value: string(mm2.EncodeValue(mm2.Value{Upstream: up, Downstream: down}, mm2.Version)), Time: at}
}

// TestPlanTranslateFrom: hand-made checkpoints (several per key, other
// groups, a tombstone, an offset past the log end, an old one) give the
// documented plan, which applies.
func TestPlanTranslateFrom(t *testing.T) {
	e := kafkatest.Cluster(t)
	dir := t.TempDir()
	alias := kafkatest.UniqueName(t, "src")
	cpTopic := alias + ".checkpoints.internal"
	topic := alias + ".orders" // the remote topic on the target
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(10)...)
	e.Produce(t, topic, 1, records(10)...)
	e.CreateTopic(t, cpTopic, 1)
	g1, g2, g3 := kafkatest.UniqueName(t, "g1"), kafkatest.UniqueName(t, "g2"), kafkatest.UniqueName(t, "g3")
	now := time.Now()
	old := now.Add(-time.Hour)
	e.Produce(t, cpTopic, 0,
		checkpoint(g1, topic, 0, 100, 3, now.Add(-3*time.Second)),
		checkpoint(g2, topic, 0, 7, 2, now),
		checkpoint(g1, topic, 0, 120, 5, now.Add(-2*time.Second)), // the newer of g1/0 wins
		checkpoint(g1, topic, 1, 500, 40, now),                    // past the log end (10)
		checkpoint(g3, topic, 1, 9, 7, old),
		kafkatest.Record{Key: string(mm2.EncodeKey(mm2.Key{Group: g2, Topic: topic, Partition: 0})), Tombstone: true},
	)

	out := dir + "/failover.yaml"
	r := kcgOn(t, e, "plan", g1, "--translate-from", alias, "--out", out).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "New offset (40) is higher than latest offset for topic partition "+topic+"-1") {
		t.Errorf("no clamp warning: %q", r.Stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	plan := string(data)
	for _, want := range []string{
		"strategy: {type: translate-from, alias: " + alias + ", checkpointsTopic: " + cpTopic + "}",
		"partition: 0, current: null, target: 5, logStart: 0, logEnd: 10, reason: translated, upstreamOffset: 120, checkpointTime: ",
		"partition: 1, current: null, target: 10, logStart: 0, logEnd: 10, reason: clamped-to-end, upstreamOffset: 500, checkpointTime: ",
		"new: true",
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}
	schematest.MustMatch(t, "OffsetResetPlan", plan, true)
	schematest.MustMatch(t, "OffsetResetPlan", kcg(t, "show", out, "-o", "json").MustCode(t, 0).Stdout, false)
	r = kcg(t, "show", out).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "translate-from") || !strings.Contains(r.Stdout, "translated") {
		t.Errorf("show does not say where the targets came from:\n%s", r.Stdout)
	}
	kcgOn(t, e, "diff", out).MustCode(t, 0) // nothing moved since the plan
	kcgOn(t, e, "apply", out).MustCode(t, 0)
	if got := e.Committed(t, g1)[topic]; len(got) != 2 || got[0] != 5 || got[1] != 10 {
		t.Fatalf("%s committed %v, want {0: 5, 1: 10}", g1, got)
	}

	// g2's only checkpoint was deleted (tombstone): exit 3 naming it, no
	// file; --all-groups is g1 and g3, and g3's checkpoint is old.
	r = kcgOn(t, e, "plan", g2, "--translate-from", alias, "--out", dir+"/g2.yaml").MustCode(t, 3)
	oneLine(t, r.Stderr, `group "`+g2+`" has no checkpoint in `+cpTopic)
	if _, err := os.Stat(dir + "/g2.yaml"); err == nil {
		t.Error("a plan file was written")
	}
	r = kcgOn(t, e, "plan", "--all-groups", "--translate-from", alias, "--out", "-").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "group: "+g1) || !strings.Contains(r.Stdout, "group: "+g3) || strings.Contains(r.Stdout, g2) {
		t.Errorf("--all-groups is not the groups with checkpoints:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "group "+g3+": its oldest checkpoint is 1h0m") || !strings.Contains(r.Stderr, "older than --max-checkpoint-age 5m0s") {
		t.Errorf("no stale warning: %q", r.Stderr)
	}
	// --topic narrows --all-groups to the groups with a checkpoint there.
	r = kcgOn(t, e, "plan", "--all-groups", "--translate-from", alias, "--topic", topic+":0", "--out", "-").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "group: "+g1) || strings.Contains(r.Stdout, g3) || strings.Contains(r.Stdout, "partition: 1,") {
		t.Errorf("--all-groups --topic %s:0 is not g1's partition 0 alone:\n%s", topic, r.Stdout)
	}
	// show's own --max-checkpoint-age.
	r = kcg(t, "show", out, "--max-checkpoint-age", "1ms").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "had a checkpoint older than 1ms when the plan was made") {
		t.Errorf("show --max-checkpoint-age 1ms does not warn:\n%s", r.Stdout)
	}
	// g1 is now committed at its translation; a newer commit on the
	// target is a rewind, and a partition without a checkpoint is named.
	other := alias + ".other"
	e.CreateTopic(t, other, 1)
	e.Produce(t, other, 0, records(3)...)
	e.Commit(t, g1, topic, map[int32]int64{0: 8})
	e.Commit(t, g1, other, map[int32]int64{0: 1})
	r = kcgOn(t, e, "plan", g1, "--translate-from", alias, "--out", "-").MustCode(t, 0)
	for _, want := range []string{"has already committed on the target past its translation on " + topic + "-0",
		"has committed on the target on " + other + "-0, which have no checkpoint"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q: %q", want, r.Stderr)
		}
	}
	// show names the rewind again, for the reviewer who did not see
	// plan's stderr.
	rewind := dir + "/rewind.yaml"
	kcgOn(t, e, "plan", g1, "--translate-from", alias, "--out", rewind).MustCode(t, 0)
	r = kcg(t, "show", rewind).MustCode(t, 0)
	if want := "warning: the plan moves 1 partition back from a commit already made on the target (a rewind): " + g1 + " " + topic + "-0\n"; !strings.Contains(r.Stdout, want) {
		t.Errorf("show lacks %q:\n%s", want, r.Stdout)
	}
	// The target's records below g1's checkpoint (5) are deleted: the
	// target is the new log start, clamped-to-start.
	e.DeleteRecords(t, topic, map[int32]int64{0: 9})
	r = kcgOn(t, e, "plan", g1, "--translate-from", alias, "--out", "-").MustCode(t, 0)
	if want := "partition: 0, current: 8, target: 9, logStart: 9, logEnd: 10, reason: clamped-to-start, upstreamOffset: 120, checkpointTime: "; !strings.Contains(r.Stdout, want) {
		t.Errorf("plan lacks %q:\n%s", want, r.Stdout)
	}
	if want := "New offset (5) is lower than earliest offset for topic partition " + topic + "-0. Value will be set to 9."; !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q: %q", want, r.Stderr)
	}
}

// TestPlanTranslateFromBadTopic: an unknown version and a malformed record
// are bad input naming what and where; a missing topic is a refusal.
func TestPlanTranslateFromBadTopic(t *testing.T) {
	e := kafkatest.Cluster(t)
	dir := t.TempDir()
	alias := kafkatest.UniqueName(t, "src")
	g := kafkatest.UniqueName(t, "g")
	r := kcgOn(t, e, "plan", g, "--translate-from", alias, "--out", dir+"/p.yaml").MustCode(t, 3)
	oneLine(t, r.Stderr, "checkpoints topic "+alias+".checkpoints.internal does not exist on this cluster")

	cpTopic := kafkatest.UniqueName(t, "custom-checkpoints")
	e.CreateTopic(t, cpTopic, 1)
	key := string(mm2.EncodeKey(mm2.Key{Group: g, Topic: "t", Partition: 0}))
	e.Produce(t, cpTopic, 0, checkpoint(g, "t", 0, 1, 1, time.Now()),
		kafkatest.Record{Key: key, Value: string(mm2.EncodeValue(mm2.Value{Upstream: 1, Downstream: 1}, 3))})
	r = kcgOn(t, e, "plan", g, "--translate-from", alias, "--checkpoints-topic", cpTopic, "--out", dir+"/p.yaml").MustCode(t, 65)
	oneLine(t, r.Stderr, "checkpoints topic "+cpTopic+" partition 0 offset 1", "checkpoint value version 3 is not supported")

	bad := kafkatest.UniqueName(t, "bad-checkpoints")
	e.CreateTopic(t, bad, 1)
	e.Produce(t, bad, 0, kafkatest.Record{Key: "\x00\x05ab", Value: "x"})
	r = kcgOn(t, e, "plan", g, "--translate-from", alias, "--checkpoints-topic", bad, "--out", dir+"/p.yaml").MustCode(t, 65)
	oneLine(t, r.Stderr, "checkpoints topic "+bad+" partition 0 offset 0", "malformed checkpoint record")

	r = kcg(t, "plan", g, "--to-earliest", "--all-topics", "--checkpoints-topic", bad, "--out", dir+"/p.yaml").MustCode(t, 64)
	oneLine(t, r.Stderr, "--checkpoints-topic goes with --translate-from")

	// A checkpoint is the proof a group exists upstream: --allow-new-group
	// has no meaning here and is a usage error, not silently ignored.
	r = kcgOn(t, e, "plan", g, "--translate-from", alias, "--checkpoints-topic", cpTopic, "--allow-new-group", "--out", dir+"/new.yaml").MustCode(t, 64)
	oneLine(t, r.Stderr, "--translate-from plans the groups MirrorMaker 2 has checkpoints for: drop --allow-new-group")
	if _, err := os.Stat(dir + "/new.yaml"); err == nil {
		t.Error("a plan file was written")
	}
}

// TestShowTranslateFromSource: with the source cluster given, show counts
// the records the source group committed past each checkpoint and their
// time span; without it, it says that is unknown. (Source and target are
// one test cluster here: the remote topic is ALIAS.T, the source topic T.)
func TestShowTranslateFromSource(t *testing.T) {
	e := kafkatest.Cluster(t)
	dir := t.TempDir()
	alias := kafkatest.UniqueName(t, "src")
	srcTopic := kafkatest.UniqueName(t, "orders")
	remote := alias + "." + srcTopic
	base := time.Now().Add(-time.Minute).Truncate(time.Second)
	e.CreateTopic(t, srcTopic, 1)
	recs := records(10)
	for i := range recs {
		recs[i].Time = base.Add(time.Duration(i) * time.Second)
	}
	e.Produce(t, srcTopic, 0, recs...)
	e.CreateTopic(t, remote, 1)
	e.Produce(t, remote, 0, records(10)...)
	e.CreateTopic(t, alias+".checkpoints.internal", 1)
	g := kafkatest.UniqueName(t, "g")
	e.Produce(t, alias+".checkpoints.internal", 0, checkpoint(g, remote, 0, 5, 4, time.Now()))
	e.Commit(t, g, srcTopic, map[int32]int64{0: 8}) // the source group went on to 8

	out := dir + "/failover.yaml"
	kcgOn(t, e, "plan", g, "--translate-from", alias, "--out", out).MustCode(t, 0)
	r := kcg(t, "show", out).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "records consumed twice after failover: unknown") {
		t.Errorf("show without the source does not say it is unknown:\n%s", r.Stdout)
	}
	// upstream 5, source committed 8: records 5, 6, 7 are consumed twice,
	// written 2s apart from first to last.
	checkRow := func(how, stdout string) {
		t.Helper()
		var row string
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, g+" ") && strings.Contains(l, "Z ") { // the failover row: it has the checkpoint time
				row = l
			}
		}
		if f := strings.Fields(row); len(f) != 9 || f[3] != "5" || f[6] != "8" || f[7] != "3" || f[8] != "2s" {
			t.Fatalf("%s: failover row = %q, want upstream 5, source committed 8, 3 duplicates over 2s:\n%s", how, row, stdout)
		}
	}
	r = kcg(t, "show", out, "--source-bootstrap-server", e.Bootstrap).MustCode(t, 0)
	checkRow("--source-bootstrap-server", r.Stdout)
	// The source as a profile (here one for the same test cluster): the
	// same numbers, and the header names the profile.
	writeConfig(t, "profiles:\n  dr-source:\n    bootstrap: "+e.Bootstrap+"\n")
	r = kcg(t, "show", out, "--source-profile", "dr-source").MustCode(t, 0)
	checkRow("--source-profile", r.Stdout)
	if want := "the source cluster profile dr-source (" + e.Bootstrap + ") read now"; !strings.Contains(r.Stdout, want) {
		t.Errorf("show --source-profile lacks %q:\n%s", want, r.Stdout)
	}
	r = kcg(t, "show", out, "--source-profile", "no-such-profile").MustCode(t, 64)
	oneLine(t, r.Stderr, `no profile "no-such-profile"`, "known: dr-source")
	r = kcg(t, "show", out, "-o", "json", "--source-bootstrap-server", e.Bootstrap).MustCode(t, 64)
	oneLine(t, r.Stderr, "drop -o json")
}

// The schema's translate-from rules reject what Decode rejects: the
// checkpoint fields outside translate-from plans, a translate-from
// partition without them, reason translated elsewhere.
func TestTranslateFromSchemaRules(t *testing.T) {
	good, err := os.ReadFile("../resetplan/testdata/plan-translate-from.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schematest.CheckYAML(good); err != nil {
		t.Fatalf("the translate-from golden does not validate: %v", err)
	}
	line := `{topic: src.t, partition: 0, current: 5, target: 4, logStart: 0, logEnd: 6, reason: translated, upstreamOffset: 10, checkpointTime: "2026-11-29T07:09:00.123Z"}`
	for name, bad := range map[string]string{
		"fields in a to-earliest plan":     strings.Replace(strings.Replace(string(good), "{type: translate-from, alias: src, checkpointsTopic: src.checkpoints.internal}", "{type: to-earliest}", 1), "reason: translated", "reason: resolved", 1),
		"translated in a to-earliest plan": strings.Replace(string(good), "{type: translate-from, alias: src, checkpointsTopic: src.checkpoints.internal}", "{type: to-earliest}", 1),
		"no upstreamOffset":                strings.Replace(string(good), line, strings.Replace(line, ", upstreamOffset: 10", "", 1), 1),
		"no checkpointsTopic":              strings.Replace(string(good), ", checkpointsTopic: src.checkpoints.internal", "", 1),
	} {
		if bad == string(good) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if _, err := schematest.CheckYAML([]byte(bad)); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

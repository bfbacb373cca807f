package commands_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// deleteFixture is a topic of two partitions with records and a group
// that committed on both, plus a second topic it committed on once.
type deleteFixture struct {
	e             *kafkatest.Env
	topic, other  string
	group         string
	dir           string
	committedText string
}

func newDeleteFixture(t *testing.T) deleteFixture {
	e := kafkatest.Cluster(t)
	f := deleteFixture{e: e, topic: kafkatest.UniqueName(t, "t"), other: kafkatest.UniqueName(t, "o"), group: kafkatest.UniqueName(t, "g"), dir: t.TempDir()}
	e.CreateTopic(t, f.topic, 2)
	e.CreateTopic(t, f.other, 1)
	e.Produce(t, f.topic, 0, records(6)...)
	e.Produce(t, f.topic, 1, records(6)...)
	e.Produce(t, f.other, 0, records(3)...)
	e.Commit(t, f.group, f.topic, map[int32]int64{0: 3, 1: 5})
	e.Commit(t, f.group, f.other, map[int32]int64{0: 2})
	f.committedText = fmt.Sprint(e.Committed(t, f.group))
	return f
}

func (f deleteFixture) path(name string) string { return filepath.Join(f.dir, name) }

// listed reports whether the cluster lists group, read through kafkatest's
// own client (not kcg).
func listed(t *testing.T, e *kafkatest.Env, group string) bool {
	_, ok := e.GroupTypes(t)[group]
	return ok
}

func groupState(t *testing.T, f deleteFixture) string {
	t.Helper()
	d := parseDescribe(t, kcgOn(t, f.e, "describe", f.group, "-o", "json").MustCode(t, 0).Stdout)
	if len(d.Groups) != 1 || d.Groups[0].State == nil {
		t.Fatalf("describe %s: %+v", f.group, d)
	}
	return *d.Groups[0].State
}

// kcg plan --delete → show → diff → apply: the group is gone (kafkatest's
// client lists it no more and reads no offset); applying the rollback
// plan brings it back, Empty, at the same offsets.
func TestDeletePlanRoundTrip(t *testing.T) {
	f := newDeleteFixture(t)
	plan := f.path("delete.yaml")
	kcgOn(t, f.e, "plan", f.group, "--delete", "--out", plan).MustCode(t, 0)
	data, _ := os.ReadFile(plan)
	for _, want := range []string{"type: delete-group", "reason: delete-offset", "target: null"} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("plan lacks %q:\n%s", want, data)
		}
	}
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != f.committedText {
		t.Fatalf("planning wrote to Kafka: %s, was %s", c, f.committedText)
	}
	schematest.MustMatch(t, "OffsetResetPlan", string(data), true)
	schematest.MustMatch(t, "OffsetResetPlan", kcg(t, "show", plan, "-o", "json").MustCode(t, 0).Stdout, false)

	show := kcg(t, "show", plan).MustCode(t, 0).Stdout
	if !strings.Contains(show, "deletes 1 group, with the committed offsets of 3 partitions") {
		t.Fatalf("show:\n%s", show)
	}
	for _, want := range [][]string{{f.group, f.topic, "0", "3", "0", "6", "3"}, {f.group, f.topic, "1", "5", "0", "6", "1"}, {f.group, f.other, "0", "2", "0", "3", "1"}} {
		if !slices.ContainsFunc(rows(show, f.group), func(r []string) bool { return slices.Equal(r, want) }) {
			t.Fatalf("show lacks row %v:\n%s", want, show)
		}
	}
	diff := kcgOn(t, f.e, "diff", plan).MustCode(t, 0).Stdout
	if !strings.Contains(diff, f.topic) || !strings.Contains(diff, "delete") {
		t.Fatalf("diff:\n%s", diff)
	}

	rb := f.path("rb.yaml")
	r := kcgOn(t, f.e, "apply", plan, "--rollback-out", rb).MustCode(t, 0)
	if listed(t, f.e, f.group) || len(f.e.Committed(t, f.group)) != 0 {
		t.Fatalf("group still there after apply: %v\n%s", f.e.Committed(t, f.group), r.Stderr)
	}
	if !strings.Contains(r.Stderr, "1 group deleted, with 3 committed offsets; undo with kcg apply "+rb) {
		t.Fatalf("apply's last line:\n%s", r.Stderr)
	}
	rbData, _ := os.ReadFile(rb)
	schematest.MustMatch(t, "OffsetResetPlan", string(rbData), true)
	// Applying it again: already applied, exit 0.
	kcgOn(t, f.e, "apply", plan, "--rollback-out", f.path("rb2.yaml")).MustCode(t, 0)

	kcgOn(t, f.e, "apply", rb, "--rollback-out", f.path("rbrb.yaml")).MustCode(t, 0)
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != f.committedText {
		t.Fatalf("after the rollback: %s, want %s", c, f.committedText)
	}
	if !listed(t, f.e, f.group) {
		t.Fatal("the rollback did not bring the group back")
	}
	if st := groupState(t, f); st != "Empty" {
		t.Fatalf("state after the rollback %s, want Empty", st)
	}
}

// kcg plan --delete-offsets --topic T:0 → show → apply: only that offset
// goes; the rollback puts it back on its partition.
func TestDeleteOffsetsPlanRoundTrip(t *testing.T) {
	f := newDeleteFixture(t)
	plan := f.path("do.json")
	kcgOn(t, f.e, "plan", f.group, "--delete-offsets", "--topic", f.topic+":0", "--out", plan).MustCode(t, 0)
	show := kcg(t, "show", plan).MustCode(t, 0).Stdout
	if !strings.Contains(show, "deletes the committed offsets of 1 partition in 1 group") || len(rows(show, f.group)) != 1 {
		t.Fatalf("show:\n%s", show)
	}
	kcgOn(t, f.e, "diff", plan).MustCode(t, 0)
	data, _ := os.ReadFile(plan)
	schematest.MustMatch(t, "OffsetResetPlan", string(data), false)
	rb := f.path("rb.yaml")
	kcgOn(t, f.e, "apply", plan, "--rollback-out", rb).MustCode(t, 0)
	want := fmt.Sprint(map[string]map[int32]int64{f.topic: {1: 5}, f.other: {0: 2}})
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != want {
		t.Fatalf("after delete-offsets: %s, want %s", c, want)
	}
	kcgOn(t, f.e, "apply", rb, "--rollback-out", f.path("rbrb.yaml")).MustCode(t, 0)
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != f.committedText {
		t.Fatalf("after the rollback: %s, want %s", c, f.committedText)
	}

	// --all-topics: every offset of the group, the group stays.
	all := f.path("all.yaml")
	kcgOn(t, f.e, "plan", f.group, "--delete-offsets", "--all-topics", "--out", all).MustCode(t, 0)
	kcgOn(t, f.e, "apply", all, "--rollback-out", f.path("rb-all.yaml")).MustCode(t, 0)
	if c := f.e.Committed(t, f.group); len(c) != 0 {
		t.Fatalf("after delete-offsets --all-topics: %v", c)
	}
}

// The plan's usage errors, before any network.
func TestDeletePlanUsage(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "g", "--delete", "--topic", "t", "--out", "p.yaml"},
		{"plan", "g", "--delete-offsets", "--out", "p.yaml"},
		{"plan", "g", "--delete", "--delete-offsets", "--all-topics", "--out", "p.yaml"},
		{"plan", "g", "--delete", "--to-earliest", "--out", "p.yaml"},
		{"plan", "g", "--delete-offsets", "--all-topics", "--to-latest", "--out", "p.yaml"},
		{"plan", "g", "--delete", "--allow-new-group", "--out", "p.yaml"},
	} {
		r := kcg(t, append(args, "--bootstrap-server", "127.0.0.1:1")...).MustCode(t, 64)
		if strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Errorf("%v: not one line:\n%s", args, r.Stderr)
		}
	}
}

// apply refuses a stale delete plan (a new commit, a partition gained) and
// one whose group has an active member: exit 3, nothing deleted.
func TestDeletePlanRefusals(t *testing.T) {
	f := newDeleteFixture(t)
	plan := f.path("p.yaml")
	kcgOn(t, f.e, "plan", f.group, "--delete", "--out", plan).MustCode(t, 0)
	refused := func(what string) {
		t.Helper()
		before := fmt.Sprint(f.e.Committed(t, f.group))
		r := kcgOn(t, f.e, "apply", plan, "--rollback-out", f.path(what+".rb.yaml")).MustCode(t, 3)
		if c := fmt.Sprint(f.e.Committed(t, f.group)); c != before || !listed(t, f.e, f.group) {
			t.Fatalf("%s: something was deleted: %s, was %s", what, c, before)
		}
		if _, err := os.Stat(f.path(what + ".rb.yaml")); err == nil {
			t.Fatalf("%s: a rollback plan was written for a refused apply", what)
		}
		if !strings.Contains(r.Stderr, "nothing was written") {
			t.Fatalf("%s:\n%s", what, r.Stderr)
		}
	}
	// Committed since the plan.
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 4})
	refused("moved")
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 3})

	// Gained a partition: the plan does not list it, its rollback would
	// not restore it.
	third := kafkatest.UniqueName(t, "n")
	f.e.CreateTopic(t, third, 1)
	f.e.Produce(t, third, 0, records(2)...)
	f.e.Commit(t, f.group, third, map[int32]int64{0: 1})
	refused("gained")
	kcgOn(t, f.e, "delete-offsets", "--yes", f.group, "--topic", third).MustCode(t, 0)

	// Lost a partition (its offset deleted since the plan).
	kcgOn(t, f.e, "delete-offsets", "--yes", f.group, "--topic", f.other).MustCode(t, 0)
	refused("lost")
	f.e.Commit(t, f.group, f.other, map[int32]int64{0: 2})

	// An active member.
	m := f.e.ClassicMember(t, f.group, f.topic)
	refused("active")
	m.Stop()
}

var undoRE = regexp.MustCompile(`(?m)undo plan written to (\S+): kcg apply \S+ re-commits the offsets deleted now$`)

// kcg delete: without a terminal it needs --yes (64, nothing deleted);
// --dry-run prints what would go and deletes nothing; with --yes it writes
// the undo plan first, names it on stderr, and the undo plan brings the
// group back at the same offsets. On a terminal it asks: anything but y
// keeps the group (exit 1).
func TestDeleteShortcutGate(t *testing.T) {
	f := newDeleteFixture(t)
	r := kcgOn(t, f.e, "delete", f.group).MustCode(t, 64)
	if !strings.Contains(r.Stderr, "--yes") || !listed(t, f.e, f.group) {
		t.Fatalf("without --yes:\n%s", r.Stderr)
	}
	kcgOn(t, f.e, "delete-offsets", f.group, "--topic", f.topic).MustCode(t, 64)

	undoDir := os.Getenv("KCG_UNDO_DIR")
	entries := func() int { es, _ := os.ReadDir(undoDir); return len(es) }
	n := entries()
	r = kcgOn(t, f.e, "delete", f.group, "--dry-run").MustCode(t, 0)
	if len(rows(r.Stdout, f.group)) != 3 || entries() != n || !listed(t, f.e, f.group) || fmt.Sprint(f.e.Committed(t, f.group)) != f.committedText {
		t.Fatalf("--dry-run deleted, wrote an undo plan, or did not show the group:\n%s\n%s", r.Stdout, r.Stderr)
	}
	r = kcgOn(t, f.e, "delete", f.group, "--dry-run", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "OffsetResetPlan", r.Stdout, false)
	if !strings.Contains(r.Stdout, `"type": "delete-group"`) || entries() != n {
		t.Fatalf("--dry-run -o json:\n%s", r.Stdout)
	}
	r = kcgOn(t, f.e, "delete-offsets", f.group, "--topic", f.topic+":1", "--dry-run").MustCode(t, 0)
	if got := rows(r.Stdout, f.group); len(got) != 1 || got[0][1] != f.topic || got[0][2] != "1" || got[0][3] != "5" {
		t.Fatalf("delete-offsets --dry-run:\n%s", r.Stdout)
	}

	// On a terminal: the answer decides.
	for _, no := range []string{"", "n\n", "yep\n"} {
		r = clitest.RunTTY(t, no, "delete", f.group, "--bootstrap-server", f.e.Bootstrap).MustCode(t, 1)
		if !strings.Contains(r.Stderr, "[y/N]") || !strings.Contains(r.Stderr, "nothing was deleted") || !listed(t, f.e, f.group) || entries() != n {
			t.Fatalf("answer %q:\n%s", no, r.Stderr)
		}
	}
	r = clitest.RunTTY(t, "y\n", "delete-offsets", f.group, "--topic", f.other, "--bootstrap-server", f.e.Bootstrap).MustCode(t, 0)
	if !strings.Contains(r.Stderr, f.other) || len(f.e.Committed(t, f.group)[f.other]) != 0 {
		t.Fatalf("answer y:\n%s", r.Stderr)
	}
	m := undoRE.FindStringSubmatch(r.Stderr)
	if m == nil {
		t.Fatalf("no undo plan named:\n%s", r.Stderr)
	}
	kcgOn(t, f.e, "apply", m[1], "--rollback-out", f.path("u1.yaml")).MustCode(t, 0)
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != f.committedText {
		t.Fatalf("after the delete-offsets undo plan: %s, want %s", c, f.committedText)
	}

	r = kcgOn(t, f.e, "delete", "--yes", f.group).MustCode(t, 0)
	m = undoRE.FindStringSubmatch(r.Stderr)
	if m == nil || listed(t, f.e, f.group) {
		t.Fatalf("delete --yes:\n%s", r.Stderr)
	}
	if filepath.Dir(m[1]) != filepath.Clean(undoDir) || !strings.HasPrefix(filepath.Base(m[1]), "kcg-delete-group-undo-") {
		t.Fatalf("undo plan %s, want kcg-delete-group-undo-* in %s", m[1], undoDir)
	}
	kcgOn(t, f.e, "apply", m[1], "--rollback-out", f.path("u2.yaml")).MustCode(t, 0)
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != f.committedText || groupState(t, f) != "Empty" {
		t.Fatalf("after the delete undo plan: %s, want %s", c, f.committedText)
	}
}

// Without KCG_UNDO_DIR the undo plan goes into the current directory, and
// two deletes in one second get two names.
func TestDeleteUndoInCurrentDirectory(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(3)...)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("KCG_UNDO_DIR", "")
	var names []string
	for i := range 2 {
		g := kafkatest.UniqueName(t, fmt.Sprintf("g%d", i))
		e.Commit(t, g, topic, map[int32]int64{0: 2})
		r := kcgOn(t, e, "delete", "--yes", g).MustCode(t, 0)
		m := undoRE.FindStringSubmatch(r.Stderr)
		if m == nil || filepath.Dir(m[1]) != "." {
			t.Fatalf("undo plan not in the current directory:\n%s", r.Stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Fatal(err)
		}
		names = append(names, m[1])
	}
	if names[0] == names[1] {
		t.Fatalf("two undo plans, one name: %v", names)
	}
}

// A consumer-protocol (KIP-848) group: planned, deleted and brought back
// like a classic one.
func TestDeletePlanConsumerProtocolGroup(t *testing.T) {
	f := newDeleteFixture(t)
	g := kafkatest.UniqueName(t, "kip848")
	f.e.ConsumerProtocolMember(t, g, f.topic).Stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		d := parseDescribe(t, kcgOn(t, f.e, "describe", g, "-o", "json").Stdout)
		if len(d.Groups) == 1 && d.Groups[0].State != nil && *d.Groups[0].State == "Empty" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s never became Empty: %+v", g, d)
		}
		time.Sleep(200 * time.Millisecond)
	}
	f.e.Commit(t, g, f.topic, map[int32]int64{0: 2, 1: 4})
	want := fmt.Sprint(f.e.Committed(t, g))
	plan, rb := f.path("848.yaml"), f.path("848.rb.yaml")
	kcgOn(t, f.e, "plan", g, "--delete", "--out", plan).MustCode(t, 0)
	if data, _ := os.ReadFile(plan); !strings.Contains(string(data), "type: consumer") {
		t.Fatalf("not planned as a consumer group:\n%s", data)
	}
	kcgOn(t, f.e, "apply", plan, "--rollback-out", rb).MustCode(t, 0)
	if listed(t, f.e, g) || len(f.e.Committed(t, g)) != 0 {
		t.Fatalf("%s still there", g)
	}
	kcgOn(t, f.e, "apply", rb, "--rollback-out", f.path("848.rbrb.yaml")).MustCode(t, 0)
	if got := fmt.Sprint(f.e.Committed(t, g)); got != want || !listed(t, f.e, g) {
		t.Fatalf("after the rollback %s, want %s", got, want)
	}
	t.Logf("type after the rollback: %s", f.e.GroupTypes(t)[g])
}

// kcg delete of an idle and an active group: Kafka refuses the active
// one, and the undo plan is rewritten without it, so that applying it
// brings the idle group back instead of being refused as stale. A
// delete-offsets refused for a group subscribed to the topic deleted
// nothing: its undo plan is removed.
func TestDeleteUndoLeavesOutRefused(t *testing.T) {
	f := newDeleteFixture(t)
	active := kafkatest.UniqueName(t, "active")
	f.e.Commit(t, active, f.topic, map[int32]int64{0: 1})
	f.e.ClassicMember(t, active, f.topic)
	r := kcgOn(t, f.e, "delete", "--yes", f.group, active).MustCode(t, 1)
	m := undoRE.FindStringSubmatch(r.Stderr)
	if m == nil || !strings.Contains(r.Stderr, "undo plan "+m[1]+" rewritten: it restores only what was deleted") {
		t.Fatalf("undo plan not named or not rewritten:\n%s", r.Stderr)
	}
	if data, _ := os.ReadFile(m[1]); strings.Contains(string(data), active) {
		t.Fatalf("the undo plan names the group that was not deleted:\n%s", data)
	}
	kcgOn(t, f.e, "apply", m[1], "--rollback-out", f.path("u.yaml")).MustCode(t, 0)
	if c := fmt.Sprint(f.e.Committed(t, f.group)); c != f.committedText {
		t.Fatalf("after the undo plan: %s, want %s", c, f.committedText)
	}

	if !f.e.Real {
		// kfake lets OffsetDelete through for a subscribed group.
		return
	}
	r = kcgOn(t, f.e, "delete-offsets", "--yes", active, "--topic", f.topic+":0").MustCode(t, 1)
	// Nothing was deleted: the undo plan goes (issue 30 item 10).
	m = undoRE.FindStringSubmatch(r.Stderr)
	if m == nil || !strings.Contains(r.Stderr, "undo plan "+m[1]+" removed: no committed offset was deleted") {
		t.Fatalf("delete-offsets: undo plan not removed:\n%s", r.Stderr)
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Fatalf("the undo plan of a delete that deleted nothing is still there: %v", err)
	}
}

// typist is a terminal's stdin: the n-th read (from 0) is the n-th answer,
// typed by answer(n) while the question is on screen, so that it can
// change the cluster first.
type typist struct {
	n      int
	answer func(n int) string
}

func (r *typist) Read(p []byte) (int, error) {
	a := r.answer(r.n)
	r.n++
	return copy(p, a), nil
}

// runTyped runs kcg as clitest.RunTTY does, with stdin the typist.
func runTyped(ctx context.Context, answer func(n int) string, args ...string) clitest.Result {
	var out, errb bytes.Buffer
	code := commands.Run(ctx, append([]string{"kcg"}, args...), commands.IO{
		In: &typist{answer: answer}, InTTY: true, Out: &out, Err: &errb,
	})
	return clitest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// undoFiles lists the undo plans in dir.
func undoFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "kcg-*-undo-*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Issue 30 item 1: kcg delete and delete-offsets answer for what the
// question showed. An offset committed and a topic first committed while
// the question is on screen: after the yes the groups are read again, the
// new table is shown and the question asked again; the undo plan then
// restores what was deleted (apply brings back the offsets of the moment
// of the delete, not those shown first). A no to the second question
// deletes nothing.
func TestDeleteAsksAgainWhenOffsetsMove(t *testing.T) {
	f := newDeleteFixture(t)
	dir := t.TempDir()
	t.Setenv("KCG_UNDO_DIR", dir)
	late := kafkatest.UniqueName(t, "late")
	f.e.CreateTopic(t, late, 1)
	f.e.Produce(t, late, 0, records(4)...)

	var during string
	r := runTyped(t.Context(), func(n int) string {
		if n == 0 {
			f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 5})
			f.e.Commit(t, f.group, late, map[int32]int64{0: 2})
			during = fmt.Sprint(f.e.Committed(t, f.group))
		}
		return "y\n"
	}, "delete", f.group, "--bootstrap-server", f.e.Bootstrap).MustCode(t, 0)
	if got := strings.Count(r.Stderr, "[y/N]"); got != 2 || !strings.Contains(r.Stderr, "changed while the question was on screen (2 changes)") {
		t.Fatalf("asked %d times, want 2 (the second after the change):\n%s", got, r.Stderr)
	}
	second := r.Stderr[strings.Index(r.Stderr, "changed while"):]
	if got := rows(second, f.group); len(got) != 4 || !strings.Contains(second, late) {
		t.Fatalf("the second table does not show the offsets read after the answer:\n%s", second)
	}
	if listed(t, f.e, f.group) {
		t.Fatalf("%s not deleted:\n%s", f.group, r.Stderr)
	}
	m := undoRE.FindStringSubmatch(r.Stderr)
	if m == nil || len(undoFiles(t, dir)) != 1 {
		t.Fatalf("not one undo plan named:\n%s", r.Stderr)
	}
	kcgOn(t, f.e, "apply", m[1], "--rollback-out", f.path("u.yaml")).MustCode(t, 0)
	if got := fmt.Sprint(f.e.Committed(t, f.group)); got != during {
		t.Fatalf("the undo plan restored %s, want what was deleted: %s", got, during)
	}

	// delete-offsets: an offset of the scope committed during the
	// question, then no: nothing deleted, no undo plan.
	r = runTyped(t.Context(), func(n int) string {
		if n == 0 {
			f.e.Commit(t, f.group, f.topic, map[int32]int64{1: 6})
			return "y\n"
		}
		return "n\n"
	}, "delete-offsets", f.group, "--topic", f.topic, "--bootstrap-server", f.e.Bootstrap).MustCode(t, 1)
	if strings.Count(r.Stderr, "[y/N]") != 2 || len(undoFiles(t, dir)) != 1 || f.e.Committed(t, f.group)[f.topic][1] != 6 {
		t.Fatalf("delete-offsets, no to the second question: deleted or wrote an undo plan:\n%s", r.Stderr)
	}
	// Unchanged after the yes: asked once, and the undo plan holds the
	// offsets read last.
	r = runTyped(t.Context(), func(int) string { return "y\n" },
		"delete-offsets", f.group, "--topic", f.topic+":1", "--bootstrap-server", f.e.Bootstrap).MustCode(t, 0)
	m = undoRE.FindStringSubmatch(r.Stderr)
	if strings.Count(r.Stderr, "[y/N]") != 1 || m == nil {
		t.Fatalf("delete-offsets, nothing changed:\n%s", r.Stderr)
	}
	if data, _ := os.ReadFile(m[1]); !strings.Contains(string(data), "target: 6") {
		t.Fatalf("the undo plan does not re-commit 6:\n%s", data)
	}
}

// Issue 30 item 1: Ctrl-C at the question (the context cancelled while
// stdin is read, then a y typed) ends the command with 130 and `kcg:
// interrupted`: nothing deleted, no undo plan. Before, the read ignored
// it and the y wrote an undo plan for a delete that never happened.
func TestDeleteInterruptedAtQuestion(t *testing.T) {
	f := newDeleteFixture(t)
	dir := t.TempDir()
	t.Setenv("KCG_UNDO_DIR", dir)
	for _, args := range [][]string{{"delete", f.group}, {"delete-offsets", f.group, "--topic", f.topic}} {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		r := runTyped(ctx, func(int) string { cancel(); return "y\n" }, append(args, "--bootstrap-server", f.e.Bootstrap)...)
		cancel()
		if r.Code != 130 || lastLine(r.Stderr) != "kcg: interrupted" {
			t.Fatalf("%s: exit %d, want 130 and kcg: interrupted:\n%s", args[0], r.Code, r.Stderr)
		}
		if undoRE.MatchString(r.Stderr) || len(undoFiles(t, dir)) != 0 || fmt.Sprint(f.e.Committed(t, f.group)) != f.committedText {
			t.Fatalf("%s: deleted or wrote an undo plan after Ctrl-C:\n%s", args[0], r.Stderr)
		}
	}
}

// Ctrl-C pressed at the question of the built binary in a real terminal
// (tmux): exit 130, the group still there, no undo plan.
func TestDeleteCtrlCAtQuestionInTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kcg binary")
	}
	tm := newTmux(t)
	f := newDeleteFixture(t)
	undo := t.TempDir()
	bin := filepath.Join(buildKCG(t), "kcg")
	code := filepath.Join(t.TempDir(), "code")
	script := fmt.Sprintf("KCG_UNDO_DIR=%q %q delete %q --bootstrap-server %q; echo $? >%q; sleep 600", undo, bin, f.group, f.e.Bootstrap, code)
	tm.run("new-session", "-d", "-s", "del", "-x", "200", "-y", "50", "bash", "--noprofile", "--norc", "-c", script)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(strings.Join(tm.capture("del", false), "\n"), "[y/N]") {
		if time.Now().After(deadline) {
			t.Fatalf("no question in 30s:\n%s", strings.Join(tm.capture("del", false), "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	tm.run("send-keys", "-t", "del", "C-c")
	var got []byte
	for deadline = time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(code); err == nil && len(b) > 0 {
			got = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kcg still at the question 15s after Ctrl-C:\n%s", strings.Join(tm.capture("del", false), "\n"))
		}
	}
	screen := strings.Join(tm.capture("del", false), "\n")
	if strings.TrimSpace(string(got)) != "130" || !strings.Contains(screen, "\nkcg: interrupted") {
		t.Fatalf("exit %s after Ctrl-C, want 130 and kcg: interrupted on a line of its own:\n%s", got, screen)
	}
	if !listed(t, f.e, f.group) || fmt.Sprint(f.e.Committed(t, f.group)) != f.committedText || len(undoFiles(t, undo)) != 0 {
		t.Fatalf("deleted or wrote an undo plan after Ctrl-C:\n%s", screen)
	}
}

// Issue 30 item 10: a group the cluster does not have is refused as plan
// --delete refuses it: exit 3, the closest names, nothing deleted (an
// existing group named beside it included), no undo plan, with --dry-run
// too. The drop-in keeps the Java tool's output for it, and writes no undo
// plan when no committed offset is deleted.
func TestDeleteMissingGroupRefused(t *testing.T) {
	f := newDeleteFixture(t)
	dir := t.TempDir()
	t.Setenv("KCG_UNDO_DIR", dir)
	typo := f.group[:len(f.group)-1]
	for _, args := range [][]string{
		{"delete", typo, "--dry-run"},
		{"delete", typo, "--yes"},
		{"delete", f.group, typo, "--yes"},
		{"delete-offsets", typo, "--topic", f.topic, "--yes"},
		{"delete-offsets", typo, "--topic", f.topic, "--dry-run"},
	} {
		r := kcgOn(t, f.e, args...).MustCode(t, 3)
		// The closest name first (a real broker has other runs' groups).
		want := fmt.Sprintf("kcg: group %q does not exist (closest: %s", typo, f.group)
		if !strings.HasPrefix(r.Stderr, want) || !strings.HasSuffix(r.Stderr, "); check the name; nothing was deleted\n") ||
			strings.Count(r.Stderr, "\n") != 1 || r.Stdout != "" {
			t.Fatalf("%q: stderr %q, want one line %q…; stdout %q", args, r.Stderr, want, r.Stdout)
		}
	}
	if !listed(t, f.e, f.group) || fmt.Sprint(f.e.Committed(t, f.group)) != f.committedText || len(undoFiles(t, dir)) != 0 {
		t.Fatalf("a refused delete deleted %s or wrote an undo plan", f.group)
	}

	// The drop-in: Java's text and exit code (1) for the missing group,
	// and no undo plan.
	r := kcg(t, "--bootstrap-server", f.e.Bootstrap, "--delete", "--group", typo).MustCode(t, 1)
	if !strings.Contains(r.Stdout, "* Group '"+typo+"' could not be deleted due to: org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.") ||
		undoRE.MatchString(r.Stderr) || len(undoFiles(t, dir)) != 0 {
		t.Fatalf("drop-in --delete of a missing group:\nstdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	r = kcg(t, "--bootstrap-server", f.e.Bootstrap, "--delete-offsets", "--group", typo, "--topic", f.topic).MustCode(t, 1)
	if undoRE.MatchString(r.Stderr) || len(undoFiles(t, dir)) != 0 {
		t.Fatalf("drop-in --delete-offsets of a missing group wrote an undo plan:\n%s", r.Stderr)
	}
	// Beside an existing group: the undo plan names only that one.
	r = kcg(t, "--bootstrap-server", f.e.Bootstrap, "--delete", "--group", typo, "--group", f.group).MustCode(t, 1)
	files := undoFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("undo plans %v:\n%s", files, r.Stderr)
	}
	if data, _ := os.ReadFile(files[0]); strings.Contains(string(data), "group: "+typo+"\n") {
		t.Fatalf("the undo plan names the missing group:\n%s", data)
	}
	kcgOn(t, f.e, "apply", files[0], "--rollback-out", f.path("u.yaml")).MustCode(t, 0)
	if got := fmt.Sprint(f.e.Committed(t, f.group)); got != f.committedText {
		t.Fatalf("after the undo plan %s, want %s", got, f.committedText)
	}
}

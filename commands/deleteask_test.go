package commands_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

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
	code := commands.Run(ctx, append([]string{"kcg"}, args...), commands.Streams{
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
		want := fmt.Sprintf("kcg: group %q does not exist (closest: %s); check the name; nothing was deleted\n", typo, f.group)
		if r.Stderr != want || r.Stdout != "" {
			t.Fatalf("%q: stderr %q, want %q; stdout %q", args, r.Stderr, want, r.Stdout)
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

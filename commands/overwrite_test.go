package commands_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// oneLine fails unless s is one line naming every word in want.
func oneLine(t *testing.T, s string, want ...string) {
	t.Helper()
	if strings.Count(strings.TrimSpace(s), "\n") != 0 {
		t.Fatalf("not one line: %q", s)
	}
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("%q does not name %q", s, w)
		}
	}
}

// plan --out refuses an existing file (exit 64, naming --overwrite) and
// leaves it as it was; --overwrite replaces it.
func TestPlanOutRefusesExistingFile(t *testing.T) {
	f := newResetFixture(t)
	out := f.path("reset.yaml")
	if err := os.WriteFile(out, []byte("reviewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-earliest", "--out", out).MustCode(t, 64)
	oneLine(t, r.Stderr, out, "--overwrite")
	if got := mustRead(t, out); got != "reviewed\n" {
		t.Fatalf("plan overwrote %s: %q", out, got)
	}
	kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-earliest", "--out", out, "--overwrite").MustCode(t, 0)
	if got := mustRead(t, out); !strings.Contains(got, "kind: OffsetResetPlan") {
		t.Fatalf("--overwrite did not write the plan:\n%s", got)
	}
	if left, _ := filepath.Glob(f.path(".*tmp*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// apply --rollback-out refuses an existing file, the plan itself included:
// exit 64, the file untouched, nothing written to Kafka.
func TestApplyRollbackOutRefusesExistingFile(t *testing.T) {
	f := newResetFixture(t)
	plan := f.path("reset.yaml")
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-earliest")
	reviewed := mustRead(t, plan)
	notes := f.path("notes.txt")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{plan, notes} {
		before := mustRead(t, target)
		r := kcgOn(t, f.e, "apply", plan, "--rollback-out", target).MustCode(t, 64)
		oneLine(t, r.Stderr, target, "--rollback-out")
		if got := mustRead(t, target); got != before {
			t.Fatalf("apply overwrote %s:\n%s", target, got)
		}
		f.mustCommitted(t, map[int32]int64{0: 5})
	}
	if mustRead(t, plan) != reviewed {
		t.Fatal("the reviewed plan changed")
	}
	// A new file is fine.
	rb := f.path("undo.yaml")
	kcgOn(t, f.e, "apply", plan, "--rollback-out", rb).MustCode(t, 0)
	if !strings.Contains(mustRead(t, rb), "kind: OffsetResetPlan") {
		t.Fatal("no rollback plan")
	}
	f.mustCommitted(t, map[int32]int64{0: 0, 1: 0})
}

var rollbackNameRE = regexp.MustCompile(`rollback plan written to (\S+)`)

// The default rollback name never nests, and the chain shows: the
// rollback of X.yaml is X.rollback-<stamp>.yaml, the rollback of that (a
// redo of X) X.rollback2-<stamp>.yaml, then X.rollback3-<stamp>.yaml (an
// undo again). Each is applied at once, as `apply P -o json | jq -r
// .rollbackPlan | xargs kcg apply` does, most often in the same second:
// a rollback's own rollback never has its name, so undo always works
// (issue 20 §2.5). An existing default name is refused before anything is
// written to Kafka (below).
func TestApplyDefaultRollbackNameNeverNests(t *testing.T) {
	f := newResetFixture(t)
	plan := f.path("reset.yaml")
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-earliest")
	r := kcgOn(t, f.e, "apply", plan, "-o", "json").MustCode(t, 0)
	var report struct {
		RollbackPlan string `json:"rollbackPlan"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil {
		t.Fatal(err)
	}
	rb1 := report.RollbackPlan
	stamped := regexp.MustCompile(`^` + regexp.QuoteMeta(f.path("reset")) + `\.rollback-[0-9]{8}T[0-9]{6}Z\.yaml$`)
	if !stamped.MatchString(rb1) {
		t.Fatalf("rollback name %s", rb1)
	}
	if m := rollbackNameRE.FindStringSubmatch(r.Stderr); m == nil || m[1] != rb1 {
		t.Fatalf("stderr %q names %v, the report %s", r.Stderr, m, rb1)
	}
	prev := rb1
	for _, step := range []struct {
		gen  string
		want map[int32]int64
	}{{"2", map[int32]int64{0: 5}}, {"3", map[int32]int64{0: 0, 1: 0}}} {
		r = kcgOn(t, f.e, "apply", prev)
		r.MustCode(t, 0)
		f.mustCommitted(t, step.want)
		m := rollbackNameRE.FindStringSubmatch(r.Stderr)
		genRE := regexp.MustCompile(`^` + regexp.QuoteMeta(f.path("reset")) + `\.rollback` + step.gen + `-[0-9]{8}T[0-9]{6}Z\.yaml$`)
		if m == nil || !genRE.MatchString(m[1]) || m[1] == prev || stamped.MatchString(m[1]) {
			t.Fatalf("rollback of %s named %v, want generation %s", prev, m, step.gen)
		}
		prev = m[1]
	}
}

// An existing default rollback name is refused (exit 64), never
// overwritten, and nothing is written to Kafka.
func TestApplyRefusesExistingDefaultRollbackName(t *testing.T) {
	f := newResetFixture(t)
	plan := f.path("reset.yaml")
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-earliest")
	now := time.Now().UTC()
	var taken []string
	for i := -1; i < 30; i++ {
		p := f.path("reset.rollback-" + now.Add(time.Duration(i)*time.Second).Format("20060102T150405Z") + ".yaml")
		if err := os.WriteFile(p, []byte("earlier\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		taken = append(taken, p)
	}
	r := kcgOn(t, f.e, "apply", plan).MustCode(t, 64)
	oneLine(t, r.Stderr, "exists", "--rollback-out", "nothing was written")
	f.mustCommitted(t, map[int32]int64{0: 5})
	for _, p := range taken {
		if mustRead(t, p) != "earlier\n" {
			t.Fatalf("%s overwritten", p)
		}
	}
}

// plan --out and approve --out never write over a name that is not a
// regular file, --overwrite or not: a symbolic link, a FIFO (never
// opened: that would wait for a reader), a device node (as root
// `--out /dev/full --overwrite` turned /dev/full into a regular file).
// Exit 64, one line naming the file and what it is, and no advice to give
// --overwrite, which cannot help (issue 30 item 2).
func TestOutRefusesWhatIsNotARegularFile(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reviewed.yaml", f.group, "--topic", f.topic, "--to-earliest")
	rv := newReviewer(t, f.dir, "erin@example.com", "ed25519")
	kinds := map[string]string{}
	if err := os.WriteFile(f.path("target.yaml"), []byte("target\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.path("target.yaml"), f.path("link.yaml")); err == nil {
		kinds[f.path("link.yaml")] = "symbolic link"
	}
	if err := syscall.Mkfifo(f.path("fifo.yaml"), 0o644); err == nil {
		kinds[f.path("fifo.yaml")] = "FIFO"
	}
	// /dev/null's numbers: harmless should a broken kcg write to it.
	if err := syscall.Mknod(f.path("null.yaml"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		kinds[f.path("null.yaml")] = "character device"
	} else {
		t.Logf("no device node here (not root?): %v", err)
	}
	for path, kind := range kinds {
		before, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"plan", f.group, "--topic", f.topic, "--to-earliest", "--out", path, "--overwrite", "--bootstrap-server", f.e.Bootstrap},
			{"plan", f.group, "--topic", f.topic, "--to-earliest", "--out", path, "--bootstrap-server", f.e.Bootstrap},
			{"approve", f.path("reviewed.yaml"), "--key", rv.key, "--out", path, "--overwrite"},
			{"approve", f.path("reviewed.yaml"), "--key", rv.key, "--out", path},
		} {
			done := make(chan struct {
				code   int
				stderr string
			}, 1)
			go func() {
				r := kcg(t, args...)
				done <- struct {
					code   int
					stderr string
				}{r.Code, r.Stderr}
			}()
			select {
			case r := <-done:
				if r.code != 64 || strings.Contains(r.stderr, "give --overwrite") {
					t.Errorf("kcg %s: exit %d, stderr %q; want 64 and no advice to give --overwrite", strings.Join(args, " "), r.code, r.stderr)
				}
				oneLine(t, r.stderr, path, kind, "not a regular file")
			case <-time.After(30 * time.Second):
				t.Fatalf("kcg %s still running after 30s (opened the FIFO?)", strings.Join(args, " "))
			}
			after, err := os.Lstat(path)
			if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Fatalf("kcg %s replaced the %s %s: %v (%v)", strings.Join(args, " "), kind, path, after, err)
			}
		}
	}
	if got := mustRead(t, f.path("target.yaml")); got != "target\n" {
		t.Errorf("the link's target was written: %q", got)
	}
}

package commands_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// manyGroups is n groups committed on a 2-partition topic of 20 records:
// group i at 10+i%5 on partition 0 and 3 on partition 1.
type manyGroups struct {
	e      *kafkatest.Env
	topic  string
	groups []string
	dir    string
}

func newManyGroups(t *testing.T, e *kafkatest.Env, n int) *manyGroups {
	f := &manyGroups{e: e, topic: kafkatest.UniqueName(t, "t"), dir: t.TempDir()}
	e.CreateTopic(t, f.topic, 2)
	e.Produce(t, f.topic, 0, records(20)...)
	e.Produce(t, f.topic, 1, records(20)...)
	base := kafkatest.UniqueName(t, "g")
	for i := range n {
		g := fmt.Sprintf("%s-%03d", base, i)
		f.groups = append(f.groups, g)
		e.Commit(t, g, f.topic, f.before(i))
	}
	return f
}

func (f *manyGroups) before(i int) map[int32]int64 { return map[int32]int64{0: int64(10 + i%5), 1: 3} }

func (f *manyGroups) path(name string) string { return filepath.Join(f.dir, name) }

// plan makes a --to-offset 1 plan of every group.
func (f *manyGroups) plan(t *testing.T) string {
	t.Helper()
	p := f.path("p.yaml")
	kcgOn(t, f.e, append([]string{"plan", "--topic", f.topic, "--to-offset", "1", "--out", p}, f.groups...)...).MustCode(t, 0)
	return p
}

// recordStarts makes apply record the groups it starts (in the order it
// starts them) and calls also, when set, with each one's position.
func recordStarts(t *testing.T, also func(n int, group string)) (started func() []string) {
	var mu sync.Mutex
	var order []string
	restore := commands.SetBeforeGroupCommit(func(g string) {
		mu.Lock()
		order = append(order, g)
		n := len(order)
		mu.Unlock()
		if also != nil {
			also(n, g)
		}
	})
	t.Cleanup(restore)
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), order...)
	}
}

// checkReportHeld fails unless every partition of the report says what the
// broker holds: written at the target 1, not-written at its old offset.
// It returns the groups reported written and not written.
func (f *manyGroups) checkReportHeld(t *testing.T, rep applyReport) (written, notWritten map[string]bool) {
	t.Helper()
	written, notWritten = map[string]bool{}, map[string]bool{}
	if len(rep.Groups) != len(f.groups) {
		t.Fatalf("report has %d groups, want %d", len(rep.Groups), len(f.groups))
	}
	for i, g := range rep.Groups {
		if g.Group != f.groups[i] {
			t.Fatalf("report group %d is %s, want %s (plan order)", i, g.Group, f.groups[i])
		}
		held := f.e.Committed(t, g.Group)[f.topic]
		for _, p := range g.Partitions {
			h := held[p.Partition]
			switch {
			case p.Result == "written" && g.Result == "written":
				if p.After == nil || *p.After != 1 || h != 1 {
					t.Fatalf("%s/%d reported written (after %v), holds %d", g.Group, p.Partition, p.After, h)
				}
			case p.Result == "not-written" && g.Result == "not-written":
				if want := f.before(i)[p.Partition]; h != want || p.Before == nil || *p.Before != want || p.After == nil || *p.After != want {
					t.Fatalf("%s/%d reported not-written (before %v, after %v), holds %d, had %d", g.Group, p.Partition, p.Before, p.After, h, want)
				}
			default:
				t.Fatalf("%s: group %s, partition %d %s", g.Group, g.Result, p.Partition, p.Result)
			}
		}
		if g.Result == "written" {
			written[g.Group] = true
		} else {
			notWritten[g.Group] = true
		}
	}
	return written, notWritten
}

// A failure in the middle of a parallel apply: the failed group is not
// written, every group started before it (plan order) is, no group starts
// once the failure is seen, and the report matches, partition by
// partition, the offsets read back from the broker; the rollback plan,
// written before the first commit, restores every group. kfake on both
// tiers (the failure is injected).
func TestApplyParallelFailureInTheMiddle(t *testing.T) {
	e := kafkatest.Fake(t)
	f := newManyGroups(t, e, 120)
	plan := f.plan(t)
	bad := f.groups[20]
	h := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Group: bad, Err: kerr.UnknownServerError, Count: -1})
	defer h.Remove()
	started := recordStarts(t, nil)
	r := kcgOn(t, e, "apply", plan, "--rollback-out", f.path("rb.yaml"), "-o", "json").MustCode(t, 4)
	h.Remove()
	rep := parseApplyReport(t, r.Stdout)
	if rep.Result != "partial" {
		t.Fatalf("result %s", rep.Result)
	}
	written, notWritten := f.checkReportHeld(t, rep)
	startedSet := map[string]bool{}
	for _, g := range started() {
		startedSet[g] = true
	}
	for i, g := range f.groups {
		switch {
		case g == bad:
			if !notWritten[g] || !startedSet[g] {
				t.Fatalf("the failed group %s: started %v, written %v", g, startedSet[g], written[g])
			}
		case i < 20 && !written[g]:
			t.Fatalf("%s, started before the failed group, is not written", g)
		case startedSet[g] != written[g]:
			t.Fatalf("%s: started %v, reported written %v", g, startedSet[g], written[g])
		}
	}
	if len(startedSet) == len(f.groups) {
		t.Fatalf("every group was started: apply did not stop after %s failed", bad)
	}
	last := lastLine(r.Stderr)
	if !strings.Contains(last, "apply failed part way at group "+bad) || !strings.Contains(last, "not written: "+bad) {
		t.Fatalf("last stderr line %q", last)
	}
	kcgOn(t, e, "apply", f.path("rb.yaml"), "--rollback-out", f.path("rb2.yaml")).MustCode(t, 0)
	for i, g := range f.groups {
		if got := e.Committed(t, g)[f.topic]; got[0] != f.before(i)[0] || got[1] != f.before(i)[1] {
			t.Fatalf("%s holds %v after the rollback, had %v", g, got, f.before(i))
		}
	}
}

// Every group is written when nothing fails, more than one at a time: the
// apply starts a group before the one started before it has finished
// (seen here because the first group's commit is held back until a later
// group has started).
func TestApplyParallelWritesAll(t *testing.T) {
	e := kafkatest.Fake(t)
	f := newManyGroups(t, e, 40)
	plan := f.plan(t)
	secondStarted := make(chan struct{})
	var once sync.Once
	recordStarts(t, func(n int, _ string) {
		if n == 2 {
			once.Do(func() { close(secondStarted) })
		}
	})
	e.Kfake.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		if req.(*kmsg.OffsetCommitRequest).Group == f.groups[0] {
			select {
			case <-secondStarted:
			case <-time.After(10 * time.Second):
				t.Errorf("the second group did not start while the first one's commit was in flight")
			}
		}
		return nil, nil, false
	})
	r := kcgOn(t, e, "apply", plan, "--rollback-out", f.path("rb.yaml"), "-o", "json").MustCode(t, 0)
	rep := parseApplyReport(t, r.Stdout)
	if written, _ := f.checkReportHeld(t, rep); len(written) != len(f.groups) || rep.Result != "applied" {
		t.Fatalf("result %s, %d of %d groups written", rep.Result, len(written), len(f.groups))
	}
}

// Ctrl-C during apply: the groups started finish and are read back, no
// other group starts, the full report is printed, the exit code is 130,
// and the rollback plan (written before the first commit) undoes every
// written partition. The interrupt is the cancelled context of the run,
// as main's signal.NotifyContext makes it, cancelled when the 6th group
// starts.
func TestApplyInterrupted(t *testing.T) {
	e := kafkatest.Fake(t)
	f := newManyGroups(t, e, 30)
	plan := f.plan(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := recordStarts(t, func(n int, _ string) {
		if n == 6 {
			cancel()
		}
	})
	r := clitest.RunContext(ctx, "apply", plan, "--rollback-out", f.path("rb.yaml"), "-o", "json", "--bootstrap-server", e.Bootstrap).MustCode(t, 130)
	rep := parseApplyReport(t, r.Stdout)
	if rep.Result != "partial" || rep.RollbackPlan == nil {
		t.Fatalf("result %s, rollback %v", rep.Result, rep.RollbackPlan)
	}
	written, _ := f.checkReportHeld(t, rep)
	if s := started(); len(s) != 6 || len(written) != 6 {
		t.Fatalf("started %d groups, %d written; want 6 and 6", len(s), len(written))
	}
	for _, g := range f.groups[:6] {
		if !written[g] {
			t.Fatalf("%s started before the interrupt and is not written", g)
		}
	}
	last := lastLine(r.Stderr)
	if !strings.HasPrefix(last, "kcg: apply interrupted") || !strings.Contains(last, "written: "+f.groups[0]) || !strings.Contains(last, "undo with kcg apply "+f.path("rb.yaml")) {
		t.Fatalf("last stderr line %q", last)
	}
	if _, err := os.Stat(f.path("rb.yaml")); err != nil {
		t.Fatal(err)
	}
	kcgOn(t, e, "apply", f.path("rb.yaml"), "--rollback-out", f.path("rb2.yaml")).MustCode(t, 0)
	for i, g := range f.groups {
		if got := e.Committed(t, g)[f.topic]; got[0] != f.before(i)[0] || got[1] != f.before(i)[1] {
			t.Fatalf("%s holds %v after the rollback, had %v", g, got, f.before(i))
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// SIGINT to a built kcg binary during apply: the same as
// TestApplyInterrupted, through main's signal.NotifyContext. The signal is
// sent from kfake's handler of the 4th group's OffsetCommit, which holds
// that request (and so the broker) until the signal has had time to land:
// the groups in flight then finish, no other starts.
func TestApplySIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kcg binary")
	}
	e := kafkatest.Fake(t)
	f := newManyGroups(t, e, 30)
	plan := f.plan(t)
	bin := filepath.Join(f.dir, "kcg")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "apply", plan, "--rollback-out", f.path("rb.yaml"), "-o", "json", "--bootstrap-server", e.Bootstrap)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	var signalled atomic.Bool
	// The process, once started, for kfake's handler goroutine (reading
	// cmd.Process there races with cmd.Start).
	var proc atomic.Pointer[os.Process]
	e.Kfake.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		group := req.(*kmsg.OffsetCommitRequest).Group
		if group == f.groups[3] && !signalled.Swap(true) {
			if p := proc.Load(); p == nil {
				t.Errorf("SIGINT: the process is not started")
			} else if err := p.Signal(os.Interrupt); err != nil {
				t.Errorf("SIGINT: %v", err)
			}
			time.Sleep(300 * time.Millisecond)
		} else if signalled.Load() && slices.Index(f.groups, group) >= 12 {
			// A group beyond any in flight at the signal (at most 8 are)
			// started: the signal is late on a loaded machine. Slow the
			// rest so that it lands before the last group is written.
			time.Sleep(time.Second)
		}
		return nil, nil, false
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proc.Store(cmd.Process)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if code != 130 || !signalled.Load() {
		t.Fatalf("exit %d (%v), signalled %v\nstdout:\n%s\nstderr:\n%s", code, err, signalled.Load(), stdout.String(), stderr.String())
	}
	rep := parseApplyReport(t, stdout.String())
	written, notWritten := f.checkReportHeld(t, rep)
	if len(written) < 4 || len(notWritten) == 0 {
		t.Fatalf("%d written, %d not written: want the first 4 written and some not", len(written), len(notWritten))
	}
	for _, g := range f.groups[:4] {
		if !written[g] {
			t.Fatalf("%s (in flight at the signal) is not written", g)
		}
	}
	if last := lastLine(stderr.String()); !strings.HasPrefix(last, "kcg: apply interrupted") {
		t.Fatalf("last stderr line %q", last)
	}
	kcgOn(t, e, "apply", f.path("rb.yaml"), "--rollback-out", f.path("rb2.yaml")).MustCode(t, 0)
	for i, g := range f.groups {
		if got := e.Committed(t, g)[f.topic]; got[0] != f.before(i)[0] || got[1] != f.before(i)[1] {
			t.Fatalf("%s holds %v after the rollback, had %v", g, got, f.before(i))
		}
	}
}

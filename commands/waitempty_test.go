package commands_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// applyAsync runs kcg apply ARGS against the test cluster in the
// background, as if stderr were a terminal when tty, and returns the
// channel of its result and a cancel that interrupts it (Ctrl-C: main's
// signal.NotifyContext cancels the same context).
func applyAsync(t *testing.T, f *resetFixture, tty bool, args ...string) (<-chan clitest.Result, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	res := make(chan clitest.Result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := commands.Run(ctx, append([]string{"kcg", "apply"}, append(args, "--bootstrap-server", f.e.Bootstrap)...), commands.IO{
			In: strings.NewReader(""), Out: &out, Err: &errb, ErrTTY: tty,
		})
		res <- clitest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
	}()
	return res, cancel
}

// noRollback fails the test if a rollback plan was written beside the
// plan: an apply that wrote nothing writes none.
func noRollback(t *testing.T, f *resetFixture) {
	t.Helper()
	if m, _ := filepath.Glob(filepath.Join(f.dir, "*.rollback*")); len(m) > 0 {
		t.Errorf("a rollback plan was written: %v", m)
	}
}

// kcg apply --wait-empty waits while a consumer is in the group, writes
// nothing meanwhile, and applies as soon as it leaves: the offsets read
// back independently (franz-go's admin read, and on the real broker the
// Java kafka-consumer-groups) are the plan's. For a classic member and a
// KIP-848 one (on the real broker the Java console consumer).
func TestApplyWaitEmptyWaitsForTheConsumer(t *testing.T) {
	defer commands.SetWaitEmptyInterval(200 * time.Millisecond)()
	for _, protocol := range []string{"classic", "consumer"} {
		t.Run(protocol, func(t *testing.T) {
			f := newResetFixture(t)
			f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
			var m *kafkatest.Member
			if protocol == "classic" {
				m = f.e.ClassicMember(t, f.group, f.topic)
			} else {
				m = f.e.ConsumerProtocolMember(t, f.group, f.topic)
			}
			waitsForTheConsumer(t, f, m)
		})
	}
}

func waitsForTheConsumer(t *testing.T, f *resetFixture, m *kafkatest.Member) {
	t.Helper()

	res, _ := applyAsync(t, f, false, f.path("reset.yaml"), "--wait-empty", "90s", "-o", "json")
	time.Sleep(2 * time.Second)
	select {
	case r := <-res:
		t.Fatalf("apply did not wait for the consumer: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	default:
	}
	f.mustCommitted(t, map[int32]int64{0: 5}) // nothing written while the member is there
	stopped := time.Now()
	m.Stop()
	var r clitest.Result
	select {
	case r = <-res:
	case <-time.After(60 * time.Second):
		t.Fatal("apply still waiting 60 s after the consumer left")
	}
	r.MustCode(t, 0)
	t.Logf("applied %s after the consumer left", time.Since(stopped).Round(10*time.Millisecond))
	var report struct {
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil || report.Result != "applied" {
		t.Fatalf("report %v %q", err, r.Stdout)
	}
	if !strings.Contains(r.Stderr, "no group of the plan has active members now: checking the plan again") || strings.Contains(r.Stderr, "waiting for") {
		t.Errorf("stderr (not a terminal: no progress) %q", r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 2, 1: 2})
	if f.e.Real {
		out, errs, code := f.e.JavaTool(t, "--bootstrap-server", f.e.Bootstrap, "--describe", "--group", f.group)
		got := map[string]string{}
		for _, row := range rows(out, f.group) {
			if len(row) > 3 {
				got[row[2]] = row[3]
			}
		}
		if code != 0 || got["0"] != "2" || got["1"] != "2" {
			t.Fatalf("kafka-consumer-groups --describe: exit %d, offsets %v\n%s\n%s", code, got, out, errs)
		}
	}
}

// The wait ends at --wait-empty with the consumer still there: exit 3,
// one line naming the group, nothing written, no rollback plan; -o json
// says refused with the same reason. On a terminal the wait shows its
// progress on stderr.
func TestApplyWaitEmptyTimesOut(t *testing.T) {
	defer commands.SetWaitEmptyInterval(200 * time.Millisecond)()
	defer commands.SetProgressDelay(0)()
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	f.e.ClassicMember(t, f.group, f.topic)

	start := time.Now()
	res, _ := applyAsync(t, f, true, f.path("reset.yaml"), "--wait-empty", "2s")
	r := (<-res).MustCode(t, 3)
	if took := time.Since(start); took < 2*time.Second || took > 20*time.Second {
		t.Errorf("apply --wait-empty 2s returned after %s", took)
	}
	want := regexp.MustCompile(`(?m)(^|\x1b\[K)kcg: refusing to apply: still active after waiting [0-9]+s for the groups to be empty: ` + regexp.QuoteMeta(f.group) + ` \(1 active member, state Stable\); .*nothing was written$`)
	if !want.MatchString(r.Stderr) || !strings.Contains(r.Stderr, "waiting for 1 group to be empty") || r.Stdout != "" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
	noRollback(t, f)

	// Bounded by --timeout as well, and reported as a refusal (3), not as
	// a timeout (1).
	start = time.Now()
	res, _ = applyAsync(t, f, false, f.path("reset.yaml"), "--wait-empty", "5m", "--timeout", "3s", "-o", "json")
	r = (<-res).MustCode(t, 3)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("apply --wait-empty 5m --timeout 3s returned after %s", took)
	}
	var report struct {
		Result  string   `json:"result"`
		Reasons []string `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil || report.Result != "refused" || len(report.Reasons) != 1 ||
		!strings.HasPrefix(report.Reasons[0], "group "+f.group+" still has 1 active member (state Stable) after waiting") {
		t.Errorf("report %v %+v\n%s", err, report, r.Stdout)
	}
	if strings.Contains(r.Stderr, "waiting for") {
		t.Errorf("progress without a terminal: %q", r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
	noRollback(t, f)
}

// Ctrl-C while waiting: exit 130, `kcg: interrupted`, nothing written.
func TestApplyWaitEmptyInterrupted(t *testing.T) {
	defer commands.SetWaitEmptyInterval(200 * time.Millisecond)()
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	f.e.ClassicMember(t, f.group, f.topic)

	res, interrupt := applyAsync(t, f, false, f.path("reset.yaml"), "--wait-empty", "5m")
	time.Sleep(1500 * time.Millisecond)
	interrupt()
	var r clitest.Result
	select {
	case r = <-res:
	case <-time.After(20 * time.Second):
		t.Fatal("apply still waiting 20 s after Ctrl-C")
	}
	r.MustCode(t, 130)
	if !strings.HasSuffix(r.Stderr, "kcg: interrupted\n") || r.Stdout != "" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
	noRollback(t, f)
}

// A plan that waiting cannot mend (stale here: the group committed since
// planning) is refused at once, active group or not; and --wait-empty
// takes a positive duration only.
func TestApplyWaitEmptyRefusesAtOnce(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 7})
	f.e.ClassicMember(t, f.group, f.topic)
	start := time.Now()
	r := kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--wait-empty", "5m").MustCode(t, 3)
	if took := time.Since(start); took > 20*time.Second || !strings.Contains(r.Stderr, "the plan is stale") || !strings.Contains(r.Stderr, "active member") {
		t.Errorf("after %s: stderr %q", took, r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 7})
	noRollback(t, f)

	for _, bad := range []string{"0", "-5s", "soon", "10"} {
		r := kcg(t, "apply", f.path("reset.yaml"), "--wait-empty", bad, "--bootstrap-server", "127.0.0.1:1").MustCode(t, 64)
		if !strings.HasPrefix(r.Stderr, "kcg: --wait-empty \""+bad+"\": give how long to wait") {
			t.Errorf("--wait-empty %s: %q", bad, r.Stderr)
		}
	}
	if _, err := os.Stat(f.path("reset.yaml")); err != nil {
		t.Fatal(err)
	}
}

// SIGINT to the built binary while it waits (main's signal.NotifyContext,
// as a terminal's Ctrl-C): exit 130, `kcg: interrupted`, nothing written.
func TestApplyWaitEmptySIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kcg binary")
	}
	bin := filepath.Join(buildKCG(t), "kcg")
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	f.e.ClassicMember(t, f.group, f.topic)
	var errb strings.Builder
	cmd := exec.Command(bin, "apply", f.path("reset.yaml"), "--wait-empty", "5m", "--bootstrap-server", f.e.Bootstrap)
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	time.Sleep(3 * time.Second) // connected, checked, waiting
	if code := interruptAndWait(t, cmd); code != 130 || lastLine(errb.String()) != "kcg: interrupted" {
		t.Errorf("exit %d after SIGINT, stderr %q; want 130 and kcg: interrupted", code, errb.String())
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
	noRollback(t, f)
}

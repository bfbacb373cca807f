package commands_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/sandbox"
)

// startUntilLine starts cmd and waits (up to 30 s) for the first line on
// its stdout, which it returns; the rest of stdout is drained in the
// background. stderr goes to errb.
func startUntilLine(t *testing.T, cmd *exec.Cmd, errb *strings.Builder) string {
	t.Helper()
	out := startPiped(t, cmd, errb)
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case line := <-lines:
		if line == "" {
			t.Fatalf("%s printed nothing on stdout; stderr %q", cmd.Args, errb.String())
		}
		return line
	case <-time.After(30 * time.Second):
		t.Fatalf("%s printed no line in 30s; stderr %q", cmd.Args, errb.String())
	}
	return ""
}

// startPiped starts cmd, its stderr going to errb, and returns its stdout;
// the process is killed when the test ends.
func startPiped(t *testing.T, cmd *exec.Cmd, errb *strings.Builder) io.Reader {
	t.Helper()
	cmd.Stderr = errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return out
}

// interruptAndWait sends SIGINT and returns the exit code (failing the
// test if the process outlives the signal by 15 s).
func interruptAndWait(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatalf("SIGINT: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("%s still running 15s after SIGINT", cmd.Args)
	}
	return cmd.ProcessState.ExitCode()
}

// Ctrl-C (SIGINT to the built binary, through main's signal.NotifyContext)
// ends watch and sandbox with 130 and `kcg: interrupted`, as every command
// (docs/exit-codes.md), not 0.
func TestInterruptWatchAndSandbox130(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kcg binary")
	}
	bin := filepath.Join(buildKCG(t), "kcg")

	t.Run("watch", func(t *testing.T) {
		e := kafkatest.Cluster(t)
		group := kafkatest.UniqueName(t, "intwatch")
		topic := kafkatest.UniqueName(t, "intpay")
		e.CreateTopic(t, topic, 1)
		e.Produce(t, topic, 0, records(3)...)
		e.Commit(t, group, topic, map[int32]int64{0: 1})
		for _, format := range []string{"table", "json"} {
			var errb strings.Builder
			// One sample, then a minute's wait: the signal comes between two.
			cmd := exec.Command(bin, "watch", group, "--bootstrap-server", e.Bootstrap, "--interval", "1m", "-o", format)
			first := startUntilLine(t, cmd, &errb)
			if !strings.Contains(first, "GROUP") && !strings.Contains(first, group) {
				t.Errorf("-o %s: first line %q is no sample", format, first)
			}
			if code := interruptAndWait(t, cmd); code != 130 {
				t.Errorf("watch -o %s: exit %d after SIGINT, want 130; stderr %q", format, code, errb.String())
			}
			if last := lastLine(errb.String()); last != "kcg: interrupted" {
				t.Errorf("watch -o %s: last stderr line %q, want \"kcg: interrupted\"", format, last)
			}
		}
	})

	t.Run("sandbox", func(t *testing.T) {
		var errb strings.Builder
		cmd := exec.Command(bin, "sandbox")
		addr := strings.TrimSpace(startUntilLine(t, cmd, &errb))
		if !strings.HasPrefix(addr, "127.0.0.1:") {
			t.Fatalf("sandbox address %q", addr)
		}
		if code := interruptAndWait(t, cmd); code != 130 {
			t.Fatalf("sandbox: exit %d after SIGINT, want 130; stderr %q", code, errb.String())
		}
		if last := lastLine(errb.String()); last != "kcg: interrupted" {
			t.Errorf("sandbox: last stderr line %q, want \"kcg: interrupted\"", last)
		}
	})
}

// Every sandbox has a cluster id of its own (docs/sandbox.md): two differ,
// both recognisable, and a plan made against one is refused by the other
// (cluster mismatch, exit 3, nothing written) but applies to its own.
func TestSandboxClusterIDPerStart(t *testing.T) {
	a, b := twoSandboxes(t)
	for _, sb := range []*sandbox.Sandbox{a, b} {
		if id := sb.ClusterID(); !strings.HasPrefix(id, sandbox.ClusterIDPrefix) || len(id) <= len(sandbox.ClusterIDPrefix) {
			t.Fatalf("sandbox cluster id %q: want %s and a random part", id, sandbox.ClusterIDPrefix)
		}
	}
	if a.ClusterID() == b.ClusterID() {
		t.Fatalf("two sandboxes share the cluster id %q", a.ClusterID())
	}
	dir := t.TempDir()
	planFile := filepath.Join(dir, "p.yaml")
	kcg(t, "plan", "billing", "--topic", "payments", "--to-earliest", "--out", planFile, "--bootstrap-server", a.Addr()).MustCode(t, 0)
	r := kcg(t, "show", planFile, "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, a.ClusterID()) {
		t.Fatalf("the plan does not name sandbox a's cluster %s:\n%s", a.ClusterID(), r.Stdout)
	}
	r = kcg(t, "apply", planFile, "--rollback-out", filepath.Join(dir, "rb-b.yaml"), "--bootstrap-server", b.Addr()).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "the plan is for cluster "+a.ClusterID()+", this is cluster "+b.ClusterID()) {
		t.Errorf("apply on the other sandbox: stderr does not name the mismatch:\n%s", r.Stderr)
	}
	r = kcg(t, "describe", "billing", "--bootstrap-server", b.Addr(), "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"lag": 3`) {
		t.Fatalf("sandbox b's billing changed by a refused apply:\n%s", r.Stdout)
	}
	kcg(t, "apply", planFile, "--rollback-out", filepath.Join(dir, "rb-a.yaml"), "--bootstrap-server", a.Addr()).MustCode(t, 0)
	r = kcg(t, "describe", "billing", "--bootstrap-server", a.Addr(), "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"lag": 6`) {
		t.Fatalf("sandbox a's billing after apply (want lag 6):\n%s", r.Stdout)
	}
}

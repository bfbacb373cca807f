package commands_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

func TestNoBootstrapIsUsageError(t *testing.T) {
	t.Setenv("KCG_BOOTSTRAP_SERVER", "")
	r := kcg(t, "list").MustCode(t, 64)
	if r.Stdout != "" || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 || !strings.Contains(r.Stderr, "--bootstrap-server") {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

func TestBootstrapFromEnv(t *testing.T) {
	e := kafkatest.Cluster(t)
	t.Setenv("KCG_BOOTSTRAP_SERVER", e.Bootstrap)
	kcg(t, "list", "-o", "json").MustCode(t, 0)
}

// An unreachable cluster is exit 1 and one line naming the address, within
// --timeout — never an empty list.
func TestUnreachableCluster(t *testing.T) {
	for _, cmd := range [][]string{{"list"}, {"describe", "--all-groups"}, {"describe", "g"}} {
		start := time.Now()
		r := kcg(t, append(cmd, "--bootstrap-server", "127.0.0.1:1", "--timeout", "5s")...).MustCode(t, 1)
		if r.Stdout != "" || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 || !strings.Contains(r.Stderr, "127.0.0.1:1") {
			t.Fatalf("%v: stdout %q stderr %q", cmd, r.Stdout, r.Stderr)
		}
		if d := time.Since(start); d > 6*time.Second {
			t.Fatalf("%v took %v", cmd, d)
		}
	}
}

func TestUsageErrorsStayOffStdout(t *testing.T) {
	for _, args := range [][]string{
		{"describe", "--bogus"},
		{"describe"},
		{"describe", "g", "--members", "--state", "--bootstrap-server", "x:1"},
		{"describe", "g", "--all-groups", "--bootstrap-server", "x:1"},
		{"list", "--state", "bad", "--bootstrap-server", "x:1"},
		{"describe", "g", "-o", "xml", "--bootstrap-server", "x:1"},
		{"describe", "g", "--timeout", "soon", "--bootstrap-server", "x:1"},
		{"completion", "tcsh"},
	} {
		r := kcg(t, args...).MustCode(t, 64)
		if r.Stdout != "" || r.Stderr == "" || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Fatalf("%v: stdout %q stderr %q", args, r.Stdout, r.Stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	r := kcg(t, "version").MustCode(t, 0)
	if !strings.HasPrefix(r.Stdout, "kcg ") {
		t.Fatalf("version: %q", r.Stdout)
	}
}

// Flags may follow positional arguments: "kcg describe billing -o json".
func TestFlagsAfterGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	r := kcg(t, "describe", group, "-o", "json", "--bootstrap-server", e.Bootstrap).MustCode(t, 0)
	d := parseDescribe(t, r.Stdout)
	if len(d.Groups) != 1 || d.Groups[0].Group != group {
		t.Fatalf("groups %+v", d.Groups)
	}
}

// The one-shot sandbox: one command from a fresh clone shows kcg working.
func TestSandboxOneShot(t *testing.T) {
	r := kcg(t, "describe", "--all-groups", "--sandbox").MustCode(t, 0)
	billing := rows(r.Stdout, "billing")
	if len(billing) != 2 || strings.Join(billing[0][:6], " ") != "billing payments 0 3 6 3" {
		t.Fatalf("billing rows %v\n%s", billing, r.Stdout)
	}
	shipping := rows(r.Stdout, "shipping")
	if len(shipping) != 4 || shipping[0][3] != "-" || shipping[0][6] == "-" {
		t.Fatalf("shipping (live member, no commits) rows %v", shipping)
	}
	analytics := rows(r.Stdout, "analytics")
	if len(analytics) != 3 {
		t.Fatalf("analytics rows %v", analytics)
	}
	r = kcg(t, "list", "--sandbox", "--state", "stable").MustCode(t, 0)
	if g := rows(r.Stdout, "shipping"); len(g) != 1 || strings.Contains(r.Stdout, "billing") {
		t.Fatalf("list --state stable:\n%s", r.Stdout)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// kcg sandbox runs until interrupted and prints its address; other kcg
// commands can use it meanwhile.
func TestSandboxCommand(t *testing.T) {
	var out, errb syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- commands.Run(ctx, []string{"kcg", "sandbox"}, commands.IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "\n") {
		if time.Now().After(deadline) {
			t.Fatalf("no address printed; stderr %q", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	addr := strings.TrimSpace(out.String())
	r := kcg(t, "describe", "billing", "--bootstrap-server", addr, "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"lag": 3`) {
		t.Fatalf("sandbox billing:\n%s", r.Stdout)
	}
	cancel()
	select {
	case code := <-done:
		// Interrupted: 130 and `kcg: interrupted`, as every command.
		if code != 130 || lastLine(errb.String()) != "kcg: interrupted" {
			t.Fatalf("sandbox exit %d, want 130 and kcg: interrupted: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sandbox did not stop when interrupted")
	}
}

// --topic limits the offsets to those topics.
func TestDescribeTopicFilter(t *testing.T) {
	r := kcg(t, "describe", "--all-groups", "--sandbox", "--topic", "payments").MustCode(t, 0)
	if len(rows(r.Stdout, "billing")) != 2 || len(rows(r.Stdout, "analytics")) != 0 || strings.Contains(r.Stdout, "orders") {
		t.Fatalf("--topic payments:\n%s", r.Stdout)
	}
}

func TestUnknownCommand(t *testing.T) {
	r := kcg(t, "lsit").MustCode(t, 64)
	if r.Stdout != "" || !strings.Contains(r.Stderr, `unknown command "lsit"`) {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

package commands_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// tmuxShell is an interactive bash in a detached tmux session of its own
// (its own server socket), driven by key presses.
type tmuxShell struct {
	t      *testing.T
	socket string
}

func (s *tmuxShell) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxShell) keys(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", "kcg", "--"}, keys...)...)
}

// screen waits until the pane shows want (or fails after 15 s, showing
// what it had).
func (s *tmuxShell) screen(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		pane := s.tmux("capture-pane", "-p", "-J", "-t", "kcg")
		if strings.Contains(pane, want) {
			return pane
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the pane never showed %q:\n%s", want, pane)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// clear abandons the line typed so far (Ctrl-C: nothing runs) and clears
// the screen.
func (s *tmuxShell) clear() {
	s.t.Helper()
	s.keys("C-c")
	s.keys("clear", "Enter")
	s.screen("$ ")
	time.Sleep(200 * time.Millisecond)
}

// Real TAB presses in an interactive bash (bash --norc -i under tmux) with
// the generated script sourced.
func TestCompletionInteractiveBash(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the interactive bash test needs it")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	e := kafkatest.Cluster(t)
	group := kafkatest.UniqueName(t, "tmuxbill")
	topic := kafkatest.UniqueName(t, "tmuxpay")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(2)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	dir := buildKCG(t)
	script := writeScript(t, dir, "bash")
	rc := filepath.Join(dir, "rc")
	os.WriteFile(rc, []byte(fmt.Sprintf("PS1='$ '\nexport PATH=%q:\"$PATH\"\nexport KCG_BOOTSTRAP_SERVER=%q\nsource %q\nbind 'set show-all-if-ambiguous off'\nbind 'set bell-style none'\n", dir, e.Bootstrap, script)), 0o644)
	s := &tmuxShell{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	s.tmux("new-session", "-d", "-s", "kcg", "-x", "250", "-y", "50", bash+" --noprofile --rcfile "+rc+" -i")
	t.Cleanup(func() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	s.screen("$ ")

	// Subcommands: one TAB completes the common prefix, the second lists.
	s.keys("kcg de", "Tab", "Tab")
	pane := s.screen("delete-offsets")
	if !strings.Contains(pane, "describe") || !strings.Contains(pane, "delete ") {
		t.Errorf("kcg de<TAB><TAB>:\n%s", pane)
	}
	s.clear()
	// kcg <TAB><TAB>: kcg's commands, not the Java tool's usage.
	s.keys("kcg ", "Tab", "Tab")
	pane = s.screen("delete-offsets")
	if strings.Contains(pane, "Option") || strings.Contains(pane, "--bootstrap-server <String") {
		t.Errorf("kcg <TAB><TAB> entered drop-in mode:\n%s", pane)
	}
	s.clear()
	// A flag, then its value.
	s.keys("kcg list --sta", "Tab")
	s.screen("$ kcg list --state ")
	s.keys("Sta", "Tab")
	s.screen("$ kcg list --state Stable ")
	s.clear()
	s.keys("kcg show p.yaml -o c", "Tab")
	s.screen("$ kcg show p.yaml -o csv ")
	s.clear()
	// A group and a topic from the cluster.
	s.keys("kcg describe "+group[:len(group)-3], "Tab")
	s.screen("$ kcg describe " + group + " ")
	s.keys("--topic "+topic[:len(topic)-3], "Tab")
	s.screen("--topic " + topic + " ")
	s.clear()
	// The line that once deleted the group: TAB offers it, nothing runs.
	s.keys("kcg delete "+group+" -- ", "Tab", "Tab")
	time.Sleep(time.Second)
	s.keys("kcg delete "+group+" -- "+group[:len(group)-3], "Tab")
	s.clear()
	if c := e.Committed(t, group); c[topic][0] != 1 {
		t.Fatalf("group %s after TAB on kcg delete %s -- : %v", group, group, c)
	}
	// An unreachable cluster: TAB returns at once, prints nothing.
	s.keys("export KCG_BOOTSTRAP_SERVER=127.0.0.1:1", "Enter")
	s.clear()
	start := time.Now()
	s.keys("kcg describe x", "Tab", "Tab", "Space", "done")
	pane = s.screen("$ kcg describe x done")
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("TAB on an unreachable cluster took %v", d)
	}
	if strings.Contains(pane, "kcg:") || strings.Contains(pane, "rror") {
		t.Errorf("TAB on an unreachable cluster printed text:\n%s", pane)
	}
}

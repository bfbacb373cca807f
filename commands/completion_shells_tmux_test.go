package commands_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// interactiveShell is how one shell is started under tmux with kcg's
// completion script loaded, for the real-TAB tests of zsh and fish.
type interactiveShell struct {
	name string
	// start writes the shell's start-up files into dir and returns the
	// command tmux runs; PATH gets bin first, KCG_BOOTSTRAP_SERVER is
	// bootstrap, script is the sourced output of `kcg completion NAME`.
	start func(t *testing.T, dir, bin, bootstrap, script string) string
	// export is the command line that sets an environment variable.
	export func(name, value string) string
}

var zshShell = interactiveShell{
	name: "zsh",
	start: func(t *testing.T, dir, bin, bootstrap, script string) string {
		// compinit first (compdef needs it), as docs/completion.md says;
		// -D writes no dump file, -u trusts the temporary folder.
		rc := fmt.Sprintf("PS1='$ '\nPROMPT_EOL_MARK=''\nunsetopt BEEP\nexport PATH=%q:\"$PATH\"\nexport KCG_BOOTSTRAP_SERVER=%q\nautoload -Uz compinit\ncompinit -u -D\nsource %q\n", bin, bootstrap, script)
		if err := os.WriteFile(filepath.Join(dir, ".zshrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		// ZDOTDIR: this .zshrc, not the user's; no /etc/zsh/zshrc either.
		return fmt.Sprintf("env ZDOTDIR=%q HISTFILE=/dev/null zsh -o NO_GLOBAL_RCS -i", dir)
	},
	export: func(name, value string) string { return "export " + name + "=" + value },
}

var fishShell = interactiveShell{
	name: "fish",
	start: func(t *testing.T, dir, bin, bootstrap, script string) string {
		// No greeting, no right prompt, no autosuggestion (its grey text
		// would be on the captured screen as if typed).
		rc := fmt.Sprintf("function fish_prompt; echo -n '$ '; end\nfunction fish_right_prompt; end\nset -g fish_greeting\nset -g fish_autosuggestion_enabled 0\nset -gx PATH %q $PATH\nset -gx KCG_BOOTSTRAP_SERVER %q\nsource %q\n", bin, bootstrap, script)
		rcPath := filepath.Join(dir, "rc.fish")
		if err := os.WriteFile(rcPath, []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		// --no-config: not the user's config.fish; XDG_*: its history and
		// universal variables in the test's folder.
		return fmt.Sprintf("env XDG_CONFIG_HOME=%q XDG_DATA_HOME=%q fish --no-config --init-command %q -i",
			filepath.Join(dir, "config"), filepath.Join(dir, "data"), "source "+rcPath)
	},
	export: func(name, value string) string { return "set -gx " + name + " " + value },
}

// Real TAB presses in an interactive zsh under tmux, the script sourced
// after compinit.
func TestCompletionInteractiveZsh(t *testing.T) { interactiveCompletion(t, zshShell) }

// Real TAB presses in an interactive fish under tmux, the script sourced.
func TestCompletionInteractiveFish(t *testing.T) { interactiveCompletion(t, fishShell) }

// line waits (15 s at most) until the cursor's row of the pane reads want
// (trailing blanks aside) with the cursor right after want: so a
// completion that added its space is told from one that did not.
func (s *tmuxShell) line(want string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		pos := strings.Fields(s.tmux("display-message", "-p", "-t", "kcg", "#{cursor_x} #{cursor_y}"))
		pane := strings.Split(s.tmux("capture-pane", "-p", "-t", "kcg"), "\n")
		if len(pos) == 2 {
			x, _ := strconv.Atoi(pos[0])
			y, _ := strconv.Atoi(pos[1])
			if y < len(pane) && strings.TrimRight(pane[y], " ") == strings.TrimRight(want, " ") && x == len(want) {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the cursor's line never read %q (cursor after it), cursor at %v:\n%s", want, pos, strings.Join(pane, "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func interactiveCompletion(t *testing.T, sh interactiveShell) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skipf("tmux is not installed: the interactive %s test needs it", sh.name)
	}
	if _, err := exec.LookPath(sh.name); err != nil {
		t.Skipf("%s is not installed: its completion was checked as text only (TestCompletionOtherShellScripts); .ci/run installs it", sh.name)
	}
	e := kafkatest.Cluster(t)
	group := kafkatest.UniqueName(t, sh.name+"bill")
	topic := kafkatest.UniqueName(t, sh.name+"pay")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(2)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	dir := buildKCG(t)
	script := writeScript(t, dir, sh.name)
	home := t.TempDir()
	// The shell's working folder, with one plan file to complete.
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "plan-tmux.yaml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &tmuxShell{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	s.tmux("-f", "/dev/null", "new-session", "-d", "-s", "kcg", "-x", "250", "-y", "50", "-c", work, sh.start(t, home, dir, e.Bootstrap, script))
	t.Cleanup(func() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	s.line("$ ")

	// Subcommands: the three that start with de are listed.
	s.keys("kcg de", "Tab")
	pane := s.screen("delete-offsets")
	if !strings.Contains(pane, "describe") || !strings.Contains(pane, "delete ") {
		t.Errorf("kcg de<TAB>:\n%s", pane)
	}
	s.clear()
	// kcg <TAB>: kcg's commands, not the Java tool's usage.
	s.keys("kcg ", "Tab")
	pane = s.screen("delete-offsets")
	if !strings.Contains(pane, "sandbox") || strings.Contains(pane, "Option") || strings.Contains(pane, "--bootstrap-server <String") {
		t.Errorf("kcg <TAB> (want kcg's commands, not drop-in mode):\n%s", pane)
	}
	s.clear()
	// A flag, then its value, each followed by its space.
	s.keys("kcg list --sta", "Tab")
	s.line("$ kcg list --state ")
	s.keys("Sta", "Tab")
	s.line("$ kcg list --state Stable ")
	s.clear()
	s.keys("kcg show p.yaml -o c", "Tab")
	s.line("$ kcg show p.yaml -o csv ")
	s.clear()
	// --output=js: zsh and fish pass the word whole and get it whole.
	s.keys("kcg describe x --output=js", "Tab")
	s.line("$ kcg describe x --output=json ")
	s.clear()
	// A file name, by the shell's own file completion (kcg said :files).
	s.keys("kcg apply plan-t", "Tab")
	s.line("$ kcg apply plan-tmux.yaml ")
	s.clear()
	// A group and a topic from the cluster.
	s.keys("kcg describe "+group[:len(group)-3], "Tab")
	s.line("$ kcg describe " + group + " ")
	s.keys("--topic "+topic[:len(topic)-3], "Tab")
	s.line("$ kcg describe " + group + " --topic " + topic + " ")
	s.clear()
	// The line that once deleted the group: TAB offers it, nothing runs.
	s.keys("kcg delete "+group+" -- ", "Tab", "Tab")
	time.Sleep(time.Second)
	s.clear()
	if c := e.Committed(t, group); c[topic][0] != 1 {
		t.Fatalf("group %s after TAB on kcg delete %s -- : %v", group, group, c)
	}
	// An unreachable cluster: TAB returns at once and prints nothing.
	s.keys(sh.export("KCG_BOOTSTRAP_SERVER", "127.0.0.1:1"), "Enter")
	s.clear()
	start := time.Now()
	s.keys("kcg describe x", "Tab", "Tab", "Space", "done")
	s.line("$ kcg describe x done")
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("TAB on an unreachable cluster took %v", d)
	}
	if pane := s.tmux("capture-pane", "-p", "-J", "-t", "kcg"); strings.Contains(pane, "kcg:") || strings.Contains(pane, "rror") {
		t.Errorf("TAB on an unreachable cluster printed text:\n%s", pane)
	}
}

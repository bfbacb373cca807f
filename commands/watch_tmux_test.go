package commands_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// tmuxServer is a private tmux server (its own socket in the test's
// temporary folder, no config file) that the test kills when it ends.
// tmux -L would put the socket in /tmp/tmux-UID, where kill-server leaves
// the file behind; -S in t.TempDir() is as private and goes with the
// folder.
type tmuxServer struct {
	t      *testing.T
	bin    string
	socket string
}

func newTmux(t *testing.T) *tmuxServer {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: the real-terminal test of kcg watch needs it")
	}
	s := &tmuxServer{t: t, bin: bin, socket: filepath.Join(t.TempDir(), "tmux")}
	t.Cleanup(func() { _ = exec.Command(bin, "-S", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxServer) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command(s.bin, append([]string{"-S", s.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// pane is a value of the pane's format (tmux display-message).
func (s *tmuxServer) pane(session, format string) string {
	s.t.Helper()
	return strings.TrimSpace(s.run("display-message", "-p", "-t", session, format))
}

// capture is the visible screen of the session's pane, with -e its
// colours as escape sequences.
func (s *tmuxServer) capture(session string, escapes bool) []string {
	s.t.Helper()
	args := []string{"capture-pane", "-p", "-t", session}
	if escapes {
		args = append(args, "-e")
	}
	return strings.Split(strings.TrimRight(s.run(args...), "\n"), "\n")
}

// waitFrame waits until the pane shows a frame whose title differs from
// after (a new sample) and that has a line starting with want.
func (s *tmuxServer) waitFrame(session, after, want string) []string {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var lines []string
	for time.Now().Before(deadline) {
		lines = s.capture(session, false)
		if len(lines) > 0 && strings.Contains(lines[0], "kcg wat") && lines[0] != after && rowOf(lines, want) >= 0 {
			return lines
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("no new frame with %q in 30s:\n%s", want, strings.Join(lines, "\n"))
	return nil
}

func rowOf(lines []string, prefix string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return -1
}

var sgrColour = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?3[1-7](?:;[0-9;]*)?m`)

// kcg watch in a real terminal: tmux runs the built binary in a detached
// session against the test cluster while a producer and a committer run.
// Two captures show the frame redrawn in place (same rows, a new sample,
// no scrollback growth); after resize-window every line fits the new
// width; colour escapes are there, and not with NO_COLOR=1; Ctrl-C ends
// it with exit 130, the cursor shown again and the last frame left on the
// screen.
func TestWatchInTmux(t *testing.T) {
	tm := newTmux(t)
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	moving := kafkatest.UniqueName(t, "billing")
	stopped := kafkatest.UniqueName(t, "stopped")
	e.CreateTopic(t, topic, 2)
	for p := range 2 {
		e.Produce(t, topic, p, records(100)...)
	}
	e.Commit(t, moving, topic, map[int32]int64{0: 0, 1: 0})
	e.Commit(t, stopped, topic, map[int32]int64{0: 10, 1: 10})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	wg.Go(func() { // a producer and a committer that catches up
		t := background{t}
		committed := int64(0)
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			e.Produce(t, topic, 0, records(2)...)
			committed += 5
			e.Commit(t, moving, topic, map[int32]int64{0: committed, 1: committed})
		}
	})

	dir := t.TempDir()
	bin := filepath.Join(dir, "kcg")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	start := func(session string, env string, width, height int) {
		// The shell outlives kcg to say how it exited, and keeps the pane
		// open: a dead pane (remain-on-exit) has its cursor hidden by tmux
		// whatever kcg left. Its trap makes Ctrl-C end kcg only; kcg gets
		// SIGINT with the default disposition, as from an interactive shell.
		cmd := fmt.Sprintf("sh -c 'trap : INT; env %s %s watch %s %s --bootstrap-server %s --interval 400ms; echo kcg-exit=$?; exec sleep 600'",
			env, bin, moving, stopped, e.Bootstrap)
		tm.run("new-session", "-d", "-s", session, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height), cmd)
	}
	start("colour", "-u NO_COLOR TERM=xterm-256color", 120, 30)
	start("plain", "NO_COLOR=1 TERM=xterm-256color", 120, 30)

	// Redrawn in place.
	a := tm.waitFrame("colour", "", moving)
	histA := tm.pane("colour", "#{history_size}")
	b := tm.waitFrame("colour", a[0], moving)
	b = tm.waitFrame("colour", b[0], moving) // two samples later: rates and status known
	if histB := tm.pane("colour", "#{history_size}"); histB != histA {
		t.Errorf("scrollback grew from %s to %s lines between two frames", histA, histB)
	}
	for _, g := range []string{moving, stopped, "GROUP"} {
		if ra, rb := rowOf(a, g), rowOf(b, g); ra != rb || ra < 0 {
			t.Errorf("%s on row %d, then on row %d:\n%s\n---\n%s", g, ra, rb, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	}
	if a[rowOf(a, moving)] == b[rowOf(b, moving)] {
		t.Errorf("the row of %s did not change between samples: %q", moving, a[rowOf(a, moving)])
	}
	if f := strings.Fields(b[rowOf(b, stopped)]); !strings.Contains(strings.Join(f, " "), "STOP") {
		t.Errorf("%s not STOP: %q", stopped, b[rowOf(b, stopped)])
	}

	// Colour on a terminal, none with NO_COLOR.
	if c := strings.Join(tm.capture("colour", true), "\n"); !sgrColour.MatchString(c) {
		t.Errorf("no colour escapes on the terminal:\n%q", c)
	}
	p := tm.waitFrame("plain", "", stopped)
	p = tm.waitFrame("plain", p[0], stopped)
	if c := strings.Join(tm.capture("plain", true), "\n"); sgrColour.MatchString(c) || !strings.Contains(c, "STOP") {
		t.Errorf("colour escapes with NO_COLOR=1:\n%q", c)
	}

	// Resized: every line of the next frame fits the new width.
	wide := len(strings.Fields(b[rowOf(b, "GROUP")]))
	tm.run("resize-window", "-t", "colour", "-x", "44", "-y", "12")
	if w := tm.pane("colour", "#{pane_width}"); w != "44" {
		t.Fatalf("pane width %s after resize-window -x 44", w)
	}
	r := tm.waitFrame("colour", b[0], "GROUP")
	r = tm.waitFrame("colour", r[0], "GROUP") // surely drawn after the resize
	// -J joins the rows of a wrapped line: a line wider than the window
	// shows as one line longer than 44.
	for _, l := range strings.Split(tm.run("capture-pane", "-p", "-J", "-t", "colour"), "\n") {
		if n := utf8.RuneCountInString(strings.TrimRight(l, " ")); n > 44 {
			t.Errorf("line of %d columns on a 44-column window: %q", n, l)
		}
	}
	h := strings.Fields(r[rowOf(r, "GROUP")])
	if len(h) >= wide || !strings.Contains(strings.Join(h, " "), "STATUS") {
		t.Errorf("header at 44 columns %v, at 120 %q", h, b[rowOf(b, "GROUP")])
	}
	if rowOf(r, moving[:5]) != rowOf(r, "GROUP")+1 {
		t.Errorf("no group row under the header at 44 columns:\n%s", strings.Join(r, "\n"))
	}

	// Ctrl-C: exit 130, cursor visible again, the last frame still shown.
	for _, s := range []string{"colour", "plain"} {
		if v := tm.pane(s, "#{cursor_flag}"); v != "0" {
			t.Errorf("%s: cursor_flag %s while watching, want 0 (hidden)", s, v)
		}
		tm.run("send-keys", "-t", s, "C-c")
	}
	for _, s := range []string{"colour", "plain"} {
		deadline := time.Now().Add(20 * time.Second)
		var screen []string
		for {
			screen = tm.capture(s, false)
			if rowOf(screen, "kcg-exit=") >= 0 || strings.Contains(strings.Join(screen, "\n"), "kcg-exit=") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still running 20s after Ctrl-C:\n%s", s, strings.Join(screen, "\n"))
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !strings.Contains(strings.Join(screen, "\n"), "kcg-exit=130") {
			t.Errorf("%s: exit status not 130 after Ctrl-C:\n%s", s, strings.Join(screen, "\n"))
		}
		if v := tm.pane(s, "#{cursor_flag}"); v != "1" {
			t.Errorf("%s: cursor_flag %s after exit, want 1 (shown)", s, v)
		}
		if rowOf(screen, "GROUP") < 0 {
			t.Errorf("%s: the last frame is gone after exit:\n%s", s, strings.Join(screen, "\n"))
		}
	}
}

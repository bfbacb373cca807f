package commands_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// runTTY runs kcg with stderr flagged as a terminal (or not).
func runTTY(t *testing.T, tty bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code = commands.Run(ctx, append([]string{"kcg"}, args...), commands.IO{In: strings.NewReader(""), Out: &out, Err: &errb, ErrTTY: tty})
	return code, out.String(), errb.String()
}

// plan, diff and apply show their phases on a terminal stderr (here with
// no delay: by default progress waits 300 ms, so quick runs stay silent),
// each message on one redrawn line that is cleared before anything else
// is printed; never on stdout, and nothing of it without a terminal.
func TestProgressPlanDiffApply(t *testing.T) {
	restore := commands.SetProgressDelay(0)
	defer restore()
	e := kafkatest.Cluster(t)
	f := newManyGroups(t, e, 12)
	plan := f.path("p.yaml")
	const clear = "\r\033[K"
	for _, tty := range []bool{true, false} {
		steps := []struct {
			args []string
			want []string
			code int
		}{
			{[]string{"plan", "--topic", f.topic, "--to-offset", "1", "--out", plan, "--overwrite"}, []string{"listing groups…", "reading 12 groups…", "resolving the targets of 12 groups…"}, 0},
			{[]string{"diff", plan}, []string{"reading the plan…", "checking 12 groups against the cluster…"}, 0},
			{[]string{"apply", plan, "--rollback-out", f.path("rb-" + map[bool]string{true: "tty", false: "pipe"}[tty] + ".yaml")},
				[]string{"reading the plan…", "checking 12 groups against the cluster…", "writing the rollback plan…", "applying: 1 of 12 groups committed…", "applying: 12 of 12 groups committed…", "reading back 12 groups…"}, 0},
		}
		for _, st := range steps {
			args := append(append([]string{}, st.args...), "--bootstrap-server", e.Bootstrap)
			if st.args[0] == "plan" {
				args = append(args, f.groups...)
			}
			code, stdout, stderr := runTTY(t, tty, args...)
			if code != st.code {
				t.Fatalf("%s (tty %v): exit %d\n%s", st.args[0], tty, code, stderr)
			}
			if strings.Contains(stdout, "\033") || strings.Contains(stdout, "…") && st.args[0] != "plan" {
				t.Fatalf("%s: progress on stdout: %q", st.args[0], stdout)
			}
			if !tty {
				if strings.Contains(stderr, "\033") || strings.Contains(stderr, "\r") {
					t.Fatalf("%s without a terminal: progress on stderr: %q", st.args[0], stderr)
				}
				continue
			}
			for _, w := range st.want {
				if !strings.Contains(stderr, clear+w) {
					t.Fatalf("%s: no %q on stderr: %q", st.args[0], w, stderr)
				}
			}
			// Every line printed after progress starts on a cleared line:
			// no progress message is left in front of it, nor at the end.
			if strings.HasSuffix(stderr, "…") {
				t.Fatalf("%s: progress left on stderr: %q", st.args[0], stderr)
			}
			for _, line := range strings.Split(stderr, "\n") {
				if i := strings.LastIndex(line, clear); i >= 0 {
					if rest := line[i+len(clear):]; strings.Contains(rest, "…") && !strings.HasSuffix(rest, "…") {
						t.Fatalf("%s: a message is printed behind progress: %q", st.args[0], line)
					}
				}
			}
		}
		// The next round plans again from the same offsets.
		kcgOn(t, e, "apply", f.path("rb-"+map[bool]string{true: "tty", false: "pipe"}[tty]+".yaml"), "--rollback-out", f.path("undo-"+map[bool]string{true: "tty", false: "pipe"}[tty]+".yaml")).MustCode(t, 0)
	}
}

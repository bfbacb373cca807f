package commands_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// closedPipe is a stdout whose reader has gone.
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) {
	return 0, fmt.Errorf("write /dev/stdout: %w", syscall.EPIPE)
}

// A read command whose stdout is closed (`| head -1`) ends quietly with 0
// in both command lines, as the Java tool does; a write to Kafka does not
// (issue 20 §2 item 7).
func TestClosedStdoutEndsReadCommandsQuietly(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(3)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	plan := filepath.Join(t.TempDir(), "p.yaml")
	kcgOn(t, e, "plan", group, "--topic", topic, "--to-earliest", "--out", plan).MustCode(t, 0)

	run := func(args ...string) (int, string) {
		var errBuf strings.Builder
		code := commands.Run(context.Background(), append([]string{"kcg"}, args...), commands.IO{In: strings.NewReader(""), Out: closedPipe{}, Err: &errBuf})
		return code, errBuf.String()
	}
	for _, args := range [][]string{
		{"describe", group, "-b", e.Bootstrap},
		{"list", "-b", e.Bootstrap},
		{"show", plan},
		{"--bootstrap-server", e.Bootstrap, "--describe", "--group", group},
		{"--bootstrap-server", e.Bootstrap, "--list"},
	} {
		// Notices ("has no active members") still go to stderr; no error.
		if code, stderr := run(args...); code != 0 || strings.Contains(stderr, "pipe") || strings.Contains(stderr, "rror") {
			t.Errorf("%q to a closed stdout: exit %d, stderr %q; want 0 and no error", args, code, stderr)
		}
	}
	if code, _ := run("apply", plan, "-b", e.Bootstrap); code == 0 {
		t.Errorf("apply whose report could not be printed exits 0")
	}
}

// The binary itself: under pipefail a closed pipe is exit 0, not a SIGPIPE
// death (141), in drop-in mode as in native mode.
func TestClosedPipeExitsZero(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the pipeline")
	}
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	bin := filepath.Join(buildKCG(t), "kcg")
	for _, cmd := range []string{
		bin + " --bootstrap-server " + e.Bootstrap + " --describe --group " + group,
		bin + " describe " + group + " --bootstrap-server " + e.Bootstrap,
	} {
		// `true` has exited before kcg has dialled: every write meets
		// a closed pipe.
		out, err := exec.Command(bash, "-c", "set -o pipefail; "+cmd+" | true").CombinedOutput()
		if err != nil {
			t.Errorf("%s | true: %v\n%s", cmd, err, out)
		}
	}
}

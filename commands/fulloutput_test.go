package commands_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// runToDevFull runs kcg with stdout /dev/full (every write fails with
// ENOSPC), as `kcg ... > /dev/full` does.
func runToDevFull(t *testing.T, args ...string) (int, string) {
	t.Helper()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	var errBuf strings.Builder
	code := commands.Run(context.Background(), append([]string{"kcg"}, args...), commands.IO{In: strings.NewReader(""), Out: full, Err: &errBuf})
	return code, errBuf.String()
}

// Output that cannot be written is never exit 0, and says why on one
// stderr line: in native mode (completion, schema, help, version) and in
// drop-in mode, whose errors go to stdout as the Java tool's do (issue 30
// item 8).
func TestUnwritableStdoutIsNeverExitZero(t *testing.T) {
	e := kafkatest.Cluster(t)
	// A group of its own, so that --list has a line to write whatever
	// the other tests left on the shared cluster.
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	for _, args := range [][]string{
		{"completion", "bash"},
		{"completion", "zsh"},
		{"schema"},
		{"schema", "GroupList"},
		{"--help"},
		{"help", "plan"},
		{"describe", "--help"},
		{"version"},
		{"--version"},
		{"--bootstrap-server", e.Bootstrap, "--list"},
		{"--bootstrap-server", e.Bootstrap, "--version"},
		{"--bootstrap-server", "127.0.0.1:1", "--list", "--timeout", "500"},
	} {
		code, stderr := runToDevFull(t, args...)
		if code == 0 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "kcg: ") && !strings.HasPrefix(stderr, "Error: ") {
			t.Errorf("kcg %s > /dev/full: exit %d, stderr %q; want a failure and one line saying why", strings.Join(args, " "), code, stderr)
			continue
		}
		if !strings.Contains(stderr, "no space left on device") && !strings.Contains(stderr, "127.0.0.1:1") {
			t.Errorf("kcg %s > /dev/full: stderr %q does not say what failed", strings.Join(args, " "), stderr)
		}
	}
}

package commands_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// BenchmarkDescribeAllGroups times `kcg describe --all-groups` with and
// without --time-lag, as a table and as JSON, output discarded. With
// KCG_BENCH_BOOTSTRAP it runs against that cluster as it is (for a CPU or
// memory profile of the real thing: bench/run's 2,000 × 64 seeding);
// otherwise on the in-process kfake cluster, seeded with
// BENCH_DESCRIBE_GROUPS groups (default 200) committed 50 records behind
// the log end on each of 64 partitions. kfake shares the process, so its
// CPU and allocations are in those numbers. See docs/benchmarks.md.
func BenchmarkDescribeAllGroups(b *testing.B) {
	bootstrap := os.Getenv("KCG_BENCH_BOOTSTRAP")
	if bootstrap == "" {
		n := 200
		if v, err := strconv.Atoi(os.Getenv("BENCH_DESCRIBE_GROUPS")); err == nil && v > 0 {
			n = v
		}
		e := kafkatest.Fake(b)
		topic := kafkatest.UniqueName(b, "t")
		e.CreateTopic(b, topic, 64)
		commits := map[int32]int64{}
		for p := range int32(64) {
			e.Produce(b, topic, int(p), clitest.Records(100)...)
			commits[p] = 50
		}
		base := kafkatest.UniqueName(b, "g")
		for i := range n {
			e.Commit(b, fmt.Sprintf("%s-%05d", base, i), topic, commits)
		}
		bootstrap = e.Bootstrap
	}
	for _, args := range []string{"", "--time-lag", "-o json", "--time-lag -o json"} {
		name := strings.ReplaceAll(strings.TrimSpace("table "+args), " ", "_")
		b.Run(name, func(b *testing.B) {
			benchRun(b, append([]string{"kcg", "describe", "--all-groups", "--bootstrap-server", bootstrap, "--timeout", "5m"}, strings.Fields(args)...))
		})
	}
}

// BenchmarkPlanAllGroups times `kcg plan --all-groups --all-topics
// --shift-by -5 --out F` (bench/run's plan row) against
// KCG_BENCH_BOOTSTRAP as it is, for a memory or CPU profile of the real
// thing (bench/run's 2,000 × 64 seeding; docs/benchmarks.md). Skipped
// without it. The summary on stderr is kept to its first 4 KB, as a
// terminal or a file costs the process no memory.
func BenchmarkPlanAllGroups(b *testing.B) {
	bootstrap := os.Getenv("KCG_BENCH_BOOTSTRAP")
	if bootstrap == "" {
		b.Skip("KCG_BENCH_BOOTSTRAP is not set: this benchmark reads a seeded cluster (bench/seed)")
	}
	out := filepath.Join(b.TempDir(), "plan.yaml")
	benchRun(b, []string{"kcg", "plan", "--all-groups", "--all-topics", "--shift-by", "-5", "--out", out, "--overwrite", "--bootstrap-server", bootstrap, "--timeout", "5m"})
}

// benchRun runs argv through commands.Run in b's loop, stdout discarded,
// the first 4 KB of stderr kept for the failure message.
func benchRun(b *testing.B, argv []string) {
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		errb := &headWriter{max: 4096}
		code := commands.Run(ctx, argv, commands.IO{In: strings.NewReader(""), Out: io.Discard, Err: errb})
		cancel()
		if code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	strings.Builder
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - w.Len(); room > 0 {
		w.Builder.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

package commands_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
)

// BenchmarkPlanAllGroups times `kcg plan --all-groups --all-topics
// --shift-by -5 --out F` (bench/run's plan row) against
// KCG_BENCH_BOOTSTRAP as it is, for a memory or CPU profile of the real
// thing (bench/run's 2,000 × 64 seeding; see docs/benchmarks.md). Skipped
// without it.
func BenchmarkPlanAllGroups(b *testing.B) {
	bootstrap := os.Getenv("KCG_BENCH_BOOTSTRAP")
	if bootstrap == "" {
		b.Skip("KCG_BENCH_BOOTSTRAP is not set: this benchmark reads a seeded cluster (bench/seed)")
	}
	out := filepath.Join(b.TempDir(), "plan.yaml")
	argv := []string{"kcg", "plan", "--all-groups", "--all-topics", "--shift-by", "-5", "--out", out, "--overwrite", "--bootstrap-server", bootstrap, "--timeout", "5m"}
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		// The summary goes to stderr: only its start is kept, as a
		// terminal or a file would not cost the process memory.
		errb := &headWriter{max: 4096}
		code := commands.Run(ctx, argv, commands.Streams{In: strings.NewReader(""), Out: io.Discard, Err: errb})
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

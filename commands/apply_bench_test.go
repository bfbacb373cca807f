package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// BenchmarkApply times `kcg apply` end to end (read the plan, preflight,
// rollback plan, commits, read-back, report) of BENCH_APPLY_GROUPS groups
// (default 2,000) × 4 partitions on the in-process kfake cluster, which
// shares the process (its allocations are in -benchmem's numbers). Each
// iteration applies a fresh plan, made untimed, to alternate targets, so
// that every timed apply writes every partition. Numbers in
// docs/benchmarks.md.
func BenchmarkApply(b *testing.B) {
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("BENCH_APPLY_GROUPS")); err == nil && v > 0 {
		n = v
	}
	e := kafkatest.Fake(b)
	topic := kafkatest.UniqueName(b, "t")
	e.CreateTopic(b, topic, 4)
	for p := range 4 {
		e.Produce(b, topic, p, clitest.Records(10)...)
	}
	base := kafkatest.UniqueName(b, "g")
	var groups []string
	for i := range n {
		g := fmt.Sprintf("%s-%05d", base, i)
		groups = append(groups, g)
		e.Commit(b, g, topic, map[int32]int64{0: 5, 1: 5, 2: 5, 3: 5})
	}
	dir := b.TempDir()
	plan := filepath.Join(dir, "p.yaml")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		args := append([]string{"plan", "--topic", topic, "--to-offset", strconv.Itoa(1 + i%2), "--out", plan, "--overwrite", "--bootstrap-server", e.Bootstrap, "--timeout", "5m"}, groups...)
		clitest.Run(b, args...).MustCode(b, 0)
		b.StartTimer()
		clitest.Run(b, "apply", plan, "--rollback-out", filepath.Join(dir, fmt.Sprintf("rb%d.yaml", i)), "--bootstrap-server", e.Bootstrap, "--timeout", "5m").MustCode(b, 0)
	}
}

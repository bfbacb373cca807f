package commands_test

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// paceDeltas are records per partition that one sample to the next both
// commits and writes, in another order: every partition's lag moves, the
// group's stays. Summed as per-partition float rates, the two totals
// differ by a rounding step in about a third of the intervals (measured
// over intervals near 1 s).
var paceDeltas = []int{29, 23, 26, 6, 2, 6, 18, 45, 36, 18, 18}

// paceMove commits deltas[j] more records on partition j (of committed)
// and writes a permutation of them, from the sample printed last to the
// next (1 s later).
func paceMove(t testing.TB, e *kafkatest.Env, r *rand.Rand, group, topic string, committed map[int32]int64) {
	written := append([]int(nil), paceDeltas...)
	r.Shuffle(len(written), func(i, j int) { written[i], written[j] = written[j], written[i] })
	for p, n := range written {
		e.Produce(t, topic, p, records(n)...)
		committed[int32(p)] += int64(paceDeltas[p])
	}
	e.Commit(t, group, topic, committed)
}

func orNull(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// Issue 30 item 3, end to end with the built binary: a group whose
// consumer commits exactly as many records as its producer writes between
// two samples has equal rates and no ETA (null, "-" in the table), and the
// table does not crash — the summed float rates made an ETA of lag ÷ a
// rounding step, and a large one overflowed into a stack overflow.
func TestWatchKeepingPaceHasNoETA(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kcg binary")
	}
	bin := filepath.Join(buildKCG(t), "kcg")
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "pace")
	group := kafkatest.UniqueName(t, "pace")
	e.CreateTopic(t, topic, len(paceDeltas))
	committed := map[int32]int64{}
	for p := range paceDeltas {
		e.Produce(t, topic, p, records(400)...)
		committed[int32(p)] = 100 // lag 300 a partition: 3,300 in all
	}
	e.Commit(t, group, topic, committed)
	r := rand.New(rand.NewPCG(30, 3))

	// watch starts a sample every second; after each is printed, the next
	// second's records are committed and written, well before the next.
	run := func(t *testing.T, count int, format string, sample func(line string) bool) (stderr string) {
		var errb strings.Builder
		cmd := exec.Command(bin, "watch", group, "--bootstrap-server", e.Bootstrap, "--interval", "1s", "--count", strconv.Itoa(count), "-o", format)
		sc := bufio.NewScanner(startPiped(t, cmd, &errb))
		sc.Buffer(nil, 1<<20)
		n := 0
		for sc.Scan() {
			if sample(sc.Text()) {
				if n++; n < count {
					paceMove(t, e, r, group, topic, committed)
				}
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("watch -o %s: %v after %d samples; stderr:\n%s", format, err, n, errb.String())
		}
		if n != count {
			t.Fatalf("watch -o %s: %d samples, want %d", format, n, count)
		}
		return errb.String()
	}

	t.Run("json", func(t *testing.T) {
		type part struct {
			Partition int32  `json:"partition"`
			Committed *int64 `json:"committedOffset"`
			End       *int64 `json:"endOffset"`
		}
		type sample struct {
			Groups []struct {
				Lag         *int64   `json:"lag"`
				ConsumeRate *float64 `json:"consumeRate"`
				ProduceRate *float64 `json:"produceRate"`
				EtaSeconds  *float64 `json:"etaSeconds"`
				Partitions  []part   `json:"partitions"`
			} `json:"groups"`
		}
		var prev []part
		even := 0
		run(t, 9, "json", func(line string) bool {
			var s sample
			if err := json.Unmarshal([]byte(line), &s); err != nil || len(s.Groups) != 1 {
				t.Fatalf("not a sample of one group: %v: %s", err, line)
			}
			g := s.Groups[0]
			if prev != nil {
				// The fixture's own check: a sample that caught a move half
				// done has unequal counts, and a real ETA or none.
				var consumed, written int64
				for i, p := range g.Partitions {
					consumed += *p.Committed - *prev[i].Committed
					written += *p.End - *prev[i].End
				}
				if consumed == written && consumed > 0 {
					even++
					if g.EtaSeconds != nil || g.ConsumeRate == nil || g.ProduceRate == nil || *g.ConsumeRate != *g.ProduceRate {
						t.Errorf("%d records committed and written, lag %d: consumeRate %s, produceRate %s, etaSeconds %s; want equal rates and no ETA",
							consumed, *g.Lag, orNull(g.ConsumeRate), orNull(g.ProduceRate), orNull(g.EtaSeconds))
					}
				}
			}
			prev = g.Partitions
			return true
		})
		if even < 5 {
			t.Fatalf("only %d of 8 intervals had as many records committed as written: the fixture did not hold", even)
		}
	})

	t.Run("table", func(t *testing.T) {
		// Piped: one table per sample, a header and the group's row.
		stderr := run(t, 9, "table", func(line string) bool {
			f := strings.Fields(line)
			if len(f) == 0 || f[0] == "GROUP" {
				return false
			}
			if f[0] != group || len(f) < 8 {
				t.Fatalf("row %q", line)
			}
			return true
		})
		if stderr != "" {
			t.Errorf("stderr %q, want nothing", stderr)
		}
	})
}

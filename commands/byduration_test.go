package commands_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/resetplan"
)

// planTargets reads the targets of a plan file, by "topic/partition".
func planTargets(t *testing.T, path string) map[string]int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := resetplan.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			if pt.Target != nil {
				out[fmt.Sprintf("%s/%d", pt.Topic, pt.Partition)] = *pt.Target
			}
		}
	}
	return out
}

// --by-duration in native kcg plan (issue 20 §2.8, §2.15): a negative
// duration is a usage error (Java reads it as a time in the future and
// falls back to the log end; drop-in mode keeps that, see
// dropin_test.go); PT0S is now: the log end of every partition, without
// Java's "is empty" text for partitions that have records; a moment
// before 1970 is the first record after it, the log start.
func TestPlanByDurationEdges(t *testing.T) {
	f := newResetFixture(t)
	time.Sleep(20 * time.Millisecond) // the records are older than "now"
	for _, d := range []string{"-PT1H", "-PT0.001S", "P-1D", "PT-1S"} {
		r := kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--by-duration="+d, "--out", f.path("neg.yaml")).MustCode(t, 64)
		oneLine(t, r.Stderr, "--by-duration "+d+" is negative")
		if _, err := os.Stat(f.path("neg.yaml")); err == nil {
			t.Fatalf("--by-duration %s wrote a plan", d)
		}
	}

	r := kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--by-duration", "PT0S", "--out", f.path("now.yaml")).MustCode(t, 0)
	if strings.Contains(r.Stderr, "is empty") || strings.Contains(r.Stderr, "warning:") {
		t.Fatalf("PT0S warned:\n%s", r.Stderr)
	}
	if got := planTargets(t, f.path("now.yaml")); got[f.topic+"/0"] != 10 || got[f.topic+"/1"] != 10 {
		t.Fatalf("PT0S planned %v, want the log ends (10)", got)
	}

	// 100 years ago, before 1970: the log start, not a failure.
	r = kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--by-duration", "PT876000H", "--out", f.path("old.yaml")).MustCode(t, 0)
	if got := planTargets(t, f.path("old.yaml")); got[f.topic+"/0"] != 0 || got[f.topic+"/1"] != 0 {
		t.Fatalf("PT876000H planned %v, want the log starts (0)\n%s", got, r.Stderr)
	}
}

package commands_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
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

// A time past a partition's last record: Java's "Partition 0 from topic t
// is empty" is not what happened when the partition holds records (issue
// 30 item 16). Native plan says that its records are all older than the
// time, and "empty" only for a partition with none; drop-in keeps Java's
// text (dropin_test.go).
func TestPlanNoRecordAfterTimeSaysWhy(t *testing.T) {
	f := newResetFixture(t)
	empty := kafkatest.UniqueName(t, "empty")
	f.e.CreateTopic(t, empty, 1)
	at := time.Now().Add(time.Hour).UTC().Truncate(time.Millisecond)
	datetime := at.Format("2006-01-02T15:04:05.000")
	r := kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--topic", empty, "--to-datetime", datetime, "--out", f.path("late.yaml")).MustCode(t, 0)
	for _, want := range []string{
		fmt.Sprintf("warning: group %s: %s/0 has no record at or after %s: its records (offsets 0 to 9) are all older; planned at its log end, 10\n", f.group, f.topic, at.Format("2006-01-02T15:04:05.000Z")),
		fmt.Sprintf("warning: group %s: %s/1 has no record at or after %s: its records (offsets 0 to 9) are all older; planned at its log end, 10\n", f.group, f.topic, at.Format("2006-01-02T15:04:05.000Z")),
		fmt.Sprintf("warning: group %s: %s/0 is empty (log start = log end = 0): planned at its log end\n", f.group, empty),
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "from topic "+f.topic+" is empty") {
		t.Errorf("a partition with records called empty:\n%s", r.Stderr)
	}
	if got := planTargets(t, f.path("late.yaml")); got[f.topic+"/0"] != 10 || got[f.topic+"/1"] != 10 || got[empty+"/0"] != 0 {
		t.Errorf("planned %v, want the log ends", got)
	}
}

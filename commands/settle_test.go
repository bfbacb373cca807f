package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/app"
)

// A consumer that commits without joining the group (assign() and
// commitSync) is no member for DescribeGroups: apply finds the group empty
// and writes. The consumer then commits its own position again, and the
// reset is undone. apply must not say "written and verified": it watches
// the written offsets (--settle), reports the one the consumer took back
// as overwritten (the offset it now reads), the others as written, and
// exits 4. Once the consumer is stopped, the same plan applies and stays.
func TestApplyReportsOffsetsAConsumerOverwrites(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	// The consumer's position on partition 0 is 5; it never read
	// partition 1.
	stop := f.e.AssignCommitter(t, f.group, f.topic, map[int32]int64{0: 5}, 150*time.Millisecond)

	r := kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--settle", "3s", "-o", "json").MustCode(t, 4)
	if strings.Contains(r.Stderr, "written and verified") {
		t.Errorf("apply reported the overwritten reset as done:\n%s", r.Stderr)
	}
	for _, want := range []string{"overwritten", "assign()", f.group} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr does not name %q:\n%s", want, r.Stderr)
		}
	}
	var rep applyReportJSON
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, r.Stdout)
	}
	if rep.Result != "partial" || len(rep.Groups) != 1 || rep.Groups[0].Result != "overwritten" || len(rep.Groups[0].Partitions) != 2 {
		t.Fatalf("report: %s", r.Stdout)
	}
	p0, p1 := rep.Groups[0].Partitions[0], rep.Groups[0].Partitions[1]
	if p0.Result != "overwritten" || p0.After == nil || *p0.After != 5 {
		t.Errorf("partition 0: %+v, want overwritten, after 5", p0)
	}
	if p1.Result != "written" || p1.After == nil || *p1.After != 2 {
		t.Errorf("partition 1: %+v, want written, after 2", p1)
	}

	stop()
	// A commit cut off by stop may still be at the broker: let it land.
	time.Sleep(300 * time.Millisecond)
	r = kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--settle", "1s").MustCode(t, 0)
	if !strings.Contains(r.Stderr, "written and verified, and still so 1s later") {
		t.Errorf("stderr: %s", r.Stderr)
	}
	time.Sleep(500 * time.Millisecond)
	f.mustCommitted(t, map[int32]int64{0: 2, 1: 2})
}

// --settle 0 skips the watch; a negative or malformed --settle is a usage
// error, before connecting.
func TestApplySettleFlag(t *testing.T) {
	f := newResetFixture(t)
	f.plan(t, "reset.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
	for _, bad := range []string{"-1s", "soon", "5"} {
		r := kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--settle", bad).MustCode(t, 64)
		if !strings.Contains(r.Stderr, "--settle") || !strings.Contains(r.Stderr, app.DurationForms) {
			t.Errorf("--settle %s: %s", bad, r.Stderr)
		}
	}
	f.mustCommitted(t, map[int32]int64{0: 5})
	r := kcgOn(t, f.e, "apply", f.path("reset.yaml"), "--settle", "0").MustCode(t, 0)
	if !strings.Contains(r.Stderr, "written and verified\n") {
		t.Errorf("--settle 0 still watched: %s", r.Stderr)
	}
}

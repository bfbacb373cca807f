package commands_test

import (
	"os"
	"strings"
	"testing"
)

// A flag typed without its value is named, instead of swallowing the
// next flag as its value (`plan G --topic T --shift-by --out f.yaml` said
// "--out FILE is required"): exit 64, one line, nothing written. Negative
// numbers and other words with one dash are still values (issue 30 item
// 9).
func TestFlagWithoutValueIsNamed(t *testing.T) {
	f := newResetFixture(t)
	out := f.path("p.yaml")
	for _, c := range []struct {
		args       []string
		flag, next string
	}{
		{[]string{"plan", f.group, "--topic", f.topic, "--shift-by", "--out", out}, "--shift-by", "--out"},
		{[]string{"plan", f.group, "--topic", f.topic, "--to-earliest", "--out", "--overwrite"}, "--out", "--overwrite"},
		{[]string{"plan", f.group, "--topic", "-b", f.e.Bootstrap, "--to-earliest", "--out", out}, "--topic", "-b"},
		{[]string{"describe", f.group, "-o", "--all-groups"}, "-o", "--all-groups"},
		{[]string{"describe", f.group, "-o", "-h"}, "-o", "-h"},
		{[]string{"describe", f.group, "--max-time-lag", "--"}, "--max-time-lag", "--"},
		{[]string{"plan", f.group, "--topic", f.topic, "--shift-by", "--typo", "--out", out}, "--shift-by", "--typo"},
	} {
		r := kcgOn(t, f.e, c.args...).MustCode(t, 64)
		oneLine(t, r.Stderr, "flag "+c.flag+" needs a value", c.next+" is a flag")
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("kcg %s wrote %s", strings.Join(c.args, " "), out)
		}
	}
	// Values that start with a dash are still values.
	kcgOn(t, f.e, "plan", f.group, "--topic", f.topic+":0", "--shift-by", "-5", "--out", out, "--note", "-x-").MustCode(t, 0)
	if got := mustRead(t, out); !strings.Contains(got, "shiftBy: -5") || !strings.Contains(got, `note: "-x-"`) {
		t.Errorf("plan --shift-by -5 --note -x- wrote:\n%s", got)
	}
	kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-earliest", "--out", out, "--overwrite", "--note=--x").MustCode(t, 0)
	if r := kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-earliest", "--out", "-").MustCode(t, 0); !strings.Contains(r.Stdout, "kind: OffsetResetPlan") {
		t.Errorf("plan --out - printed:\n%s", r.Stdout)
	}
}

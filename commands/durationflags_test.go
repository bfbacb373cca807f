package commands_test

import (
	"testing"
)

// Every duration flag takes days, as the tables print durations (6d23h),
// and a bad value names the accepted forms, not just "parse error"
// (issue 30 item 14).
func TestDurationFlagsTakeDays(t *testing.T) {
	f := newResetFixture(t)
	plan := f.path("p.yaml")
	f.plan(t, "p.yaml", f.group, "--topic", f.topic, "--to-earliest")
	for _, args := range [][]string{
		{"describe", f.group, "--max-time-lag", "8d", "--min-retention-headroom", "0d", "--timeout", "1d", "-b", f.e.Bootstrap},
		{"watch", f.group, "--count", "1", "--interval", "1d", "-b", f.e.Bootstrap},
		{"show", plan, "--max-checkpoint-age", "6d23h"},
	} {
		kcg(t, args...).MustCode(t, 0)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"describe", f.group, "--max-time-lag", "8x", "-b", f.e.Bootstrap}, "--max-time-lag"},
		{[]string{"describe", f.group, "--min-retention-headroom", "1.5d", "-b", f.e.Bootstrap}, "--min-retention-headroom"},
		{[]string{"watch", f.group, "--interval", "soon", "-b", f.e.Bootstrap}, "--interval"},
		{[]string{"show", plan, "--max-checkpoint-age", "5"}, "--max-checkpoint-age"},
		{[]string{"plan", f.group, "--topic", f.topic, "--to-earliest", "--out", "-", "--max-checkpoint-age", "1w", "-b", f.e.Bootstrap}, "--max-checkpoint-age"},
		{[]string{"describe", f.group, "--timeout", "2x", "-b", f.e.Bootstrap}, "--timeout"},
		{[]string{"apply", plan, "--wait-empty", "8x", "-b", f.e.Bootstrap}, "--wait-empty"},
	} {
		r := kcg(t, c.args...).MustCode(t, 64)
		oneLine(t, r.Stderr, c.flag, "8d, 6d23h, 90m")
	}
}

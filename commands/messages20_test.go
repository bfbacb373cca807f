package commands_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// The messages a new user met (issue 20 §2 item 13).
func TestMessagesNewUser(t *testing.T) {
	line := func(args []string, code int, want string) {
		t.Helper()
		r := kcg(t, args...).MustCode(t, code)
		if got := strings.TrimSuffix(r.Stderr, "\n"); strings.Contains(got, "\n") || !strings.Contains(got, want) {
			t.Errorf("%q: stderr %q, want one line containing %q", args, r.Stderr, want)
		}
	}
	// A mistyped command gets the closest one.
	line([]string{"descrbe"}, 64, `kcg: unknown command "descrbe"; did you mean describe? (see 'kcg --help')`)
	line([]string{"lst", "-b", "h:1"}, 64, "did you mean list?")
	line([]string{"xyzzyq"}, 64, `kcg: unknown command "xyzzyq" (see 'kcg --help')`)
	// Flags are named as typed, with two dashes.
	line([]string{"watch", "billing", "--count", "x", "-b", "h:1"}, 64, `invalid value "x" for flag --count: parse error`)
	line([]string{"sandbox", "--port", "x"}, 64, `invalid value "x" for flag --port: parse error (see 'kcg sandbox --help')`)
	// A number too large for an offset is out of range, not "not a number".
	line([]string{"plan", "billing", "--topic", "t", "--to-offset", "99999999999999999999", "--out", "-", "-b", "127.0.0.1:1"}, 64,
		`invalid --to-offset "99999999999999999999": out of range: a whole number from -9223372036854775808 to 9223372036854775807`)
	line([]string{"plan", "billing", "--topic", "t", "--shift-by", "-99999999999999999999", "--out", "-", "-b", "127.0.0.1:1"}, 64, "out of range")
	line([]string{"plan", "billing", "--topic", "t", "--to-offset", "ten", "--out", "-", "-b", "127.0.0.1:1"}, 64, "not a whole number")
	// A port that cannot be is a usage error, before anything listens.
	line([]string{"sandbox", "--port", "99999"}, 64, "kcg: --port 99999: a port is 0 (a free one) to 65535")
	line([]string{"sandbox", "--port", "-1"}, 64, "--port -1")
	if h := kcg(t, "sandbox", "--help").MustCode(t, 0).Stdout; !strings.Contains(h, "port to listen on (default: a free port)\n") || strings.Count(h, "(default:") != 1 {
		t.Errorf("sandbox --help:\n%s", h)
	}
}

// apply and show take one plan, diff two: completion offers files only
// where a file is taken.
func TestCompletionFilesOnlyWhereTaken(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		files bool
	}{
		{[]string{"apply", ""}, true},
		{[]string{"apply", "p.yaml", ""}, false},
		{[]string{"apply", "--force", "p.yaml", ""}, false},
		{[]string{"show", "p.yaml", ""}, false},
		{[]string{"diff", "a.yaml", ""}, true},
		{[]string{"diff", "a.yaml", "b.yaml", ""}, false},
		{[]string{"apply", "p.yaml", "--rollback-out", ""}, true},
	} {
		got := words(t, tc.args...)
		if slices.Contains(got, ":files") != tc.files {
			t.Errorf("%q: %q; files wanted: %v", tc.args, got, tc.files)
		}
		if !tc.files && !slices.Contains(got, "--help") {
			t.Errorf("%q: %q; want the command's flags", tc.args, got)
		}
	}
}

// describe --all-groups says once that idle groups have no members, not
// a line per group before the table; one group keeps Java's line, and
// drop-in mode Java's line per group.
func TestDescribeIdleGroupsOneLine(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	g1, g2 := kafkatest.UniqueName(t, "a"), kafkatest.UniqueName(t, "b")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, g1, topic, map[int32]int64{0: 0})
	e.Commit(t, g2, topic, map[int32]int64{0: 0})

	r := kcgOn(t, e, "describe", g1, g2).MustCode(t, 0)
	want := "2 consumer groups have no active members: " + g1 + ", " + g2 + ".\n"
	if r.Stderr != want {
		t.Errorf("stderr %q, want %q", r.Stderr, want)
	}
	r = kcgOn(t, e, "describe", "--all-groups").MustCode(t, 0)
	if strings.Contains(r.Stderr, "' has no active members.") || strings.Count(r.Stderr, "consumer groups have no active members") != 1 {
		t.Errorf("--all-groups stderr:\n%s", r.Stderr)
	}
	if r := kcgOn(t, e, "describe", g1).MustCode(t, 0); r.Stderr != "Consumer group '"+g1+"' has no active members.\n" {
		t.Errorf("one group: stderr %q", r.Stderr)
	}
	r = kcg(t, "--bootstrap-server", e.Bootstrap, "--describe", "--group", g1, "--group", g2).MustCode(t, 0)
	if r.Stderr != "\nConsumer group '"+g1+"' has no active members.\n\nConsumer group '"+g2+"' has no active members.\n" {
		t.Errorf("drop-in stderr %q", r.Stderr)
	}
}

// apply names the plan it applied and the rollback it wrote; digests are
// for review (plan, show), not repeated after the writes.
func TestApplyStderrWithoutDigest(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(2)...)
	e.Commit(t, group, topic, map[int32]int64{0: 2})
	plan := filepath.Join(t.TempDir(), "p.yaml")
	kcgOn(t, e, "plan", group, "--topic", topic, "--to-earliest", "--out", plan).MustCode(t, 0)
	r := kcgOn(t, e, "apply", plan).MustCode(t, 0)
	if strings.Contains(r.Stderr, "digest") || strings.Contains(r.Stderr, "sha256:") || !strings.Contains(r.Stderr, "rollback plan written to ") {
		t.Errorf("apply stderr %q", r.Stderr)
	}
}

// A flag the chosen table would drop is a usage error; JSON carries every
// view, so there it applies (issue 20 §2 item 11).
func TestDescribeViewIgnoresNoFlag(t *testing.T) {
	for _, args := range [][]string{
		{"--state", "--time-lag"}, {"--state", "--topic", "t"}, {"--members", "--time-lag"},
		{"--members", "--topic", "t:0"}, {"--state", "--isolation", "read-committed"},
	} {
		r := kcg(t, append([]string{"describe", "billing", "-b", "127.0.0.1:1"}, args...)...).MustCode(t, 64)
		if !strings.Contains(r.Stderr, "changes the offsets view") || r.Stdout != "" {
			t.Errorf("%q: stdout %q stderr %q", args, r.Stdout, r.Stderr)
		}
	}
	e := kafkatest.Cluster(t)
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	kcgOn(t, e, "describe", group, "--state", "--topic", topic, "-o", "json").MustCode(t, 0)
	kcgOn(t, e, "describe", group, "--state", "--verbose").MustCode(t, 0)
	kcgOn(t, e, "describe", group, "--topic", topic, "--time-lag").MustCode(t, 0)
}

// show marks a target outside the plan's own log bounds (a hand-edited
// plan) instead of counting records to replay (issue 20 §2 item 11).
func TestShowTargetOutsideLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.yaml")
	plan := `apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-12-01T00:00:00Z"
cluster: {id: c, bootstrap: "h:9092"}
strategy: {type: to-earliest}
groups:
  - group: g
    partitions:
      - {topic: t, partition: 0, current: 40, target: -7, logStart: 0, logEnd: 50, reason: resolved}
      - {topic: t, partition: 1, current: 40, target: 99, logStart: 0, logEnd: 50, reason: resolved}
      - {topic: t, partition: 2, current: 40, target: 38, logStart: 0, logEnd: 50, reason: resolved}
`
	if err := os.WriteFile(path, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	r := kcg(t, "show", path).MustCode(t, 0)
	got := rows(r.Stdout, "g")
	if len(got) != 4 {
		t.Fatalf("rows %q\n%s", got, r.Stdout)
	}
	for i, want := range []string{"outside the log: apply refuses", "outside the log: apply refuses", "replay 2", "replay 2, skip 0, 2 outside the log"} {
		if line := strings.Join(got[i], " "); !strings.HasSuffix(line, want) {
			t.Errorf("row %d %q, want it to end %q", i, line, want)
		}
	}
	if strings.Contains(r.Stdout, "replay 47") || strings.Contains(r.Stdout, "skip 59") {
		t.Errorf("impact counted for targets outside the log:\n%s", r.Stdout)
	}
}

package commands_test

import (
	"fmt"
	"strings"
	"testing"
)

// describe --topic takes T:P,P as plan does, and a --topic that matches no
// partition is named on stderr; when none matches, describe exits 1.
func TestDescribeTopicPartitionsAndUnmatched(t *testing.T) {
	f := newResetFixture(t)
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 5, 1: 7})

	// The partition rows, without the (total) row.
	partRows := func(out string) [][]string {
		var ps [][]string
		for _, r := range rows(out, f.group) {
			if r[1] == f.topic {
				ps = append(ps, r)
			}
		}
		return ps
	}
	r := kcgOn(t, f.e, "describe", f.group, "--topic", f.topic+":1").MustCode(t, 0)
	got := partRows(r.Stdout)
	if len(got) != 1 || got[0][1] != f.topic || got[0][2] != "1" || got[0][3] != "7" {
		t.Fatalf("--topic %s:1 rows %v\n%s%s", f.topic, got, r.Stdout, r.Stderr)
	}
	if strings.Contains(r.Stderr, "matched no") {
		t.Fatalf("stderr: %s", r.Stderr)
	}

	// One of two matches: the data, and a line naming the other; exit 0.
	r = kcgOn(t, f.e, "describe", f.group, "--topic", f.topic+":0", "--topic", "nosuch").MustCode(t, 0)
	if got := partRows(r.Stdout); len(got) != 1 || got[0][2] != "0" {
		t.Fatalf("rows %v\n%s", got, r.Stdout)
	}
	if !strings.Contains(r.Stderr, "kcg: --topic nosuch matched no partition of the described groups\n") {
		t.Fatalf("stderr: %q", r.Stderr)
	}

	// Nothing matches: every --topic is named, exit 1.
	r = kcgOn(t, f.e, "describe", f.group, "--topic", f.topic+":7", "--topic", "nosuch", "-o", "json").MustCode(t, 1)
	for _, want := range []string{"--topic " + f.topic + ":7 matched no", "--topic nosuch matched no"} {
		if !strings.Contains(r.Stderr, want) {
			t.Fatalf("stderr lacks %q: %q", want, r.Stderr)
		}
	}
	if d := parseDescribe(t, r.Stdout); len(d.Groups) != 1 || len(d.Groups[0].Offsets) != 0 {
		t.Fatalf("JSON %+v", d)
	}

	// A malformed partition list is a usage error, before any network.
	r = kcg(t, "describe", f.group, "--topic", f.topic+":x", "--bootstrap-server", "127.0.0.1:1").MustCode(t, 64)
	if !strings.Contains(r.Stderr, `invalid --topic "`+f.topic+`:x"`) {
		t.Fatalf("stderr: %q", r.Stderr)
	}
}

// A mistyped group or --topic in describe is named with the closest
// names, as plan names a mistyped group (issue 30 item 17): the Java
// tool's "does not exist" line and exit 1 stay, the closest groups follow
// on that line; a --topic that matched nothing names the closest topics
// the described groups committed.
func TestDescribeTypoNamesClosest(t *testing.T) {
	f := newResetFixture(t)
	typo := f.group[:len(f.group)-1] + "x" + f.group[len(f.group)-1:]
	r := kcgOn(t, f.e, "describe", typo).MustCode(t, 1)
	want := fmt.Sprintf("Error: Consumer group '%s' does not exist. (closest: %s", typo, f.group)
	if !strings.Contains(r.Stderr, want) || strings.Count(r.Stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", r.Stderr, want)
	}
	// Far from every group: Java's line alone.
	r = kcgOn(t, f.e, "describe", "zz").MustCode(t, 1)
	if r.Stderr != "Error: Consumer group 'zz' does not exist.\n" {
		t.Errorf("stderr %q", r.Stderr)
	}

	mistyped := f.topic[:len(f.topic)-2] + f.topic[len(f.topic)-1:]
	r = kcgOn(t, f.e, "describe", f.group, "--topic", mistyped).MustCode(t, 1)
	if want := fmt.Sprintf("kcg: --topic %s matched no partition of the described groups (closest of their topics: %s)\n", mistyped, f.topic); !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr %q lacks %q", r.Stderr, want)
	}
	// The topic exists, its partition 7 does not: no topic to suggest.
	r = kcgOn(t, f.e, "describe", f.group, "--topic", f.topic+":7").MustCode(t, 1)
	if !strings.Contains(r.Stderr, "--topic "+f.topic+":7 matched no partition of the described groups\n") {
		t.Errorf("stderr %q", r.Stderr)
	}
}

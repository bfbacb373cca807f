package commands_test

import (
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

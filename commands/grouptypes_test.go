package commands_test

import (
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// A share group (KIP-932; kfake implements them, the real broker has them
// on by default in 4.4) among kcg's commands: kcg list shows it only when
// --type asks for it, the kafka-consumer-groups drop-in command line
// refuses it (exit 3, the Java layout naming kafka-share-groups.sh,
// nothing written) as the Java tool does, and plan --all-groups without
// --type leaves it out with a note. kcg's own commands manage it
// (share_test.go, share_real_test.go).
func TestListShareGroupsDropInRefuses(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)

	r := kcgOn(t, f.e, "list").MustCode(t, 0)
	if len(rows(r.Stdout, share)) != 0 {
		t.Fatalf("default list shows the share group:\n%s", r.Stdout)
	}
	for _, typ := range []string{"share", "share,streams", "all", "ALL"} {
		r := kcgOn(t, f.e, "list", "--type", typ).MustCode(t, 0)
		if g := rows(r.Stdout, share); len(g) != 1 || g[0][2] != "share" {
			t.Fatalf("list --type %s: rows %v\n%s", typ, g, r.Stdout)
		}
	}
	r = kcgOn(t, f.e, "list", "--type", "all").MustCode(t, 0)
	if len(rows(r.Stdout, f.group)) != 1 {
		t.Fatalf("list --type all misses the consumer group %s:\n%s", f.group, r.Stdout)
	}
	r = kcgOn(t, f.e, "list", "--type", "classic,consumer").MustCode(t, 0)
	if len(rows(r.Stdout, share)) != 0 {
		t.Fatalf("list --type classic,consumer shows the share group:\n%s", r.Stdout)
	}

	// The kafka-consumer-groups drop-in refuses it, in the Java tool's
	// error layout.
	for _, args := range [][]string{
		{"--describe", "--group", share},
		{"--delete", "--group", share},
		{"--reset-offsets", "--group", share, "--topic", f.topic, "--to-earliest", "--execute"},
	} {
		r := kcgOn(t, f.e, args...).MustCode(t, 3)
		if !strings.Contains(r.Stdout, "kafka-share-groups.sh") {
			t.Fatalf("drop-in %q: stdout %q stderr %q", args, r.Stdout, r.Stderr)
		}
	}
	if typ := f.e.GroupTypes(t)[share]; typ != "share" {
		t.Fatalf("the share group is gone (type %q)", typ)
	}

	// --all-groups leaves it out and says so.
	r = kcgOn(t, f.e, "plan", "--all-groups", "--topic", f.topic, "--to-current", "--out", f.path("all.yaml")).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "note: --all-groups leaves out") || strings.Contains(r.Stderr, "group: "+share) {
		t.Fatalf("plan --all-groups stderr: %q", r.Stderr)
	}
}

// apply checks the type again: a plan made for a group id that is a
// share group by apply time is refused, and nothing is committed.
func TestApplyRefusesGroupReusedAsShare(t *testing.T) {
	f := newResetFixture(t)
	id := kafkatest.UniqueName(t, "reused")
	out := f.path("reused.yaml")
	kcgOn(t, f.e, "plan", id, "--topic", f.topic, "--to-earliest", "--allow-new-group", "--out", out).MustCode(t, 0)
	f.e.ShareGroupMember(t, id, f.topic)
	r := kcgOn(t, f.e, "apply", out).MustCode(t, 3)
	oneLine(t, r.Stderr, "group "+id+" was planned as a consumer group and is a share group now", "nothing was written")
	if got := f.e.Committed(t, id); len(got) != 0 {
		t.Fatalf("apply committed %v for a share group", got)
	}
	r = kcgOn(t, f.e, "diff", out).MustCode(t, 3)
	oneLine(t, r.Stderr, "planned as a consumer group and is a share group now")
}

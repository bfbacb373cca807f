package commands_test

import (
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// plan --all-groups takes the types --type names, and only those: a
// consumer-group reset (no --type) never touches a share group.
func TestPlanAllGroupsType(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)

	for _, typ := range []string{"classic,consumer", "consumer,classic", "classic", ""} {
		args := []string{"plan", "--all-groups", "--topic", f.topic, "--to-current", "--out", "-"}
		if typ != "" {
			args = append(args, "--type", typ)
		}
		r := kcgOn(t, f.e, args...).MustCode(t, 0)
		if strings.Contains(r.Stdout, share) {
			t.Fatalf("--type %q plans the share group:\n%s", typ, r.Stdout)
		}
		if !strings.Contains(r.Stderr, "note: --all-groups leaves out") || !strings.Contains(r.Stderr, "--type names the types") {
			t.Fatalf("--type %q: stderr %q", typ, r.Stderr)
		}
	}
	for _, args := range [][]string{
		{"plan", f.group, "--type", "share", "--topic", f.topic, "--to-current", "--out", "-"},
		{"plan", "--all-groups", "--type", "sharee", "--topic", f.topic, "--to-current", "--out", "-"},
		{"plan", "--all-groups", "--type", "", "--topic", f.topic, "--to-current", "--out", "-"},
	} {
		r := kcgOn(t, f.e, args...).MustCode(t, 64)
		oneLine(t, r.Stderr, "--type")
	}
}

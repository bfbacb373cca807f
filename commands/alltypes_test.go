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

// On a cluster without share groups (3.9, 4.0: the version suites of
// .ci/run) a share command says so in one line, exit 3; with them, the
// same command plans (no share group here: nothing to plan, exit 3 too,
// but another line).
func TestPlanShareTypeWithoutShareGroups(t *testing.T) {
	f := newResetFixture(t)
	r := kcgOn(t, f.e, "plan", "--all-groups", "--type", "share", "--topic", f.topic, "--to-earliest", "--out", "-")
	if f.e.HasShareGroups(t) {
		if strings.Contains(r.Stderr, "has no share groups") {
			t.Fatalf("a cluster with share groups said it has none: %q", r.Stderr)
		}
		return
	}
	r.MustCode(t, 3)
	oneLine(t, r.Stderr, "the cluster has no share groups", "Kafka 4.1")
}

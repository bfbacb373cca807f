package commands_test

import (
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kversion"
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

// The same for streams groups: on a cluster without them (3.9, 4.0 in the
// version suites, and kfake, which has no StreamsGroupDescribe) plan
// --all-groups --type streams says so in one line, exit 3.
func TestPlanStreamsTypeWithoutStreamsGroups(t *testing.T) {
	f := newResetFixture(t)
	r := kcgOn(t, f.e, "plan", "--all-groups", "--type", "streams", "--topic", f.topic, "--to-earliest", "--out", "-")
	if f.e.HasStreamsGroups(t) {
		if strings.Contains(r.Stderr, "has no streams groups") {
			t.Fatalf("a cluster with streams groups said it has none: %q", r.Stderr)
		}
		return
	}
	r.MustCode(t, 3)
	oneLine(t, r.Stderr, "the broker has no streams groups", "Kafka 4.1", "nothing was written")
}

// kcg list --type share on a cluster without share groups (3.9, 4.0: the
// version suites) adds one note line on stderr to its list, as --type
// streams does; a cluster with share groups (4.1+, kfake) prints none.
func TestListShareTypeWithoutShareGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	r := kcgOn(t, e, "list", "--type", "share").MustCode(t, 0)
	if e.HasShareGroups(t) {
		if r.Stderr != "" {
			t.Fatalf("a cluster with share groups: stderr %q", r.Stderr)
		}
		return
	}
	oneLine(t, r.Stderr, "note: the broker has no share groups", "Kafka 4.1")
}

// The streams note of kcg list on any cluster: one line where the cluster
// has no streams groups (kfake too), none where it has.
func TestListStreamsTypeNote(t *testing.T) {
	e := kafkatest.Cluster(t)
	r := kcgOn(t, e, "list", "--type", "streams").MustCode(t, 0)
	if e.HasStreamsGroups(t) {
		if r.Stderr != "" {
			t.Fatalf("a cluster with streams groups: stderr %q", r.Stderr)
		}
		return
	}
	oneLine(t, r.Stderr, "note: the broker has no streams groups")
	if r := kcgOn(t, e, "list", "--type", "share,streams").MustCode(t, 0); e.HasShareGroups(t) {
		oneLine(t, r.Stderr, "note: the broker has no streams groups")
	} else if n := strings.Count(r.Stderr, "\n"); n != 2 || !strings.Contains(r.Stderr, "no share groups") {
		t.Fatalf("list --type share,streams: stderr %q", r.Stderr)
	}
}

// list --type consumer on a cluster without KIP-848 consumer groups (2.8.2,
// 3.7.2 in the version suites; kfake pretending to be 2.8) says so in one
// line on stderr and lists nothing, exit 0; a cluster with them says
// nothing.
func TestListConsumerTypeNote(t *testing.T) {
	for _, c := range []struct {
		name string
		e    func(t *testing.T) *kafkatest.Env
	}{
		{"cluster", func(t *testing.T) *kafkatest.Env { return kafkatest.Cluster(t) }},
		{"kfake-2.8", func(t *testing.T) *kafkatest.Env {
			return kafkatest.FakeBrokers(t, 1, kfake.MaxVersions(kversion.V2_8_0()))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := c.e(t)
			group := kafkatest.UniqueName(t, "g")
			topic := kafkatest.UniqueName(t, "t")
			e.CreateTopic(t, topic, 1)
			e.Commit(t, group, topic, map[int32]int64{0: 0})
			r := kcgOn(t, e, "list", "--type", "consumer").MustCode(t, 0)
			if e.HasConsumerProtocol(t) {
				if r.Stderr != "" {
					t.Fatalf("a cluster with KIP-848 groups: stderr %q", r.Stderr)
				}
				return
			}
			oneLine(t, r.Stderr, "note: the broker has no KIP-848 consumer groups")
			if strings.Contains(r.Stdout, group) {
				t.Fatalf("list --type consumer shows the classic group %s:\n%s", group, r.Stdout)
			}
		})
	}
}

// --type all is every type the cluster has: on a cluster without share or
// streams groups (3.9, 4.0; kfake has no streams groups) it plans the
// consumer groups and says nothing of the missing types, where naming
// such a type on its own is refused (the tests above).
func TestPlanAllTypesOnEveryCluster(t *testing.T) {
	f := newResetFixture(t)
	for _, typ := range []string{"all", "streams,share,consumer,classic"} {
		r := kcgOn(t, f.e, "plan", "--all-groups", "--type", typ, "--topic", f.topic, "--to-current", "--out", "-").MustCode(t, 0)
		if !strings.Contains(r.Stdout, f.group) {
			t.Fatalf("--type %s does not plan the consumer group %s:\n%s", typ, f.group, r.Stdout)
		}
		if strings.Contains(r.Stderr, "has no") {
			t.Fatalf("--type %s: stderr %q", typ, r.Stderr)
		}
	}
}

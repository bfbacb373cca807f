package commands_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// The Java tools that manage the other group types, from the same jars.
const (
	shareGroupCommandClass   = "org.apache.kafka.tools.consumer.group.ShareGroupCommand"
	streamsGroupCommandClass = "org.apache.kafka.tools.streams.StreamsGroupCommand"
)

// Side by side with the Java tools on a real 4.4 broker: kcg list lists
// what kafka-consumer-groups --list lists, --type share|streams what
// kafka-share-groups / kafka-streams-groups list; describe, plan and
// delete refuse the share group (Java 4.4's kafka-consumer-groups output is
// logged, for docs/migration.md).
func TestOtherGroupTypesSideBySideWithJava(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "compares with the Java kafka-consumer-groups, kafka-share-groups and kafka-streams-groups tools")
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	share := kafkatest.UniqueName(t, "share")
	e.ShareGroupMember(t, share, topic)
	streams := kafkatest.UniqueName(t, "streams")
	e.StreamsGroupMember(t, streams)

	javaList := func(class string) []string {
		out, stderr, code := e.JavaRun(t, class, "", "--bootstrap-server", e.Bootstrap, "--list")
		if code != 0 {
			t.Fatalf("%s --list exited %d: %s", class, code, stderr)
		}
		return strings.Fields(out)
	}
	kcgList := func(args ...string) []string {
		r := kcgOn(t, e, append([]string{"list", "-o", "json"}, args...)...).MustCode(t, 0)
		var names []string
		for _, g := range []string{share, streams} {
			if strings.Contains(r.Stdout, `"`+g+`"`) {
				names = append(names, g)
			}
		}
		return names
	}
	consumer := javaList(kafkatest.ConsumerGroupCommandClass)
	for _, g := range []string{share, streams} {
		if slices.Contains(consumer, g) != slices.Contains(kcgList(), g) {
			t.Errorf("%s: kafka-consumer-groups --list lists it: %v; kcg list: %v", g, slices.Contains(consumer, g), kcgList())
		}
	}
	if !slices.Contains(javaList(shareGroupCommandClass), share) || !slices.Equal(kcgList("--type", "share"), []string{share}) {
		t.Errorf("share group %s: kafka-share-groups --list and kcg list --type share differ", share)
	}
	if !slices.Contains(javaList(streamsGroupCommandClass), streams) || !slices.Equal(kcgList("--type", "streams"), []string{streams}) {
		t.Errorf("streams group %s: kafka-streams-groups --list and kcg list --type streams differ", streams)
	}
	if got := kcgList("--type", "all"); len(got) != 2 {
		t.Errorf("kcg list --type all: %v", got)
	}

	// Streams groups are no longer refused (streams_test.go).
	for g, tool := range map[string]string{share: "kafka-share-groups.sh"} {
		jout, jerr, jcode := e.JavaTool(t, "--bootstrap-server", e.Bootstrap, "--describe", "--group", g)
		t.Logf("Java 4.4 kafka-consumer-groups --describe --group %s: exit %d\nstdout: %s\nstderr: %s", g, jcode, jout, jerr)
		if g == share {
			// kcg manages share groups natively (share_test.go,
			// share_real_test.go): describe shows the start offsets, and
			// the broker refuses to delete a group with a member.
			r := kcgOn(t, e, "describe", g).MustCode(t, 0)
			if !strings.Contains(r.Stdout, "START-OFFSET") {
				t.Fatalf("kcg describe %s:\n%s", g, r.Stdout)
			}
			kcgOn(t, e, "delete", "--yes", g).MustCode(t, 1)
			continue
		}
		for _, args := range [][]string{
			{"describe", g},
			{"plan", g, "--topic", topic, "--to-earliest", "--out", "-"},
			{"delete", "--yes", g},
			{"delete-offsets", "--yes", g, "--topic", topic},
		} {
			r := kcgOn(t, e, args...).MustCode(t, 3)
			oneLine(t, r.Stderr, tool)
		}
	}
	if types := e.GroupTypes(t); types[share] != "share" || types[streams] != "streams" {
		t.Fatalf("a group was changed: %v", types)
	}
}

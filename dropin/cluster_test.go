package dropin_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// The drop-in suite on a real cluster: a topic whose partitions are led by
// each of the three brokers and, per tool, three groups whose coordinators
// are brokers 1, 2 and 3. Every command below sends requests to several
// coordinators and leaders at once, so a misrouted request (a batch sent
// to one group's coordinator for all of them, a ListOffsets sent to the
// bootstrap broker) shows up as a difference from the Java tool or as a
// NOT_COORDINATOR / NOT_LEADER error.
func TestDropInOnThreeBrokers(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireBrokers(t, 3, "partition leaders and group coordinators on different brokers")
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopicOn(t, topic, []int{1, 2, 3}, []int{2, 3, 1}, []int{3, 1, 2})
	if l := e.Leaders(t, topic); l[0] != 1 || l[1] != 2 || l[2] != 3 {
		t.Fatalf("leaders %v, want 1, 2, 3", l)
	}
	for p := range 3 {
		e.Produce(t, topic, p, diRecords(20+p, time.Time{})...)
	}
	// groups[tool][i] has its coordinator on broker i+1; the names of the
	// two tools have the same length and differ in the prefix only.
	groups := map[string][]string{}
	for _, tool := range []string{"j", "k"} {
		for n := 1; n <= 3; n++ {
			g := e.GroupOn(t, "g"+tool, n)
			e.Commit(t, g, topic, map[int32]int64{0: 5, 1: 6, 2: 7})
			groups[tool] = append(groups[tool], g)
		}
	}
	var pairs []string
	for i := range 3 {
		pairs = append(pairs, groups["j"][i], groups["k"][i])
	}
	rename := func(s string) string { return diRename(s, pairs...) }
	groupArgs := func(tool string) []string {
		var a []string
		for _, g := range groups[tool] {
			a = append(a, "--group", g)
		}
		return a
	}
	both := func(what string, javaCode, kcgCode int, args ...string) (string, string) {
		t.Helper()
		j := diJava(t, e, append(groupArgs("j"), args...)...)
		k := diKcg(t, e, append(groupArgs("k"), args...)...)
		if j.Code != javaCode || k.Code != kcgCode {
			t.Fatalf("%s: exit java %d kcg %d, want %d and %d\njava:\n%s%s\nkcg:\n%s%s", what, j.Code, k.Code, javaCode, kcgCode, j.Stdout, diHead(j.Stderr), k.Stdout, k.Stderr)
		}
		diSameSorted(t, what+" stdout", j.Stdout, rename(k.Stdout))
		// Per-group notices come in group order, and the renamed groups
		// sort differently from the Java ones.
		diSameSorted(t, what+" stderr", diNotices(j.Stderr), rename(diNotices(k.Stderr)))
		return j.Stdout, k.Stdout
	}

	for _, view := range [][]string{nil, {"--verbose"}, {"--members"}, {"--state"}, {"--state", "--verbose"}} {
		both(fmt.Sprintf("describe %v", view), 0, 0, append([]string{"--describe"}, view...)...)
	}
	// --state --verbose names the coordinator: three different ones.
	_, k := both("state", 0, 0, "--describe", "--state")
	for n := 1; n <= 3; n++ {
		if !strings.Contains(k, fmt.Sprintf("(%d)", n)) {
			t.Fatalf("coordinator %d not in the state view:\n%s", n, k)
		}
	}

	// list: both tools list all six groups (among the broker's others).
	j, kl := diJava(t, e, "--list"), diKcg(t, e, "--list")
	if j.Code != 0 || kl.Code != 0 {
		t.Fatalf("list: exit %d %d", j.Code, kl.Code)
	}
	for _, g := range append(groups["j"], groups["k"]...) {
		if !strings.Contains(j.Stdout, g+"\n") || !strings.Contains(kl.Stdout, g+"\n") {
			t.Fatalf("list: %s missing\njava:\n%s\nkcg:\n%s", g, j.Stdout, kl.Stdout)
		}
	}

	// reset: plan (dry run) and execute over the three coordinators and
	// three leaders.
	both("reset dry-run", 0, 0, "--reset-offsets", "--all-topics", "--to-earliest", "--dry-run")
	both("reset shift dry-run", 0, 0, "--reset-offsets", "--topic", topic, "--shift-by", "3")
	both("reset execute", 0, 0, "--reset-offsets", "--topic", topic, "--to-latest", "--execute")
	for i := range 3 {
		diCommittedSame(t, e, groups["j"][i], groups["k"][i])
		if c := diCommitted(t, e, groups["k"][i]); c != fmt.Sprintf("map[%s:map[0:20 1:21 2:22]]", topic) {
			t.Fatalf("group %s committed %s after --to-latest", groups["k"][i], c)
		}
	}

	// delete-offsets: one partition of every group (one request per
	// coordinator).
	for i := range 3 {
		jr := diJava(t, e, "--delete-offsets", "--group", groups["j"][i], "--topic", topic+":1")
		kr := diKcg(t, e, "--delete-offsets", "--group", groups["k"][i], "--topic", topic+":1")
		if jr.Code != 0 || kr.Code != 0 {
			t.Fatalf("delete-offsets: exit %d %d\n%s\n%s", jr.Code, kr.Code, jr.Stdout, kr.Stderr)
		}
		diSame(t, "delete-offsets", jr.Stdout, rename(kr.Stdout))
		diCommittedSame(t, e, groups["j"][i], groups["k"][i])
	}

	// delete: the three groups in one command, coordinators 1, 2, 3
	// (kafka-go would send one DeleteGroups to the first one's).
	// One line lists the groups: Java in its order, kcg sorted (a
	// deliberate difference), so the renamed names compare as sets.
	jd := diJava(t, e, append(groupArgs("j"), "--delete")...)
	kd := diKcg(t, e, append(groupArgs("k"), "--delete")...)
	if jd.Code != 0 || kd.Code != 0 {
		t.Fatalf("delete: exit java %d kcg %d\n%s\n%s", jd.Code, kd.Code, jd.Stdout, kd.Stderr)
	}
	quoted := regexp.MustCompile(`'[^']+'`)
	names := func(s string) string {
		n := quoted.FindAllString(s, -1)
		sort.Strings(n)
		return strings.Join(n, ", ")
	}
	shape := func(s string) string { return quoted.ReplaceAllString(s, "'G'") }
	diSame(t, "delete (names replaced)", shape(jd.Stdout), shape(rename(kd.Stdout)))
	diSame(t, "delete (names sorted)", names(jd.Stdout), names(rename(kd.Stdout)))
	if !strings.Contains(jd.Stdout, "was successful") {
		t.Fatalf("java delete:\n%s", jd.Stdout)
	}
	dk := kd.Stdout
	for _, g := range append(groups["j"], groups["k"]...) {
		if c := e.Committed(t, g); len(c) != 0 {
			t.Fatalf("group %s still has offsets %v after delete (kcg said:\n%s)", g, c, dk)
		}
	}
}

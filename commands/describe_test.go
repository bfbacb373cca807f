package commands_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func offsetOf(t *testing.T, d describeJSON, group, topic string, partition int) map[string]any {
	t.Helper()
	for _, g := range d.Groups {
		if g.Group != group {
			continue
		}
		for _, o := range g.Offsets {
			if o["topic"] == topic && o["partition"] == float64(partition) {
				return o
			}
		}
	}
	t.Fatalf("no offset entry for %s %s/%d in %+v", group, topic, partition, d)
	return nil
}

// The first example every operator learns: six records, committed 3, lag 3;
// three more records and a commit of 9, lag 0.
func TestDescribeFirstExample(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(6)...)
	e.Commit(t, group, topic, map[int32]int64{0: 3})

	r := kcgOn(t, e, "describe", group).MustCode(t, 0)
	got := rows(r.Stdout, group)
	if len(got) != 2 || strings.Join(got[0], " ") != fmt.Sprintf("%s %s 0 3 6 3 - - -", group, topic) {
		t.Fatalf("table rows %v\n%s", got, r.Stdout)
	}
	if !strings.Contains(r.Stdout, "CURRENT-OFFSET") || !strings.Contains(r.Stderr, fmt.Sprintf("Consumer group '%s' has no active members.", group)) {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	r = kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0)
	for _, want := range []string{`"committedOffset": 3`, `"logEndOffset": 6`, `"lag": 3`} {
		if !strings.Contains(r.Stdout, want) {
			t.Fatalf("JSON lacks %s:\n%s", want, r.Stdout)
		}
	}
	d := parseDescribe(t, r.Stdout)
	if o := offsetOf(t, d, group, topic, 0); o["committedOffset"] != 3.0 || o["logEndOffset"] != 6.0 || o["lag"] != 3.0 {
		t.Fatalf("offset entry %v", o)
	}
	if d.Groups[0].TotalLag == nil || *d.Groups[0].TotalLag != 3 {
		t.Fatalf("totalLag %v", d.Groups[0].TotalLag)
	}

	e.Produce(t, topic, 0, records(3)...)
	e.Commit(t, group, topic, map[int32]int64{0: 9})
	r = kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0)
	d = parseDescribe(t, r.Stdout)
	if o := offsetOf(t, d, group, topic, 0); o["committedOffset"] != 9.0 || o["logEndOffset"] != 9.0 || o["lag"] != 0.0 {
		t.Fatalf("after catching up: %v", o)
	}
	r = kcgOn(t, e, "describe", group).MustCode(t, 0)
	if got := rows(r.Stdout, group); strings.Join(got[0][3:6], " ") != "9 9 0" {
		t.Fatalf("table after catching up: %v", got)
	}
}

// A partition assigned to a live member but never committed: "-" in the
// table, null in JSON (never -1 or -1001).
func TestDescribeAssignedNeverCommitted(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(4)...)
	m := e.ClassicMember(t, group, topic)

	r := kcgOn(t, e, "describe", group).MustCode(t, 0)
	got := rows(r.Stdout, group)
	if len(got) != 2 {
		t.Fatalf("rows %v", got)
	}
	row := got[0]
	if row[3] != "-" || row[4] != "4" || row[5] != "-" || row[8] != m.ClientID {
		t.Fatalf("row %v", row)
	}
	r = kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0)
	o := offsetOf(t, parseDescribe(t, r.Stdout), group, topic, 0)
	if v, ok := o["committedOffset"]; !ok || v != nil {
		t.Fatalf("committedOffset %v (present %v)", v, ok)
	}
	if v, ok := o["lag"]; !ok || v != nil {
		t.Fatalf("lag %v (present %v)", v, ok)
	}
	if o["logEndOffset"] != 4.0 || o["clientId"] != m.ClientID {
		t.Fatalf("entry %v", o)
	}
	if regexp.MustCompile(`: -1\d*[,\n]`).MatchString(r.Stdout) {
		t.Fatalf("a sentinel in JSON:\n%s", r.Stdout)
	}
}

type describeFixture struct {
	e                          *kafkatest.Env
	topic                      string
	classic, kip848, empty, no string
	classicMember, kip848Mem   *kafkatest.Member
}

// newDescribeFixture makes a Stable classic group (kafka-go Reader), a
// Stable KIP-848 group (Java console consumer on the real broker), an Empty
// group with commits, and names a group that does not exist. On a broker
// without KIP-848 consumer groups (2.8.2, 3.7.2) the test skips.
func newDescribeFixture(t *testing.T) *describeFixture {
	return describeFixtureOf(t, false)
}

// describeFixtureOf is newDescribeFixture; with optional848, a broker
// without KIP-848 consumer groups gets no KIP-848 group (f.kip848 "")
// rather than a skip.
func describeFixtureOf(t *testing.T, optional848 bool) *describeFixture {
	e := kafkatest.Cluster(t)
	f := &describeFixture{e: e, topic: kafkatest.UniqueName(t, "orders")}
	e.CreateTopic(t, f.topic, 2)
	e.Produce(t, f.topic, 0, records(5)...)
	e.Produce(t, f.topic, 1, records(3)...)
	f.classic = kafkatest.UniqueName(t, "classic")
	f.kip848 = kafkatest.UniqueName(t, "kip848")
	f.empty = kafkatest.UniqueName(t, "empty")
	f.no = kafkatest.UniqueName(t, "missing")
	if optional848 && !e.HasConsumerProtocol(t) {
		f.kip848 = ""
	}
	e.Commit(t, f.classic, f.topic, map[int32]int64{0: 1})
	e.Commit(t, f.empty, f.topic, map[int32]int64{0: 5, 1: 1})
	f.classicMember = e.ClassicMember(t, f.classic, f.topic)
	if f.kip848 != "" {
		e.Commit(t, f.kip848, f.topic, map[int32]int64{1: 2})
		f.kip848Mem = e.ConsumerProtocolMember(t, f.kip848, f.topic)
	}
	return f
}

// Every kind of group in every view, table and JSON.
func TestDescribeEveryKindOfGroup(t *testing.T) {
	f := newDescribeFixture(t)
	e := f.e
	groups := []string{f.classic, f.kip848, f.empty}

	// Offsets view.
	r := kcgOn(t, e, append([]string{"describe"}, groups...)...).MustCode(t, 0)
	if got := rows(r.Stdout, f.classic); len(got) != 3 || got[0][3] != "1" || got[0][5] != "4" || got[1][3] != "-" || got[0][8] != f.classicMember.ClientID {
		t.Fatalf("classic rows %v", got)
	}
	if got := rows(r.Stdout, f.kip848); len(got) != 3 || got[0][3] != "-" || got[1][3] != "2" || got[1][5] != "1" || got[1][8] != f.kip848Mem.ClientID {
		t.Fatalf("KIP-848 rows %v", got)
	}
	if got := rows(r.Stdout, f.empty); len(got) != 3 || strings.Join(got[0][3:9], " ") != "5 5 0 - - -" {
		t.Fatalf("empty rows %v", got)
	}
	if strings.Count(r.Stdout, "CURRENT-OFFSET") != 1 {
		t.Fatalf("one header for many groups:\n%s", r.Stdout)
	}
	// Members view.
	r = kcgOn(t, e, append([]string{"describe", "--members", "--verbose"}, groups...)...).MustCode(t, 0)
	if got := rows(r.Stdout, f.classic); len(got) != 1 || got[0][3] != f.classicMember.ClientID || got[0][4] != "2" || got[0][5] != "-" {
		t.Fatalf("classic member row %v", got)
	}
	if got := rows(r.Stdout, f.kip848); len(got) != 1 || got[0][3] != f.kip848Mem.ClientID || got[0][4] != "2" || got[0][5] == "-" || got[0][6] != f.topic+":0,1" {
		t.Fatalf("KIP-848 member row %v", got)
	}
	if got := rows(r.Stdout, f.empty); len(got) != 0 {
		t.Fatalf("empty group has member rows %v", got)
	}
	// State view.
	r = kcgOn(t, e, append([]string{"describe", "--state", "--verbose"}, groups...)...).MustCode(t, 0)
	if got := rows(r.Stdout, f.classic); len(got) != 1 || got[0][4] != "Stable" || got[0][5] != "-" || got[len(got)-1][7] != "1" {
		t.Fatalf("classic state %v", got)
	}
	if got := rows(r.Stdout, f.kip848); len(got) != 1 || got[0][4] != "Stable" || got[0][5] == "-" {
		t.Fatalf("KIP-848 state %v", got)
	}
	if got := rows(r.Stdout, f.empty); len(got) != 1 || got[0][4] != "Empty" || got[0][7] != "0" {
		t.Fatalf("empty state %v", got)
	}
	// JSON: every view at once.
	r = kcgOn(t, e, append([]string{"describe", "-o", "json"}, groups...)...).MustCode(t, 0)
	d := parseDescribe(t, r.Stdout)
	byName := map[string]int{}
	for i, g := range d.Groups {
		byName[g.Group] = i
	}
	cg := d.Groups[byName[f.classic]]
	if *cg.Type != "classic" || *cg.State != "Stable" || len(cg.Members) != 1 || cg.Members[0].MemberEpoch != nil || cg.GroupEpoch != nil {
		t.Fatalf("classic JSON %+v", cg)
	}
	kg := d.Groups[byName[f.kip848]]
	if *kg.Type != "consumer" || *kg.State != "Stable" || len(kg.Members) != 1 || kg.Members[0].MemberEpoch == nil || kg.GroupEpoch == nil || len(kg.Members[0].Assignments) != 1 {
		t.Fatalf("KIP-848 JSON %+v", kg)
	}
	eg := d.Groups[byName[f.empty]]
	if *eg.State != "Empty" || len(eg.Members) != 0 || eg.TotalLag == nil || *eg.TotalLag != 2 {
		t.Fatalf("empty JSON %+v", eg)
	}
	if cg.Coordinator == nil {
		t.Fatal("no coordinator")
	}

	// A group that does not exist: its entry carries the error, the others
	// print, exit 1 — in every view.
	for _, view := range [][]string{nil, {"--members"}, {"--state"}, {"-o", "json"}, {"-o", "yaml"}} {
		args := append([]string{"describe", f.no, f.classic}, view...)
		r = kcgOn(t, e, args...).MustCode(t, 1)
		if !strings.Contains(r.Stderr, fmt.Sprintf("Consumer group '%s' does not exist.", f.no)) {
			t.Fatalf("%v: stderr %q", view, r.Stderr)
		}
		if !strings.Contains(r.Stdout, f.classic) {
			t.Fatalf("%v: the existing group is missing:\n%s", view, r.Stdout)
		}
	}
	r = kcgOn(t, e, "describe", f.no, f.empty, "-o", "json").MustCode(t, 1)
	d = parseDescribe(t, r.Stdout)
	for _, g := range d.Groups {
		if g.Group == f.no && (g.Error == nil || g.State != nil) {
			t.Fatalf("missing group entry %+v", g)
		}
		if g.Group == f.empty && g.Error != nil {
			t.Fatalf("empty group entry %+v", g)
		}
	}
}

// javaRows runs the real Java tool and returns its data rows for group,
// each as whitespace-separated fields.
func javaRows(t *testing.T, e *kafkatest.Env, group string, view ...string) [][]string {
	t.Helper()
	args := append([]string{"--bootstrap-server", e.Bootstrap, "--describe", "--group", group}, view...)
	stdout, stderr, code := e.JavaTool(t, args...)
	if code != 0 {
		t.Fatalf("Java tool %v: exit %d\n%s\n%s", args, code, stdout, stderr)
	}
	return rows(stdout, group)
}

func kcgRows(t *testing.T, e *kafkatest.Env, group string, view ...string) [][]string {
	t.Helper()
	r := kcgOn(t, e, append([]string{"describe", group}, view...)...).MustCode(t, 0)
	return kcgRowsOf(r.Stdout, group)
}

// kcgRowsOf returns group's data rows of a native table, without the
// (total) row.
func kcgRowsOf(stdout, group string) [][]string {
	var out [][]string
	for _, row := range rows(stdout, group) {
		if len(row) > 1 && row[1] == "(total)" {
			continue
		}
		out = append(out, row)
	}
	return out
}

// linesWith counts the lines of s that contain sub.
func linesWith(s, sub string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

func sortedLines(rs [][]string) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = strings.Join(r, " ")
	}
	sort.Strings(out)
	return out
}

// Side by side with the real kafka-consumer-groups on the same groups: the
// same rows and values in the offsets, members and state views (order
// aside).
func TestDescribeSideBySideWithJava(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "compares with the Java kafka-consumer-groups tool")
	f := newDescribeFixture(t)
	for _, group := range []string{f.classic, f.kip848, f.empty} {
		for _, view := range [][]string{nil, {"--verbose"}, {"--members"}, {"--members", "--verbose"}, {"--state"}, {"--state", "--verbose"}} {
			java := sortedLines(javaRows(t, e, group, view...))
			ours := sortedLines(kcgRows(t, e, group, view...))
			if strings.Join(java, "\n") != strings.Join(ours, "\n") {
				t.Errorf("%s %v differs\njava:\n%s\nkcg:\n%s", group, view, strings.Join(java, "\n"), strings.Join(ours, "\n"))
			}
		}
	}
}

// On brokers without KIP-848 (2.8.2, 3.7.2) there is no consumer-protocol
// group; on those before ListGroups v4 (2.5.1 in CI's legacy lane) kcg
// list learns the states from DescribeGroups and filters on them itself.
func TestListFilters(t *testing.T) {
	f := describeFixtureOf(t, true)
	e := f.e
	r := kcgOn(t, e, "list", "-o", "json").MustCode(t, 0)
	for _, g := range groupsOf(f.classic, f.kip848, f.empty) {
		if !strings.Contains(r.Stdout, `"group": "`+g+`"`) {
			t.Fatalf("list misses %s", g)
		}
	}
	check := func(args []string, want, notWant []string) {
		t.Helper()
		want, notWant = groupsOf(want...), groupsOf(notWant...)
		r := kcgOn(t, e, append([]string{"list"}, args...)...).MustCode(t, 0)
		for _, g := range want {
			if len(rows(r.Stdout, g)) != 1 {
				t.Fatalf("list %v misses %s:\n%s", args, g, r.Stdout)
			}
		}
		for _, g := range notWant {
			if len(rows(r.Stdout, g)) != 0 {
				t.Fatalf("list %v shows %s:\n%s", args, g, r.Stdout)
			}
		}
	}
	check([]string{"--state", "stable"}, []string{f.classic, f.kip848}, []string{f.empty})
	check([]string{"--state", "Empty,"}, []string{f.empty}, []string{f.classic, f.kip848})
	check([]string{"--type", "consumer"}, []string{f.kip848}, []string{f.classic, f.empty})
	check([]string{"--type", "Classic"}, []string{f.classic, f.empty}, []string{f.kip848})
	check([]string{"--type", "consumer", "--state", "Stable"}, []string{f.kip848}, []string{f.classic, f.empty})
	for _, bad := range []string{"bad, wrong", "  bad, Stable", "   ,   ,"} {
		r := kcgOn(t, e, "list", "--state", bad).MustCode(t, 64)
		if !strings.Contains(r.Stderr, "Invalid state list") {
			t.Fatalf("--state %q: %q", bad, r.Stderr)
		}
	}
	kcgOn(t, e, "list", "--type", "connect").MustCode(t, 64) // share and streams are valid since issue 14
	r = kcgOn(t, e, "list", "--state", "Stable", "--type", "classic").MustCode(t, 0)
	if g := rows(r.Stdout, f.classic); len(g) != 1 || g[0][1] != "Stable" {
		t.Fatalf("list row %v", g)
	}
	if f.kip848 == "" {
		return
	}
	r = kcgOn(t, e, "list", "--state", "Stable", "--type", "consumer").MustCode(t, 0)
	if g := rows(r.Stdout, f.kip848); len(g) != 1 || g[0][1] != "Stable" || g[0][2] != "consumer" {
		t.Fatalf("list row %v", g)
	}
}

// groupsOf is groups less the empty names (a fixture's group the broker
// cannot host).
func groupsOf(groups ...string) []string {
	return slices.DeleteFunc(slices.Clone(groups), func(g string) bool { return g == "" })
}

// A partition committed at -1 is listed with no committed offset, as the
// Java tool lists it (a "-" row), not dropped.
func TestDescribeMinusOneCommit(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(5)...)
	e.Commit(t, group, topic, map[int32]int64{0: -1, 1: 0})
	got := kcgRows(t, e, group)
	if len(got) != 2 || strings.Join(got[0][1:6], " ") != topic+" 0 - 5 -" {
		t.Fatalf("rows %v", got)
	}
	r := kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0)
	if o := offsetOf(t, parseDescribe(t, r.Stdout), group, topic, 0); o["committedOffset"] != nil || o["logEndOffset"] != 5.0 {
		t.Fatalf("entry %v", o)
	}
	if e.Real {
		java := sortedLines(javaRows(t, e, group))
		if strings.Join(java, "\n") != strings.Join(sortedLines(got), "\n") {
			t.Fatalf("java:\n%s\nkcg:\n%v", strings.Join(java, "\n"), got)
		}
	}
}

// A KIP-848 group with a classic member (drop-in scenario 36):
// --members --verbose shows the UPGRADED column, as the Java tool does, and
// JSON says which member is upgraded. Kafka 3.9 answers only
// ConsumerGroupDescribe v0, which has no member type: there neither tool
// shows the column and JSON says null (unknown), never a guess.
func TestDescribeMixedGroupSideBySide(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "a classic Java consumer joining a KIP-848 group, compared with the Java tool")
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "mixed")
	e.CreateTopic(t, topic, 2)
	modern := e.ConsumerProtocolMember(t, group, topic)
	classic := e.ClassicMemberInConsumerGroup(t, group, topic)
	var java []string
	// The group may still be moving partitions to the new member: retry
	// until both tools see the same settled assignment.
	for attempt := 0; attempt < 20; attempt++ {
		java = sortedLines(javaRows(t, e, group, "--members", "--verbose"))
		ours := sortedLines(kcgRows(t, e, group, "--members", "--verbose"))
		if strings.Join(java, "\n") == strings.Join(ours, "\n") {
			break
		}
		if attempt == 19 {
			t.Fatalf("java:\n%s\nkcg:\n%s", strings.Join(java, "\n"), strings.Join(ours, "\n"))
		}
		time.Sleep(500 * time.Millisecond)
	}
	r := kcgOn(t, e, "describe", group, "--members", "--verbose").MustCode(t, 0)
	if e.Before(4, 0) {
		if strings.Contains(r.Stdout, "UPGRADED") || strings.Contains(strings.Join(java, "\n"), "UPGRADED") {
			t.Fatalf("an UPGRADED column from Apache Kafka %s (no member type before ConsumerGroupDescribe v1):\n%s", e.Version, r.Stdout)
		}
		if got := rows(r.Stdout, group); len(got) != 2 {
			t.Fatalf("member rows %v", got)
		}
		r = kcgOn(t, e, "describe", group, "--members", "-o", "json").MustCode(t, 0)
		d := parseDescribe(t, r.Stdout)
		if len(d.Groups) != 1 || len(d.Groups[0].Members) != 2 {
			t.Fatalf("JSON %+v", d)
		}
		for _, m := range d.Groups[0].Members {
			if m.Upgraded != nil {
				t.Fatalf("member %s: upgraded %v from Apache Kafka %s, want null", m.ClientID, *m.Upgraded, e.Version)
			}
		}
		return
	}
	if !strings.Contains(r.Stdout, "UPGRADED") {
		t.Fatalf("no UPGRADED column:\n%s", r.Stdout)
	}
	for _, row := range rows(r.Stdout, group) {
		want := map[string]string{modern.ClientID: "true", classic.ClientID: "false"}[row[3]]
		if row[len(row)-1] != want {
			t.Fatalf("row %v: UPGRADED %s, want %s", row, row[len(row)-1], want)
		}
	}
}

// A partition whose leader is unavailable: after a few seconds of retries
// describe shows it without offsets ("-", null) and the others as usual;
// plan names it. Injected with kfake on both tiers (a one-node real broker
// cannot lose a partition's leader).
func TestDescribeLeaderlessPartition(t *testing.T) {
	e := kafkatest.Fake(t)
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(4)...)
	e.Produce(t, topic, 1, records(4)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1, 1: 2})
	h := e.Kfake.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: topic, Partitions: []int32{1}, Err: kerr.LeaderNotAvailable, Count: -1})
	defer h.Remove()
	start := time.Now()
	r := kcgOn(t, e, "describe", group).MustCode(t, 1)
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("describe took %v", d)
	}
	if n := linesWith(r.Stderr, topic+"/1"); n != 1 || !strings.Contains(r.Stderr, "kcg: log offsets unknown for 1 partition(s)") {
		t.Fatalf("stderr: want one line naming %s/1, got %q", topic, r.Stderr)
	}
	got := kcgRowsOf(r.Stdout, group)
	if len(got) != 2 || strings.Join(got[0][3:6], " ") != "1 4 3" || strings.Join(got[1][3:6], " ") != "2 - -" {
		t.Fatalf("rows %v", got)
	}
	r = kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 1)
	if o := offsetOf(t, parseDescribe(t, r.Stdout), group, topic, 1); o["logStartOffset"] != nil || o["logEndOffset"] != nil || o["lag"] != nil || o["committedOffset"] != 2.0 {
		t.Fatalf("leaderless entry %v", o)
	}
	out := filepath.Join(t.TempDir(), "p.yaml")
	r = kcgOn(t, e, "plan", group, "--topic", topic, "--to-earliest", "--out", out).MustCode(t, 1)
	if !strings.Contains(r.Stderr, topic+"/1") {
		t.Fatalf("plan stderr %q", r.Stderr)
	}
}

// A classic group of another protocol type (Kafka Connect's worker group,
// "connect") has members and a state but no offsets: describe's table
// would be empty, so a note says what the group is and where its members
// are; --members shows them, and the JSON is as for any group.
func TestDescribeOtherProtocolGroup(t *testing.T) {
	e := kafkatest.Cluster(t)
	group := kafkatest.UniqueName(t, "connect-workers")
	e.OtherProtocolMember(t, group, "connect")

	r := kcgOn(t, e, "describe", group).MustCode(t, 0)
	want := fmt.Sprintf(`note: group %s is a classic group of protocol type "connect" (Kafka Connect's workers), not a consumer group: it has no offsets to show; --members and --state show its members`, group)
	if strings.TrimSpace(r.Stderr) != want || len(rows(r.Stdout, group)) != 0 {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	r = kcgOn(t, e, "describe", group, "--members").MustCode(t, 0)
	if len(rows(r.Stdout, group)) != 1 || r.Stderr != "" {
		t.Fatalf("--members: stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	r = kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"protocolType": "connect"`) || r.Stderr != "" {
		t.Fatalf("json: stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
}

package commands_test

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// shareTool runs kcg as kafka-share-groups.sh (the name it was called
// by) with args against e's cluster.
func shareTool(t *testing.T, e *kafkatest.Env, args ...string) clitest.Result {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"/usr/local/bin/kafka-share-groups.sh", "--bootstrap-server", e.Bootstrap}, args...)
	code := commands.Run(context.Background(), argv, commands.IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	return clitest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// javaShare runs Java 4.4's ShareGroupCommand with args.
func javaShare(t *testing.T, e *kafkatest.Env, args ...string) (stdout, stderr string) {
	t.Helper()
	out, stderr, code := e.JavaRun(t, shareGroupCommandClass, "", append([]string{"--bootstrap-server", e.Bootstrap}, args...)...)
	if code != 0 && !strings.Contains(out, "Error:") {
		t.Fatalf("kafka-share-groups %v: exit %d: %s", args, code, stderr)
	}
	return out, stderr
}

// sameRows reports whether java and kcg are the same bytes but for the
// order of the lines (Java prints reset rows in hash order, kcg sorted):
// the same lines, blank ones and padding included.
func sameRows(java, kcg string) bool {
	if java == kcg {
		return true
	}
	j, k := strings.Split(java, "\n"), strings.Split(kcg, "\n")
	slices.Sort(j)
	slices.Sort(k)
	return slices.Equal(j, k)
}

// sameShareOutput runs args with Java and kcg and wants the same stdout,
// byte for byte but for the order of the rows; it returns kcg's result.
func sameShareOutput(t *testing.T, e *kafkatest.Env, args ...string) clitest.Result {
	t.Helper()
	java, _ := javaShare(t, e, args...)
	r := shareTool(t, e, args...)
	if !sameRows(java, r.Stdout) {
		t.Errorf("%s: Java and kcg differ\n--- Java\n%q\n--- kcg (exit %d)\n%q\n%s", strings.Join(args, " "), java, r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// kcg called as kafka-share-groups.sh gives Java 4.4's output, side by
// side on the same cluster: --list, --describe (offsets, members, state,
// each --verbose) of a Stable and of an Empty share group, a reset and a
// delete refused while the console share consumer runs, then every reset
// scenario of the share tool as --dry-run (and --export), --execute
// (checked with Java's --describe and franz-go's
// DescribeShareGroupOffsets), --delete-offsets and --delete.
func TestShareDropInSideBySideWithJava(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "compares with the Java kafka-share-groups tool")
	g, topic := kafkatest.UniqueName(t, "share"), kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 2)
	m := e.ShareGroupMember(t, g, topic)
	waitShareOffsets(t, e, g, topic, 2)
	waitShareLag(t, e, g, topic)

	java, _ := javaShare(t, e, "--list", "--state")
	r := shareTool(t, e, "--list", "--state").MustCode(t, 0)
	sameSortedLines(t, "--list --state", java, r.Stdout)
	if row := strings.Fields(streamsRowOf(r.Stdout, g)); len(row) != 2 || row[1] != "Stable" {
		t.Fatalf("--list --state: %q", r.Stdout)
	}
	java, _ = javaShare(t, e, "--list")
	sameSortedLines(t, "--list", java, shareTool(t, e, "--list").MustCode(t, 0).Stdout)
	for _, args := range [][]string{
		{"--describe", "--group", g},
		{"--describe", "--group", g, "--offsets", "--verbose"},
		{"--describe", "--group", g, "--members"},
		{"--describe", "--group", g, "--members", "--verbose"},
		{"--describe", "--group", g, "--state"},
		{"--describe", "--group", g, "--state", "--verbose"},
	} {
		sameShareOutput(t, e, args...).MustCode(t, 0)
	}
	before := e.ShareStartOffsets(t, g)[topic]
	// Java exits 1 (kcg 3: refused, nothing written).
	reset := []string{"--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--execute"}
	java, jerr, code := e.JavaRun(t, shareGroupCommandClass, "", append([]string{"--bootstrap-server", e.Bootstrap}, reset...)...)
	r = shareTool(t, e, reset...)
	if r.Code != 3 || code != 1 || r.Stdout != java || !strings.Contains(r.Stderr, "Share group '"+g+"' is not empty.") || !strings.Contains(jerr, "Share group '"+g+"' is not empty.") {
		t.Fatalf("--reset-offsets of a Stable group: kcg exit %d %q %q, Java exit %d %q %q", r.Code, r.Stdout, r.Stderr, code, java, jerr)
	}
	// The broker refuses both (kcg wrote and narrowed its undo plan).
	for _, args := range [][]string{{"--delete", "--group", g}, {"--delete-offsets", "--group", g, "--topic", topic}} {
		if r := sameShareOutput(t, e, args...); r.Code != 1 {
			t.Fatalf("%v of a Stable group: exit %d\n%s", args, r.Code, r.Stdout)
		}
	}
	if got := e.ShareStartOffsets(t, g)[topic]; !maps.Equal(got, before) {
		t.Fatalf("refused writes changed the start offsets: %v, were %v", got, before)
	}

	m.Stop()
	waitShareState(t, e, g, "Empty")
	for _, args := range [][]string{
		{"--describe", "--group", g},
		{"--describe", "--group", g, "--members"},
		{"--describe", "--group", g, "--state", "--verbose"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--dry-run"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-latest", "--dry-run"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-current", "--dry-run"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-offset", "1", "--dry-run"},
		{"--reset-offsets", "--group", g, "--topic", topic + ":1", "--to-offset", "2", "--dry-run"},
		{"--reset-offsets", "--group", g, "--topic", topic, "--to-offset", "1000", "--dry-run"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-datetime", "2020-01-01T00:00:00.000", "--dry-run"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--dry-run", "--export"},
		{"--reset-offsets", "--group", g + "-none", "--all-topics", "--to-earliest", "--dry-run"},
	} {
		sameShareOutput(t, e, args...).MustCode(t, 0)
	}
	r = shareTool(t, e, "--describe", "--group", g, "--members").MustCode(t, 0)
	if r.Stderr != "\nShare group '"+g+"' has no active members.\n" {
		t.Fatalf("--members of an Empty group: stderr %q", r.Stderr)
	}
	// Java 4.4 has no --by-duration or --shift-by for share groups:
	// neither has kcg's kafka-share-groups.
	for _, opt := range []string{"--by-duration=PT1H", "--shift-by=1"} {
		_, stderr, code := e.JavaRun(t, shareGroupCommandClass, "", "--bootstrap-server", e.Bootstrap, "--reset-offsets", "--group", g, "--all-topics", opt, "--dry-run")
		r := shareTool(t, e, "--reset-offsets", "--group", g, "--all-topics", opt, "--dry-run").MustCode(t, 64)
		first, _, _ := strings.Cut(r.Stderr, "\n")
		if code == 0 || !strings.Contains(stderr, strings.TrimPrefix(first, "joptsimple.")) {
			t.Errorf("%s: Java exit %d %q, kcg %q", opt, code, stderr, first)
		}
	}

	// --execute: the same table as Java's --dry-run, and Java reads the
	// new start offsets.
	java, _ = javaShare(t, e, "--reset-offsets", "--group", g, "--all-topics", "--to-offset", "1", "--dry-run")
	r = shareTool(t, e, "--reset-offsets", "--group", g, "--all-topics", "--to-offset", "1", "--execute").MustCode(t, 0)
	if !sameRows(java, r.Stdout) {
		t.Errorf("--execute: %q, Java's --dry-run %q", r.Stdout, java)
	}
	if got := e.ShareStartOffsets(t, g)[topic]; !maps.Equal(got, map[int32]int64{0: 1, 1: 1}) {
		t.Fatalf("after --execute, start offsets %v", got)
	}
	java, _ = javaShare(t, e, "--describe", "--group", g)
	for _, l := range strings.Split(strings.TrimSpace(java), "\n")[1:] {
		if fs := strings.Fields(l); len(fs) < 4 || fs[3] != "1" {
			t.Fatalf("Java's --describe after kcg's --execute:\n%s", java)
		}
	}

	// --delete-offsets: Java's table (its output for this command line,
	// captured from Kafka 4.4.0), the undo plan named on stderr.
	r = shareTool(t, e, "--delete-offsets", "--group", g, "--topic", topic).MustCode(t, 0)
	w := max(15, len(topic))
	if want := "\n" + padTo("TOPIC", w) + " STATUS\n" + padTo(topic, w) + " Successful\n"; r.Stdout != want {
		t.Fatalf("--delete-offsets: %q, want %q", r.Stdout, want)
	}
	undoPath(t, r.Stderr)
	if got := e.ShareStartOffsets(t, g)[topic]; len(got) != 0 {
		t.Fatalf("start offsets after --delete-offsets: %v", got)
	}
	sameShareOutput(t, e, "--describe", "--group", g).MustCode(t, 0)

	// A consumer group is not this command line's: refused, unchanged.
	other := kafkatest.UniqueName(t, "consumer")
	e.Commit(t, other, topic, map[int32]int64{0: 1})
	if r := shareTool(t, e, "--delete", "--group", other); r.Code != 3 || !strings.Contains(r.Stdout, "is not a share group") {
		t.Fatalf("a consumer group through kafka-share-groups: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if c := e.Committed(t, other)[topic]; c[0] != 1 {
		t.Fatalf("the consumer group was changed: %v", c)
	}

	r = shareTool(t, e, "--delete", "--group", g).MustCode(t, 0)
	if r.Stdout != "Deletion of requested share groups ('"+g+"') was successful.\n" {
		t.Fatalf("--delete: %q", r.Stdout)
	}
	if _, ok := e.GroupTypes(t)[g]; ok {
		t.Fatalf("the share group is still listed after --delete")
	}
	// Gone: Java's and kcg's answer for a group that does not exist.
	sameShareOutput(t, e, "--delete", "--group", g).MustCode(t, 1)
}

func padTo(s string, w int) string { return s + strings.Repeat(" ", max(0, w-len(s))) }

// waitShareLag waits until the share group has consumed every record of
// topic (lag 0 on both partitions, as kcg's describe reads it), so Java
// and kcg read the same start offsets.
func waitShareLag(t *testing.T, e *kafkatest.Env, group, topic string) {
	t.Helper()
	for i := 0; i < 60; i++ {
		r := shareTool(t, e, "--describe", "--group", group)
		n := 0
		for _, l := range strings.Split(r.Stdout, "\n") {
			if fs := strings.Fields(l); len(fs) == 5 && fs[1] == topic && fs[4] == "0" {
				n++
			}
		}
		if n == 2 {
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("share group %s: lag not 0 on %s", group, topic)
}

// On a broker without share groups (Kafka 3.9 and 4.0: no
// ShareGroupDescribe), every kafka-share-groups action says so in one
// line on stderr and exits 1. The version suites of .ci/run run it.
func TestShareDropInWithoutShareGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "the broker versions without share groups")
	if !e.Before(4, 1) {
		t.Skipf("Kafka %s has share groups (TestShareDropInSideBySideWithJava runs)", e.Version)
	}
	g, topic := kafkatest.UniqueName(t, "share"), kafkatest.UniqueName(t, "t")
	for _, args := range [][]string{
		{"--list"},
		{"--list", "--state"},
		{"--describe", "--group", g},
		{"--describe", "--all-groups", "--members"},
		{"--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--execute"},
		{"--delete", "--group", g},
		{"--delete-offsets", "--group", g, "--topic", topic},
	} {
		r := shareTool(t, e, args...).MustCode(t, 1)
		oneLine(t, r.Stderr, "the cluster has no share groups", "Kafka 4.1")
		if r.Stdout != "" {
			t.Errorf("%v: stdout %q", args, r.Stdout)
		}
	}
}

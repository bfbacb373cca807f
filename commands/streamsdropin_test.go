package commands_test

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// streamsTool runs kcg as kafka-streams-groups.sh (the name it was called
// by) with args against f's cluster.
func (f *streamsFixture) streamsTool(t *testing.T, args ...string) clitest.Result {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"/usr/local/bin/kafka-streams-groups.sh", "--bootstrap-server", f.e.Bootstrap}, args...)
	code := commands.Run(context.Background(), argv, commands.IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	return clitest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// javaStreams runs Java 4.4's StreamsGroupCommand with args.
func (f *streamsFixture) javaStreams(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, stderr, code := f.e.JavaRun(t, streamsGroupCommandClass, "", append([]string{"--bootstrap-server", f.e.Bootstrap}, args...)...)
	if code != 0 && !strings.Contains(out, "Error:") {
		t.Fatalf("kafka-streams-groups %v: exit %d: %s", args, code, stderr)
	}
	return out, code
}

// sameSortedLines compares two outputs as sorted lines (Java prints partitions
// and groups in hash or broker order, kcg sorted), trailing blanks
// trimmed.
func sameSortedLines(t *testing.T, what, java, kcg string) {
	t.Helper()
	norm := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimRight(l, " "); l != "" {
				out = append(out, l)
			}
		}
		slices.Sort(out)
		return out
	}
	if j, k := norm(java), norm(kcg); !slices.Equal(j, k) {
		t.Errorf("%s: Java and kcg differ\n--- Java\n%s\n--- kcg\n%s", what, strings.Join(j, "\n"), strings.Join(k, "\n"))
	}
}

// kcg called as kafka-streams-groups.sh gives Java 4.4's output, side by
// side on the same cluster: --describe (offsets, --verbose, --members,
// --state), refused --reset-offsets and --delete while the application
// runs, then --reset-offsets --dry-run/--execute, --delete-offsets and
// --delete once it stopped; --list --state lists the group like Java.
func TestStreamsDropInSideBySideWithJava(t *testing.T) {
	f := newStreamsFixture(t)
	g := f.group
	for _, args := range [][]string{
		{"--describe", "--group", g},
		{"--describe", "--group", g, "--offsets", "--verbose"},
		{"--describe", "--group", g, "--members"},
		{"--describe", "--group", g, "--state"},
		{"--describe", "--group", g, "--state", "--verbose"},
		{"--reset-offsets", "--group", g, "--all-input-topics", "--to-earliest", "--execute"},
	} {
		java, _ := f.javaStreams(t, args...)
		r := f.streamsTool(t, args...)
		sameSortedLines(t, strings.Join(args, " "), java, r.Stdout)
	}
	if c := f.e.Committed(t, g)[f.input]; c[0] != 6 || c[1] != 6 {
		t.Fatalf("a refused reset wrote: %v", c)
	}
	if r := f.streamsTool(t, "--delete", "--group", g); r.Code == 0 || !strings.Contains(r.Stdout, "streams group") {
		t.Fatalf("--delete of a running group: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	java, _ := f.javaStreams(t, "--list", "--state")
	r := f.streamsTool(t, "--list", "--state").MustCode(t, 0)
	jl, kl := streamsRowOf(java, g), streamsRowOf(r.Stdout, g)
	if jl == "" || strings.Fields(jl)[1] != "Stable" || !slices.Equal(strings.Fields(jl), strings.Fields(kl)) {
		t.Fatalf("--list --state: Java %q, kcg %q", jl, kl)
	}

	f.stop(t)
	// kafka-consumer-groups' command line leaves the streams group alone.
	if r := kcgOn(t, f.e, "--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--execute"); r.Code != 3 || !strings.Contains(r.Stdout, "kafka-streams-groups.sh") {
		t.Fatalf("kafka-consumer-groups --reset-offsets of a streams group: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, args := range [][]string{
		{"--describe", "--group", g, "--state"},
		{"--reset-offsets", "--group", g, "--all-input-topics", "--to-latest", "--dry-run"},
		{"--reset-offsets", "--group", g, "--input-topic", f.input + ":1", "--shift-by", "-2", "--dry-run"},
	} {
		java, _ := f.javaStreams(t, args...)
		sameSortedLines(t, strings.Join(args, " "), java, f.streamsTool(t, args...).Stdout)
	}
	r = f.streamsTool(t, "--reset-offsets", "--group", g, "--all-input-topics", "--to-offset", "2", "--execute").MustCode(t, 0)
	if got, want := f.javaStreamsReset(t, "--to-current"), map[string]string{f.input + ":0": "2", f.input + ":1": "2"}; !maps.Equal(got, want) {
		t.Fatalf("after kcg's --execute, Java reads %v\n%s", got, r.Stdout)
	}
	java, _ = f.javaStreams(t, "--delete-offsets", "--group", g, "--input-topic", f.input+":0")
	_ = java // Java deleted partition 0; kcg deletes partition 1, the same output for it
	r = f.streamsTool(t, "--delete-offsets", "--group", g, "--input-topic", f.input)
	if r.Code != 0 || !strings.Contains(r.Stdout, "Request succeeded for deleting offsets from group "+g+".") {
		t.Fatalf("--delete-offsets: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if c := f.e.Committed(t, g)[f.input]; len(c) != 0 {
		t.Fatalf("offsets left: %v", c)
	}
	r = f.streamsTool(t, "--delete", "--group", g).MustCode(t, 0)
	if strings.TrimSpace(r.Stdout) != "Deletion of requested streams groups ('"+g+"') was successful." {
		t.Fatalf("--delete: %q", r.Stdout)
	}
	// Never the internal topics, and never another group type.
	if r := f.streamsTool(t, "--reset-offsets", "--group", g, "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"); r.Code != 64 || !strings.Contains(r.Stderr, "kcg does not delete internal topics") {
		t.Fatalf("--delete-all-internal-topics: exit %d %q", r.Code, r.Stderr)
	}
	other := g + "-consumer"
	f.e.Commit(t, other, f.input, map[int32]int64{0: 1})
	if r := f.streamsTool(t, "--reset-offsets", "--group", other, "--all-input-topics", "--to-earliest", "--execute"); r.Code != 3 || !strings.Contains(r.Stdout, "is not a streams group") {
		t.Fatalf("a consumer group through kafka-streams-groups: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if c := f.e.Committed(t, other)[f.input]; c[0] != 1 {
		t.Fatalf("the consumer group was changed: %v", c)
	}
}

func streamsRowOf(out, first string) string {
	for _, l := range strings.Split(out, "\n") {
		if fs := strings.Fields(l); len(fs) > 0 && fs[0] == first {
			return l
		}
	}
	return ""
}

// On a broker without streams groups (Kafka 3.9 and 4.0: no
// StreamsGroupDescribe), every kafka-streams-groups action says so in one
// line on stderr and exits 1, and kcg list --type streams adds that line
// to its (empty) list. The version suites of .ci/run run it.
func TestStreamsWithoutStreamsGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "the broker versions without streams groups")
	if !e.Before(4, 1) {
		t.Skipf("Kafka %s has streams groups (the other TestStreams tests run)", e.Version)
	}
	f := &streamsFixture{e: e, group: kafkatest.UniqueName(t, "streams"), input: kafkatest.UniqueName(t, "t")}
	for _, args := range [][]string{
		{"--list"},
		{"--list", "--state"},
		{"--describe", "--group", f.group},
		{"--describe", "--all-groups", "--members"},
		{"--reset-offsets", "--group", f.group, "--all-input-topics", "--to-earliest", "--execute"},
		{"--delete", "--group", f.group},
		{"--delete-offsets", "--group", f.group, "--input-topic", f.input},
	} {
		r := f.streamsTool(t, args...).MustCode(t, 1)
		oneLine(t, r.Stderr, "the broker has no streams groups")
		if r.Stdout != "" {
			t.Errorf("%v: stdout %q", args, r.Stdout)
		}
	}
	r := kcgOn(t, e, "list", "--type", "streams").MustCode(t, 0)
	oneLine(t, r.Stderr, "note: the broker has no streams groups")
}

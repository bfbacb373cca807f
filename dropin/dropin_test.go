package dropin_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// dropin's tests run the whole application in-process, through
// commands.Run as main does, so the dispatch to drop-in mode is tested
// too (see internal/clitest).
var kcg, rows, records = clitest.Run, clitest.Rows, clitest.Records

// Drop-in mode without a broker or Java: parsing and validation, with the
// Java tool's messages (checked against the real tool in
// dropin_java_test.go) and kcg's exit codes.
func TestDropInValidation(t *testing.T) {
	b := []string{"--bootstrap-server", "127.0.0.1:1"}
	for _, c := range []struct {
		args []string
		code int
		// first is the first line of stderr.
		first string
	}{
		{[]string{"--list"}, 64, `Missing required argument "[bootstrap-server]"`},
		{append([]string{"--describe"}, b...), 64, "Option [describe] takes one of these options: [group], [all-groups]"},
		{append([]string{"--describe", "--group", "g", "--members", "--state"}, b...), 64, "Option [describe] takes at most one of these options: [members], [offsets], [state]"},
		{append([]string{"--describe", "--group", "g", "--state", "Stable"}, b...), 64, "Option [describe] does not take a value for [state]"},
		{append([]string{"--describe", "--group", "g", "--state", "--verbose"}, b...), -1, ""}, // --state takes no value from an option
		{append([]string{"--delete", "--group", "g", "--topic", "t"}, b...), 64, "The consumer does not support topic-specific offset deletion from a consumer group."},
		{append([]string{"--delete-offsets", "--topic", "t"}, b...), 64, "Option [delete-offsets] takes the following options: [group], [topic]"},
		{append([]string{"--reset-offsets", "--group", "g", "--to-earliest", "--dry-run", "--execute"}, b...), 64, "Option [reset-offsets] only accepts one of [execute] and [dry-run]"},
		{append([]string{"--reset-offsets", "--group", "g", "--to-offset", "1", "--shift-by", "-1"}, b...), 64, javaDryRunWarning},
		{append([]string{"--list", "--group", "g"}, b...), 64, `Option "[group]" can't be used with option "[list]"`},
		{append([]string{"--describe", "--group", "g", "--topic", "t"}, b...), 64, `Option "[topic]" can't be used with option "[describe]"`},
		{b, 64, "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets, --validate-regex"},
		{append([]string{"--list", "--describe", "--all-groups"}, b...), 64, "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets, --validate-regex"},
		{append([]string{"--desc", "--all-groups"}, b...), 64, "joptsimple.UnrecognizedOptionException: desc is not a recognized option"},
		{append([]string{"--list", "--members"}, b...), 64, "joptsimple.UnavailableOptionException: Option(s) [members] are unavailable given other options on the command line"},
		{append([]string{"--list", "--timeout"}, b...), 64, ""}, // --timeout takes "--bootstrap-server" as its value
		{append(b, "--describe", "--group"), 64, "joptsimple.OptionMissingRequiredArgumentException: Option group requires an argument"},
		{append(b, "--list", "--state", "bad, wrong"), 64, "Invalid state list 'bad, wrong'. Valid states are: PreparingRebalance, CompletingRebalance, Stable, Dead, Empty, Assigning, Reconciling"},
		{append(b, "--list", "--type=Share"), 64, "Invalid types list 'Share'. Valid types are: Consumer, Classic"},
	} {
		r := kcg(t, c.args...)
		if c.code == -1 {
			if strings.Contains(r.Stderr, "does not take a value") {
				t.Fatalf("%q: --state took --verbose as its value:\n%s", c.args, r.Stderr)
			}
			continue
		}
		if r.Code != c.code || r.Stdout != "" {
			t.Fatalf("%q: exit %d, want %d; stdout %q; stderr:\n%s", c.args, r.Code, c.code, r.Stdout, r.Stderr)
		}
		if first := strings.SplitN(r.Stderr, "\n", 2)[0]; c.first != "" && first != c.first {
			t.Fatalf("%q: stderr starts %q, want %q", c.args, first, c.first)
		}
	}
}

const javaDryRunWarning = "WARN: No action will be performed as the --execute option is missing. In version 5.0, this command will require either --dry-run or --execute to be specified. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting."

// Called as kafka-consumer-groups(.sh): drop-in mode whatever the first
// argument; no arguments print the usage (exit 64), --help too (exit 0),
// --version the version.
func TestDropInProgramName(t *testing.T) {
	run := func(name string, args ...string) clitest.Result {
		var out, errb bytes.Buffer
		code := commands.Run(context.Background(), append([]string{"/usr/local/bin/" + name}, args...), commands.IO{Out: &out, Err: &errb})
		return clitest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
	}
	const intro = "This tool helps to list, describe, delete and manage the offsets of consumer groups.\nOption "
	for _, name := range []string{"kafka-consumer-groups", "kafka-consumer-groups.sh"} {
		if r := run(name); r.Code != 64 || !strings.HasPrefix(r.Stderr, intro) || r.Stdout != "" {
			t.Fatalf("%s: exit %d\n%s", name, r.Code, r.Stderr)
		}
		if r := run(name, "--help"); r.Code != 0 || !strings.HasPrefix(r.Stderr, intro) || !strings.Contains(r.Stderr, "--validate-regex <String: regex>") {
			t.Fatalf("%s --help: exit %d\n%s", name, r.Code, r.Stderr)
		}
		if r := run(name, "--version"); r.Code != 0 || strings.TrimSpace(r.Stdout) != app.Version() {
			t.Fatalf("%s --version: exit %d %q", name, r.Code, r.Stdout)
		}
	}
	// kcg's own commands still work under kcg's name.
	if r := kcg(t, "--help"); r.Code != 0 || !strings.Contains(r.Stdout, "describe") {
		t.Fatalf("kcg --help: %d\n%s", r.Code, r.Stdout)
	}
}

func TestDropInValidateRegex(t *testing.T) {
	for _, c := range []struct {
		re, out string
		code    int
	}{
		{"foo.*", "The regular expression `foo.*` is valid.\n", 0},
		{"[foo.*", "The regular expression `[foo.*` is invalid: missing closing ].\n", 1},
		{"a**", "The regular expression `a**` is invalid: invalid nested repetition operator.\n", 1},
		{`a\8`, "The regular expression `a\\8` is invalid: invalid escape sequence.\n", 1},
	} {
		r := kcg(t, "--validate-regex", c.re)
		if r.Code != c.code || r.Stdout != c.out || r.Stderr != "" {
			t.Fatalf("%q: exit %d stdout %q stderr %q", c.re, r.Code, r.Stdout, r.Stderr)
		}
	}
}

// The Java command line against a broker (kfake or real, no Java needed):
// describe, list, reset (dry run, --execute, --export, --from-file),
// delete-offsets and delete, with Java's layouts and kcg's exit codes.
func TestDropInCommands(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(6)...)
	e.Produce(t, topic, 1, records(4)...)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 3, 1: 4})
	b := []string{"--bootstrap-server", e.Bootstrap}
	java := func(code int, args ...string) clitest.Result {
		t.Helper()
		return kcg(t, append(append([]string{}, b...), args...)...).MustCode(t, code)
	}

	// describe: Java's exact layout (widths max(15, value)).
	r := java(0, "--describe", "--group", g)
	gw, tw := max(15, len(g)), max(15, len(topic))
	row := func(p, cur, end, lag string) string {
		return fmt.Sprintf("\n%-*s %-*s %-10s %-15s %-15s %-15s %-15s %-15s %s", gw, g, tw, topic, p, cur, end, lag, "-", "-", "-")
	}
	want := fmt.Sprintf("\n%-*s %-*s %-10s %-15s %-15s %-15s %-15s %-15s %s", gw, "GROUP", tw, "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID") +
		row("0", "3", "6", "3") + row("1", "4", "4", "0") + "\n"
	if r.Stdout != want {
		t.Fatalf("describe:\n%q\nwant\n%q", r.Stdout, want)
	}
	if r.Stderr != "\nConsumer group '"+g+"' has no active members.\n" {
		t.Fatalf("describe stderr %q", r.Stderr)
	}
	// A missing group, as Java reports it for the broker's answer: kfake
	// and Kafka 4.0+ answer DescribeGroups v6 with GROUP_ID_NOT_FOUND,
	// which fails the command; Kafka 3.9 (v5) describes the group as Dead.
	r = java(1, "--describe", "--group", g+"-missing")
	want = "\nError: Executing consumer group command failed due to org.apache.kafka.common.errors.GroupIdNotFoundException: Group " + g + "-missing not found.\n"
	if e.Before(4, 0) {
		want = "\nError: Consumer group '" + g + "-missing' does not exist.\n"
	}
	if r.Stdout != want {
		t.Fatalf("missing group on %s: %q, want %q", e.Name(), r.Stdout, want)
	}

	// list with --state: the table, our group Empty.
	r = java(0, "--list", "--state")
	if !strings.HasPrefix(r.Stdout, "GROUP ") || !strings.Contains(r.Stdout, g+strings.Repeat(" ", 10)) {
		t.Fatalf("list:\n%s", r.Stdout)
	}
	if got := rows(r.Stdout, g); len(got) != 1 || got[0][1] != "Empty" {
		t.Fatalf("list row %v", got)
	}

	// reset: dry run by default, with the WARN; --shift-by -10 clamps.
	r = java(0, "--reset-offsets", "--group", g, "--all-topics", "--shift-by", "-10")
	if got := rows(r.Stdout, g); len(got) != 2 || strings.Join(got[0], " ") != g+" "+topic+" 0 0" {
		t.Fatalf("dry run rows %v\n%s", got, r.Stdout)
	}
	if !strings.HasPrefix(r.Stderr, javaDryRunWarning+"\n") || !strings.Contains(r.Stderr, "WARN New offset (-7) is lower than earliest offset for topic partition "+topic+"-0. Value will be set to 0. (org.apache.kafka.tools.GroupOffsetsResetter)") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	if c := e.Committed(t, g); c[topic][0] != 3 {
		t.Fatalf("dry run committed %v", c)
	}
	// --export: the CSV, sorted, one group: topic,partition,offset.
	r = java(0, "--reset-offsets", "--group", g, "--topic", topic, "--to-offset", "2", "--export", "--dry-run")
	// (Jackson quotes a value longer than 24 characters, as the topic name is.)
	if r.Stdout != fmt.Sprintf("%q,0,2\n%q,1,2\n\n", topic, topic) {
		t.Fatalf("export %q", r.Stdout)
	}
	file := filepath.Join(t.TempDir(), "plan.csv")
	if err := os.WriteFile(file, []byte(r.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	// --execute of the file: committed and read back.
	r = java(0, "--reset-offsets", "--group", g, "--from-file", file, "--execute")
	if got := rows(r.Stdout, g); len(got) != 2 || got[1][3] != "2" {
		t.Fatalf("execute rows %v", got)
	}
	if c := e.Committed(t, g); c[topic][0] != 2 || c[topic][1] != 2 {
		t.Fatalf("committed %v", c)
	}
	// --by-duration on a partition without newer records: the Warn line
	// goes to stdout, or to stderr with --export (the CSV stays clean).
	future := kafkatest.UniqueName(t, "f")
	r = java(0, "--reset-offsets", "--group", future, "--topic", topic+":0", "--by-duration", "PT0S", "--dry-run", "--export")
	if r.Stdout != fmt.Sprintf("%q,0,6\n\n", topic) || !strings.Contains(r.Stderr, "Warn: Partition 0 from topic "+topic+" is empty. Falling back to latest known offset.") {
		t.Fatalf("export with warning: stdout %q stderr %q", r.Stdout, r.Stderr)
	}

	// An active group is refused: exit 3, nothing written.
	active := kafkatest.UniqueName(t, "active")
	e.Commit(t, active, topic, map[int32]int64{0: 1})
	e.ClassicMember(t, active, topic)
	r = java(3, "--reset-offsets", "--group", active, "--topic", topic, "--to-latest", "--execute")
	if !strings.Contains(r.Stdout, "Error: Assignments can only be reset if the group '"+active+"' is inactive, but the current state is Stable.") {
		t.Fatalf("active:\n%s", r.Stdout)
	}
	if c := e.Committed(t, active); c[topic][0] != 1 {
		t.Fatalf("active group committed %v", c)
	}
	java(64, "--reset-offsets", "--group", g, "--to-latest")
	java(64, "--reset-offsets", "--group", g, "--topic", topic+":x", "--to-latest")

	// delete-offsets and delete.
	r = java(0, "--delete-offsets", "--group", g, "--topic", topic+":1")
	if !strings.HasPrefix(r.Stdout, "Request succeeded for deleting offsets from group "+g+".\n") || !strings.Contains(r.Stdout, "\n"+topic+" ") {
		t.Fatalf("delete-offsets:\n%s", r.Stdout)
	}
	before := e.Committed(t, g)
	r = java(0, "--delete", "--group", g)
	if r.Stdout != "Deletion of requested consumer groups ('"+g+"') was successful.\n" {
		t.Fatalf("delete: %q", r.Stdout)
	}
	// The undo plan, named on stderr only; applying it brings g back at
	// the same offsets (read by kafkatest's own client).
	undo := regexp.MustCompile(`(?m)^undo plan written to (\S+):`).FindStringSubmatch(r.Stderr)
	if undo == nil || len(e.Committed(t, g)) != 0 {
		t.Fatalf("delete: no undo plan named, or offsets left %v:\n%s", e.Committed(t, g), r.Stderr)
	}
	kcg(t, "apply", undo[1], "--bootstrap-server", e.Bootstrap).MustCode(t, 0)
	if got := e.Committed(t, g); fmt.Sprint(got) != fmt.Sprint(before) || len(got) == 0 {
		t.Fatalf("after the undo plan: %v, before the delete %v", got, before)
	}
	java(0, "--delete", "--group", g)
	r = java(1, "--delete", "--group", g)
	if !strings.Contains(r.Stdout, "* Group '"+g+"' could not be deleted due to: org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.") {
		t.Fatalf("delete again:\n%s", r.Stdout)
	}
}

// --reset-offsets --execute goes through kcg apply's path, its watch of
// the written offsets included: a group whose consumer commits without
// joining it (assign()) takes its position back at once, and the reset is
// reported overwritten (exit 4), not done.
// (The drop-in watch is settleFor, 300ms in these tests: TestMain.)
func TestDropInExecuteReportsOverwrittenOffsets(t *testing.T) {
	e, topic, g := kafkatest.Cluster(t), kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(6)...)
	// The consumer's position, committed by it again every 50ms.
	e.AssignCommitter(t, g, topic, map[int32]int64{0: 3}, 50*time.Millisecond)
	e.Commit(t, g, topic, map[int32]int64{0: 3})

	r := kcg(t, "--bootstrap-server", e.Bootstrap, "--reset-offsets", "--group", g, "--topic", topic, "--to-earliest", "--execute").MustCode(t, 4)
	for _, want := range []string{"group " + g + ": overwritten after the write", "assign()"} {
		// As the Java tool, drop-in mode prints its errors on stdout.
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, r.Stdout)
		}
	}
}

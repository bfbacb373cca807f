package dropin_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/dropin"
)

// shareTool runs kcg called as kafka-share-groups.sh with args.
func shareTool(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	argv := append([]string{"/opt/kafka/bin/kafka-share-groups.sh"}, args...)
	code = commands.Run(context.Background(), argv, commands.IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func TestShareCalled(t *testing.T) {
	for name, want := range map[string]bool{
		"kafka-share-groups": true, "/usr/bin/kafka-share-groups.sh": true,
		"kafka-streams-groups.sh": false, "kafka-consumer-groups.sh": false, "kcg": false, "kafka-share-groups.bat": false,
	} {
		if got := dropin.ShareCalled([]string{name}); got != want {
			t.Errorf("ShareCalled(%q) = %v", name, got)
		}
	}
}

// kafka-share-groups' command line without a broker: Apache Kafka
// 4.4.0's ShareGroupCommand messages (captured from the real tool), in
// its checking order, exit 64; the options it lacks (--by-duration,
// --shift-by, --type, --validate-regex) are jopt-simple's unrecognized
// options, as in Java.
func TestShareDropInValidation(t *testing.T) {
	b := []string{"--bootstrap-server", "127.0.0.1:1"}
	with := func(args ...string) []string { return append(args, b...) }
	for _, c := range []struct {
		args  []string
		first string
	}{
		{[]string{"--list"}, `Missing required argument "[bootstrap-server]"`},
		{with(), "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets."},
		{with("--list", "--describe"), "Option [describe] takes one of these options: [all-groups], [group]"},
		{with("--describe", "--group", "g", "--members", "--state"), "Option [describe] takes at most one of these options: [members], [offsets], [state]"},
		{with("--describe", "--group", "g", "--state", "Empty"), "Option [describe] does not take a value for [state]"},
		{with("--delete"), "Option [delete] takes the options [group] or [all-groups]."},
		{with("--delete", "--group", "g", "--all-groups"), "Option [delete] takes either [group] or [all-groups], not both."},
		{with("--delete", "--group", "g", "--topic", "t"), "Option [delete] does not take the options [topic] or [all-topics]."},
		{with("--delete-offsets", "--group", "g"), "Option [delete-offsets] takes the following options: [group], [topic]"},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--to-earliest"), "Option [reset-offsets] takes the option: [execute] or [dry-run]"},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--to-earliest", "--dry-run", "--execute"), "Option [reset-offsets] only accepts one of [execute] and [dry-run]"},
		{with("--reset-offsets", "--all-groups", "--all-topics", "--to-earliest", "--dry-run"), "Option [reset-offsets] takes the option: [group]"},
		{with("--reset-offsets", "--group", "g", "--to-earliest", "--dry-run"), "Option [reset-offsets] takes one of these options: [all-topics], [from-file], [topic]"},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--dry-run"), "Option [reset-offsets] takes one of these options: [from-file], [to-current], [to-datetime], [to-earliest], [to-latest], [to-offset]"},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--to-earliest", "--to-latest", "--dry-run"), `Option "[to-earliest]" can't be used with option "[to-latest]"`},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--topic", "t", "--to-earliest", "--dry-run"), `Option "[topic]" can't be used with option "[all-topics]"`},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--by-duration", "PT1H", "--dry-run"), "joptsimple.UnrecognizedOptionException: by-duration is not a recognized option"},
		{with("--reset-offsets", "--group", "g", "--all-topics", "--shift-by", "1", "--dry-run"), "joptsimple.UnrecognizedOptionException: shift-by is not a recognized option"},
		{with("--list", "--type", "share"), "joptsimple.UnrecognizedOptionException: type is not a recognized option"},
		{with("--list", "--verbose"), "joptsimple.UnavailableOptionException: Option(s) [verbose] are unavailable given other options on the command line"},
		{with("--list", "--group", "g"), `Option "[group]" can't be used with option "[list]"`},
		{with("--list", "--topic", "t"), `Option "[topic]" can't be used with option "[list]"`},
		{with("--describe", "--group", "g", "--all-groups"), `Option "[group]" can't be used with option "[all-groups]"`},
		{with("--describe", "--group", "g", "--topic", "t"), `Option "[topic]" can't be used with option "[describe]"`},
	} {
		code, out, errs := shareTool(c.args...)
		first, _, _ := strings.Cut(errs, "\n")
		if code != 64 || first != c.first || out != "" {
			t.Errorf("%v: exit %d, first line %q (want 64, %q), stdout %q", c.args, code, first, c.first, out)
		}
	}
}

// --help is the share tool's option table (exit 0), no arguments its
// other introduction (exit 64), --version kcg's version.
func TestShareDropInHelp(t *testing.T) {
	code, out, errs := shareTool("--help")
	if code != 0 || out != "" || !strings.HasPrefix(errs, "This tool helps to list, describe, delete and manage the offsets of share groups.\nOption ") ||
		!strings.Contains(errs, "--delete-offsets                        Delete offsets of share group.") || strings.Contains(errs, "--shift-by") {
		t.Fatalf("--help: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	code, _, errs = shareTool()
	if code != 64 || !strings.HasPrefix(errs, "This tool helps to list all share groups, describe a share group, delete share group info, or reset share group offsets.\n") {
		t.Fatalf("no arguments: exit %d, stderr %q", code, errs)
	}
	if code, out, _ = shareTool("--version"); code != 0 || out == "" {
		t.Fatalf("--version: exit %d %q", code, out)
	}
}

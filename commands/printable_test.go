package commands_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// A group id is any string a client chose. One holding terminal escapes
// must not erase rows of a table or rewrite a stderr line: every table
// cell and every stderr line shows it escaped (vocab.Printable), in both
// command lines, while JSON keeps the exact name (issue 20 §2 item 3).
func TestNamesWithEscapesPrintEscaped(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g") + "x\x1b[2K\x1b[1A\r"
	shown := strings.ReplaceAll(strings.ReplaceAll(group, "\x1b", `\x1b`), "\r", `\r`)
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(4)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.yaml")

	clean := func(what string, r clitest.Result, wantShown bool) {
		t.Helper()
		for stream, s := range map[string]string{"stdout": r.Stdout, "stderr": r.Stderr} {
			if strings.ContainsAny(s, "\x1b\r") {
				t.Errorf("%s: %s carries a control character: %q", what, stream, s)
			}
		}
		if wantShown && !strings.Contains(r.Stdout+r.Stderr, shown) {
			t.Errorf("%s: the name is not shown escaped as %q:\nstdout %q\nstderr %q", what, shown, r.Stdout, r.Stderr)
		}
	}
	clean("list", kcgOn(t, e, "list").MustCode(t, 0), true)
	clean("describe", kcgOn(t, e, "describe", group).MustCode(t, 0), true)
	clean("describe --state", kcgOn(t, e, "describe", group, "--state").MustCode(t, 0), true)
	clean("plan", kcgOn(t, e, "plan", group, "--topic", topic, "--to-earliest", "--out", plan).MustCode(t, 0), true)
	clean("show", kcg(t, "show", plan).MustCode(t, 0), true)
	clean("diff", kcgOn(t, e, "diff", plan).MustCode(t, 0), true)
	clean("apply", kcgOn(t, e, "apply", plan).MustCode(t, 0), true)
	clean("describe of a missing group", kcgOn(t, e, "describe", group+"nosuch"), true)
	clean("drop-in --describe", kcg(t, "--bootstrap-server", e.Bootstrap, "--describe", "--group", group).MustCode(t, 0), true)
	clean("drop-in --list", kcg(t, "--bootstrap-server", e.Bootstrap, "--list").MustCode(t, 0), true)

	// Machine formats keep the exact name.
	d := parseDescribe(t, kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0).Stdout)
	if len(d.Groups) != 1 || d.Groups[0].Group != group {
		t.Errorf("JSON does not keep the exact name: %+v", d.Groups)
	}
	if y := kcgOn(t, e, "describe", group, "-o", "yaml").MustCode(t, 0).Stdout; !strings.Contains(y, `\e[2K\e[1A\r`) {
		t.Errorf("YAML does not hold the exact name (escaped as YAML does):\n%s", y)
	}
	// The drop-in --export CSV is --from-file's input: exact names.
	csv := kcg(t, "--bootstrap-server", e.Bootstrap, "--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--dry-run", "--export").MustCode(t, 0)
	if !strings.Contains(csv.Stdout, topic) || !strings.Contains(csv.Stdout, ",0,0") {
		t.Errorf("--export CSV %q", csv.Stdout)
	}
	csv = kcg(t, "--bootstrap-server", e.Bootstrap, "--reset-offsets", "--group", group, "--group", group+"2", "--topic", topic, "--to-earliest", "--dry-run", "--export")
	if !strings.Contains(csv.Stdout, group) {
		t.Errorf("--export CSV does not keep the exact name: %q", csv.Stdout)
	}
}

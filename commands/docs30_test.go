package commands_test

import (
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// docTableRow returns the row of the markdown table in doc whose first
// cell starts with first.
func docTableRow(t *testing.T, doc, first string) string {
	t.Helper()
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| "+first) {
			return line
		}
	}
	t.Fatalf("no row starting %q", first)
	return ""
}

// docs/completion.md lists what completion offers: every SASL mechanism
// (it listed 3 of 6), and the schema kinds (issue 30 item 19).
func TestDocsCompletionTable(t *testing.T) {
	doc := readDoc(t, "completion.md")
	row := docTableRow(t, doc, "`--sasl-mechanism <TAB>`")
	for _, m := range words(t, "list", "--sasl-mechanism", "") {
		if !strings.Contains(row, "`"+m+"`") {
			t.Errorf("docs/completion.md's --sasl-mechanism row lacks %s: %s", m, row)
		}
	}
	row = docTableRow(t, doc, "`kcg schema <TAB>`")
	for _, k := range []string{"GroupList", "OffsetResetPlan"} {
		if !strings.Contains(row, k) {
			t.Errorf("docs/completion.md's schema row does not name %s: %s", k, row)
		}
	}
}

// The first example of docs/time-lag.md has the columns describe
// --time-lag prints (it lacked RETENTION; issue 30 item 19).
func TestDocsTimeLagFirstExample(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	group := kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(6)...)
	e.Commit(t, group, topic, map[int32]int64{0: 3})
	r := kcgOn(t, e, "describe", group, "--time-lag").MustCode(t, 0)
	got := strings.Fields(strings.SplitN(r.Stdout, "\n", 2)[0])
	doc := readDoc(t, "time-lag.md")
	_, block, ok := strings.Cut(doc, "```\n")
	if !ok {
		t.Fatal("docs/time-lag.md has no example")
	}
	want := strings.Fields(strings.SplitN(block, "\n", 2)[0])
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("docs/time-lag.md's first example has the columns\n%q\ndescribe --time-lag prints\n%q", want, got)
	}
}

// README says where the skipped tests and their reasons are seen: go
// test ./... prints only "ok" for a package that passes (issue 30 item
// 19).
func TestDocsReadmeSkips(t *testing.T) {
	b := readDoc(t, "../README.md")
	_, rest, ok := strings.Cut(b, "## Run the tests")
	if !ok {
		t.Fatal("README.md has no 'Run the tests' section")
	}
	section, _, _ := strings.Cut(rest, "\n## ")
	if strings.Contains(section, "skipped") && !strings.Contains(section, "go test -v") {
		t.Errorf("README.md promises skip messages but does not say they need go test -v:\n%s", section)
	}
}

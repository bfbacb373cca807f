package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// -o as users type it: any case, attached (-ojson), with = (-o=json,
// --output=json), before or after the arguments, and before the command.
func TestOutputFlagSpellings(t *testing.T) {
	for _, spelling := range [][]string{
		{"-o", "json"}, {"-o", "JSON"}, {"-o", "Json"}, {"-ojson"}, {"-oJSON"},
		{"-o=json"}, {"-o=JSON"}, {"--output=json"}, {"--output=JSON"}, {"--output", "json"},
	} {
		for _, args := range [][]string{
			append([]string{"list", "--sandbox"}, spelling...),
			append(append([]string{"list"}, spelling...), "--sandbox"),
			append(append([]string{}, spelling...), "list", "--sandbox"),
		} {
			r := kcg(t, args...).MustCode(t, 0)
			var doc struct{ Kind string }
			if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || doc.Kind != "GroupList" {
				t.Errorf("%q: not a GroupList JSON document (%v):\n%s", args, err, r.Stdout)
			}
		}
	}
	r := kcg(t, "describe", "billing", "--sandbox", "-oYAML").MustCode(t, 0)
	if !strings.HasPrefix(r.Stdout, "apiVersion: kcg/v1\nkind: GroupDescriptionList\n") {
		t.Errorf("-oYAML: %q", r.Stdout)
	}
	r = kcg(t, "list", "--sandbox", "--output=TABLE").MustCode(t, 0)
	if !strings.HasPrefix(r.Stdout, "GROUP ") {
		t.Errorf("--output=TABLE: %q", r.Stdout)
	}
}

// An unknown format is exit 64 with one line naming the formats of that
// command: watch has no yaml, show has csv, describe has markdown.
func TestOutputFlagUnknownFormat(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "-o", "xml"}, `kcg: unknown output format "xml": valid formats are table, json, yaml` + "\n"},
		{[]string{"describe", "billing", "-oxml"}, `kcg: unknown output format "xml": valid formats are table, json, yaml, markdown, prometheus` + "\n"},
		{[]string{"watch", "billing", "-o", "yaml"}, `kcg: unknown output format "yaml": valid formats are table, json, none` + "\n"},
		{[]string{"show", "p.yaml", "--output=tsv"}, `kcg: unknown output format "tsv": valid formats are table, json, yaml, csv, markdown` + "\n"},
		{[]string{"plan", "billing", "--all-topics", "--to-earliest", "--out", "-", "-o", "wide"}, `kcg: unknown output format "wide": valid formats are table, json, yaml` + "\n"},
		{[]string{"delete", "billing", "-o="}, `kcg: unknown output format "": valid formats are table, json, yaml` + "\n"},
	} {
		args := c.args
		if args[0] != "show" {
			args = append(args, "--bootstrap-server", "127.0.0.1:1")
		}
		r := kcg(t, args...).MustCode(t, 64)
		if r.Stdout != "" || r.Stderr != c.want {
			t.Errorf("%q: stdout %q, stderr %q, want %q", c.args, r.Stdout, r.Stderr, c.want)
		}
	}
}

// show -o CSV is the Java tool's CSV too.
func TestOutputFlagShowCSVAnyCase(t *testing.T) {
	dir := t.TempDir()
	plan := dir + "/p.yaml"
	kcg(t, "plan", "billing", "--sandbox", "--topic", "payments", "--to-earliest", "--out", plan).MustCode(t, 0)
	for _, o := range []string{"-oCSV", "--output=csv", "-o=Csv"} {
		r := kcg(t, "show", plan, o).MustCode(t, 0)
		if strings.TrimSpace(r.Stdout) != "payments,0,0" {
			t.Errorf("show %s: %q", o, r.Stdout)
		}
	}
}

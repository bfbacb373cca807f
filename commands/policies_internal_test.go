package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/policy"
	"github.com/kcg-dev/kcg/vocab"
)

// A policy message interpolating a group name (any string a client chose)
// stays one stderr line: a newline in the name is shown as \n, an escape
// as \x1b, behind the same writer Run puts on stderr.
func TestPolicyMessagesOneLineEach(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "names.rego")
	if err := os.WriteFile(rules, []byte(`package kcg

deny contains sprintf("group %s is critical", [g.group]) if {
	some g in input.groups
}

warn contains sprintf("group %s: check it", [g.group]) if {
	some g in input.groups
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := policy.Load(context.Background(), []string{rules})
	if err != nil {
		t.Fatal(err)
	}
	res, err := set.Eval(context.Background(), []byte(`{"groups": [{"group": "pay\nkcg: applied\u001b[2K"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	printPolicyMessages(vocab.NewPrintableWriter(&buf), res)
	want := "policy warning: group pay\\nkcg: applied\\x1b[2K: check it\n" +
		"policy denied: group pay\\nkcg: applied\\x1b[2K is critical\n"
	if buf.String() != want {
		t.Fatalf("stderr %q, want %q", buf.String(), want)
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Fatalf("%d lines for two messages: %q", n, buf.String())
	}
}

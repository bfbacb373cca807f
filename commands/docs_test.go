package commands_test

import (
	"flag"
	"os"
	"testing"

	"github.com/kcg-dev/kcg/commands"
)

var update = flag.Bool("update", false, "rewrite golden files and generated docs")

// The command reference in docs/ is generated from the CLI; this fails
// when a flag changed and the docs were not regenerated.
func TestCommandReference(t *testing.T) {
	md, err := commands.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	const path = "../docs/commands.md"
	if *update {
		if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != md {
		t.Fatalf("%s is out of date: run go test ./commands -run TestCommandReference -update", path)
	}
}

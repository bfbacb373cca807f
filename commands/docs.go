//go:build !urfave_cli_no_docs

// The command reference needs urfave/cli's documentation renderer, which
// links go-md2man and blackfriday and initialises them at every start
// (about 1 ms, docs/benchmarks.md). Release builds leave it out with the
// build tag urfave_cli_no_docs (goreleaser.yaml); tests, which render
// docs/commands.md, build without it.

package commands

import (
	"github.com/kcg-dev/kcg/dropin"
)

// Markdown renders the command reference (docs/commands.md) from the CLI
// definitions, so the docs cannot drift from the flags.
func Markdown() (string, error) {
	app := newApp(IO{})
	app.Version = ""
	md, err := app.ToMarkdown()
	if err != nil {
		return "", err
	}
	header := "<!-- Generated from the CLI by `go test ./commands -run TestCommandReference -update`; do not edit. -->\n\n"
	return header + markdownExamples(md, app.Commands) + dropin.Markdown, nil
}

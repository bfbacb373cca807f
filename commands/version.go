package commands

import (
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/internal/app"
	"github.com/urfave/cli/v2"
)

func versionCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print kcg's version",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			fmt.Fprintln(s.Out, versionLine())
			return nil
		},
	}
}

// versionLine is what kcg version, kcg --version and kcg -v print: the
// version, and the commit and build date when the build recorded them
// (release builds set them with ldflags; a go build leaves them unknown).
func versionLine() string {
	line := "kcg " + app.Version()
	var build []string
	if app.Commit != "" {
		build = append(build, "commit "+app.Commit)
	}
	if app.Date != "" {
		build = append(build, "built "+app.Date)
	}
	if len(build) > 0 {
		line += " (" + strings.Join(build, ", ") + ")"
	}
	return line
}

func completionCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script",
		ArgsUsage: "bash|zsh|fish",
		Description: "Load with 'source <(kcg completion bash)'. Completion only prints words\n" +
			"(commands, flags, the values of -o, --state and --type): it never runs a\n" +
			"command and never connects to Kafka. See docs/completion.md.",
		Action: func(c *cli.Context) error {
			shell := c.Args().First()
			switch shell {
			case "bash":
				fmt.Fprint(s.Out, bashCompletion)
			case "zsh":
				fmt.Fprint(s.Out, zshCompletion)
			case "fish":
				out, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				fmt.Fprintln(s.Out, out)
			default:
				return app.Usagef("completion: give one of bash, zsh, fish")
			}
			return nil
		},
	}
}

// The completion scripts run "kcg WORDS... CUR --generate-bash-completion":
// the words typed before the cursor and the word being completed (possibly
// empty). kcg only prints candidates for it (see complete.go).
const bashCompletion = `# kcg bash completion: source <(kcg completion bash)
_kcg_complete() {
  local cur words
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  COMPREPLY=($(compgen -W "$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)" -- "$cur"))
}
complete -o default -F _kcg_complete kcg
`

const zshCompletion = `#compdef kcg
# kcg zsh completion: source <(kcg completion zsh)
_kcg() {
  local -a opts
  opts=("${(@f)$("${(@)words[1,CURRENT-1]}" "${words[CURRENT]}" --generate-bash-completion 2>/dev/null)}")
  compadd -a opts
}
compdef _kcg kcg
`

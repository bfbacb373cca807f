package commands

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

func versionCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print kcg's version (-o json|yaml: with commit, date, Go version and platform)",
		Flags: []cli.Flag{outputFlag("table", "json", "yaml")},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			f, err := formatFrom(c)
			if err != nil {
				return err
			}
			return output.Write(s.Out, f, versionInfo())
		},
	}
}

// versionInfo is the version document of this binary.
func versionInfo() output.VersionInfo {
	return output.NewVersionInfo(app.Version(), app.BuildCommit(), app.BuildDate(), runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
}

// versionLine is what kcg version, kcg --version and kcg -v print.
func versionLine() string { return versionInfo().Line() }

func completionCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script",
		ArgsUsage: "bash|zsh|fish|powershell",
		Description: "Load with 'source <(kcg completion bash)' (see docs/completion.md for zsh,\n" +
			"fish and PowerShell). Completion only prints words: commands, flags, flag\n" +
			"values, files, and group and topic names read from the cluster the command\n" +
			"line points at (ListGroups and Metadata only, at most about 2 s, silent when\n" +
			"it cannot be reached). It never runs a command and never writes to Kafka.",
		Action: func(c *cli.Context) error {
			shell := c.Args().First()
			if c.Args().Len() > 1 {
				return app.Usagef("completion takes one shell: %s", strings.Join(shells, ", "))
			}
			script, ok := completionScripts[strings.ToLower(shell)]
			if !ok {
				return app.Usagef("completion: give one of %s", strings.Join(shells, ", "))
			}
			fmt.Fprint(s.Out, script)
			return nil
		},
	}
}

// The completion scripts run "kcg WORDS... CUR --generate-bash-completion":
// the words typed before the cursor and the word being completed (possibly
// empty). kcg prints one candidate per line, already filtered by CUR, or
// the single line ":files" when the shell should complete file names (see
// complete.go). Every script is generated here, none by urfave/cli, so
// all four shells offer the same words.
var completionScripts = map[string]string{
	"bash":       bashCompletion,
	"zsh":        zshCompletion,
	"fish":       fishCompletion,
	"powershell": powershellCompletion,
}

// bashCompletion works in bash 3.2 (macOS) and later: no mapfile, and
// compopt only where it exists. The command run is the one typed
// (COMP_WORDS[0]), so ./kcg completes with itself.
const bashCompletion = `# kcg bash completion: source <(kcg completion bash)
_kcg_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}" line
  local -a out
  out=()
  while IFS= read -r line; do
    out+=("$line")
  done < <("${COMP_WORDS[@]:0:COMP_CWORD}" "$cur" --generate-bash-completion 2>/dev/null)
  COMPREPLY=()
  if [[ ${#out[@]} -eq 1 && "${out[0]}" == ":files" ]]; then
    compopt -o filenames 2>/dev/null
    while IFS= read -r line; do
      COMPREPLY+=("$line")
    done < <(compgen -f -- "$cur")
    return 0
  fi
  [[ ${#out[@]} -gt 0 ]] && COMPREPLY=("${out[@]}")
  return 0
}
complete -F _kcg_complete kcg
`

const zshCompletion = `#compdef kcg
# kcg zsh completion: source <(kcg completion zsh)
_kcg() {
  local out
  local -a opts
  out="$("${(@)words[1,CURRENT-1]}" "${words[CURRENT]}" --generate-bash-completion 2>/dev/null)"
  if [[ "$out" == ":files" ]]; then
    _files
    return
  fi
  opts=(${(f)out})
  (( ${#opts} )) && compadd -Q -U -- "${opts[@]}"
}
compdef _kcg kcg
`

const fishCompletion = `# kcg fish completion: kcg completion fish | source
function __kcg_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l out ($words "$cur" --generate-bash-completion 2>/dev/null)
    if test (count $out) -eq 1; and test "$out[1]" = ":files"
        __fish_complete_path "$cur"
        return
    end
    printf '%s\n' $out
end
complete -c kcg -f -a '(__kcg_complete)'
`

// powershellCompletion passes the word being completed even when it is
// empty, which PowerShell 7.3 and later do for native commands.
const powershellCompletion = `# kcg PowerShell completion: kcg completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName kcg -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @()
    foreach ($e in $commandAst.CommandElements) {
        if ($e.Extent.EndOffset -lt $cursorPosition -or ($wordToComplete -eq '' -and $e.Extent.EndOffset -le $cursorPosition)) {
            $words += $e.Extent.Text
        }
    }
    $prog = $words[0]
    $rest = @()
    if ($words.Count -gt 1) { $rest = $words[1..($words.Count - 1)] }
    $out = @(& $prog @rest $wordToComplete '--generate-bash-completion' 2>$null)
    if ($out.Count -eq 1 -and $out[0] -eq ':files') {
        return # nothing: PowerShell completes paths
    }
    foreach ($w in $out) {
        [System.Management.Automation.CompletionResult]::new($w, $w, 'ParameterValue', $w)
    }
}
`

package commands

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// examples are the Examples section of kcg's help and of each command's:
// two to four command lines that work as written (TestHelpExamples parses
// every one against its command). The key "" is kcg itself.
//
// withExamples appends them to the Description as one block,
//
//	Examples:
//	   kcg ...
//
// so --help renders them the same way for every command, and anything
// generated from the CLI definition (man pages) finds them in
// Description, after a line "Examples:".
var examples = map[string][]string{
	"": {
		"kcg describe billing --bootstrap-server broker-1:9092",
		"kcg plan billing --topic payments --to-earliest --out reset.yaml",
		"kcg apply reset.yaml",
		"kcg list --sandbox",
	},
	"list": {
		"kcg list --bootstrap-server broker-1:9092",
		"kcg list --state Stable,Empty -o json",
		"kcg list --type all",
	},
	"describe": {
		"kcg describe billing -b broker-1:9092",
		"kcg describe --all-groups -o json",
		"kcg describe billing --members --verbose",
		"kcg describe billing --topic payments --time-lag",
	},
	"watch": {
		"kcg watch billing",
		"kcg watch --all-groups --interval 10s",
		"kcg watch billing -o json --count 12",
	},
	"plan": {
		"kcg plan billing --topic payments --to-datetime 2026-11-28T00:00:00Z --out chg-1234.yaml --ticket CHG-1234",
		"kcg plan billing-old --delete --out delete.yaml",
		"kcg plan billing-v2 --topic payments --to-group billing --allow-new-group --out migrate.yaml",
		"kcg plan billing --sandbox --topic payments --to-earliest --out -",
	},
	"show": {
		"kcg show chg-1234.yaml",
		"kcg show chg-1234.yaml -o csv",
		"kcg show chg-1234.yaml -o markdown > chg-1234.md",
		"kcg show failover.yaml --source-profile prod",
	},
	"diff": {
		"kcg diff chg-1234.yaml",
		"kcg diff chg-1234.yaml chg-1234-v2.yaml",
		"kcg diff chg-1234.yaml -o json",
	},
	"apply": {
		"kcg apply chg-1234.yaml",
		"kcg apply chg-1234.undo.yaml",
		"kcg apply chg-1234.yaml --wait-empty 10m -o markdown",
		"kcg apply chg-1234.yaml --allowed-signers reviewers --min-approvals 2 --signature alice.sig --signature bob.sig",
	},
	"approve": {
		"kcg approve chg-1234.yaml --key ~/.ssh/id_ed25519",
		"kcg approve chg-1234.yaml --key ~/.ssh/id_rsa.pub --out bob.sig",
	},
	"delete": {
		"kcg delete billing-old --dry-run",
		"kcg delete billing-old billing-test --yes -o json",
	},
	"delete-offsets": {
		"kcg delete-offsets billing --topic payments --dry-run",
		"kcg delete-offsets billing --topic orders:0,2 --yes -o json",
	},
	"sandbox": {
		"kcg sandbox",
		"kcg sandbox --port 9092",
	},
	"version": {
		"kcg version",
		"kcg version -o json",
		"kcg --version",
	},
	"profile": {
		"kcg profile list",
		"kcg profile show prod -o yaml",
		"kcg profile use staging",
	},
	"schema": {
		"kcg schema",
		"kcg schema OffsetResetPlan",
		"kcg schema applyreport",
	},
	"completion": {
		"source <(kcg completion bash)",
		"kcg completion zsh > \"${fpath[1]}/_kcg\"",
		"kcg completion fish | source",
		"kcg completion powershell | Out-String | Invoke-Expression",
	},
}

// examplesHeading starts the Examples block of a Description.
const examplesHeading = "Examples:"

// withExamples returns description with the Examples block of lines.
func withExamples(description string, lines []string) string {
	if len(lines) == 0 {
		return description
	}
	var b strings.Builder
	if description != "" {
		b.WriteString(strings.TrimRight(description, "\n"))
		b.WriteString("\n\n")
	}
	b.WriteString(examplesHeading)
	for _, l := range lines {
		b.WriteString("\n   ")
		b.WriteString(l)
	}
	return b.String()
}

// addExamples gives kcg and every command its Examples block (a command
// with subcommands, kcg profile, holds its subcommands' examples).
func addExamples(a *cli.App) {
	a.Description = withExamples(a.Description, examples[""])
	for _, c := range a.Commands {
		c.Description = withExamples(c.Description, examples[c.Name])
	}
}

// markdownExamples adds each command's examples to the generated command
// reference, after the command's one-line usage: urfave/cli's markdown
// leaves out a command's Description.
func markdownExamples(md string, cmds []*cli.Command) string {
	for _, c := range cmds {
		lines := examples[c.Name]
		head := "\n## " + c.Name + "\n\n"
		i := strings.Index(md, head)
		if len(lines) == 0 || i < 0 {
			continue
		}
		block := "**Examples**:\n\n```\n" + strings.Join(lines, "\n") + "\n```\n"
		j := strings.Index(md[i+len(head):], "\n\n")
		if j < 0 { // the last command, without flags
			md = strings.TrimRight(md, "\n") + "\n\n" + block
			continue
		}
		at := i + len(head) + j + 2
		md = md[:at] + block + "\n" + md[at:]
	}
	return md
}

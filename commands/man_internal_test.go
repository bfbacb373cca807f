package commands

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// Subcommands (kcg profile list, …) get their own pages, named and linked
// both ways, and hidden commands none; kcg's tree has no subcommands yet,
// so this drives the generator with one.
func TestManPagesOfSubcommands(t *testing.T) {
	a := &cli.App{Name: "kcg", Usage: "u", Commands: []*cli.Command{{
		Name:  "profile",
		Usage: "manage profiles",
		Subcommands: []*cli.Command{
			{Name: "list", Usage: "list profiles", Description: "Lists them.\n\nExamples:\n   kcg profile list\n",
				Flags: []cli.Flag{&cli.StringFlag{Name: "config", Value: "~/.config/kcg/config.yaml", Usage: "config `FILE`", EnvVars: []string{"KCG_CONFIG"}}}},
			{Name: "secret", Usage: "hidden", Hidden: true},
		},
	}}}
	parent := manCommand(a, []string{"profile"}, a.Commands[0])
	sub := manCommand(a, []string{"profile", "list"}, a.Commands[0].Subcommands[0])
	for _, want := range []string{".SH COMMANDS\n", `\fBkcg profile list\fR`, `\fBkcg\-profile\-list\fR(1)`} {
		if !strings.Contains(parent, want) {
			t.Errorf("kcg-profile.1 lacks %q:\n%s", want, parent)
		}
	}
	if strings.Contains(parent, "secret") {
		t.Errorf("kcg-profile.1 shows a hidden subcommand:\n%s", parent)
	}
	for _, want := range []string{
		".TH KCG\\-PROFILE\\-LIST 1",
		"kcg\\-profile\\-list \\- list profiles\n",
		".B kcg profile list\n",
		"\\fB\\-\\-config\\fR \\fIFILE\\fR\n",
		"Default: ~/.config/kcg/config.yaml. Environment: KCG_CONFIG.\n",
		".SH EXAMPLES\n.RS 4\n.nf\nkcg profile list\n.fi\n",
		"\\fBkcg\\-profile\\fR(1)",
	} {
		if !strings.Contains(sub, want) {
			t.Errorf("kcg-profile-list.1 lacks %q:\n%s", want, sub)
		}
	}
	if strings.Contains(sub, "Examples:") {
		t.Errorf("the Examples: line stayed in DESCRIPTION:\n%s", sub)
	}
}

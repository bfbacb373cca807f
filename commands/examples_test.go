package commands

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// kcgCommandRE finds the kcg command line in an example that is a shell
// line ("source <(kcg completion bash)", "kcg completion fish | source").
var kcgCommandRE = regexp.MustCompile(`(?:^|[(\s])(kcg(?: [^)|>;]*)?)`)

// exampleArgs splits an example into kcg's arguments (no quotes are used
// inside the kcg part of an example).
func exampleArgs(t *testing.T, line string) []string {
	t.Helper()
	m := kcgCommandRE.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("example %q runs no kcg command", line)
	}
	if strings.ContainsAny(m[1], `"'`) {
		t.Fatalf("example %q: quotes in the kcg part", line)
	}
	return strings.Fields(m[1])
}

// Every command's help has an Examples block of 2-4 lines, and kcg's own.
func TestHelpExamplesEverywhere(t *testing.T) {
	a := newApp(IO{})
	check := func(name, description, help string) {
		t.Helper()
		_, block, ok := strings.Cut(description, "\n"+examplesHeading+"\n")
		if !ok {
			_, block, ok = strings.Cut(description, examplesHeading+"\n")
		}
		if !ok || strings.Count(description, examplesHeading) != 1 {
			t.Errorf("%q: no single %s block in its description:\n%s", name, examplesHeading, description)
			return
		}
		lines := strings.Split(block, "\n")
		if len(lines) < 2 || len(lines) > 4 {
			t.Errorf("%q: %d examples, want 2-4", name, len(lines))
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "   ") || !strings.Contains(l, "kcg ") && strings.TrimSpace(l) != "kcg" {
				t.Errorf("%q: example line %q is not an indented kcg command", name, l)
			}
		}
		if !strings.Contains(help, "\n   "+examplesHeading+"\n      ") {
			t.Errorf("%q --help does not show the Examples block:\n%s", name, help)
		}
	}
	var out strings.Builder
	r := Run(context.Background(), []string{"kcg", "--help"}, IO{In: strings.NewReader(""), Out: &out, Err: io.Discard})
	if r != 0 {
		t.Fatalf("kcg --help: exit %d", r)
	}
	check("kcg", a.Description, out.String())
	for _, c := range a.VisibleCommands() {
		var out strings.Builder
		if r := Run(context.Background(), []string{"kcg", c.Name, "--help"}, IO{In: strings.NewReader(""), Out: &out, Err: io.Discard}); r != 0 {
			t.Fatalf("kcg %s --help: exit %d", c.Name, r)
		}
		check(c.Name, c.Description, out.String())
	}
	for name := range examples {
		if name != "" && a.Command(name) == nil {
			t.Errorf("examples for %q, which is no command", name)
		}
	}
}

// Every example is a correct command line: its command exists, it gives
// its own command's examples, and its flags and arguments pass the
// command's option checks (the ones that run before any connection).
func TestHelpExamplesAreValid(t *testing.T) {
	t.Setenv("KCG_BOOTSTRAP_SERVER", "broker-1:9092")
	check := map[string]func(*cli.Context) error{
		"list":           func(c *cli.Context) error { _, err := listOptionsFrom(c); return err },
		"describe":       func(c *cli.Context) error { _, err := describeOptionsFrom(c); return err },
		"watch":          func(c *cli.Context) error { _, err := watchOptionsFrom(c); return err },
		"plan":           func(c *cli.Context) error { _, err := planOptionsFrom(c); return err },
		"show":           func(c *cli.Context) error { _, err := showOptionsFrom(c); return err },
		"diff":           func(c *cli.Context) error { _, err := diffOptionsFrom(c); return err },
		"apply":          func(c *cli.Context) error { _, err := applyOptionsFrom(c); return err },
		"approve":        func(c *cli.Context) error { _, err := approveOptionsFrom(c); return err },
		"delete":         func(c *cli.Context) error { _, err := deleteOptionsFrom(c); return err },
		"delete-offsets": func(c *cli.Context) error { _, err := deleteOffsetsOptionsFrom(c); return err },
		"sandbox":        noArgs,
		"version":        noArgs,
		"schema":         func(c *cli.Context) error { _, err := schemaOptionsFrom(c); return err },
		"profile list":   func(c *cli.Context) error { _, err := profileListOptionsFrom(c); return err },
		"profile show":   func(c *cli.Context) error { _, err := profileShowOptionsFrom(c); return err },
		"profile use":    func(c *cli.Context) error { _, err := profileUseOptionsFrom(c); return err },
		"completion": func(c *cli.Context) error {
			if _, ok := completionScripts[c.Args().First()]; !ok || c.Args().Len() != 1 {
				t.Errorf("completion example with %q", c.Args().Slice())
			}
			return nil
		},
	}
	for name, lines := range examples {
		for _, line := range lines {
			args := exampleArgs(t, line)
			if len(args) > 1 && args[1] == "--version" {
				var out strings.Builder
				if r := Run(context.Background(), args, IO{In: strings.NewReader(""), Out: &out, Err: io.Discard}); r != 0 || !strings.HasPrefix(out.String(), "kcg ") {
					t.Errorf("%q: exit %d, %q", line, r, out.String())
				}
				continue
			}
			if len(args) < 2 {
				t.Errorf("%q: no command", line)
				continue
			}
			if name != "" && args[1] != name {
				t.Errorf("example %q is under %q", line, name)
			}
			a := newApp(IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
			ran := false
			var set func(parent string, cmds []*cli.Command)
			set = func(parent string, cmds []*cli.Command) {
				for _, c := range cmds {
					if len(c.Subcommands) > 0 {
						set(c.Name+" ", c.Subcommands)
						continue
					}
					fn := check[parent+c.Name]
					if fn == nil {
						t.Fatalf("no option check for command %q in TestHelpExamplesAreValid", parent+c.Name)
					}
					c.Action = func(c *cli.Context) error { ran = true; return fn(c) }
				}
			}
			set("", a.Commands)
			if err := a.RunContext(context.Background(), normalizeArgs(a, args)); err != nil {
				t.Errorf("%q: %v", line, err)
			} else if !ran {
				t.Errorf("%q: ran no command", line)
			}
		}
	}
}

// The command reference (docs/commands.md) carries every command's
// examples too.
func TestHelpExamplesInReference(t *testing.T) {
	md, err := Markdown()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range newApp(IO{}).VisibleCommands() {
		_, section, _ := strings.Cut(md, "\n## "+c.Name+"\n")
		section, _, _ = strings.Cut(section, "\n## ")
		want := "**Examples**:\n\n```\n" + strings.Join(examples[c.Name], "\n") + "\n```\n"
		if !strings.Contains(section, want) {
			t.Errorf("reference of %s has no examples block:\n%s", c.Name, section)
		}
	}
}

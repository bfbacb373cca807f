package commands_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/commands"
)

const manDir = "../docs/man"

// The man pages in docs/man are generated from the CLI, like
// docs/commands.md; this fails when a command or flag changed and the
// pages were not regenerated, or when a page is left over from a command
// that is gone.
func TestManPages(t *testing.T) {
	pages, err := commands.ManPages()
	if err != nil {
		t.Fatal(err)
	}
	const regen = "run go test ./commands -run TestManPages -update"
	if *update {
		if err := os.MkdirAll(manDir, 0o755); err != nil {
			t.Fatal(err)
		}
		old, _ := filepath.Glob(filepath.Join(manDir, "*.1"))
		for _, f := range old {
			if _, ok := pages[filepath.Base(f)]; !ok {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
		}
		for name, text := range pages {
			if err := os.WriteFile(filepath.Join(manDir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, text := range pages {
		got, err := os.ReadFile(filepath.Join(manDir, name))
		if err != nil {
			t.Fatalf("docs/man/%s is missing: %s", name, regen)
		}
		if string(got) != text {
			t.Fatalf("docs/man/%s is out of date: %s", name, regen)
		}
	}
	files, _ := filepath.Glob(filepath.Join(manDir, "*.1"))
	for _, f := range files {
		if _, ok := pages[filepath.Base(f)]; !ok {
			t.Fatalf("docs/man/%s is no command's page: %s", filepath.Base(f), regen)
		}
	}
}

// manCommands is every command kcg --help lists: each has a page.
func manCommands(t *testing.T) []string {
	t.Helper()
	out := kcg(t, "--help").MustCode(t, 0).Stdout
	_, list, ok := strings.Cut(out, "COMMANDS:\n")
	if !ok {
		t.Fatalf("kcg --help lists no commands:\n%s", out)
	}
	list, _, _ = strings.Cut(list, "\n\n")
	var names []string
	for _, l := range strings.Split(list, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			names = append(names, strings.TrimSuffix(f[0], ","))
		}
	}
	return names
}

// sections of a man page, in order.
func manSections(page string) []string {
	var s []string
	for _, m := range regexp.MustCompile(`(?m)^\.SH (.*)$`).FindAllStringSubmatch(page, -1) {
		s = append(s, m[1])
	}
	return s
}

// unroff undoes the escapes the generator writes, to compare a page with
// the help text.
func unroff(s string) string {
	s = regexp.MustCompile(`\\\[u([0-9A-F]{4,})\]`).ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[3:len(m)-1], 16, 32)
		return string(rune(n))
	})
	return strings.NewReplacer(`\-`, "-", `\e`, `\`, `\fB`, "", `\fI`, "", `\fR`, "", `\&`, "").Replace(s)
}

// Every command's page has the sections an operator looks for, every flag
// of its --help with its default and environment variable, and its
// help's examples.
func TestManPagesContent(t *testing.T) {
	pages, err := commands.ManPages()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO"}
	root := pages["kcg.1"]
	if got := manSections(root); !slices.Equal(got, []string{"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "EXIT STATUS", "SEE ALSO"}) {
		t.Fatalf("kcg.1 sections: %q", got)
	}
	for _, env := range []string{"KCG_BOOTSTRAP_SERVER", "KCG_SASL_PASSWORD"} {
		if !strings.Contains(root, env) {
			t.Errorf("kcg.1 ENVIRONMENT lacks %s", env)
		}
	}
	cmds := manCommands(t)
	if len(cmds) < 10 {
		t.Fatalf("kcg --help lists only %q", cmds)
	}
	flagLine := regexp.MustCompile(`^\s+(--[a-z0-9-]+)(?: (\S+))?`)
	for _, cmd := range cmds {
		page, ok := pages["kcg-"+cmd+".1"]
		if !ok {
			t.Errorf("no man page for kcg %s", cmd)
			continue
		}
		if !strings.Contains(unroff(root), "kcg-"+cmd+"(1)") {
			t.Errorf("kcg.1 does not refer to kcg-%s(1)", cmd)
		}
		help := kcg(t, cmd, "--help").MustCode(t, 0).Stdout
		secs := manSections(page)
		if ex := strings.Contains(strings.ToLower(help), "examples:"); ex {
			want := append(slices.Clone(want[:5]), "EXAMPLES", "SEE ALSO")
			withCommands := append(slices.Clone(want[:3]), "COMMANDS", "OPTIONS", "EXIT STATUS", "EXAMPLES", "SEE ALSO")
			if !slices.Equal(secs, want) && !slices.Equal(secs, withCommands) {
				t.Errorf("kcg-%s.1 sections %q, want %q", cmd, secs, want)
			}
		} else if !slices.Equal(secs, want) && !slices.Equal(secs, append(slices.Clone(want[:3]), "COMMANDS", "OPTIONS", "EXIT STATUS", "SEE ALSO")) {
			t.Errorf("kcg-%s.1 sections %q, want %q", cmd, secs, want)
		}
		plain := unroff(page)
		_, opts, _ := strings.Cut(help, "OPTIONS:\n")
		for _, l := range strings.Split(opts, "\n") {
			m := flagLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			entry := manEntry(plain, m[1])
			if entry == "" {
				t.Errorf("kcg-%s.1 has no entry for %s", cmd, m[1])
				continue
			}
			if d := regexp.MustCompile(`\(default: "?([^")]*)"?\)`).FindStringSubmatch(l); d != nil && d[1] != "false" {
				// "Default: 30s." from the flag's value, or the usage's own
				// words ("(default: a free port)").
				if !strings.Contains(strings.ToLower(entry), "default: "+strings.ToLower(d[1])) {
					t.Errorf("kcg-%s.1 %s: no default %q in %q", cmd, m[1], d[1], entry)
				}
			}
			if e := regexp.MustCompile(`\[\$([A-Z_]+)\]`).FindStringSubmatch(l); e != nil {
				if !strings.Contains(entry, "Environment: "+e[1]+".") {
					t.Errorf("kcg-%s.1 %s: no environment variable %s in %q", cmd, m[1], e[1], entry)
				}
			}
		}
		// Each example command of the help is in EXAMPLES.
		if _, ex, ok := strings.Cut(help, "Examples:\n"); ok {
			ex, _, _ = strings.Cut(ex, "\n\n")
			_, section, _ := strings.Cut(plain, ".SH EXAMPLES\n")
			for _, l := range strings.Split(ex, "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.Contains(section, l) {
					t.Errorf("kcg-%s.1 EXAMPLES lacks %q", cmd, l)
				}
			}
		}
	}
}

// manEntry is the .TP entry of a page (unescaped) that names flag.
func manEntry(plain, flag string) string {
	for _, e := range strings.Split(plain, ".TP\n")[1:] {
		head, _, _ := strings.Cut(e, "\n")
		for _, n := range strings.Split(head, ", ") {
			if strings.Fields(n)[0] == flag {
				e, _, _ = strings.Cut(e, "\n.")
				return e
			}
		}
	}
	return ""
}

// EXIT STATUS lists exactly the codes of docs/exit-codes.md.
func TestManExitStatus(t *testing.T) {
	pages, err := commands.ManPages()
	if err != nil {
		t.Fatal(err)
	}
	var doc []int
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9]+) \|`).FindAllStringSubmatch(readDoc(t, "exit-codes.md"), -1) {
		n, _ := strconv.Atoi(m[1])
		doc = append(doc, n)
	}
	_, sec, _ := strings.Cut(pages["kcg-apply.1"], ".SH EXIT STATUS\n")
	sec, _, _ = strings.Cut(sec, ".SH ")
	var man []int
	for _, m := range regexp.MustCompile(`(?m)^\\fB([0-9]+)\\fR$`).FindAllStringSubmatch(sec, -1) {
		n, _ := strconv.Atoi(m[1])
		man = append(man, n)
	}
	sort.Ints(doc)
	if len(doc) == 0 || !slices.Equal(doc, man) {
		t.Fatalf("exit codes: docs/exit-codes.md %v, man pages %v", doc, man)
	}
}

// groff renders every page without a warning (when groff is installed).
func TestManPagesRender(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff is not installed: the pages' roff is not linted")
	}
	pages, err := commands.ManPages()
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range pages {
		cmd := exec.Command(groff, "-man", "-ww", "-z")
		cmd.Stdin = strings.NewReader(text)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("groff %s: %v\n%s", name, err, stderr.String())
		}
	}
}

package commands_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// trapBootstrap sets KCG_BOOTSTRAP_SERVER to a listener that counts the
// connections made to it and closes them at once: a run that dials Kafka
// fails and is seen.
func trapBootstrap(t *testing.T) *atomic.Int32 {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var dialed atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dialed.Add(1)
			c.Close()
		}
	}()
	t.Setenv("KCG_BOOTSTRAP_SERVER", ln.Addr().String())
	return &dialed
}

// Completion never runs a command and never dials Kafka, wherever the
// completion flag is: the TAB after "kcg delete billing -- " used to
// delete the group.
func TestCompletionNeverRunsACommand(t *testing.T) {
	dialed := trapBootstrap(t)
	const gen = "--generate-bash-completion"
	for _, args := range [][]string{
		{"delete", "billing", "--", gen},
		{"delete", "billing", "--", "", gen},
		{"delete", "billing", "", gen},
		{"delete-offsets", "billing", "--topic", "payments", "", gen},
		{"apply", "reset.yaml", "", gen},
		{"plan", "billing", "--all-topics", "--to-earliest", "--out", "x.yaml", "", gen},
		{"delete", gen, "billing"},
		{"list", "", gen},
		{gen},
		{"--list", gen},
		{"--delete", "--group", "billing", gen},
		{"--reset-offsets", "--group", "billing", "--all-topics", "--to-earliest", "--execute", gen},
	} {
		r := kcg(t, args...)
		if r.Code != 0 || r.Stderr != "" {
			t.Errorf("%q: exit %d, stderr %q", args, r.Code, r.Stderr)
		}
		for _, w := range strings.Fields(r.Stdout) {
			if strings.ContainsAny(w, " :") || strings.EqualFold(w, "deleted") {
				t.Errorf("%q: %q is not a completion word:\n%s", args, w, r.Stdout)
			}
		}
	}
	if n := dialed.Load(); n != 0 {
		t.Fatalf("completion connected to the bootstrap server %d times", n)
	}
	if _, err := os.Stat("x.yaml"); err == nil {
		os.Remove("x.yaml")
		t.Fatal("completion wrote the plan file")
	}
}

func words(t *testing.T, args ...string) []string {
	t.Helper()
	r := kcg(t, append(args, "--generate-bash-completion")...).MustCode(t, 0)
	if r.Stderr != "" {
		t.Fatalf("%q: stderr %q", args, r.Stderr)
	}
	return strings.Fields(r.Stdout)
}

func TestCompletionWords(t *testing.T) {
	trapBootstrap(t)
	has := func(args []string, got []string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q missing from %q", args, w, got)
			}
		}
		for _, w := range []string{"help", "h"} {
			if slices.Contains(got, w) {
				t.Errorf("%q: offers %q: %q", args, w, got)
			}
		}
	}
	equal := func(args []string, want ...string) {
		t.Helper()
		if got := words(t, args...); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", args, got, want)
		}
	}
	args := []string{""}
	has(args, words(t, args...), "list", "describe", "plan", "show", "diff", "apply", "delete", "delete-offsets", "completion")
	equal([]string{"de"}, "describe", "delete", "delete-offsets")
	args = []string{"describe", "-"}
	has(args, words(t, args...), "--group", "--members", "--output", "-o", "--bootstrap-server", "--help")
	args = []string{"plan", "billing", "--to"}
	has(args, words(t, args...), "--to-earliest", "--to-latest", "--to-offset", "--topic")
	equal([]string{"describe", "billing", "-o", ""}, "table", "json", "yaml")
	equal([]string{"show", "p.yaml", "-o", ""}, "table", "json", "yaml", "csv")
	equal([]string{"plan", "billing", "--output", ""}, "table", "json", "yaml")
	equal([]string{"list", "--state", "S"}, "Stable")
	equal([]string{"list", "--type", ""}, "classic", "consumer")
	equal([]string{"completion", ""}, "bash", "zsh", "fish")
	// After "--" and for a plan file, nothing: the shell completes files.
	equal([]string{"delete", "billing", "--", ""})
	equal([]string{"apply", ""})
}

// The bash script end to end: sourced in bash, COMP_WORDS set as bash sets
// them on TAB, the completion function calling the built binary.
func TestCompletionBashScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dialed := trapBootstrap(t)
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "kcg"), "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := filepath.Join(dir, "kcg.bash")
	r := kcg(t, "completion", "bash").MustCode(t, 0)
	if err := os.WriteFile(script, []byte(r.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := func(line ...string) []string {
		t.Helper()
		var q []string
		for _, w := range line {
			q = append(q, "'"+w+"'")
		}
		prog := `source "$1"; COMP_WORDS=(` + strings.Join(q, " ") + `); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _kcg_complete; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog, "bash", script)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", line, err, out)
		}
		return strings.Fields(string(out))
	}
	if got := tab("kcg", "delete", "billing", "--", ""); len(got) != 0 {
		t.Errorf("kcg delete billing -- <TAB>: %q", got)
	}
	if got := tab("kcg", "describe", "billing", "-o", ""); !slices.Equal(got, []string{"table", "json", "yaml"}) {
		t.Errorf("kcg describe billing -o <TAB>: %q", got)
	}
	if got := tab("kcg", "de"); !slices.Equal(got, []string{"describe", "delete", "delete-offsets"}) {
		t.Errorf("kcg de<TAB>: %q", got)
	}
	if got := tab("kcg", "delete", "--all"); !slices.Equal(got, []string{"--all-groups"}) {
		t.Errorf("kcg delete --all<TAB>: %q", got)
	}
	if got := tab("kcg", ""); !slices.Contains(got, "describe") || slices.Contains(got, "help") {
		t.Errorf("kcg <TAB>: %q", got)
	}
	if n := dialed.Load(); n != 0 {
		t.Fatalf("completion connected to the bootstrap server %d times", n)
	}
}

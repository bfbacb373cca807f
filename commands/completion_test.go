package commands_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kmsg"
)

const gen = "--generate-bash-completion"

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

// Completion never runs a command, wherever the completion flag is: the
// TAB after "kcg delete billing -- " used to delete the group. With a
// bootstrap server that cuts every connection it is silent: no error text,
// exit 0.
func TestCompletionNeverRunsACommand(t *testing.T) {
	trapBootstrap(t)
	t.Chdir(t.TempDir())
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
			if strings.ContainsAny(w, " ") || strings.EqualFold(w, "deleted") || (strings.Contains(w, ":") && w != ":files") {
				t.Errorf("%q: %q is not a completion word:\n%s", args, w, r.Stdout)
			}
		}
	}
	if _, err := os.Stat("x.yaml"); err == nil {
		t.Fatal("completion wrote the plan file")
	}
}

func words(t *testing.T, args ...string) []string {
	t.Helper()
	r := kcg(t, append(args, gen)...).MustCode(t, 0)
	if r.Stderr != "" {
		t.Fatalf("%q: stderr %q", args, r.Stderr)
	}
	return strings.Fields(r.Stdout)
}

// The words that need no cluster: commands, flags, flag values, files.
// None of them dials the bootstrap server.
func TestCompletionWords(t *testing.T) {
	dialed := trapBootstrap(t)
	has := func(args []string, want ...string) {
		t.Helper()
		got := words(t, args...)
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
	has([]string{""}, "list", "describe", "watch", "plan", "show", "diff", "apply", "delete", "delete-offsets", "sandbox", "completion")
	equal([]string{"de"}, "describe", "delete", "delete-offsets")
	has([]string{"describe", "-"}, "--group", "--members", "--output", "-o", "--bootstrap-server", "--help")
	has([]string{"plan", "billing", "--to"}, "--to-earliest", "--to-latest", "--to-offset", "--to-datetime", "--to-group", "--topic")
	has([]string{"-"}, "--bootstrap-server", "-b", "--help", "--version")
	has([]string{"list", ""}, "--state", "--type", "--output")
	// -o: the formats of that command, in any spelling of the flag.
	equal([]string{"describe", "billing", "-o", ""}, "table", "json", "yaml", "markdown", "prometheus")
	equal([]string{"show", "p.yaml", "-o", ""}, "table", "json", "yaml", "csv", "markdown")
	equal([]string{"diff", "p.yaml", "-o", ""}, "table", "json", "yaml", "markdown")
	equal([]string{"apply", "p.yaml", "-o", "m"}, "markdown")
	equal([]string{"list", "-o", "m"})
	equal([]string{"watch", "billing", "-o", ""}, "table", "json", "none")
	equal([]string{"plan", "billing", "--output", "j"}, "json")
	equal([]string{"list", "--output=y"}, "--output=yaml")
	equal([]string{"list", "-o=t"}, "-o=table")
	equal([]string{"list", "--output", "=", "j"}, "json")                // bash's words for "--output=j"
	equal([]string{"list", "--output", "="}, "=table", "=json", "=yaml") // and for "--output="
	equal([]string{"-b", "h:1", "describe", "-o", ""}, "table", "json", "yaml", "markdown", "prometheus")
	equal([]string{"list", "-ojs"}, "-ojson")
	equal([]string{"show", "p.yaml", "-oc"}, "-ocsv")
	equal([]string{"list", "--state=Stable,E"}, "--state=Stable,Empty")
	// Leading flags, then the command; the Java command line gets nothing.
	has([]string{"-b", "h:1", ""}, "describe", "list", "plan")
	equal([]string{"-b", "h:1", "de"}, "describe", "delete", "delete-offsets")
	equal([]string{"-b", ""})
	equal([]string{"--bootstrap-server", "h:1", "--list", ""})
	// Enumerated values, comma lists included.
	equal([]string{"list", "--state", "S"}, "Stable")
	equal([]string{"list", "--state", "Stable,E"}, "Stable,Empty")
	has([]string{"list", "--state", "Empty,"}, "Empty,Stable", "Empty,Dead")
	if got := words(t, "list", "--state", "Empty,"); slices.Contains(got, "Empty,Empty") {
		t.Errorf("--state Empty,<TAB> offers Empty again: %q", got)
	}
	equal([]string{"list", "--type", ""}, "classic", "consumer", "share", "streams", "all")
	equal([]string{"list", "--type", "classic,s"}, "classic,share", "classic,streams")
	equal([]string{"describe", "billing", "--isolation", ""}, "read-uncommitted", "read-committed")
	equal([]string{"watch", "billing", "--isolation", "read-c"}, "read-committed")
	equal([]string{"list", "--security-protocol", "SASL"}, "SASL_PLAINTEXT", "SASL_SSL")
	equal([]string{"list", "--sasl-mechanism", "SCRAM"}, "SCRAM-SHA-256", "SCRAM-SHA-512")
	equal([]string{"completion", ""}, "bash", "zsh", "fish", "powershell")
	// Files: the shell completes them.
	for _, args := range [][]string{
		{"apply", ""}, {"show", "p"}, {"diff", "a.yaml", ""}, {"diff", "--", ""},
		{"plan", "billing", "--from-file", ""}, {"plan", "billing", "--out", "x"},
		{"list", "--command-config", ""}, {"apply", "p.yaml", "--rollback-out", ""},
		{"describe", "billing", "--tls-ca-file", ""},
	} {
		equal(args, ":files")
	}
	// Nothing to offer: a free value.
	equal([]string{"plan", "billing", "--to-offset", ""})
	equal([]string{"describe", "billing", "--timeout", ""})
	equal([]string{"nosuch", ""})
	if n := dialed.Load(); n != 0 {
		t.Fatalf("completion without a name to look up connected to the bootstrap server %d times", n)
	}
}

// Group and topic names come from the cluster, with only ListGroups and
// Metadata (and the handshake's ApiVersions): never a write, not even for
// "kcg delete GROUP -- <TAB>", the line that once deleted the group.
func TestCompletionClusterNamesReadOnly(t *testing.T) {
	e := kafkatest.Fake(t)
	topic := kafkatest.UniqueName(t, "cpay")
	group := kafkatest.UniqueName(t, "cbill")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(3)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	t.Setenv("KCG_BOOTSTRAP_SERVER", e.Bootstrap)

	var mu sync.Mutex
	var recording atomic.Bool
	seen := map[string]bool{}
	recording.Store(true)
	t.Cleanup(func() { recording.Store(false) })
	for k := int16(0); k <= kmsg.MaxKey; k++ {
		e.Kfake.ControlKey(k, func(req kmsg.Request) (kmsg.Response, error, bool) {
			if recording.Load() {
				e.Kfake.KeepControl()
				mu.Lock()
				seen[kmsg.NameForKey(req.Key())] = true
				mu.Unlock()
			}
			return nil, nil, false
		})
	}
	prefix := group[:len(group)-2]
	for _, args := range [][]string{
		{"delete", group, "--", prefix},
		{"delete", prefix},
		{"describe", "--group", prefix},
		{"plan", "x", "--to-group", prefix},
		{"delete-offsets", prefix},
	} {
		if got := words(t, args...); !slices.Contains(got, group) {
			t.Errorf("%q: %q missing from %q", args, group, got)
		}
	}
	for _, args := range [][]string{
		{"describe", group, "--topic", topic[:len(topic)-2]},
		{"plan", group, "--topic", ""},
		{"delete-offsets", group, "--topic", topic[:3]},
	} {
		if got := words(t, args...); !slices.Contains(got, topic) {
			t.Errorf("%q: %q missing from %q", args, topic, got)
		}
	}
	if got := words(t, "describe", "--topic", ""); slices.Contains(got, "__consumer_offsets") {
		t.Errorf("internal topics offered without a leading _: %q", got)
	}
	recording.Store(false)
	mu.Lock()
	defer mu.Unlock()
	for name := range seen {
		if !slices.Contains([]string{"ApiVersions", "Metadata", "ListGroups", "DescribeCluster"}, name) {
			t.Errorf("completion sent %s", name)
		}
	}
	if !seen["ListGroups"] || !seen["Metadata"] {
		t.Errorf("requests seen: %v", seen)
	}
	if c := e.Committed(t, group); c[topic][0] != 1 {
		t.Fatalf("group %s after completion: %v", group, c)
	}
}

// Group names of every type kcg manages are offered: a share group next to
// a consumer group (kfake has no streams groups:
// TestCompletionGroupsOfEveryManagedType covers them), with the same
// ListGroups request.
func TestCompletionShareGroupNames(t *testing.T) {
	e := kafkatest.Fake(t)
	topic := kafkatest.UniqueName(t, "cshare")
	group := kafkatest.UniqueName(t, "cgrp")
	share := kafkatest.UniqueName(t, "cgrp")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(3)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	e.ShareGroupMember(t, share, topic)
	t.Setenv("KCG_BOOTSTRAP_SERVER", e.Bootstrap)
	for _, args := range [][]string{
		{"describe", "c"},
		{"delete", "--group", "c"},
		{"plan", "c"},
	} {
		got := words(t, args...)
		if !slices.Contains(got, group) || !slices.Contains(got, share) {
			t.Errorf("%q: want %q and the share group %q in %q", args, group, share, got)
		}
	}
}

// No cluster known, or one that does not answer: no words, no error text,
// exit 0, within the budget.
func TestCompletionUnreachableIsSilent(t *testing.T) {
	// Accepts and never answers: the worst case, bounded by the budget.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := closed.Addr().String()
	closed.Close()
	for _, env := range []string{"", ln.Addr().String(), refused, "nosuch.invalid:9092"} {
		t.Setenv("KCG_BOOTSTRAP_SERVER", env)
		for _, args := range [][]string{{"describe", ""}, {"delete", "billing", "--", ""}, {"plan", "b", "--topic", ""}} {
			start := time.Now()
			r := kcg(t, append(args, gen)...)
			if d := time.Since(start); d > 2500*time.Millisecond {
				t.Errorf("bootstrap %q %q: %v", env, args, d)
			}
			if r.Code != 0 || r.Stdout != "" || r.Stderr != "" {
				t.Errorf("bootstrap %q %q: exit %d, stdout %q, stderr %q", env, args, r.Code, r.Stdout, r.Stderr)
			}
		}
	}
}

// The names come from the cluster the command line names: its flags win
// over the environment, and --sandbox is the demo cluster.
func TestCompletionConnectionFromCommandLine(t *testing.T) {
	trapBootstrap(t)
	if got := words(t, "describe", "--sandbox", ""); !slices.Equal(got, []string{"analytics", "billing", "fulfillment", "shipping"}) {
		t.Errorf("describe --sandbox <TAB>: %q", got)
	}
	if got := words(t, "--sandbox", "plan", "billing", "--topic", "p"); !slices.Equal(got, []string{"payments"}) {
		t.Errorf("--sandbox plan billing --topic p<TAB>: %q", got)
	}
	e := kafkatest.Cluster(t)
	group := kafkatest.UniqueName(t, "cflag")
	topic := kafkatest.UniqueName(t, "cflagt")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	for _, args := range [][]string{
		{"describe", "-b", e.Bootstrap, group[:6]},
		{"describe", "--bootstrap-server=" + e.Bootstrap, group[:6]},
		{"-b", e.Bootstrap, "describe", group[:6]},
	} {
		if got := words(t, args...); !slices.Contains(got, group) {
			t.Errorf("%q: %q missing from %q", args, group, got)
		}
	}
}

// buildKCG builds the binary the shell scripts call.
func buildKCG(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "kcg"), "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

func writeScript(t *testing.T, dir, shell string) string {
	t.Helper()
	r := kcg(t, "completion", shell).MustCode(t, 0)
	p := filepath.Join(dir, "kcg."+shell)
	if err := os.WriteFile(p, []byte(r.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The bash script end to end: sourced in bash, COMP_WORDS and COMP_CWORD
// set as bash sets them on TAB, the registered completion function called,
// COMPREPLY read; the function calls the built binary.
func TestCompletionBashScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	e := kafkatest.Cluster(t)
	group := kafkatest.UniqueName(t, "bbill")
	topic := kafkatest.UniqueName(t, "bpay")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(2)...)
	e.Commit(t, group, topic, map[int32]int64{0: 2})
	dir := buildKCG(t)
	script := writeScript(t, dir, "bash")
	work := t.TempDir()
	for _, f := range []string{"reset.yaml", "reset.rollback.yaml", "notes.txt"} {
		os.WriteFile(filepath.Join(work, f), nil, 0o644)
	}
	tabIn := func(bootstrap string, line ...string) []string {
		t.Helper()
		var q []string
		for _, w := range line {
			q = append(q, "'"+w+"'")
		}
		prog := `source "$1"; f=$(complete -p kcg | sed -n 's/.*-F \([^ ]*\) kcg$/\1/p'); ` +
			`COMP_WORDS=(` + strings.Join(q, " ") + `); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); ` +
			`COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; "$f" kcg "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; ` +
			`printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog, "bash", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "KCG_BOOTSTRAP_SERVER="+bootstrap)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", line, err, out)
		}
		return strings.Fields(string(out))
	}
	tab := func(line ...string) []string { t.Helper(); return tabIn(e.Bootstrap, line...) }
	check := func(got []string, line string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s<TAB>: %q, want %q", line, got, want)
		}
	}
	// Subcommands, and "kcg <TAB>" is not drop-in mode.
	if got := tab("kcg", ""); !slices.Contains(got, "describe") || slices.Contains(got, "help") || slices.ContainsFunc(got, func(w string) bool { return strings.Contains(w, "Option") || strings.Contains(w, "Exception") }) {
		t.Errorf("kcg <TAB>: %q", got)
	}
	check(tab("kcg", "de"), "kcg de", "describe", "delete", "delete-offsets")
	// Flags and flag values.
	check(tab("kcg", "delete", "--all"), "kcg delete --all", "--all-groups")
	check(tab("kcg", "describe", group, "-o", ""), "kcg describe G -o ", "table", "json", "yaml", "markdown", "prometheus")
	check(tab("kcg", "show", "reset.yaml", "-o", "c"), "kcg show F -o c", "csv")
	check(tab("kcg", "list", "--output", "=", "y"), "kcg list --output=y", "yaml")
	check(tab("kcg", "list", "--state", "Stable,E"), "kcg list --state Stable,E", "Stable,Empty")
	check(tab("kcg", "describe", group, "--isolation", "read-c"), "kcg describe G --isolation read-c", "read-committed")
	// Files.
	check(tab("kcg", "apply", "reset."), "kcg apply reset.", "reset.rollback.yaml", "reset.yaml")
	check(tab("kcg", "plan", group, "--from-file", "no"), "kcg plan G --from-file no", "notes.txt")
	// Groups and topics from the cluster.
	check(tab("kcg", "describe", group[:len(group)-1]), "kcg describe PREFIX", group)
	check(tab("kcg", "plan", group, "--topic", topic[:len(topic)-1]), "kcg plan G --topic PREFIX", topic)
	check(tab("kcg", "describe", "--group", group), "kcg describe --group G", group)
	// The line that once deleted the group: it is offered, and still there.
	check(tab("kcg", "delete", group, "--", group[:len(group)-1]), "kcg delete G -- PREFIX", group)
	tab("kcg", "delete", group, "--", "")
	tab("kcg", "delete", group, "")
	if c := e.Committed(t, group); c[topic][0] != 2 {
		t.Fatalf("group %s after completing kcg delete %s -- : %v", group, group, c)
	}
	// Unreachable: silent and bounded.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	check(tabIn(ln.Addr().String(), "kcg", "describe", ""), "kcg describe  (unreachable)")
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("kcg describe <TAB> on an unreachable cluster took %v", d)
	}
}

// The zsh, fish and PowerShell scripts: run for real where the shell is
// installed, otherwise checked for what each needs to work.
func TestCompletionOtherShellScripts(t *testing.T) {
	for _, shell := range []string{"zsh", "fish", "powershell"} {
		r := kcg(t, "completion", shell).MustCode(t, 0)
		s := r.Stdout
		if !strings.Contains(s, gen) || !strings.Contains(s, ":files") {
			t.Errorf("%s script does not call kcg's completion:\n%s", shell, s)
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(s, "\n") {
			l := strings.TrimSpace(line)
			if l == "" || l == "end" || l == "}" || l == "fi" || l == "return" {
				continue
			}
			if seen[l] {
				t.Errorf("%s script repeats %q", shell, l)
			}
			seen[l] = true
		}
		if strings.Count(s, "{") != strings.Count(s, "}") || strings.Count(s, "(") != strings.Count(s, ")") {
			t.Errorf("%s script: unbalanced brackets:\n%s", shell, s)
		}
	}
	if r := kcg(t, "completion", "fish").Stdout; strings.Count(r, "function ") != strings.Count(r, "\nend") {
		t.Errorf("fish script: function without end:\n%s", r)
	}
	bin := map[string]string{"zsh": "zsh", "fish": "fish", "powershell": "pwsh"}
	for shell, exe := range bin {
		path, err := exec.LookPath(exe)
		if err != nil {
			t.Logf("%s is not installed: its script was checked, not run", exe)
			continue
		}
		script := writeScript(t, t.TempDir(), shell)
		var cmd *exec.Cmd
		switch shell {
		case "zsh":
			cmd = exec.Command(path, "-n", script)
		case "fish":
			cmd = exec.Command(path, "--no-execute", script)
		case "powershell":
			cmd = exec.Command(path, "-NoProfile", "-Command", "[System.Management.Automation.Language.Parser]::ParseFile('"+script+"', [ref]$null, [ref]$errs) | Out-Null; if ($errs.Count) { $errs; exit 1 }")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s does not parse its script: %v\n%s", exe, err, out)
		}
	}
}

// urfave/cli's fish script repeated lines; the bash one must not either.
func TestCompletionScriptsNoRepeatedLines(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		s := kcg(t, "completion", shell).MustCode(t, 0).Stdout
		lines := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "complete ") || strings.HasPrefix(l, "Register-") || strings.HasPrefix(l, "compdef") {
				lines[l]++
				if lines[l] > 1 {
					t.Errorf("%s: %q repeated", shell, l)
				}
			}
		}
	}
	kcg(t, "completion", "tcsh").MustCode(t, 64)
	if r := kcg(t, "completion", "PowerShell").MustCode(t, 0); !strings.Contains(r.Stdout, "Register-ArgumentCompleter") {
		t.Errorf("completion PowerShell: %q", r.Stdout)
	}
}

// kcg schema <TAB> offers the document kinds, each word once (--help was
// offered twice, the kinds never: issue 30 item 19).
func TestCompletionSchemaKinds(t *testing.T) {
	equal := func(args []string, want ...string) {
		t.Helper()
		if got := words(t, args...); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", args, got, want)
		}
	}
	all := schema.Kinds()
	if len(all) < 5 {
		t.Fatalf("schema.Kinds() = %q", all)
	}
	equal([]string{"schema", ""}, all...)
	equal([]string{"schema", "GroupL"}, "GroupList")
	equal([]string{"schema", "-"}, "--help")
	equal([]string{"schema", "GroupList", ""}, "--help")
	// No command offers a word twice.
	for _, args := range [][]string{{""}, {"-"}, {"schema", ""}, {"schema", "-"}, {"version", "-"}, {"describe", "-"}, {"plan", "g", "-"}, {"sandbox", ""}, {"profile", "list", "-"}} {
		got := words(t, args...)
		seen := map[string]bool{}
		for _, w := range got {
			if seen[w] {
				t.Errorf("%q offers %q twice: %q", args, w, got)
			}
			seen[w] = true
		}
	}
}

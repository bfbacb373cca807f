package commands

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

// completionFlag is what the shell completion scripts append to the words
// typed so far. Wherever it appears, the run only prints completion words:
// it never runs a command's action and never writes to Kafka.
const completionFlag = "--generate-bash-completion"

// filesDirective is printed alone instead of words when the shell should
// complete file names (a plan file, --from-file, --command-config, ...).
const filesDirective = ":files"

// completionBudget bounds the whole cluster read of one TAB (connect,
// ListGroups or Metadata): past it the shell gets what is known without
// the cluster, which for a name is nothing.
const completionBudget = 2 * time.Second

// completionRequested reports whether args (args[0] is the program name)
// ask for completion.
func completionRequested(args []string) bool {
	return slices.Contains(args[1:], completionFlag)
}

// complete prints the completion words for args: the words before the
// first completionFlag are the command line, the last of them the word
// being completed (possibly empty). It is the only thing a run with
// completionFlag does; the only requests it may send are ListGroups and
// Metadata, to offer group and topic names.
func complete(ctx context.Context, s IO, args []string) {
	words := args[1:slices.Index(args, completionFlag)]
	cur := ""
	if len(words) > 0 {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	words, cur, prefix := joinAssignment(words, cur)
	a := newApp(IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	// "kcg -b H describe <TAB>": the flags before the command are its own.
	if line, ok := hoistLeadingFlags(a, append(append([]string{"kcg"}, words...), cur)); ok {
		words = line[1 : len(line)-1]
	}
	c := completionFor(a, words, cur)
	if c.files {
		fmt.Fprintln(s.Out, filesDirective)
		return
	}
	list := c.words
	if c.groups || c.topics {
		list = append(list, clusterNames(ctx, a, c, strings.HasPrefix(cur, "_"))...)
	}
	printed := map[string]bool{}
	for _, w := range list {
		w = c.listPrefix + w
		if strings.HasPrefix(w, cur) && !slices.Contains(c.used, w) && !printed[w] {
			printed[w] = true
			fmt.Fprintln(s.Out, prefix+w)
		}
	}
}

// joinAssignment undoes the shells' splitting of "--output=js": bash
// passes "--output" "=" "js" (or "--output" and "=" when the cursor is
// right after the sign), zsh, fish and PowerShell pass "--output=js". It
// returns the words with "--output" last, the value being completed and
// what to print before each candidate so the shell's word is replaced
// whole.
func joinAssignment(words []string, cur string) ([]string, string, string) {
	n := len(words)
	switch {
	case cur == "=" && n > 0 && strings.HasPrefix(words[n-1], "-"):
		return words, "", "=" // bash: "--output=" with the cursor after "="
	case n > 1 && words[n-1] == "=" && strings.HasPrefix(words[n-2], "-"):
		return words[:n-1], cur, "" // bash: "--output=js"
	case strings.HasPrefix(cur, "-") && strings.Contains(cur, "="):
		flagPart, value, _ := strings.Cut(cur, "=")
		return append(words, flagPart), value, flagPart + "="
	}
	return words, cur, ""
}

// completion is what completionFor found for the word under the cursor.
type completion struct {
	words  []string
	files  bool // a file name: the shell completes it
	groups bool // group ids from the cluster
	topics bool // topic names from the cluster
	// listPrefix is the part of a comma-separated value already typed
	// ("Stable," in "--state Stable,E"); used are its items.
	listPrefix string
	used       []string
	// cmd and words are the command line, for the connection flags.
	cmd      *cli.Command
	cmdWords []string
}

// positionals says what a command's positional arguments are: groups,
// plan files, a document kind, or nothing.
func positionals(cmd *cli.Command) string {
	switch cmd.Name {
	case "describe", "watch", "plan", "delete", "delete-offsets":
		return "group"
	case "apply", "show", "diff":
		return "file"
	case "schema":
		return "kind"
	}
	return ""
}

// completionFor finds the candidates for cur after words (the command
// line without the program name): subcommands, the command's flags, the
// values of a flag with a fixed set of values, files, or names the
// cluster knows.
func completionFor(a *cli.App, words []string, cur string) completion {
	cmd, rest, known := commandOf(a, words)
	if !known {
		return completion{} // an unknown command
	}
	if cmd == nil {
		return beforeCommand(a, words, cur)
	}
	parent := ""
	if len(cmd.Subcommands) > 0 {
		// "kcg profile <TAB>": the subcommands; then the subcommand's words.
		if len(rest) == 0 {
			return completion{words: commandNames(cmd.VisibleCommands())}
		}
		for _, sub := range cmd.Subcommands {
			if sub.HasName(rest[0]) {
				parent, cmd, rest = cmd.Name, sub, rest[1:]
				break
			}
		}
	}
	return commandCompletion(parent, cmd, rest, cur)
}

// commandOf finds the command in words: the first word that is not a flag
// or a leading flag's value. It returns the command (nil if there is none
// yet) and the words after it; known is false when that word names no
// command.
func commandOf(a *cli.App, words []string) (cmd *cli.Command, rest []string, known bool) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			if cmd = a.Command(w); cmd == nil {
				return nil, nil, false
			}
			return cmd, words[i+1:], true
		}
		// "kcg -b H <TAB>": H is the flag's value, not a command.
		if f := lookupFlag(&cli.Command{Flags: leadingFlags()}, w); f != nil && takesValue(f) && !strings.Contains(w, "=") {
			i++
		}
	}
	return nil, words, true
}

// beforeCommand completes a word before the command: a command name, a
// connection flag, or a leading flag's value (only --profile has
// candidates); nothing for the Java tool's command line.
func beforeCommand(a *cli.App, words []string, cur string) completion {
	if len(words) > 0 && javaCommandLine(append([]string{"kcg"}, words...)) {
		return completion{} // the Java tool's command line
	}
	if len(words) > 0 {
		if f := lookupFlag(&cli.Command{Flags: leadingFlags()}, words[len(words)-1]); f != nil && takesValue(f) {
			if f.Names()[0] == "profile" {
				return completion{words: profileNames()} // "kcg --profile <TAB>"
			}
			return completion{} // the value of a leading flag
		}
	}
	if strings.HasPrefix(cur, "-") {
		// Connection flags may come before the command.
		return completion{words: append(flagWords(connectionFlags()), "--help", "--version")}
	}
	return completion{words: commandNames(a.VisibleCommands())}
}

// commandNames are the names of cmds.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	return names
}

// commandCompletion completes cur after the words rest of the command cmd
// (a subcommand of parent, or parent ""): a flag's value, the flags,
// profile names, shells, files or group names.
func commandCompletion(parent string, cmd *cli.Command, rest []string, cur string) completion {
	c := completion{cmd: cmd, cmdWords: rest}
	afterDashes := slices.Contains(rest, "--")
	if parent == "profile" && (cmd.Name == "use" || cmd.Name == "show") && !strings.HasPrefix(cur, "-") {
		if len(positionalArgs(cmd, rest)) > 0 {
			return completion{} // one name only
		}
		return completion{words: profileNames()} // from the config file, never from Kafka
	}
	if !afterDashes && len(rest) > 0 {
		prev := rest[len(rest)-1]
		if f := lookupFlag(cmd, prev); f != nil && takesValue(f) && !strings.Contains(prev, "=") {
			return flagValueCompletion(c, cmd, f, cur)
		}
	}
	if !afterDashes && strings.HasPrefix(cur, "-") {
		if vc, ok := attachedValueCompletion(c, cmd, cur); ok {
			return vc
		}
		c.words = append(flagWords(cmd.VisibleFlags()), "--help")
		return c
	}
	if cmd.Name == "completion" {
		c.words = shells
		return c
	}
	switch positionals(cmd) {
	case "file":
		// apply and show take one file, diff two: after them, the flags
		// (a further file would be refused).
		max := 1
		if cmd.Name == "diff" {
			max = 2
		}
		if len(positionalArgs(cmd, rest)) >= max {
			if !afterDashes {
				c.words = append(flagWords(cmd.VisibleFlags()), "--help")
			}
			break
		}
		c.files = true
	case "kind":
		// kcg schema KIND: one kind, then the flags.
		if len(positionalArgs(cmd, rest)) == 0 {
			c.words = schema.Kinds()
		} else if !afterDashes {
			c.words = append(flagWords(cmd.VisibleFlags()), "--help")
		}
	case "group":
		if cmd.Name == "delete-offsets" && len(positionalArgs(cmd, rest)) > 0 {
			break // one group, then flags
		}
		c.groups = true
	default:
		if !afterDashes {
			c.words = append(flagWords(cmd.VisibleFlags()), "--help")
		}
	}
	return c
}

// attachedValueCompletion completes "-ojs", a short flag with its value
// attached; not ok when cur is no such flag or its value has no candidates.
func attachedValueCompletion(c completion, cmd *cli.Command, cur string) (completion, bool) {
	if strings.HasPrefix(cur, "--") || len(cur) <= 2 {
		return completion{}, false
	}
	f := lookupFlag(cmd, cur[:2])
	if f == nil || !takesValue(f) {
		return completion{}, false
	}
	vc := flagValueCompletion(c, cmd, f, cur[2:])
	if vc.listPrefix == "" && len(vc.words) == 0 {
		return completion{}, false
	}
	vc.listPrefix = cur[:2] + vc.listPrefix
	for i := range vc.used {
		vc.used[i] = cur[:2] + vc.used[i]
	}
	return vc, true
}

// leadingFlags are the flags that may come before the command: the
// connection flags and -o (see hoistLeadingFlags).
func leadingFlags() []cli.Flag {
	return append(connectionFlags(), outputFlag("table"), sandboxFlag())
}

// shells are the arguments of kcg completion.
var shells = []string{"bash", "zsh", "fish", "powershell"}

// fileFlags take a file name.
var fileFlags = []string{"from-file", "command-config", "out", "rollback-out", "tls-ca-file", "tls-cert-file", "tls-key-file"}

// flagValueCompletion is the candidates for the value of flag f.
func flagValueCompletion(c completion, cmd *cli.Command, f cli.Flag, cur string) completion {
	name := f.Names()[0]
	switch {
	case slices.Contains(fileFlags, name):
		c.files = true
	case name == "profile":
		c.words = profileNames()
	case name == "group" || name == "to-group":
		c.groups = true
	case name == "topic":
		c.topics = true
	case name == "output":
		c.words = formatsOf(cmd)
	case name == "state" && cmd.Name == "list":
		c.words = vocab.States
		c.listPrefix, c.used = listSoFar(cur)
	case name == "type" && (cmd.Name == "list" || cmd.Name == "plan"):
		c.words = append(groupops.ManagedTypes(), groupops.TypeAll)
		c.listPrefix, c.used = listSoFar(cur)
		if c.listPrefix != "" {
			c.words = groupops.ManagedTypes() // "all" stands alone
		}
	case name == "isolation":
		c.words = []string{output.IsolationReadUncommitted, output.IsolationReadCommitted}
	case name == "security-protocol":
		c.words = []string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}
	case name == "sasl-mechanism":
		c.words = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER", "AWS_MSK_IAM", "GSSAPI"}
	}
	return c
}

// listSoFar splits a comma-separated value being typed into the part
// kept ("Stable,") and the full candidates already in it ("Stable,").
func listSoFar(cur string) (prefix string, used []string) {
	i := strings.LastIndex(cur, ",")
	if i < 0 {
		return "", nil
	}
	prefix = cur[:i+1]
	for _, item := range strings.Split(cur[:i], ",") {
		used = append(used, prefix+item)
	}
	return prefix, used
}

// positionalArgs are the positional arguments among a command's words.
func positionalArgs(cmd *cli.Command, words []string) []string {
	var out []string
	for k := 0; k < len(words); k++ {
		w := words[k]
		if w == "--" {
			return append(out, words[k+1:]...)
		}
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			if f := lookupFlag(cmd, w); f != nil && takesValue(f) && !strings.Contains(w, "=") {
				k++
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// clusterNames reads group ids or topic names from the cluster the
// command line (its connection flags, the environment, --sandbox) points
// at, within completionBudget. Any failure, or no bootstrap at all, is
// silence: completion prints nothing it cannot offer.
func clusterNames(parent context.Context, a *cli.App, c completion, internal bool) []string {
	set := flag.NewFlagSet("complete", flag.ContinueOnError)
	set.SetOutput(io.Discard)
	flags := append(connectionFlags(), sandboxFlag())
	for _, f := range flags {
		if err := f.Apply(set); err != nil {
			return nil
		}
	}
	if err := set.Parse(connectionWords(c.cmd, c.cmdWords, flags)); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(parent, completionBudget)
	defer cancel()
	answer := make(chan []string, 1)
	go func() {
		defer func() {
			if recover() != nil {
				answer <- nil
			}
		}()
		cc := cli.NewContext(a, set, nil)
		cc.Context = ctx
		answer <- readNames(cc, c.topics, internal)
	}()
	// The deadline holds even if a dial or a DNS lookup ignores it.
	select {
	case names := <-answer:
		return names
	case <-ctx.Done():
		return nil
	}
}

// readNames sends only ListGroups (groups) or one Metadata request for
// all topics (topics): nothing that writes.
func readNames(c *cli.Context, topics, internal bool) []string {
	// The same connection as the command's: no bootstrap at all fails
	// here, before any network (connconfig.ErrNoBootstrap).
	cl, ctx, done, err := connectOrSandbox(c)
	if err != nil {
		return nil
	}
	defer done()
	var names []string
	if topics {
		ts, err := cl.Topics(ctx, nil)
		if err != nil {
			return nil
		}
		for name, t := range ts {
			if t.Err == nil && (internal || !strings.HasPrefix(name, "__")) {
				names = append(names, name)
			}
		}
	} else {
		var err error
		if names, err = groupops.ManagedGroupNames(ctx, cl); err != nil {
			return nil
		}
	}
	slices.Sort(names)
	return names
}

// connectionWords picks the connection flags (and their values) out of a
// command's words, for a flag set that knows only those.
func connectionWords(cmd *cli.Command, words []string, conn []cli.Flag) []string {
	var out []string
	for k := 0; k < len(words); k++ {
		w := words[k]
		if w == "--" {
			break
		}
		if !strings.HasPrefix(w, "-") || len(w) < 2 {
			continue
		}
		name, v, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		f := lookupFlag(cmd, "-"+name)
		if f == nil {
			continue
		}
		value := takesValue(f) && !hasValue
		if slices.ContainsFunc(conn, func(cf cli.Flag) bool { return slices.Contains(cf.Names(), name) }) {
			// The flag set keeps each alias apart (urfave/cli joins them
			// only in a command's run): use the flag's first name.
			canonical := "--" + f.Names()[0]
			if hasValue {
				canonical += "=" + v
			}
			out = append(out, canonical)
			if value && k+1 < len(words) {
				out = append(out, words[k+1])
			}
		}
		if value {
			k++
		}
	}
	return out
}

// profileNames are the profiles of kcg's config file; none when there is
// no file or it cannot be read (completion stays silent).
func profileNames() []string {
	path, err := connconfig.ConfigPath()
	if err != nil {
		return nil
	}
	f, err := connconfig.ReadProfileFile(path)
	if err != nil {
		return nil
	}
	return f.Names()
}

// flagWords are the flags' names as typed: --long and -s.
func flagWords(flags []cli.Flag) []string {
	var out []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) == 1 {
				out = append(out, "-"+n)
			} else {
				out = append(out, "--"+n)
			}
		}
	}
	return out
}

func lookupFlag(cmd *cli.Command, word string) cli.Flag {
	if !strings.HasPrefix(word, "-") {
		return nil
	}
	name := strings.TrimLeft(word, "-")
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func takesValue(f cli.Flag) bool {
	tv, ok := f.(cli.DocGenerationFlag)
	return ok && tv.TakesValue()
}

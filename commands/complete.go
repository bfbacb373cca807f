package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

// completionFlag is what the shell completion scripts append to the words
// typed so far. Wherever it appears, the run only prints completion words:
// it never runs a command's action and never connects to Kafka.
const completionFlag = "--generate-bash-completion"

// completionRequested reports whether args (args[0] is the program name)
// ask for completion.
func completionRequested(args []string) bool {
	return slices.Contains(args[1:], completionFlag)
}

// complete prints the completion words for args: the words before the
// first completionFlag are the command line, the last of them the word
// being completed (possibly empty). It is the only thing a run with
// completionFlag does.
func complete(s Streams, args []string) {
	words := args[1:slices.Index(args, completionFlag)]
	cur := ""
	if len(words) > 0 {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	a := newApp(s)
	// "kcg -b H describe <TAB>": the flags before the command are its own.
	if line, ok := hoistLeadingFlags(a, append(append([]string{"kcg"}, words...), cur)); ok {
		words = line[1 : len(line)-1]
	}
	for _, w := range completionWords(a, words, cur) {
		if strings.HasPrefix(w, cur) {
			fmt.Fprintln(s.Out, w)
		}
	}
}

// completionWords are the candidates for cur after words (the command line
// without the program name): subcommands, the command's flags, the values
// of a flag with a fixed set of values. Nothing is read from Kafka.
func completionWords(a *cli.App, words []string, cur string) []string {
	// The command is the first word that is not a flag.
	var cmd *cli.Command
	rest := words
	for i, w := range words {
		if !strings.HasPrefix(w, "-") {
			cmd = a.Command(w)
			rest = words[i+1:]
			break
		}
	}
	if cmd == nil {
		if len(words) > 0 && !strings.HasPrefix(words[len(words)-1], "-") {
			return nil // an unknown command
		}
		if len(words) > 0 {
			// "kcg --profile <TAB>": the value of a connection flag typed
			// before the command.
			prev := strings.TrimLeft(words[len(words)-1], "-")
			for _, f := range connectionFlags() {
				if slices.Contains(f.Names(), prev) && takesValue(f) {
					return flagValues(f)
				}
			}
		}
		if strings.HasPrefix(cur, "-") {
			// Connection flags may come before the command.
			return append(flagWords(connectionFlags()), "--help", "--version")
		}
		var names []string
		for _, c := range a.VisibleCommands() {
			names = append(names, c.Name)
		}
		return names
	}
	parent := ""
	if len(cmd.Subcommands) > 0 {
		// "kcg profile <TAB>": the subcommands; then the subcommand's words.
		if len(rest) == 0 {
			var names []string
			for _, c := range cmd.VisibleCommands() {
				names = append(names, c.Name)
			}
			return names
		}
		for _, sub := range cmd.Subcommands {
			if sub.HasName(rest[0]) {
				parent, cmd, rest = cmd.Name, sub, rest[1:]
				break
			}
		}
	}
	if slices.Contains(rest, "--") {
		return nil // only positional arguments follow "--"
	}
	if len(rest) > 0 {
		prev := rest[len(rest)-1]
		if f := lookupFlag(cmd, prev); f != nil && takesValue(f) && !strings.Contains(prev, "=") {
			return flagValues(f)
		}
	}
	if cmd.Name == "completion" && !strings.HasPrefix(cur, "-") {
		return []string{"bash", "zsh", "fish"}
	}
	if parent == "profile" && (cmd.Name == "use" || cmd.Name == "show") && !strings.HasPrefix(cur, "-") {
		if len(rest) > 0 {
			return nil // one name only
		}
		return profileNames()
	}
	// An empty word is a positional argument: a plan file for apply, show
	// and diff (the shell completes file names when kcg offers nothing).
	if cur == "" && (cmd.Name == "apply" || cmd.Name == "show" || cmd.Name == "diff") {
		return nil
	}
	if cur != "" && !strings.HasPrefix(cur, "-") {
		return nil // a group name: kcg does not ask the cluster
	}
	return append(flagWords(cmd.VisibleFlags()), "--help")
}

// profileNames are the profiles of the config file, for --profile and
// kcg profile use|show: a local file read, never Kafka; nothing when the
// file is missing or broken (completion stays silent).
func profileNames() []string {
	path, err := kafkaadmin.ConfigPath()
	if err != nil {
		return nil
	}
	f, err := kafkaadmin.ReadProfileFile(path)
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

var wordRE = regexp.MustCompile(`[a-z]+`)

// flagValues are the values of a flag that has a fixed set: -o (the
// formats its usage names, in its order), --state, --type.
func flagValues(f cli.Flag) []string {
	switch f.Names()[0] {
	case "output":
		usage := ""
		if u, ok := f.(cli.DocGenerationFlag); ok {
			usage = u.GetUsage()
		}
		var out []string
		for _, w := range wordRE.FindAllString(usage, -1) {
			if _, err := output.ParseFormat(w); (err == nil || w == "csv") && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		return out
	case "profile":
		return profileNames()
	case "state":
		return vocab.States
	case "type":
		return vocab.ConsumerTypes
	}
	return nil
}

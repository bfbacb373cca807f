// Package commands is kcg's own command line: one file per command, each
// with an options struct, a function that fills it from the flags and
// validates it, and a run function that calls the operations (groupops)
// and hands a document to output.
//
// Run is the entry point. It returns an exit code instead of exiting, so
// tests drive the real application with buffers. Called with the Java
// tool's command line, it hands over to dropin.
package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/dropin"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

// Streams is the application's IO (app.IO).
type IO = app.IO

// StdIO returns the process's standard streams.
func StdIO() IO { return app.StdIO() }

// Run executes kcg with args (args[0] is the program name) and returns the
// exit code. Output that could not be written (stdout full) is never exit
// 0: a run that would succeed ends with 1 and the write error on stderr.
func Run(ctx context.Context, args []string, s IO) int {
	s, failedWrite := app.CheckOutput(s)
	code := run(ctx, args, s)
	if err := failedWrite(); code == app.ExitOK && err != nil && !app.OutputClosed(err) {
		fmt.Fprintf(vocab.NewPrintableWriter(s.Err), "kcg: %s\n", vocab.OneLine(err.Error()))
		return app.ExitError
	}
	return code
}

func run(ctx context.Context, args []string, s IO) int {
	if len(args) == 0 {
		args = []string{"kcg"}
	}
	// Completion first: a completion request never runs a command (native
	// or drop-in) and never connects to Kafka.
	if completionRequested(args) {
		complete(ctx, s, args)
		return app.ExitOK
	}
	// Every stderr line is Printable: a notice or an error naming a group
	// with terminal escapes must not rewrite the screen (the progress line
	// writes its own escapes through vocab.RawWriter).
	s.Err = vocab.NewPrintableWriter(s.Err)
	if code, ok := dropin.RunNamed(ctx, args, s); ok {
		// Called as kafka-share-groups(.sh) or kafka-streams-groups(.sh):
		// that tool's command line.
		return code
	}
	cliApp := newApp(s)
	if native, ok := hoistLeadingFlags(cliApp, args); ok && !javaCommandLine(args) {
		// "kcg -b H describe G", "kcg --bootstrap-server H list".
		args = native
	} else if dropin.Called(args) {
		return dropin.Run(ctx, args, s)
	}
	if len(args) > 1 && args[1] == "help" {
		args = append([]string{args[0], "--help"}, args[2:]...)
	}
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && cliApp.Command(args[1]) == nil {
		fmt.Fprintf(s.Err, "kcg: unknown command %q%s (see 'kcg --help')\n", args[1], closestCommand(cliApp, args[1]))
		return app.ExitUsage
	}
	if err := flagWithoutValue(cliApp, args); err != nil {
		fmt.Fprintf(s.Err, "kcg: %s\n", err)
		return app.ExitUsage
	}
	args = normalizeArgs(cliApp, args)
	cliApp.Metadata = map[string]any{argsKey: args} // typedFlags reads them
	err := cliApp.RunContext(ctx, args)
	if err == nil {
		return app.ExitOK
	}
	code := app.ExitCode(ctx, err)
	switch {
	case app.OutputClosed(err) && !writesToKafka(args):
		// The reader has all it wanted (`| head -1`).
		return app.ExitOK
	case app.IsSilent(err):
	case code == app.ExitInterrupted && errors.Is(err, context.Canceled):
		// Not "context canceled": the operator pressed Ctrl-C. (An
		// interrupted apply says what it wrote instead.)
		fmt.Fprintln(s.Err, "kcg: interrupted")
	default:
		fmt.Fprintf(s.Err, "kcg: %s\n", vocab.OneLine(err.Error()))
	}
	return code
}

// writesToKafka reports whether the command of args (normalised) writes
// to the cluster: a closed stdout ends every other command quietly, but
// after a write the operator must learn what was written.
func writesToKafka(args []string) bool {
	return len(args) > 1 && slices.Contains([]string{"apply", "delete", "delete-offsets"}, args[1])
}

func newApp(s IO) *cli.App {
	app := &cli.App{
		Name:                 "kcg",
		Usage:                "Kafka consumer groups: describe lag, plan and apply offset resets safely",
		Version:              app.Version(),
		Reader:               s.In,
		Writer:               s.Out,
		ErrWriter:            s.Err,
		EnableBashCompletion: false, // completion is complete.go, before urfave/cli
		HideHelpCommand:      true,
		// Group ids may contain commas; repeat --group instead.
		DisableSliceFlagSeparator: true,
		// Exit codes are decided by app.ExitCode (in Run), never
		// by urfave/cli's os.Exit.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       commandList(s),
	}
	app.OnUsageError = onUsageError
	walk(app.Commands, func(c *cli.Command) {
		c.OnUsageError = onUsageError
	})
	addExamples(app)
	cli.VersionPrinter = func(c *cli.Context) {
		fmt.Fprintln(c.App.Writer, versionLine())
	}
	return app
}

// onUsageError keeps usage errors off stdout (scripts parse stdout) and
// gives them exit 64. An unknown flag is named as typed (Go's flag
// package drops a dash) with the closest flag of the command.
func onUsageError(c *cli.Context, err error, _ bool) error {
	see := "kcg --help"
	var flags []cli.Flag
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		see = "kcg " + c.Command.Name + " --help"
		flags = c.Command.Flags
	} else {
		flags = c.App.Flags
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		// Go's flag package names a flag with one dash ("invalid value
		// "x" for flag -count"); kcg's flags are typed with two.
		return app.Usagef("%s (see '%s')", goFlagName.ReplaceAllStringFunc(err.Error(), func(m string) string {
			sub := goFlagName.FindStringSubmatch(m)
			return sub[1] + dashed(sub[2])
		}), see)
	}
	msg := "unknown flag " + dashed(name)
	if len(name) > 2 {
		var names []string
		for _, f := range flags {
			names = append(names, f.Names()...)
		}
		if near := groupops.ClosestNames(name, names, 1); len(near) > 0 {
			msg += "; did you mean " + dashed(near[0]) + "?"
		}
	}
	return app.Usagef("%s (see '%s')", msg, see)
}

// goFlagName is how Go's flag package names a flag in its errors ("for
// flag -count", "needs an argument: -bootstrap-server").
var goFlagName = regexp.MustCompile(`(flag |argument: )-([A-Za-z0-9][A-Za-z0-9-]*)`)

// closestCommand is "; did you mean describe?" for a mistyped command
// name, or "".
func closestCommand(a *cli.App, typed string) string {
	var names []string
	for _, c := range a.Commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	if near := groupops.ClosestNames(typed, names, 1); len(near) > 0 {
		return "; did you mean " + near[0] + "?"
	}
	return ""
}

// dashed is a flag name as typed: -b, --bootstrap-server.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func walk(cmds []*cli.Command, fn func(*cli.Command)) {
	for _, c := range cmds {
		fn(c)
		walk(c.Subcommands, fn)
	}
}

// commandList is every native command.
func commandList(s IO) []*cli.Command {
	return []*cli.Command{
		listCommand(s),
		describeCommand(s),
		watchCommand(s),
		planCommand(s),
		showCommand(s),
		diffCommand(s),
		applyCommand(s),
		approveCommand(s),
		deleteCommand(s),
		deleteOffsetsCommand(s),
		sandboxCommand(s),
		profileCommand(s),
		schemaCommand(s),
		versionCommand(s),
		completionCommand(s),
	}
}

// javaActions are the options that make a command line the Java tool's
// wherever they appear (with --help and --version only after another
// option: "kcg --help" is kcg's help).
var javaActions = []string{"--list", "--describe", "--reset-offsets", "--delete", "--delete-offsets", "--validate-regex", "--help", "--version"}

// javaCommandLine reports whether args is certainly the Java tool's: the
// Java binary name, or a Java action option.
func javaCommandLine(args []string) bool {
	if dropin.Called(args[:1]) {
		return true
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if slices.Contains(javaActions, a) {
			return true
		}
	}
	return false
}

// hoistLeadingFlags moves flags typed before the command after it: "kcg
// -b H describe G" is "kcg describe -b H G". ok is false unless args has
// flags first and then a command whose flags they all are (with their
// values): anything else is left to drop-in mode or urfave/cli.
func hoistLeadingFlags(a *cli.App, args []string) (out []string, ok bool) {
	if len(args) < 3 || !strings.HasPrefix(args[1], "-") {
		return nil, false
	}
	for j := 2; j < len(args); j++ {
		if args[j] == "--" {
			return nil, false
		}
		cmd := a.Command(args[j])
		if cmd == nil || !flagsOf(cmd, args[1:j]) {
			continue
		}
		out = append([]string{args[0], args[j]}, args[1:j]...)
		return append(out, args[j+1:]...), true
	}
	return nil, false
}

// flagsOf reports whether words are flags of cmd, each value-taking one
// followed by its value (or written --flag=value).
func flagsOf(cmd *cli.Command, words []string) bool {
	for k := 0; k < len(words); k++ {
		w := words[k]
		if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
			return false
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		f := lookupFlag(cmd, "-"+name)
		if f == nil && !strings.HasPrefix(w, "--") && len(name) > 1 {
			// "-ojson": a short flag with its value attached.
			if f = lookupFlag(cmd, w[:2]); f != nil && takesValue(f) {
				continue
			}
		}
		if f == nil {
			return false
		}
		if takesValue(f) && !hasValue {
			if k+1 >= len(words) {
				return false
			}
			k++
		}
	}
	return true
}

// normalizeArgs lets flags follow positional arguments ("kcg describe
// billing -o json"): urfave/cli stops parsing flags at the first
// positional argument, so the leaf command's flags are moved in front of
// its positional arguments, which follow a "--".
func normalizeArgs(app *cli.App, args []string) []string {
	cmd, i := leafCommand(app, args)
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	known := map[string]bool{"help": true, "h": true}
	for _, f := range cmd.Flags {
		tv, _ := f.(cli.DocGenerationFlag)
		for _, n := range f.Names() {
			known[n] = true
			if tv != nil && tv.TakesValue() {
				takesValue[n] = true
			}
		}
	}
	var flags, positional []string
	rest := args[i:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			positional = append(positional, rest[j+1:]...)
			break
		}
		if len(a) > 1 && strings.HasPrefix(a, "-") && !isNumber(a) {
			name := strings.TrimLeft(a, "-")
			// "-ojson": a short flag with its value attached, as getopt
			// allows (Go's flag package would read a flag "ojson").
			if short := name[:1]; !strings.HasPrefix(a, "--") && len(name) > 1 && name[1] != '=' && !known[name] && takesValue[short] {
				flags = append(flags, "-"+short, name[1:])
				continue
			}
			flags = append(flags, a)
			if strings.Contains(name, "=") {
				continue
			}
			if takesValue[name] && j+1 < len(rest) {
				flags = append(flags, rest[j+1])
				j++
			}
			continue
		}
		positional = append(positional, a)
	}
	out := append([]string{}, args[:i]...)
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}

func isNumber(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// noArgs refuses stray positional arguments for commands that take none.
func noArgs(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return app.Usagef("unexpected argument %q", c.Args().First())
	}
	return nil
}

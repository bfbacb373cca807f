// Package dropin is kcg called with the command line of Apache Kafka 4.4's
// kafka-consumer-groups.sh (ConsumerGroupCommand): the Java tool's option
// parsing and validation, its runs, its output layouts and messages, and
// kcg's exit codes (docs/migration.md). The work itself is groupops', the
// same as kcg's own commands.
package dropin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/vocab"
)

// Drop-in mode: kcg called with the command line of Apache Kafka 4.4's
// kafka-consumer-groups.sh (ConsumerGroupCommand). The options are parsed
// with jopt-simple's rules and validated in ConsumerGroupCommandOptions
// .checkArgs's order with its messages; the output is the Java tool's
// (render.go); the exit codes are kcg's (docs/migration.md).

// javaUsage is the option table the Java tool prints after its usage
// messages (jopt-simple's help formatter, 80 columns), captured from
// Apache Kafka 4.4.0's kafka-consumer-groups.sh --help.
//
//go:embed usage.txt
var javaUsage string

// javaIntro is the line the Java tool prints above its option table for
// --help or no arguments.
const javaIntro = "This tool helps to list, describe, delete and manage the offsets of consumer groups."

// javaDryRunWarning is printed on stderr by --reset-offsets without
// --dry-run or --execute (Kafka 4.2+ text).
const javaDryRunWarning = "WARN: No action will be performed as the --execute option is missing. In version 5.0, this command will require either --dry-run or --execute to be specified. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting."

// javaActionsMessage is printed when not exactly one action is given.
const javaActionsMessage = "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets, --validate-regex"

// argKind is how a Java option takes its argument.
type argKind int

const (
	argNone argKind = iota
	argRequired
	argOptional
)

// javaOptions are every option of ConsumerGroupCommandOptions (4.4).
var javaOptions = map[string]argKind{
	"bootstrap-server": argRequired, "command-config": argRequired, "timeout": argRequired,
	"group": argRequired, "topic": argRequired, "all-topics": argNone, "all-groups": argNone,
	"list": argNone, "describe": argNone, "delete": argNone, "reset-offsets": argNone,
	"delete-offsets": argNone, "validate-regex": argRequired,
	"offsets": argNone, "members": argNone, "state": argOptional, "verbose": argNone, "type": argOptional,
	"dry-run": argNone, "execute": argNone, "export": argNone,
	"to-offset": argRequired, "to-earliest": argNone, "to-latest": argNone, "to-current": argNone,
	"shift-by": argRequired, "to-datetime": argRequired, "by-duration": argRequired, "from-file": argRequired,
	"help": argNone, "version": argNone,
}

// availableIf are jopt-simple's availableIf constraints: the option is
// refused unless one of these is given.
var availableIf = map[string][]string{
	"members": {"describe"}, "verbose": {"describe"}, "offsets": {"describe"},
	"state": {"describe", "list"}, "type": {"list"},
}

// javaArgs is a parsed Java command line: which options were given, and
// the values of each, in command-line order.
type javaArgs struct {
	order  []string
	has    map[string]bool
	values map[string][]string
}

func (a *javaArgs) Has(name string) bool { return a.has[name] }

// Values are every value of a repeatable option (valuesOf).
func (a *javaArgs) Values(name string) []string { return a.values[name] }

// First is the first value (Java's valuesOf(...).get(0)), "" when none.
func (a *javaArgs) First(name string) string {
	if v := a.values[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// One is jopt's valueOf: the single value of an option, an error when it
// was given more than once.
func (a *javaArgs) One(name string) (string, error) {
	v := a.values[name]
	if len(v) > 1 {
		return "", fmt.Errorf("Found multiple arguments for option %s, but you asked for only one", name)
	}
	if len(v) == 0 {
		return "", nil
	}
	return v[0], nil
}

// joptError is an exception jopt-simple throws while parsing; Java dies
// with it (uncaught, exit 1).
type joptError struct {
	class string
	msg   string
}

func (e *joptError) Error() string { return "joptsimple." + e.class + ": " + e.msg }

// parseJavaArgs parses args (without the program name) as jopt-simple's
// OptionParser(false) does for ConsumerGroupCommandOptions: long options
// as --name or --name=value (a single dash works too for a whole option
// name), no abbreviations, required arguments taken from the next token
// whatever it is (so --shift-by -5 works), optional arguments (--state,
// --type) only when the next token does not look like an option, every
// option repeatable, "--" ends the options, and other tokens ignored.
func parseJavaArgs(args []string) (*javaArgs, error) {
	return parseJavaArgsOf(args, javaOptions, availableIf)
}

// parseJavaArgsOf is parseJavaArgs with a tool's option table and
// availableIf constraints (kafka-share-groups has its own: share.go).
func parseJavaArgsOf(args []string, javaOptions map[string]argKind, availableIf map[string][]string) (*javaArgs, error) {
	a := &javaArgs{has: map[string]bool{}, values: map[string][]string{}}
	looksLikeOption := func(s string) bool { return len(s) > 1 && strings.HasPrefix(s, "-") }
	for i := 0; i < len(args); i++ {
		tok := args[i]
		if tok == "--" {
			break
		}
		if !looksLikeOption(tok) {
			continue // a stray positional argument: ignored, as in Java
		}
		name := strings.TrimPrefix(tok, "--")
		if name == tok { // single dash
			name = tok[1:]
			if _, ok := javaOptions[strings.SplitN(name, "=", 2)[0]]; !ok {
				return nil, &joptError{"UnrecognizedOptionException", name[:1] + " is not a recognized option"}
			}
		}
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		kind, ok := javaOptions[name]
		if !ok {
			return nil, &joptError{"UnrecognizedOptionException", name + " is not a recognized option"}
		}
		if !a.has[name] {
			a.order = append(a.order, name)
		}
		a.has[name] = true
		switch kind {
		case argRequired:
			if !hasValue {
				if i+1 >= len(args) {
					return nil, &joptError{"OptionMissingRequiredArgumentException", "Option " + name + " requires an argument"}
				}
				i++
				value = args[i]
			}
			a.values[name] = append(a.values[name], value)
		case argOptional:
			if !hasValue && i+1 < len(args) && !looksLikeOption(args[i+1]) {
				i++
				value, hasValue = args[i], true
			}
			if hasValue {
				a.values[name] = append(a.values[name], value)
			}
		}
	}
	var unavailable []string
	for _, name := range a.order {
		need, ok := availableIf[name]
		if !ok {
			continue
		}
		allowed := false
		for _, n := range need {
			allowed = allowed || a.has[n]
		}
		if !allowed {
			unavailable = append(unavailable, name)
		}
	}
	if len(unavailable) > 0 {
		return nil, &joptError{"UnavailableOptionException", "Option(s) [" + strings.Join(unavailable, ", ") + "] are unavailable given other options on the command line"}
	}
	return a, nil
}

// usageExit is a printUsageAndExit of the Java tool: the message and the
// option table on stderr. kcg exits 64 (Java: 1).
type usageExit struct{ msg string }

func (e *usageExit) Error() string { return e.msg }

func usageExitf(format string, a ...any) error { return &usageExit{fmt.Sprintf(format, a...)} }

// checkDescribeArgs is the --describe part of both Java tools' checkArgs
// (ConsumerGroupCommandOptions, ShareGroupCommandOptions): scope says
// whether --group or --all-groups was given, scopes how the tool names
// the two in its message (each lists them in its own order).
func checkDescribeArgs(a *javaArgs, scope bool, scopes string) error {
	if !scope {
		return usageExitf("Option [describe] takes one of these options: %s", scopes)
	}
	n := 0
	for _, v := range []string{"members", "offsets", "state"} {
		if a.Has(v) {
			n++
		}
	}
	if n > 1 {
		return usageExitf("Option [describe] takes at most one of these options: [members], [offsets], [state]")
	}
	if len(a.Values("state")) > 0 {
		return usageExitf("Option [describe] does not take a value for [state]")
	}
	return nil
}

// checkJavaArgs is ConsumerGroupCommandOptions.checkArgs followed by the
// action count of ConsumerGroupCommand.main, in their order, with their
// messages. Where Java joins a Set (random order per JVM), kcg uses the
// order of the Java source's declaration. It writes the dry-run warning
// to stderr as Java does, in the middle of the checks.
func checkJavaArgs(a *javaArgs, stderr io.Writer) error {
	if !a.Has("validate-regex") && !a.Has("bootstrap-server") {
		return usageExitf(`Missing required argument "[bootstrap-server]"`)
	}
	scope := a.Has("group") || a.Has("all-groups")
	if a.Has("describe") {
		if err := checkDescribeArgs(a, scope, "[group], [all-groups]"); err != nil {
			return err
		}
	}
	if a.Has("delete") {
		if !scope {
			return usageExitf("Option [delete] takes one of these options: [group], [all-groups]")
		}
		if a.Has("topic") {
			return usageExitf("The consumer does not support topic-specific offset deletion from a consumer group.")
		}
	}
	if a.Has("delete-offsets") && (!a.Has("group") || !a.Has("topic")) {
		return usageExitf("Option [delete-offsets] takes the following options: [group], [topic]")
	}
	if a.Has("reset-offsets") {
		if err := checkResetArgs(a, scope, stderr); err != nil {
			return err
		}
	}
	if err := checkConflicts(a, [][2]string{{"group", "all-groups"}, {"group", "list"}, {"topic", "list"}, {"topic", "describe"}}); err != nil {
		return err
	}
	return oneAction(a, javaActionsMessage, "list", "describe", "delete", "reset-offsets", "delete-offsets", "validate-regex")
}

// checkResetArgs is the --reset-offsets part of checkJavaArgs.
func checkResetArgs(a *javaArgs, scope bool, stderr io.Writer) error {
	if a.Has("dry-run") && a.Has("execute") {
		return usageExitf("Option [reset-offsets] only accepts one of [execute] and [dry-run]")
	}
	if !a.Has("dry-run") && !a.Has("execute") {
		fmt.Fprintln(stderr, javaDryRunWarning)
	}
	if !scope {
		return usageExitf("Option [reset-offsets] takes one of these options: [group], [all-groups]")
	}
	return checkExclusive(a, javaScenarios)
}

// checkConflicts is checkArgs' checkInvalidArgs over pairs of options
// that cannot be used together: the first pair given, in Java's words.
func checkConflicts(a *javaArgs, pairs [][2]string) error {
	for _, c := range pairs {
		if a.Has(c[0]) && a.Has(c[1]) {
			return usageExitf(`Option "[%s]" can't be used with option "[%s]"`, c[0], c[1])
		}
	}
	return nil
}

// checkExclusive is CommandLineUtils.checkInvalidArgs over a set of
// mutually exclusive options: the first given one against the others.
func checkExclusive(a *javaArgs, set []string) error {
	for _, s := range set {
		if !a.Has(s) {
			continue
		}
		for _, other := range set {
			if other != s && a.Has(other) {
				return usageExitf(`Option "[%s]" can't be used with option "[%s]"`, s, other)
			}
		}
	}
	return nil
}

// oneAction is the action count of the Java tools' main: msg unless
// exactly one of actions was given.
func oneAction(a *javaArgs, msg string, actions ...string) error {
	n := 0
	for _, act := range actions {
		if a.Has(act) {
			n++
		}
	}
	if n != 1 {
		return usageExitf("%s", msg)
	}
	return nil
}

// consumerTool is kafka-consumer-groups (ConsumerGroupCommand): consumer
// groups, and the texts and layouts the other two tools reword.
var consumerTool = javaTool{
	name:    "kafka-consumer-groups",
	family:  groupops.FamilyConsumer,
	options: javaOptions, availableIf: availableIf,
	usage: javaUsage, intro: javaIntro, helpIntro: javaIntro,
	check: checkJavaArgs,
	actions: []javaAction{
		{"validate-regex", (*dropIn).validateRegex},
		{"list", (*dropIn).list},
		{"describe", (*dropIn).describe},
		{"delete", (*dropIn).deleteGroups},
		{"delete-offsets", (*dropIn).deleteOffsets},
		{"reset-offsets", (*dropIn).resetOffsets},
	},
	deleteError: javaDeleteError,
	activeNote:  javaActiveNote,
	resetTable:  withRefused(javaResetTable),
}

// javaScenarios are the reset scenarios in the order checkArgs checks them.
var javaScenarios = []string{"to-offset", "to-datetime", "by-duration", "to-earliest", "to-latest", "to-current", "shift-by", "from-file"}

// printJavaUsage writes msg and the Java option table to w, as
// CommandLineUtils.printUsageAndExit does.
func printJavaUsage(w io.Writer, msg string) {
	fmt.Fprintln(w, msg)
	io.WriteString(w, javaUsage)
}

// Called reports whether kcg was called with the Java tool's command line:
// as kafka-consumer-groups(.sh), or with an option first.
func Called(args []string) bool {
	if consumerTool.calledBy(args) {
		return true
	}
	if len(args) < 2 {
		return false
	}
	first := args[1]
	if first == "-h" || first == "--help" || first == "-v" {
		return false
	}
	// "kcg --version" alone is kcg's version line; with other options
	// (and under the Java binary name) it is the Java tool's --version.
	if first == "--version" && len(args) == 2 {
		return false
	}
	return strings.HasPrefix(first, "--")
}

// Run runs the Java kafka-consumer-groups command line args (args[0] is
// the program name) and returns kcg's exit code.
func Run(ctx context.Context, args []string, s app.IO) int {
	return runner{tool: &consumerTool, dial: app.Dial}.run(ctx, args, s)
}

// javaFailure is an error Java reports through its generic path
// (ConsumerGroupCommand.printError): "\nError: Executing consumer group
// command failed due to <text>" on stdout. code is kcg's exit code for it
// (Java exits 0).
type javaFailure struct {
	text string
	code int
}

func (e *javaFailure) Error() string { return e.text }

// writes reports whether the action writes to Kafka (--delete,
// --delete-offsets, --reset-offsets --execute).
func (d *dropIn) writes() bool {
	return d.a.Has("delete") || d.a.Has("delete-offsets") || d.a.Has("execute")
}

// finish prints err as the Java tool would and returns kcg's exit code.
func (d *dropIn) finish(err error) int {
	if err == nil {
		return app.ExitOK
	}
	var ue *usageExit
	var jf *javaFailure
	switch {
	case app.OutputClosed(err) && !d.writes():
		// `--describe --all-groups | head -1`: the reader has gone; the
		// Java tool ends with 0 too.
		return app.ExitOK
	case errors.As(err, &ue):
		printJavaUsage(d.s.Err, ue.msg)
		return app.ExitUsage
	case errors.As(err, &jf):
		d.printError(jf.text)
		return jf.code
	case app.IsSilent(err):
		return app.ExitCode(d.ctx, err)
	case app.ExitCode(d.ctx, err) == app.ExitInterrupted:
		// Ctrl-C: the Java tool dies without a word (not "context
		// canceled").
		return app.ExitInterrupted
	}
	d.printError(vocab.OneLine(err.Error()))
	return app.ExitCode(d.ctx, err)
}

// printError prints the Java tool's error line on stdout, where Java
// prints it, or on stderr when stdout cannot take it (full): an error is
// never lost.
func (d *dropIn) printError(text string) {
	if _, err := fmt.Fprintf(d.s.Out, "\nError: Executing consumer group command failed due to %s\n", text); err != nil {
		fmt.Fprintf(d.s.Err, "Error: Executing consumer group command failed due to %s\n", text)
	}
}

// Markdown documents drop-in mode in the command reference.
const Markdown = `
# DROP-IN MODE

Called with the Java tool's command line — first argument an option such as
` + "`--bootstrap-server`" + ` and a Java action option (` + "`--list`, `--describe`, `--reset-offsets`" + `, …)
or no kcg command, or the binary named ` + "`kafka-consumer-groups`" + ` or
` + "`kafka-consumer-groups.sh`" + ` — kcg behaves as Apache Kafka's
kafka-consumer-groups.sh. Named ` + "`kafka-streams-groups`" + ` or
` + "`kafka-streams-groups.sh`" + `, it behaves as Apache Kafka's
kafka-streams-groups.sh; named ` + "`kafka-share-groups`" + ` or
` + "`kafka-share-groups.sh`" + `, as kafka-share-groups.sh
(docs/group-types.md): kcg tells the three tools apart by the name it was
called by (a symlink or a copy of the binary). Flags typed before a kcg command
(` + "`kcg -b H describe G`" + `) are that command's. See docs/migration.md.
`

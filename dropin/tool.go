package dropin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// javaTool is one of Apache Kafka's group tools whose command line kcg
// runs: its name, the family of groups it manages, its option table, its
// texts and table layouts, and its actions. One runner (runner.run) runs
// them all; nothing else in dropin asks which tool it runs. Adding a Java
// tool is adding one javaTool value (consumerTool in args.go, shareTool
// in share.go, streamsTool in streams.go) and listing it in namedTools.
type javaTool struct {
	// name is the tool's script name without ".sh": kcg runs the tool
	// when it is called by that name, with or without ".sh".
	name string
	// family is the groups the tool manages: --all-groups lists them, a
	// named group of another family is refused.
	family groupops.Family
	// requireFamily: before any action, the cluster must have groups of
	// family (one line on stderr and exit 1 when it has not).
	requireFamily bool
	// translate rewrites the tool's own option names into those of its
	// option table (nil: none); an error is kcg's one line, exit 64.
	translate func(args []string) ([]string, error)
	// options and availableIf are the tool's jopt-simple option table.
	options     map[string]argKind
	availableIf map[string][]string
	// usage is the option table printed after a usage message; intro is
	// the line above it without arguments, helpIntro with --help.
	usage, intro, helpIntro string
	// words rewords the consumer-group tool's texts as this tool words
	// them (nil: as they are).
	words *strings.Replacer
	// check is the tool's checkArgs: a *usageExit is printed with the
	// option table, any other error as kcg's one line; both exit 64.
	check func(a *javaArgs, stderr io.Writer) error
	// actions are the tool's actions; check leaves exactly one given.
	actions []javaAction
	// deleteError is the text --delete prints for a group it did not
	// delete.
	deleteError func(group string, err error) string
	// activeNote reports a group --reset-offsets leaves alone because it
	// has members (notes: stdout, or stderr with --export).
	activeNote func(s app.IO, notes io.Writer, g resetplan.GroupSnapshot)
	// resetTable is --reset-offsets' table (without --export): the groups
	// refused as active (no partitions, sorted), then the plan's.
	resetTable func(w io.Writer, active, planned []javaResetGroup) error
}

// javaAction is one action of a Java tool: its option and its run.
type javaAction struct {
	option string
	run    func(*dropIn) error
}

// namedTools are the Java tools kcg runs when called by their name
// (RunNamed); kafka-consumer-groups' command line is also kcg's when it
// starts with an option (Called, Run).
var namedTools = []*javaTool{&shareTool, &streamsTool}

// RunNamed runs the command line of the Java tool args[0] names (a
// symlink or a copy of the binary called kafka-share-groups(.sh) or
// kafka-streams-groups(.sh)) and returns kcg's exit code; ok is false
// when args[0] names none of them.
func RunNamed(ctx context.Context, args []string, s app.IO) (code int, ok bool) {
	for _, t := range namedTools {
		if t.calledBy(args) {
			return runner{tool: t, dial: app.Dial}.run(ctx, args, s), true
		}
	}
	return 0, false
}

// calledBy reports whether args[0] names the tool (a symlink or a copy of
// the binary).
func (t *javaTool) calledBy(args []string) bool {
	base := filepath.Base(args[0])
	return base == t.name || base == t.name+".sh"
}

// printUsage writes msg and the tool's option table to w, as
// CommandLineUtils.printUsageAndExit does.
func (t *javaTool) printUsage(w io.Writer, msg string) {
	fmt.Fprintln(w, msg)
	io.WriteString(w, t.usage)
}

// action is the run of the one action given.
func (t *javaTool) action(a *javaArgs) func(*dropIn) error {
	for _, act := range t.actions {
		if a.Has(act.option) {
			return act.run
		}
	}
	return func(*dropIn) error { return nil }
}

// dialFunc connects to a cluster: app.Dial, or a test's fake.
type dialFunc func(context.Context, connconfig.ConnOptions) (*kafkaadmin.Client, context.Context, func(), error)

// runner runs a Java tool's command line, dialling with dial.
type runner struct {
	tool *javaTool
	dial dialFunc
}

// run runs the command line args (args[0] is the program name) and
// returns kcg's exit code: the arguments parsed and checked as the tool
// checks them (nothing dialled before), then its one action.
func (r runner) run(ctx context.Context, args []string, s app.IO) int {
	t := r.tool
	// The Java tools print names raw; kcg shows a name's control
	// characters escaped on both streams (docs/migration.md), except in
	// the --export CSV.
	s.Out, s.Err = vocab.NewPrintableWriter(s.Out), vocab.NewPrintableWriter(s.Err)
	if t.words != nil {
		s.Out, s.Err = &rewording{w: s.Out, r: t.words}, &rewording{w: s.Err, r: t.words}
	}
	rest := args[1:]
	if t.translate != nil {
		var err error
		if rest, err = t.translate(rest); err != nil {
			fmt.Fprintln(s.Err, "kcg: "+err.Error())
			return app.ExitUsage
		}
	}
	if len(rest) == 0 {
		t.printUsage(s.Err, t.intro)
		return app.ExitUsage
	}
	a, err := parseJavaArgsOf(rest, t.options, t.availableIf)
	if err != nil {
		fmt.Fprintln(s.Err, err)
		return app.ExitUsage
	}
	if a.Has("help") {
		t.printUsage(s.Err, t.helpIntro)
		return app.ExitOK
	}
	if a.Has("version") {
		fmt.Fprintln(s.Out, app.Version())
		return app.ExitOK
	}
	if err := t.check(a, s.Err); err != nil {
		var ue *usageExit
		if errors.As(err, &ue) {
			t.printUsage(s.Err, ue.msg)
		} else {
			fmt.Fprintln(s.Err, "kcg: "+err.Error())
		}
		return app.ExitUsage
	}
	d := &dropIn{ctx: ctx, a: a, s: s, tool: t, dial: r.dial}
	if t.requireFamily {
		if err := d.requireFamily(); err != nil {
			return d.finish(err)
		}
	}
	return d.finish(t.action(a)(d))
}

// requireFamily says, in one line on stderr, that the cluster has no
// groups of the tool's family and fails with exit 1, before anything is
// read or written.
func (d *dropIn) requireFamily() error {
	cl, ctx, done, err := d.connect()
	if err != nil {
		return err
	}
	defer done()
	err = groupops.RequireFamily(ctx, cl, d.tool.family)
	var nf *groupops.NoFamilyError
	if errors.As(err, &nf) {
		fmt.Fprintln(d.s.Err, "kcg: "+nf.Error())
		return app.Silent(app.ExitError)
	}
	return err
}

// rewording writes the consumer-group tool's texts through r: how the
// share- and streams-group tools reuse its messages.
type rewording struct {
	w io.Writer
	r *strings.Replacer
}

func (s *rewording) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, s.r.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// withRefused is a resetTable that prints the refused groups (a header
// and no rows) with the plan's, in layout.
func withRefused(layout func(io.Writer, []javaResetGroup) error) func(io.Writer, []javaResetGroup, []javaResetGroup) error {
	return func(w io.Writer, active, planned []javaResetGroup) error {
		return layout(w, append(active, planned...))
	}
}

// javaActiveNote is kafka-consumer-groups' activeNote: Java's error on
// the notes stream.
func javaActiveNote(_ app.IO, notes io.Writer, g resetplan.GroupSnapshot) {
	fmt.Fprintf(notes, "\nError: Assignments can only be reset if the group '%s' is inactive, but the current state is %s.\n", g.Group, g.State)
}

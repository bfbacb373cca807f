package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/urfave/cli/v2"
)

// ManPages renders kcg's man pages (docs/man/, shipped in the release
// archives) from the CLI definitions, as Markdown does docs/commands.md:
// kcg.1, and kcg-CMD.1 for every command that is not hidden (kcg-CMD-SUB.1
// for a subcommand). The keys are file names. The text is roff for the
// man(7) macros, written here rather than converted from Markdown so that
// every page has the same sections whatever a command's help contains.
func ManPages() (map[string]string, error) {
	a := newApp(IO{})
	pages := map[string]string{"kcg.1": manRoot(a)}
	var err error
	var add func(path []string, cmds []*cli.Command)
	add = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden {
				continue
			}
			p := append(slices.Clone(path), c.Name)
			name := "kcg-" + strings.Join(p, "-") + ".1"
			if _, dup := pages[name]; dup {
				err = fmt.Errorf("man: two commands make the page %s", name)
				return
			}
			pages[name] = manCommand(a, p, c)
			add(p, c.Subcommands)
		}
	}
	add(nil, a.Commands)
	return pages, err
}

// manExitStatus is the EXIT STATUS section: the codes of docs/exit-codes.md
// (the spec's), in a line each; a test checks the codes against that page.
var manExitStatus = []struct {
	code    int
	meaning string
}{
	{app.ExitOK, "success; for diff: no differences (or the plan is already applied)"},
	{app.ExitError, "runtime error: the cluster is unreachable or timed out, Kafka refused a request"},
	{app.ExitDiff, "diff: differences found"},
	{app.ExitRefused, "refused by a precondition (stale plan, active group, cluster mismatch, digest mismatch, target out of range, a group that does not exist); nothing was written"},
	{app.ExitPartial, "partial apply: some groups were written, some not; the report says which"},
	{app.ExitBreach, "a threshold was breached: describe --max-lag, --max-time-lag or --min-retention-headroom (or watch --exit-on-breach) found a group over a limit; stderr names it"},
	{app.ExitUnreported, "written, but the report could not be printed (stdout closed or full): stderr names what was written and the rollback plan"},
	{app.ExitUsage, "usage error: unknown flag, missing or conflicting options, a file kcg would overwrite"},
	{app.ExitBadInput, "bad input data: malformed plan or CSV, unknown plan version, unreadable --command-config"},
	{app.ExitInterrupted, "interrupted (Ctrl-C)"},
}

const manDocs = "The full manual is in the docs/ folder of the source " +
	"(https://github.com/kcg-dev/kcg/tree/main/docs): commands.md, plan-format.md, " +
	"exit-codes.md, connecting.md, migration.md."

func manHeader(b *strings.Builder, title, name, summary string) {
	// No date: the pages are checked for drift and must not change by
	// themselves.
	fmt.Fprintf(b, ".\\\" Generated from the CLI by `go test ./commands -run TestManPages -update`; do not edit.\n")
	fmt.Fprintf(b, ".TH %s 1 \"\" \"kcg\" \"kcg manual\"\n", roff(strings.ToUpper(title)))
	// Flags must not be hyphenated across lines, nor text stretched.
	b.WriteString(".nh\n.ad l\n")
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(b, "%s \\- %s\n", roff(name), roff(summary))
}

func manRoot(a *cli.App) string {
	var b strings.Builder
	manHeader(&b, "kcg", "kcg", a.Usage)
	b.WriteString(".SH SYNOPSIS\n")
	b.WriteString(".B kcg\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR...]\n")
	b.WriteString(".br\n.B kcg\n\\-\\-bootstrap\\-server \\fIHOST:PORT\\fR \\-\\-list | \\-\\-describe | \\-\\-reset\\-offsets ... (drop\\-in mode)\n")
	b.WriteString(".SH DESCRIPTION\n")
	manText(&b, a.Usage+".\n\n"+
		"kcg replaces Apache Kafka's kafka-consumer-groups.sh with one static binary. "+
		"Every result prints as a table, JSON or YAML (-o). Offset resets are plan files: "+
		"built by kcg plan, reviewed with kcg show and kcg diff, executed by kcg apply, "+
		"which re-checks every precondition and leaves a rollback plan behind.\n\n"+
		"Called with the Java tool's options (an action such as --list, --describe or "+
		"--reset-offsets), or under the name kafka-consumer-groups.sh, kcg runs in drop-in "+
		"mode: the Java tool's command line and output, with kcg's exit codes. "+
		"Under the name kafka-streams-groups.sh or kafka-share-groups.sh it takes that "+
		"Java tool's command line instead.")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range a.Commands {
		if c.Hidden {
			continue
		}
		fmt.Fprintf(&b, ".TP\n\\fBkcg %s\\fR\n%s. See \\fBkcg\\-%s\\fR(1).\n", roff(c.Name), roff(c.Usage), roff(c.Name))
	}
	b.WriteString(".SH OPTIONS\n")
	flags := slices.Clone(a.Flags)
	if !a.HideVersion && a.Version != "" && cli.VersionFlag != nil {
		flags = append(flags, cli.VersionFlag)
	}
	manFlags(&b, flags, !a.HideHelp)
	b.WriteString(".SH ENVIRONMENT\n")
	seen := map[string]bool{}
	walk(a.Commands, func(c *cli.Command) {
		for _, f := range c.Flags {
			df, ok := f.(cli.DocGenerationFlag)
			if !ok {
				continue
			}
			for _, e := range df.GetEnvVars() {
				if seen[e] {
					continue
				}
				seen[e] = true
				fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\n%s (the %s flag).\n", roff(e), roff(df.GetUsage()), roff(dashed(f.Names()[0])))
			}
		}
	})
	manExit(&b)
	b.WriteString(".SH SEE ALSO\n")
	var refs []string
	for _, c := range a.Commands {
		if !c.Hidden {
			refs = append(refs, "\\fBkcg\\-"+roff(c.Name)+"\\fR(1)")
		}
	}
	b.WriteString(strings.Join(refs, ",\n") + "\n.PP\n" + roff(manDocs) + "\n")
	return b.String()
}

func manCommand(a *cli.App, path []string, c *cli.Command) string {
	var b strings.Builder
	full := "kcg " + strings.Join(path, " ")
	manHeader(&b, "kcg-"+strings.Join(path, "-"), "kcg-"+strings.Join(path, "-"), c.Usage)

	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n", roff(full))
	if len(c.Subcommands) > 0 {
		b.WriteString("\\fICOMMAND\\fR ")
	}
	b.WriteString("[\\fIOPTIONS\\fR]")
	if c.ArgsUsage != "" {
		b.WriteString(" " + roff(c.ArgsUsage))
	}
	b.WriteString("\n")
	if len(c.Aliases) > 0 {
		fmt.Fprintf(&b, ".PP\nAliases: %s.\n", roff(strings.Join(c.Aliases, ", ")))
	}

	description, examples := splitExamples(c.Description)
	b.WriteString(".SH DESCRIPTION\n")
	manText(&b, upperFirst(c.Usage)+".")
	if description != "" {
		b.WriteString(".PP\n")
		manText(&b, description)
	}

	if subs := visible(c.Subcommands); len(subs) > 0 {
		b.WriteString(".SH COMMANDS\n")
		for _, s := range subs {
			fmt.Fprintf(&b, ".TP\n\\fB%s %s\\fR\n%s. See \\fBkcg\\-%s\\-%s\\fR(1).\n",
				roff(full), roff(s.Name), roff(s.Usage), roff(strings.Join(path, "-")), roff(s.Name))
		}
	}

	b.WriteString(".SH OPTIONS\n")
	manFlags(&b, c.Flags, !c.HideHelp)

	manExit(&b)

	if len(examples) > 0 {
		b.WriteString(".SH EXAMPLES\n.RS 4\n.nf\n")
		for _, l := range examples {
			b.WriteString(roffLine(l) + "\n")
		}
		b.WriteString(".fi\n.RE\n")
	}

	b.WriteString(".SH SEE ALSO\n")
	refs := []string{"\\fBkcg\\fR(1)"}
	for _, o := range seeAlso(a, path, c) {
		refs = append(refs, "\\fBkcg\\-"+roff(o)+"\\fR(1)")
	}
	b.WriteString(strings.Join(refs, ",\n") + "\n.PP\n" + roff(manDocs) + "\n")
	return b.String()
}

func visible(cmds []*cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

var examplesHeadingRE = regexp.MustCompile(`(?im)^[ \t]*examples?:[ \t]*$`)

// splitExamples cuts a command's Description at its "Examples:" line: the
// text before is the DESCRIPTION, the lines after (without their common
// indentation) the EXAMPLES.
func splitExamples(d string) (description string, examples []string) {
	loc := examplesHeadingRE.FindStringIndex(d)
	if loc == nil {
		return strings.TrimSpace(d), nil
	}
	description = strings.TrimSpace(d[:loc[0]])
	lines := strings.Split(strings.Trim(d[loc[1]:], "\n"), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for _, l := range lines {
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		examples = append(examples, strings.TrimRight(l, " \t"))
	}
	return description, examples
}

// seeAlso names the pages of the other commands c's help mentions
// ("'kcg show' renders it"), in command order, and c's parent and
// subcommands.
func seeAlso(a *cli.App, path []string, c *cli.Command) []string {
	var out []string
	if len(path) > 1 {
		out = append(out, strings.Join(path[:len(path)-1], "-"))
	}
	for _, s := range visible(c.Subcommands) {
		out = append(out, strings.Join(path, "-")+"-"+s.Name)
	}
	text := c.Description + " " + c.Usage
	for _, o := range a.Commands {
		if o == c || o.Hidden || (len(path) > 1 && o.Name == path[0]) {
			continue
		}
		if regexp.MustCompile(`kcg ` + regexp.QuoteMeta(o.Name) + `\b([^-]|$)`).MatchString(text) {
			out = append(out, o.Name)
		}
	}
	return out
}

// manFlags writes one .TP entry per flag: its names, its value's
// placeholder, its usage, and its default, environment variable and
// repeatability.
func manFlags(b *strings.Builder, flags []cli.Flag, help bool) {
	all := slices.Clone(flags)
	if help && !slices.ContainsFunc(all, func(f cli.Flag) bool { return slices.Contains(f.Names(), "help") }) {
		all = append(all, cli.HelpFlag)
	}
	for _, f := range all {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
			continue
		}
		placeholder, usage := unquoteUsage(df.GetUsage())
		if placeholder == "" && df.TakesValue() {
			placeholder = "value"
		}
		var names []string
		for _, n := range f.Names() {
			s := "\\fB" + roff(dashed(n)) + "\\fR"
			if df.TakesValue() {
				s += " \\fI" + roff(placeholder) + "\\fR"
			}
			names = append(names, s)
		}
		fmt.Fprintf(b, ".TP\n%s\n%s\n", strings.Join(names, ", "), roff(upperFirst(usage)+"."))
		var notes []string
		switch {
		case strings.Contains(usage, "(default:"):
			// The usage says it in words ("a free port").
		case !df.TakesValue():
			notes = append(notes, "Default: off.")
		case flagDefault(df) != "":
			notes = append(notes, "Default: "+flagDefault(df)+".")
		default:
			notes = append(notes, "Default: none.")
		}
		if repeatable(f) {
			notes = append(notes, "Repeatable.")
		}
		if env := df.GetEnvVars(); len(env) > 0 {
			notes = append(notes, "Environment: "+strings.Join(env, ", ")+".")
		}
		fmt.Fprintf(b, "%s\n", roff(strings.Join(notes, " ")))
	}
}

// unquoteUsage reads a flag's placeholder as urfave/cli's help does: the
// first `quoted` word of its usage, kept in the text without the quotes.
func unquoteUsage(usage string) (placeholder, text string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	name, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return name, before + name + after
}

// flagDefault is the default as --help shows it, without its quotes.
func flagDefault(df cli.DocGenerationFlag) string {
	if d := df.GetDefaultText(); d != "" {
		return strings.Trim(d, `"`)
	}
	return strings.Trim(df.GetValue(), `"`)
}

func repeatable(f cli.Flag) bool {
	switch f.(type) {
	case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.UintSliceFlag, *cli.Uint64SliceFlag, *cli.Float64SliceFlag:
		return true
	}
	return false
}

func manExit(b *strings.Builder) {
	b.WriteString(".SH EXIT STATUS\n")
	for _, e := range manExitStatus {
		fmt.Fprintf(b, ".TP\n\\fB%d\\fR\n%s.\n", e.code, roff(upperFirst(e.meaning)))
	}
}

// manText writes help text as roff paragraphs: a blank line starts a new
// paragraph; indented lines (commands, lists) are kept as typed.
func manText(b *strings.Builder, text string) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	literal := false
	for _, l := range lines {
		indented := strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
		switch {
		case strings.TrimSpace(l) == "":
			if literal {
				b.WriteString(".fi\n.RE\n")
				literal = false
			}
			b.WriteString(".PP\n")
			continue
		case indented && !literal:
			b.WriteString(".RS 4\n.nf\n")
			literal = true
		case !indented && literal:
			b.WriteString(".fi\n.RE\n")
			literal = false
		}
		if literal {
			b.WriteString(roffLine(strings.TrimLeft(l, " \t")) + "\n")
		} else {
			b.WriteString(roffLine(l) + "\n")
		}
	}
	if literal {
		b.WriteString(".fi\n.RE\n")
	}
}

// roff escapes text for roff: backslashes; hyphens as \- so that flags
// stay ASCII minus signs when copied from the rendered page; and any
// other non-ASCII character as its \[uXXXX] name (troff reads bytes).
func roff(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7e:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// roffLine escapes a line of text; one starting with a dot or a quote
// would be read as a request.
func roffLine(s string) string {
	s = roff(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

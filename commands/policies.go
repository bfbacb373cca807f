package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/policy"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

func policyFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "policy", Usage: "evaluate the Rego policies in `PATH` (a file, or a directory's *.rego) against the plan: a deny refuses (exit 3), a warn is printed (repeatable; adds to the profile's policy: list; docs/policies/)"}
}

// profileOf is the profile the command's connection flags select (nil:
// none), for its policy: and allowedSigners: keys. --sandbox uses none.
func profileOf(c *cli.Context) (*connconfig.Profile, error) {
	if c.Bool("sandbox") {
		return nil, nil
	}
	o, err := connOptions(c)
	if err != nil {
		return nil, err
	}
	return o.SelectedProfile()
}

// loadPolicies compiles the profile's policy: list and every --policy
// (nil: none given). A policy that does not compile is exit 65, each
// error naming its file and line; this runs before any network.
func loadPolicies(c *cli.Context, prof *connconfig.Profile) (*policy.Set, error) {
	var paths []string
	if prof != nil {
		paths = append(paths, prof.Policy...)
	}
	for _, p := range c.StringSlice("policy") {
		if p == "" {
			return nil, app.Usagef("--policy needs a path (a .rego file or a directory)")
		}
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	set, err := policy.Load(c.Context, paths)
	if ce, ok := errors.AsType[*policy.CompileError](err); ok {
		return nil, app.BadInput(errors.New(strings.Join(ce.Lines, "; ")))
	}
	return set, err
}

// policyVerdict evaluates set against the plan, as `kcg show -o json`
// prints it (the same bytes conftest reads), prints each warn on stderr
// and returns the deny messages (nil: allowed). A policy that fails
// while evaluating is exit 65.
func policyVerdict(ctx context.Context, s IO, set *policy.Set, p *resetplan.Plan) ([]string, error) {
	if set == nil {
		return nil, nil
	}
	var doc bytes.Buffer
	if err := output.Write(&doc, output.FormatJSON, output.PlanDocument{Plan: p}); err != nil {
		return nil, err
	}
	res, err := set.Eval(ctx, doc.Bytes())
	if ee, ok := errors.AsType[*policy.EvalError](err); ok {
		return nil, app.BadInput(ee)
	}
	if err != nil {
		return nil, err
	}
	printPolicyMessages(s.Err, res)
	return res.Deny, nil
}

// printPolicyMessages prints each warn and deny message on one stderr
// line. A message is the policy's text, often interpolating a group or
// topic name: it goes through vocab.Printable so that a newline in it
// cannot make two lines (the stderr writer escapes control characters
// but keeps line breaks), nor an escape rewrite the screen.
func printPolicyMessages(w io.Writer, res policy.Result) {
	for _, m := range res.Warn {
		fmt.Fprintf(w, "policy warning: %s\n", vocab.Printable(m))
	}
	for _, m := range res.Deny {
		fmt.Fprintf(w, "policy denied: %s\n", vocab.Printable(m))
	}
}

// policyRefusal is the error of a plan the policies deny (exit 3).
func policyRefusal(deny []string, nothing string) error {
	return app.Refused(fmt.Errorf("refused by policy (%d deny %s); %s", len(deny), plural(len(deny), "message", "messages"), nothing))
}

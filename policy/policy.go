// Package policy evaluates Rego policies against a plan document, the
// conftest way: rules named deny and warn (and deny_*, warn_*) in
// package kcg, each a set of messages. The input is the plan as `kcg show
// -o json` prints it (commands passes those bytes), so the same files run
// under `conftest test --namespace kcg`. Rego is compiled and evaluated by
// OPA's Go module (github.com/open-policy-agent/opa/v1), Rego v1 syntax.
// No exit codes here: commands maps a *CompileError to exit 65.
package policy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/util"
)

// Namespace is the Rego package whose rules kcg evaluates.
const Namespace = "kcg"

// maxPolicyBytes bounds one policy file.
const maxPolicyBytes = 4 << 20

// Set is a compiled set of policy files, ready to evaluate.
type Set struct {
	// Files are the .rego files loaded, in load order.
	Files []string
	query rego.PreparedEvalQuery
}

// CompileError is a policy that cannot be loaded or does not compile:
// each line names the file and, where OPA knows it, the line.
type CompileError struct {
	Lines []string
}

func (e *CompileError) Error() string { return strings.Join(e.Lines, "; ") }

// EvalError is a policy that compiled but failed while evaluating (a
// conflict between rules, a builtin's error).
type EvalError struct{ Err error }

func (e *EvalError) Error() string { return "policy evaluation failed: " + errorText(e.Err) }

func (e *EvalError) Unwrap() error { return e.Err }

// Result is what the policies said of one input.
type Result struct {
	Deny, Warn []string
}

// files expands the paths given: a file is taken as is (whatever its
// name), a directory gives its *.rego files, recursively, in lexical
// order, without the *_test.rego files (the policies' own unit tests, for
// opa test or conftest verify).
func files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, &CompileError{Lines: []string{fmt.Sprintf("policy %s: %s", p, errorText(err))}}
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".rego") && !strings.HasSuffix(d.Name(), "_test.rego") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, &CompileError{Lines: []string{fmt.Sprintf("policy %s: %s", p, errorText(err))}}
		}
		if len(found) == 0 {
			return nil, &CompileError{Lines: []string{fmt.Sprintf("policy %s: the directory has no .rego file", p)}}
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// Load reads and compiles the policies at paths (files or directories).
// At least one module must be package kcg.
func Load(ctx context.Context, paths []string) (*Set, error) {
	names, err := files(paths)
	if err != nil {
		return nil, err
	}
	s := &Set{}
	opts := []func(*rego.Rego){rego.Query("data." + Namespace), rego.SetRegoVersion(ast.RegoV1)}
	var lines []string
	hasNamespace := false
	for _, name := range names {
		if slices.Contains(s.Files, name) {
			continue
		}
		s.Files = append(s.Files, name)
		src, err := readBounded(name)
		if err != nil {
			lines = append(lines, fmt.Sprintf("policy %s: %s", name, errorText(err)))
			continue
		}
		m, err := ast.ParseModuleWithOpts(name, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			lines = append(lines, astLines(name, err)...)
			continue
		}
		if m.Package.Path.String() == "data."+Namespace {
			hasNamespace = true
		}
		opts = append(opts, rego.ParsedModule(m))
	}
	if len(lines) > 0 {
		return nil, &CompileError{Lines: lines}
	}
	if !hasNamespace {
		return nil, &CompileError{Lines: []string{fmt.Sprintf("policy %s: no file is package %s (kcg evaluates the deny and warn rules of package %s)", strings.Join(paths, ", "), Namespace, Namespace)}}
	}
	q, err := rego.New(opts...).PrepareForEval(ctx)
	if err != nil {
		return nil, &CompileError{Lines: astLines("", err)}
	}
	s.query = q
	return s, nil
}

func readBounded(name string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxPolicyBytes {
		return nil, errors.New("is more than 4 MiB: not a policy")
	}
	return os.ReadFile(name)
}

// astLines renders OPA's errors one per line: "policy FILE:LINE: msg".
func astLines(name string, err error) []string {
	var errs ast.Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		if name == "" {
			return []string{"policy: " + errorText(err)}
		}
		return []string{fmt.Sprintf("policy %s: %s", name, errorText(err))}
	}
	// OPA's parser may report one mistake twice, at one place, in other
	// words: the first message of each place is kept.
	out := make([]string, 0, len(errs))
	var seen []string
	for _, e := range errs {
		where := name
		if e.Location != nil {
			if e.Location.File != "" {
				where = e.Location.File
			}
			where = fmt.Sprintf("%s:%d", where, e.Location.Row)
		}
		if slices.Contains(seen, where) {
			continue
		}
		seen = append(seen, where)
		out = append(out, fmt.Sprintf("policy %s: %s", where, e.Message))
	}
	return out
}

// Eval evaluates the policies against input, a JSON document (the plan
// as kcg show -o json prints it).
func (s *Set) Eval(ctx context.Context, input []byte) (Result, error) {
	var doc any
	if err := util.UnmarshalJSON(input, &doc); err != nil {
		return Result{}, fmt.Errorf("policy input: %w", err)
	}
	rs, err := s.query.Eval(ctx, rego.EvalInput(doc))
	if err != nil {
		return Result{}, &EvalError{Err: err}
	}
	var r Result
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return r, nil
	}
	pkg, ok := rs[0].Expressions[0].Value.(map[string]any)
	if !ok {
		return r, nil
	}
	keys := make([]string, 0, len(pkg))
	for k := range pkg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var to *[]string
		switch {
		case k == "deny" || strings.HasPrefix(k, "deny_") || k == "violation" || strings.HasPrefix(k, "violation_"):
			to = &r.Deny
		case k == "warn" || strings.HasPrefix(k, "warn_"):
			to = &r.Warn
		default:
			continue
		}
		msgs, err := messages(k, pkg[k])
		if err != nil {
			return Result{}, &EvalError{Err: err}
		}
		*to = append(*to, msgs...)
	}
	return r, nil
}

// messages are a rule's values: a set (a JSON array) of strings, or of
// objects with a msg string (conftest accepts both); a boolean rule
// (deny if ...) that is true says its rule name.
func messages(rule string, v any) ([]string, error) {
	switch v := v.(type) {
	case bool:
		if v {
			return []string{rule}, nil
		}
		return nil, nil
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			switch e := e.(type) {
			case string:
				out = append(out, e)
			case map[string]any:
				msg, ok := e["msg"].(string)
				if !ok {
					return nil, fmt.Errorf("rule %s: an object message needs a msg string", rule)
				}
				out = append(out, msg)
			default:
				return nil, fmt.Errorf("rule %s: a message must be a string or an object with msg, not %T", rule, e)
			}
		}
		sort.Strings(out)
		return out, nil
	}
	return nil, fmt.Errorf("rule %s must be a set of messages (deny contains msg if ...), not %T", rule, v)
}

func errorText(err error) string {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

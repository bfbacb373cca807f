package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The limits of TestFunctionSize: no non-test function of kcg is longer
// than maxFuncLines lines or has a cyclomatic complexity above
// maxComplexity (issue 31, item 7; docs/testing.md, "Function size").
const (
	maxFuncLines  = 100
	maxComplexity = 30
)

// TestFunctionSize parses every non-test .go file of the module (the
// binary's packages and the test kits under internal/; not testdata,
// not bench/, not hidden folders such as .ci) and fails naming each
// function or method that is longer than maxFuncLines lines or whose
// cyclomatic complexity is above maxComplexity. There is no allow-list:
// a function over a limit is split into named steps.
func TestFunctionSize(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || path == "bench") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, m := range measureFuncs(fset, f) {
			if m.lines > maxFuncLines || m.complexity > maxComplexity {
				t.Errorf("%s:%s: %d lines (at most %d), cyclomatic complexity %d (at most %d): split it into named steps",
					filepath.ToSlash(path), m.name, m.lines, maxFuncLines, m.complexity, maxComplexity)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no .go file found: run the test from the module root")
	}
}

// funcMeasure is one function's name (Recv.Method for a method), its
// length in lines (from the func keyword to the closing brace, both
// counted) and its cyclomatic complexity.
type funcMeasure struct {
	name       string
	lines      int
	complexity int
}

// measureFuncs measures every function and method declared with a body in
// f. A function literal counts towards the function that contains it.
func measureFuncs(fset *token.FileSet, f *ast.File) []funcMeasure {
	var out []funcMeasure
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		out = append(out, funcMeasure{
			name:       funcName(fn),
			lines:      fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1,
			complexity: cyclomatic(fn),
		})
	}
	return out
}

// funcName is "name" for a function and "Recv.name" for a method (the
// receiver's type without its pointer or type parameters).
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		case *ast.StarExpr:
			typ = x.X
		case *ast.IndexExpr:
			typ = x.X
		case *ast.IndexListExpr:
			typ = x.X
		default:
			return fmt.Sprintf("%T.%s", typ, fn.Name.Name)
		}
	}
}

// cyclomatic counts as gocyclo does: 1, plus one for each if, for and
// range statement, each case clause of a switch or type switch and each
// comm clause of a select except the default ones, and each && and ||.
func cyclomatic(fn ast.Node) int {
	n := 1
	ast.Inspect(fn, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if x.List != nil {
				n++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// TestCyclomaticCounter checks the counter and the line count on small
// sources whose counts are worked out by hand.
func TestCyclomaticCounter(t *testing.T) {
	const src = `package p

func straight() int {
	x := 1
	return x
}

// one if with && (2), its else adds nothing
func ifAnd(a, b bool) int {
	if a && b {
		return 1
	} else {
		return 2
	}
}

// for (1), range (1), if (1), || twice (2)
func loops(xs []int) int {
	s := 0
	for i := 0; i < 3; i++ {
		s += i
	}
	for _, x := range xs {
		if x > 0 || x < -5 || x == -2 {
			s += x
		}
	}
	return s
}

// three cases count, the default does not; the type switch's two cases count
func switches(x int, v any) string {
	switch x {
	case 1:
		return "one"
	case 2, 3:
		return "few"
	case 4:
		return "four"
	default:
	}
	switch v.(type) {
	case int:
		return "int"
	case string:
		return "string"
	default:
		return "other"
	}
}

// two comm clauses count, the default does not; the literal's if counts
func selects(a, b chan int) {
	f := func() {
		if len(a) > 0 {
			return
		}
	}
	select {
	case <-a:
	case v := <-b:
		_ = v
	default:
		f()
	}
}

type T[K comparable] struct{}

func (t *T[K]) method(ok bool) bool { return ok && !ok }

func (T[K]) value() {}

func noBody()
`
	want := []funcMeasure{
		{"straight", 4, 1},
		{"ifAnd", 7, 3},
		{"loops", 12, 6},
		{"switches", 19, 6},
		{"selects", 14, 4},
		{"T.method", 1, 2},
		{"T.value", 1, 1},
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := measureFuncs(fset, f)
	if len(got) != len(want) {
		t.Fatalf("measured %d functions, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("function %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

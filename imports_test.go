package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestImportRules holds the package graph to the table of
// docs/architecture.md ("The packages and their arrows"): every kcg
// package that `go list` finds must have a row, and every kcg package it
// imports (in its non-test files) must be named in the row's "may import"
// cell and not in its "never imports" cell. A change that adds an arrow
// changes the table in the same commit, or this test fails.
func TestImportRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: go list cannot run")
	}
	const module = "github.com/kcg-dev/kcg"
	graph := goListImports(t, module)
	known := make([]string, 0, len(graph))
	for p := range graph {
		known = append(known, p)
	}
	rules := architectureTable(t, known)

	for pkg, imports := range graph {
		r, ok := rules[pkg]
		if !ok {
			if strings.HasPrefix(pkg, "bench/") {
				continue // the benchmark's own programs, outside the binary
			}
			t.Errorf("package %s has no row in the table of docs/architecture.md", display(pkg))
			continue
		}
		for _, imp := range imports {
			if !slices.Contains(r.may, imp) {
				t.Errorf("%s imports %s, which its row in docs/architecture.md does not allow (may import: %s)",
					display(pkg), display(imp), strings.Join(r.may, ", "))
			}
			if slices.Contains(r.never, imp) {
				t.Errorf("%s imports %s, which its row in docs/architecture.md says it never imports", display(pkg), display(imp))
			}
		}
	}
	for pkg := range rules {
		if _, ok := graph[pkg]; !ok {
			t.Errorf("docs/architecture.md has a row for %s, which go list does not find", display(pkg))
		}
	}
}

func display(pkg string) string {
	if pkg == "" {
		return "main.go"
	}
	return pkg
}

// goListImports returns each package of the module (the path below the
// module, "" for the module root) with the module's packages its non-test
// files import.
func goListImports(t *testing.T, module string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	rel := func(p string) (string, bool) {
		if p == module {
			return "", true
		}
		r, ok := strings.CutPrefix(p, module+"/")
		return r, ok
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkg, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		graph[pkg] = []string{}
		for _, imp := range p.Imports {
			if r, ok := rel(imp); ok {
				graph[pkg] = append(graph[pkg], r)
			}
		}
	}
	if len(graph) == 0 {
		t.Fatal("go list found no package")
	}
	return graph
}

type importRule struct{ may, never []string }

// architectureTable reads the package table of docs/architecture.md: rows
// whose first cell is a backticked package folder (`groupops/`) or
// `main.go`, the third cell what the package may import, the fourth what
// it never imports. Package names in those cells are matched against
// known; the other words ("—", "any kcg package") name none.
func architectureTable(t *testing.T, known []string) map[string]importRule {
	t.Helper()
	f, err := os.Open("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first := regexp.MustCompile("^`([a-z0-9_./]+)`$")
	word := regexp.MustCompile(`[a-z][a-z0-9_]*(?:/[a-z][a-z0-9_]*)*`)
	names := func(cell string) []string {
		var out []string
		for _, w := range word.FindAllString(cell, -1) {
			if slices.Contains(known, w) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		return out
	}
	rules := map[string]importRule{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.ReplaceAll(sc.Text(), `\|`, "")
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("docs/architecture.md: a package row needs 4 cells, this has %d: %.80s", len(cells), line)
		}
		m := first.FindStringSubmatch(strings.TrimSpace(cells[0]))
		if m == nil {
			continue
		}
		pkg := strings.TrimSuffix(m[1], "/")
		if pkg == "main.go" {
			pkg = ""
		}
		if _, dup := rules[pkg]; dup {
			t.Errorf("docs/architecture.md has two rows for %s", display(pkg))
		}
		rules[pkg] = importRule{may: names(cells[2]), never: names(cells[3])}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 {
		t.Fatal("docs/architecture.md: no package table found")
	}
	return rules
}

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The checks of redesign 3 (docs/architecture.md, "The family seam"):
// group families are known in groupops' family files only, and the
// command lines and renderers above groupops make one call per operation.

// nonTestFiles parses the non-test .go files of dir (not its
// subfolders).
func nonTestFiles(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = f
	}
	if len(out) == 0 {
		t.Fatalf("%s: no Go files", dir)
	}
	return out
}

// selectors calls fn for every X.Sel of f.
func selectors(f *ast.File, fn func(x, sel string)) {
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				fn(id.Name, s.Sel.Name)
			}
		}
		return true
	})
}

// TestCommandLinesUseOnlyTheClientOfKafkaadmin: commands/ and dropin/
// reach the wire through groupops; of kafkaadmin they name the client
// type only (what they dial with).
func TestCommandLinesUseOnlyTheClientOfKafkaadmin(t *testing.T) {
	for _, dir := range []string{"commands", "dropin"} {
		for path, f := range nonTestFiles(t, dir) {
			selectors(f, func(x, sel string) {
				if x == "kafkaadmin" && sel != "Client" {
					t.Errorf("%s names kafkaadmin.%s: commands and dropin use nothing of kafkaadmin but the client type (reach it through groupops or vocab)", path, sel)
				}
			})
		}
	}
}

// familyAPIs are the client methods that know one group family, and
// those that list groups of every type: above groupops nothing calls
// them; in groupops only the family files (family_*.go) and the one
// place that answers "which groups, of which family" do.
var familyAPIs = []string{
	"ListGroups", "ListCoordinatedGroups", "HasShareGroups", "HasStreamsGroups",
	"DescribeShareGroups", "ShareGroupStartOffsets", "AlterShareGroupStartOffsets",
	"DeleteShareGroupStartOffsets", "DescribeStreamsGroups",
}

func TestNothingAboveGroupopsCallsFamilyAPIs(t *testing.T) {
	for _, dir := range []string{"commands", "dropin", "output"} {
		for path, f := range nonTestFiles(t, dir) {
			selectors(f, func(x, sel string) {
				if slices.Contains(familyAPIs, sel) {
					t.Errorf("%s calls %s.%s: above groupops, ask groupops (which groups, of which family, is answered there)", path, x, sel)
				}
			})
		}
	}
}

// TestNoFamilyBranchesAboveGroupops: no `d.share` / `d.streams` runner
// flags in dropin, no comparison with or case of a groupops family, and
// no typed.Of(…), in the command lines or renderers (a Java tool's value
// names its family: that is data, not a branch).
func TestNoFamilyBranchesAboveGroupops(t *testing.T) {
	flags := regexp.MustCompile(`\bd\.(share|streams)\b`)
	family := regexp.MustCompile(`(==|!=|case)\s*groupops\.Family(Consumer|Share|Streams|Other)\b|typed\.Of\(`)
	for _, dir := range []string{"commands", "dropin", "output"} {
		for path := range nonTestFiles(t, dir) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if m := flags.Find(b); m != nil {
				t.Errorf("%s tests %s: a Java tool's differences are its value (dropin), not a flag tested in the runner", path, m)
			}
			if m := family.Find(b); m != nil {
				t.Errorf("%s has %s: nothing above groupops branches on a group family", path, m)
			}
		}
	}
}

// TestFamilyAPIsOnlyInFamilyFiles: in groupops, only the family files
// and the one "which groups" file call the family APIs of the client.
func TestFamilyAPIsOnlyInFamilyFiles(t *testing.T) {
	for path, f := range nonTestFiles(t, "groupops") {
		base := filepath.Base(path)
		if strings.HasPrefix(base, "family_") || base == "select.go" {
			continue
		}
		selectors(f, func(x, sel string) {
			if slices.Contains(familyAPIs, sel) {
				t.Errorf("%s calls %s.%s: only groupops' family files (family_*.go) and select.go call the APIs of one group family", path, x, sel)
			}
		})
	}
}

// TestInternalHoldsTestKitsOnly: internal/ holds test kits; no package of
// kcg's binary imports one (their tests may, and so may the benchmark's
// own programs under bench/, outside the binary: bench/latency runs
// internal/faultproxy).
func TestInternalHoldsTestKitsOnly(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: go list cannot run")
	}
	graph := goListImports(t, "github.com/kcg-dev/kcg")
	for pkg, imports := range graph {
		if strings.HasPrefix(pkg, "internal/") || strings.HasPrefix(pkg, "bench/") {
			continue
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, "internal/") {
				t.Errorf("%s imports %s: internal/ holds test kits only, which only tests import", display(pkg), imp)
			}
		}
	}
	// And the binary itself, whatever the prefixes above: nothing it links
	// is a test kit.
	out, err := exec.Command("go", "list", "-deps", "github.com/kcg-dev/kcg").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/kcg-dev/kcg/internal/") {
			t.Errorf("the kcg binary links %s: internal/ holds test kits only", dep)
		}
	}
}

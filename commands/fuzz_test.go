package commands_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzShow runs any bytes as a plan file through the whole command line,
// kcg show FILE -o json: it prints the plan (exit 0, its digest the one line on stderr) or
// refuses it as bad input, exit 65 with exactly one line on stderr and
// nothing on stdout. Seeds: testdata/fuzz/FuzzShow/ (the golden plans of
// resetplan/testdata) and the f.Add lines.
func FuzzShow(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "resetplan", "testdata", "plan-*.yaml"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{"", "billing,payments,0,5\n", "{", "apiVersion: kcg/v1\nkind: OffsetResetPlan\nx: \"a\n  b\"\n", "\x00"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "plan.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r := kcg(t, "show", path, "-o", "json")
		switch r.Code {
		case 0:
			if !strings.HasPrefix(r.Stderr, "digest: sha256:") || strings.Count(r.Stderr, "\n") != 1 || !strings.HasPrefix(r.Stdout, "{") {
				t.Fatalf("exit 0 with stdout %q, stderr %q", r.Stdout, r.Stderr)
			}
		case 65:
			if r.Stdout != "" || !strings.HasPrefix(r.Stderr, "kcg: ") || strings.Count(r.Stderr, "\n") != 1 || !strings.HasSuffix(r.Stderr, "\n") {
				t.Fatalf("exit 65 with stdout %q, stderr %q; want one line on stderr", r.Stdout, r.Stderr)
			}
		default:
			t.Fatalf("exit %d (stdout %q, stderr %q), want 0 or 65", r.Code, r.Stdout, r.Stderr)
		}
	})
}

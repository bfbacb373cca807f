// Package golden compares test output with golden files under a test
// package's testdata/, for the tests of output and dropin. It is imported
// only by tests: it registers the -update flag, which rewrites the files
// with the current output (`go test ./output -update`).
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// Check compares got with testdata/<name>, or rewrites the file with
// -update. Golden files are compared byte for byte: trailing blanks and
// leading newlines are part of the Java layouts.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test -update` in the test's package to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run `go test -update` in the test's package if the change is intended)\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// Render returns what f writes, failing the test if f fails.
func Render(t testing.TB, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

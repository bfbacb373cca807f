package planfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kcg-dev/kcg/resetplan"
)

// TestReadFileLimitedSized pins that reading a regular file into one
// buffer of its size returns exactly its bytes below, at and around the
// limit, and refuses it above, as the step-by-step read does.
func TestReadFileLimitedSized(t *testing.T) {
	const limit = 1000
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, limit - 1, limit, limit + 1, 5000} {
		data := bytes.Repeat([]byte("ab\n"), n/3+1)[:n]
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readFileLimited(path, limit, "plan file")
		var tl *resetplan.TooLargeError
		switch {
		case n > limit:
			if !errors.As(err, &tl) {
				t.Fatalf("%d bytes: %v, want the limit's error", n, err)
			}
		case err != nil:
			t.Fatalf("%d bytes: %v", n, err)
		case !bytes.Equal(got, data):
			t.Fatalf("%d bytes: read %d bytes that differ", n, len(got))
		case cap(got) > n+1:
			t.Fatalf("%d bytes: a buffer of %d, not one of the file's size", n, cap(got))
		}
	}
	if _, err := readFileLimited(filepath.Join(dir, "missing"), limit, "plan file"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

package dropin_test

import (
	"os"
	"testing"
)

// TestMain sends the undo plans that drop-in --delete and --delete-offsets
// write (KCG_UNDO_DIR) to a temporary directory, not into the package.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kcg-dropin-test")
	if err == nil {
		os.Setenv("KCG_UNDO_DIR", dir)
	}
	code := m.Run()
	if err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

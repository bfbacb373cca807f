package dropin_test

import (
	"os"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/dropin"
)

// TestMain sends the undo plans that drop-in --delete and --delete-offsets
// write (KCG_UNDO_DIR) to a temporary directory, not into the package.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kcg-dropin-test")
	if err == nil {
		os.Setenv("KCG_UNDO_DIR", dir)
	}
	// --execute watches its writes for 2s; the test of that watch sets
	// its own, the others need not wait as long.
	defer dropin.SetSettle(300 * time.Millisecond)()
	code := m.Run()
	if err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

package commands_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
)

// TestMain points KCG_CONFIG at a file that does not exist, so the
// developer's own ~/.config/kcg/config.yaml (its current: profile) never
// changes what a test connects to. Profile tests set their own with
// t.Setenv.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kcg-commands-test")
	if err == nil {
		os.Setenv("KCG_CONFIG", filepath.Join(dir, "no-config.yaml"))
		os.Unsetenv("KCG_PROFILE")
		// The delete shortcuts' undo plans go here, not into the package.
		os.Setenv("KCG_UNDO_DIR", dir)
	}
	// apply watches its writes for 2s (--settle); the tests of that watch
	// give --settle, the others need not wait as long.
	defer commands.SetDefaultSettle(300 * time.Millisecond)()
	code := m.Run()
	if err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

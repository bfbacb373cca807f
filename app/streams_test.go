package app

import (
	"os"
	"path/filepath"
	"testing"
)

// A character device that is no terminal (/dev/null, as a cron job's
// stdin) and a regular file are not terminals: kcg delete must then need
// --yes instead of asking.
func TestIsTerminalNotForDevNullOrFiles(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Skipf("no %s: %v", os.DevNull, err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("isTerminal(%s) = true, want false", os.DevNull)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "stdin"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("isTerminal(a regular file) = true, want false")
	}
}

package planfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// notRegularFiles makes, in a new directory, each kind of name that is not
// a regular file and that this system lets the test make: a symbolic link
// to a regular file, a FIFO, a character device (a copy of /dev/null's
// node, as root), a directory. It returns name → kind.
func notRegularFiles(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	target := filepath.Join(dir, "target.yaml")
	if err := os.WriteFile(target, []byte("target\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link.yaml")); err == nil {
		files[filepath.Join(dir, "link.yaml")] = "a symbolic link"
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644); err == nil {
		files[filepath.Join(dir, "fifo.yaml")] = "a FIFO (named pipe)"
	}
	// /dev/null's own numbers (1, 3): writing to it is harmless should a
	// broken Write open it.
	if err := syscall.Mknod(filepath.Join(dir, "null.yaml"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		files[filepath.Join(dir, "null.yaml")] = "a character device"
	} else {
		t.Logf("no device node (not root?): %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	files[filepath.Join(dir, "dir.yaml")] = "a directory"
	return files
}

// Write never replaces, and never opens, a name that is not a regular
// file, with or without overwrite: a symbolic link, a FIFO (opening one
// to write waits for a reader), a device node (as root `--out /dev/full
// --overwrite` made /dev/full a regular file), a directory (issue 30
// item 2). The error is a *NotRegularError naming the kind.
func TestWriteRefusesWhatIsNotARegularFile(t *testing.T) {
	for path, kind := range notRegularFiles(t) {
		before, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, overwrite := range []bool{false, true} {
			done := make(chan error, 1)
			go func() { done <- Write(path, []byte("plan\n"), overwrite) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Write(%s, overwrite %v) still blocked after 10s (opened a FIFO?)", path, overwrite)
			}
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.Kind != kind || nr.Path != path {
				t.Errorf("Write(%s, overwrite %v): %v, want a NotRegularError: %s", path, overwrite, err, kind)
			}
			if !errors.Is(err, os.ErrExist) {
				t.Errorf("Write(%s, overwrite %v): %v does not wrap os.ErrExist", path, overwrite, err)
			}
			if err := CheckTarget(path, overwrite); !errors.As(err, &nr) {
				t.Errorf("CheckTarget(%s, overwrite %v): %v, want a NotRegularError", path, overwrite, err)
			}
			after, err := os.Lstat(path)
			if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Errorf("Write(%s, overwrite %v) replaced %s: now %v (%v)", path, overwrite, kind, after, err)
			}
		}
	}
	// The link's target is untouched too.
	for path, kind := range notRegularFiles(t) {
		if kind == "a symbolic link" {
			_ = Write(path, []byte("plan\n"), true)
			checkFile(t, filepath.Join(filepath.Dir(path), "target.yaml"), "target\n")
		}
	}
}

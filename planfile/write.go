package planfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kcg-dev/kcg/resetplan"
)

// Exists reports whether path names a file (of any kind, a dangling
// symbolic link too): the commands refuse an existing name before they
// connect, and Write refuses it again, atomically.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// NotRegularError is an output name that exists and is not a regular
// file: a symbolic link, a FIFO, a device, a directory, a socket. kcg
// never writes over one, --overwrite or not: replacing /dev/null or a
// symbolic link is never what was meant, and opening a FIFO to write
// would wait for a reader.
type NotRegularError struct {
	Path string
	// Kind is what Path is, "a symbolic link", "a FIFO (named pipe)", ...
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: kcg writes over regular files only", e.Path, e.Kind)
}

// Unwrap is os.ErrExist: the name is taken.
func (e *NotRegularError) Unwrap() error { return os.ErrExist }

// CheckTarget reports whether Write(path, _, overwrite) would refuse path
// as it is now, without opening it: a *NotRegularError when path exists
// and is not a regular file, an error wrapping os.ErrExist when it is one
// and overwrite is false, nil otherwise (path does not exist, or
// overwrite may replace it). The commands call it before they connect.
func CheckTarget(path string, overwrite bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil // missing; any other problem is Write's to report
	}
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: kindOf(fi.Mode())}
	}
	if !overwrite {
		return fmt.Errorf("%s: %w", path, os.ErrExist)
	}
	return nil
}

// kindOf names a file mode that is not a regular file's.
func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Write writes data to path without ever leaving it half-written. Without
// overwrite path must not exist: the error wraps os.ErrExist when it does,
// and the check and the creation are one step (create). With overwrite an
// existing regular file is replaced (replace); anything else there is
// refused with a *NotRegularError, never opened and never replaced.
func Write(path string, data []byte, overwrite bool) error {
	if err := CheckTarget(path, overwrite); err != nil {
		return err
	}
	if overwrite {
		return replace(path, data)
	}
	return create(path, data)
}

// create writes data to path, which must not exist: the data goes to a
// temporary file in the same directory, which is then hard-linked to path.
// link(2) fails if path exists, so the check and the creation are one step
// (no window for another writer) and path is never seen half-written. The
// error wraps os.ErrExist when path exists. Where the file system has no
// hard links, path is created with O_EXCL instead.
func create(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return writeErr(path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr != nil {
		return writeErr(path, werr)
	}
	switch err := os.Link(tmp, path); {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrExist):
		return fmt.Errorf("%s: %w", path, os.ErrExist)
	}
	// No hard links here (some network and FUSE file systems).
	g, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s: %w", path, os.ErrExist)
		}
		return writeErr(path, err)
	}
	_, werr = g.Write(data)
	if cerr := g.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(path)
		return writeErr(path, werr)
	}
	return nil
}

// replace writes data to path through a temporary file in the same
// directory and a rename, so a plan file is never left half-written.
func replace(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return writeErr(path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return writeErr(path, werr)
	}
	return nil
}

// writeErr is the failure to write path, in the operator's terms: the
// file they named, never kcg's temporary file beside it.
func writeErr(path string, err error) error {
	if dir := filepath.Dir(path); errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(dir); serr != nil {
			return fmt.Errorf("writing %s: the directory %s does not exist", path, dir)
		}
	}
	return fmt.Errorf("writing %s: %w", path, pathErr(err))
}

// pathErr drops the file name of a *PathError (it may be a temporary
// file's): the caller names the file the operator gave.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// UndoDirEnv names the directory the delete shortcuts write their undo
// plans to, when set; by default it is the current directory.
const UndoDirEnv = "KCG_UNDO_DIR"

// WriteUndo writes the undo plan of a delete plan about to be applied at
// once (kcg delete, kcg delete-offsets, drop-in --delete and
// --delete-offsets: resetplan.UndoOfDelete) into the current directory, or
// $KCG_UNDO_DIR, as kcg-TYPE-undo-STAMP.yaml (TYPE the plan's strategy,
// delete-group or delete-offsets), and returns its name. It never
// overwrites: a name taken (two deletes in one second) gets -2, -3, …
// before .yaml, each create exclusive.
func WriteUndo(plan *resetplan.Plan, now time.Time) (string, error) {
	data, err := undoData(plan, now)
	if err != nil {
		return "", err
	}
	base := filepath.Join(os.Getenv(UndoDirEnv), "kcg-"+string(plan.Strategy.Type)+"-undo-"+now.UTC().Format("20060102T150405Z"))
	for i := 1; ; i++ {
		name := base + ".yaml"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.yaml", base, i)
		}
		err := create(name, data)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, os.ErrExist) || i >= 1000 {
			return "", err
		}
	}
}

// ReplaceUndo rewrites the undo plan at path (written by WriteUndo) for
// plan narrowed to what the delete did: the groups or offsets Kafka
// refused to delete are left out, so that applying the undo plan is not
// refused as stale for offsets that are still there. Atomic (a rename).
func ReplaceUndo(path string, plan *resetplan.Plan, now time.Time) error {
	data, err := undoData(plan, now)
	if err != nil {
		return err
	}
	return replace(path, data)
}

func undoData(plan *resetplan.Plan, now time.Time) ([]byte, error) {
	return resetplan.Encode(resetplan.UndoOfDelete(plan, now), resetplan.FormatYAML)
}

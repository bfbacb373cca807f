package planfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// Read reads and strictly decodes the plan file at path ("-": stdin, from
// in). A file that cannot be read, is over resetplan.MaxPlanBytes or is
// not a kcg plan (a Java CSV, garbage, a newer major version) is bad
// input (vocab.KindBadInput: exit 65).
func Read(path string, in io.Reader) (*resetplan.Plan, error) {
	p, _, err := ReadBytes(path, in)
	return p, err
}

// ReadBytes is Read, and also returns the exact bytes decoded: the bytes
// a signed approval covers (kcg apply --allowed-signers verifies these,
// not a second read of the file).
func ReadBytes(path string, in io.Reader) (*resetplan.Plan, []byte, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = resetplan.ReadLimited(in, resetplan.MaxPlanBytes, "plan file")
	} else {
		data, err = readFileLimited(path, resetplan.MaxPlanBytes, "plan file")
	}
	var tl *resetplan.TooLargeError
	if errors.As(err, &tl) {
		return nil, nil, vocab.WithKind(vocab.KindBadInput, fmt.Errorf("%s: %w", path, err))
	}
	if err != nil {
		return nil, nil, vocab.WithKind(vocab.KindBadInput, fmt.Errorf("reading plan: %w", err))
	}
	p, err := resetplan.Decode(data)
	if err != nil {
		return nil, nil, vocab.WithKind(vocab.KindBadInput, fmt.Errorf("%s: %w", path, err))
	}
	return p, data, nil
}

// readFileLimited is os.ReadFile that reads no more than limit+1 bytes
// (resetplan.ReadLimited): a 100 MB file, or /dev/zero, is refused at the
// limit instead of being read into memory.
func readFileLimited(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file is read into one buffer of its size (io.ReadAll
	// grows its buffer a step at a time: some 30 MB allocated and copied
	// for a 15 MB plan). One byte more is asked, to see a file that grew;
	// then, or when the size is unknown, the rest is read as before.
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= limit {
		data := make([]byte, fi.Size()+1)
		n, err := io.ReadFull(f, data)
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return data[:n], nil
		case err != nil:
			return nil, err
		}
		return resetplan.ReadLimited(io.MultiReader(bytes.NewReader(data), f), limit, what)
	}
	return resetplan.ReadLimited(f, limit, what)
}

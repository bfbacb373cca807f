package app

import (
	"io"
	"os"
)

// Streams is the application's IO. Nothing in kcg writes to os.Stdout or
// os.Stderr directly.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrTTY is true when Err is a terminal: long operations show progress
	// there.
	ErrTTY bool
	// OutTTY is true when Out is a terminal: kcg watch redraws its table
	// in place there.
	OutTTY bool
}

// StdStreams returns the process's standard streams.
func StdStreams() Streams {
	return Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, ErrTTY: isTerminal(os.Stderr), OutTTY: isTerminal(os.Stdout)}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

package app

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IO is the application's IO. Nothing in kcg writes to os.Stdout or
// os.Stderr directly.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// InTTY is true when In is a terminal: kcg delete and delete-offsets
	// ask before deleting there, and need --yes anywhere else.
	InTTY bool
	// ErrTTY is true when Err is a terminal: long operations show progress
	// there.
	ErrTTY bool
	// OutTTY is true when Out is a terminal: kcg watch redraws its table
	// in place there.
	OutTTY bool
	// OutSize returns the width and height of the terminal Out is, asked
	// anew each call (the window may have been resized); ok is false when
	// it is unknown, and OutSize may be nil.
	OutSize func() (width, height int, ok bool)
	// NoColor is true when the environment asks for no colour: NO_COLOR
	// set to anything but the empty string (no-color.org), or TERM=dumb.
	NoColor bool
}

// StdIO returns the process's standard streams.
func StdIO() IO {
	return IO{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr, InTTY: isTerminal(os.Stdin), ErrTTY: isTerminal(os.Stderr), OutTTY: isTerminal(os.Stdout),
		OutSize: func() (int, int, bool) { return terminalSize(os.Stdout) },
		NoColor: os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb",
	}
}

// isTerminal reports whether f is a terminal, asked of the terminal
// driver (golang.org/x/term: TCGETS, TIOCGETA, GetConsoleMode), not
// guessed from the file's mode: /dev/null is a character device too, and a
// `kcg delete G </dev/null` in a cron job must need --yes, not read an
// empty answer to a question.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

//go:build unix

package app

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalSize asks the terminal behind f for its size (TIOCGWINSZ), each
// time: a watch that re-reads it before every redraw follows a resized
// window without a SIGWINCH handler.
func terminalSize(f *os.File) (width, height int, ok bool) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 0, 0, false
	}
	return int(ws.Col), int(ws.Row), true
}

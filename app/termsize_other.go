//go:build !unix && !windows

package app

import "os"

// terminalSize is unknown where there is no terminal size call.
func terminalSize(*os.File) (width, height int, ok bool) { return 0, 0, false }

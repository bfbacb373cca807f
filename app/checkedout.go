package app

import (
	"io"
	"sync"
)

// CheckOutput returns s with Out remembering its first failed write, and
// a function that returns that failure (nil while every write went
// through). Help, completion scripts and other output printed with
// fmt.Fprint* never see their write errors; Run asks here so that output
// that could not be written (stdout /dev/full, a full disk) is never
// exit 0.
func CheckOutput(s IO) (IO, func() error) {
	c := &checkedWriter{w: s.Out}
	s.Out = c
	return s, c.failed
}

type checkedWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil {
		c.mu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
	}
	return n, err
}

func (c *checkedWriter) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

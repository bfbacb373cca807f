package commands

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kcg-dev/kcg/vocab"
)

// progress shows what a long command is doing on a terminal stderr, on one
// line that is cleared at the end. Without a terminal it prints nothing, so
// logs and scripts see only data and warnings.
type progress struct {
	s       IO
	mu      sync.Mutex
	start   time.Time
	shown   bool
	enabled bool
}

// progressDelay keeps quick commands silent: progress appears only once a
// command has run this long. A variable for tests (export_test.go).
var progressDelay = 300 * time.Millisecond

func newProgress(s IO) *progress {
	return &progress{s: s, start: time.Now(), enabled: s.ErrTTY}
}

func (p *progress) say(msg string) {
	if !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.start) < progressDelay {
		return
	}
	fmt.Fprintf(vocab.RawWriter(p.s.Err), "\r\033[K%s…", vocab.Printable(msg))
	p.shown = true
}

// clear removes the progress line, if shown, so that a message can be
// printed on stderr; the next say shows progress again.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(vocab.RawWriter(p.s.Err), "\r\033[K")
		p.shown = false
	}
}

// done clears the progress line and ends progress for the command.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(vocab.RawWriter(p.s.Err), "\r\033[K")
		p.shown = false
	}
	p.enabled = false
}

// progressNotes is stderr for the notes and warnings a command prints
// while its progress may be shown: each write clears the progress line
// first, so a note never lands behind a progress message.
type progressNotes struct {
	p *progress
	w io.Writer
}

func (n progressNotes) Write(b []byte) (int, error) {
	n.p.clear()
	return n.w.Write(b)
}

package commands

import (
	"fmt"
	"sync"
	"time"
)

// progress shows what a long command is doing on a terminal stderr, on one
// line that is cleared at the end. Without a terminal it prints nothing, so
// logs and scripts see only data and warnings.
type progress struct {
	s       Streams
	mu      sync.Mutex
	start   time.Time
	shown   bool
	enabled bool
}

// progressDelay keeps quick commands silent: progress appears only once a
// command has run this long.
const progressDelay = 300 * time.Millisecond

func newProgress(s Streams) *progress {
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
	fmt.Fprintf(p.s.Err, "\r\033[K%s…", msg)
	p.shown = true
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.s.Err, "\r\033[K")
		p.shown = false
	}
	p.enabled = false
}

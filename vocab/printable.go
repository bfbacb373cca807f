package vocab

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable is s as a terminal line may show it: a group id, topic or
// member id is any string a client chose, and a name holding "\x1b[2K" or
// "\r" must not erase rows, move the cursor or recolour the screen when a
// table or a message prints it. Control characters (C0, DEL, C1), the
// line and paragraph separators and the bidirectional overrides become Go
// escapes (\x1b, \n, \t, \u2028, \u202e), an invalid UTF-8 byte \xff.
// Everything else, unicode included, is kept. A string that needs nothing
// is returned as is, without allocating.
//
// Every table cell and every stderr line of both command lines goes
// through it (output's renderTable, PrintableWriter on stderr, kcg watch's
// screen); JSON, YAML and CSV keep the exact name.
func Printable(s string) string {
	i := printablePrefix(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r, n):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports whether r (n bytes of UTF-8, a RuneError of one byte
// being invalid UTF-8) would not print as text.
func unsafeRune(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case unicode.IsControl(r), r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f', r == '\u061c':
		// Bidirectional embeddings, overrides and isolates reorder what
		// follows them on the line.
		return true
	}
	return false
}

func escapeRune(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// PrintableWriter writes each line given to it through Printable, keeping
// the line breaks: the stderr of both command lines, so that a notice
// naming a group ("Consumer group 'x\x1b[1A' has no active members.") is
// one harmless line whoever wrote it. Raw returns the stream beneath, for
// the one writer that means its escapes (the progress line).
type PrintableWriter struct{ w io.Writer }

// NewPrintableWriter returns w behind Printable; a PrintableWriter is
// returned as is.
func NewPrintableWriter(w io.Writer) *PrintableWriter {
	if p, ok := w.(*PrintableWriter); ok {
		return p
	}
	return &PrintableWriter{w}
}

// Write writes p with every line through Printable. It reports len(p)
// written when the escaped text was written whole. Lines that need no
// escape are written from b as they are, in one Write for a run of them:
// nothing is copied for them (the summary of a plan of 128,000
// partitions is 15 MB on stderr; copying it through a string and a
// growing builder took 60 MB of plan's peak memory, docs/benchmarks.md).
func (p *PrintableWriter) Write(b []byte) (int, error) {
	clean := 0 // b[clean:at] is clean text not written yet
	for at := 0; at < len(b); {
		end := len(b)
		if i := bytes.IndexByte(b[at:], '\n'); i >= 0 {
			end = at + i
		}
		if line := b[at:end]; printablePrefix(line) < len(line) {
			if err := p.writeRaw(b[clean:at]); err != nil {
				return clean, err
			}
			if _, err := io.WriteString(p.w, Printable(string(line))); err != nil {
				return at, err
			}
			clean = end // the line break, if any, goes with the next run
		}
		at = end + 1
	}
	if err := p.writeRaw(b[clean:]); err != nil {
		return clean, err
	}
	return len(b), nil
}

// writeRaw writes b, if any, to the stream beneath.
func (p *PrintableWriter) writeRaw(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := p.w.Write(b)
	return err
}

// printablePrefix is the length of s's longest prefix that Printable
// keeps as it is (len(s) when s needs no escape), without allocating.
func printablePrefix[T string | []byte](s T) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		var buf [utf8.UTFMax]byte
		r, n := utf8.DecodeRune(buf[:copy(buf[:], s[i:])])
		if unsafeRune(r, n) {
			break
		}
		i += n
	}
	return i
}

// Raw is the writer beneath p.
func (p *PrintableWriter) Raw() io.Writer { return p.w }

// RawWriter is w without a PrintableWriter in front.
func RawWriter(w io.Writer) io.Writer {
	if p, ok := w.(*PrintableWriter); ok {
		return p.w
	}
	return w
}

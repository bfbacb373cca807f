package javaprops

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"unicode/utf16"
)

// Properties is a parsed Java properties file.
type Properties struct {
	values map[string]string
	lines  map[string]int // line of the logical line that last set the key
}

// Get returns the value of key and whether the file sets it.
func (p *Properties) Get(key string) (string, bool) {
	v, ok := p.values[key]
	return v, ok
}

// Line returns the line the key was last set on (0: not set), so that an
// error about a value can point the operator at it.
func (p *Properties) Line(key string) int { return p.lines[key] }

// Keys returns the keys, sorted.
func (p *Properties) Keys() []string {
	ks := make([]string, 0, len(p.values))
	for k := range p.values {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// SyntaxError is a malformed properties file. Its message never quotes
// the line: it may hold a password.
type SyntaxError struct {
	Line int    // the 1-based line the malformed logical line starts on
	Msg  string // what is wrong
}

// Error returns "line N: what is wrong".
func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// MaxFileBytes is the largest properties file ReadFile reads: 1 MiB, far
// above any client configuration (a PEM certificate chain inline
// included), far below what would strain memory (Parse holds about four
// times the file).
const MaxFileBytes = 1 << 20

// TooLargeError is a file over MaxFileBytes.
type TooLargeError struct{ Limit int64 }

// Error names the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the file is larger than %d MiB, kcg's limit for a client properties file", e.Limit>>20)
}

// ReadFile reads a properties file of at most MaxFileBytes: it reads no
// more than MaxFileBytes+1 bytes, so a huge file or an endless stream
// (/dev/zero) is refused with a *TooLargeError without being read into
// memory.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, &TooLargeError{Limit: MaxFileBytes}
	}
	return data, nil
}

// Parse reads data exactly as java.util.Properties.load of an
// InputStream does: bytes are ISO-8859-1; lines end with \n, \r or \r\n;
// leading whitespace is skipped; lines whose first non-blank character is
// # or ! are comments; an odd number of trailing backslashes continues the
// logical line (the next line's leading whitespace is dropped); the key
// ends at the first unescaped '=', ':' or whitespace, and whitespace and
// one separator after it are skipped; \t \n \r \f \uXXXX are escapes and a
// backslash before any other character stands for that character. The
// last assignment of a key wins.
func Parse(data []byte) (*Properties, error) {
	p := &Properties{values: map[string]string{}, lines: map[string]int{}}
	for _, ln := range readLogicalLines(data) {
		k, v, err := splitKeyValue(ln.text)
		if err != nil {
			return nil, &SyntaxError{Line: ln.line, Msg: err.Error()}
		}
		p.values[k] = v
		p.lines[k] = ln.line
	}
	return p, nil
}

type logicalLine struct {
	text []uint16 // ISO-8859-1 bytes as UTF-16 code units, escapes still in
	line int      // 1-based line number where it starts
}

func isPropSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

// readLogicalLines is Java's Properties.LineReader.
func readLogicalLines(data []byte) []logicalLine {
	var out []logicalLine
	r := &propLineReader{data: data, lineNo: 1}
	for r.i < len(data) {
		c := data[r.i]
		switch {
		case isPropSpace(c):
			r.i++
			continue
		case c == '\r' || c == '\n':
			r.eol()
			continue
		}
		start := r.lineNo
		if c == '#' || c == '!' {
			r.skipLine()
			continue
		}
		if buf := r.logical(); len(buf) > 0 {
			out = append(out, logicalLine{text: buf, line: start})
		}
	}
	return out
}

// propLineReader is readLogicalLines' position in data: the byte i, on
// the natural line lineNo (from 1).
type propLineReader struct {
	data   []byte
	i      int
	lineNo int
}

// eol steps over the line end at i (\r\n, \r or \n).
func (r *propLineReader) eol() {
	if r.data[r.i] == '\r' && r.i+1 < len(r.data) && r.data[r.i+1] == '\n' {
		r.i++
	}
	r.i++
	r.lineNo++
}

// skipLine moves i to the end of the natural line (a comment).
func (r *propLineReader) skipLine() {
	for r.i < len(r.data) && r.data[r.i] != '\r' && r.data[r.i] != '\n' {
		r.i++
	}
}

// logical reads the logical line that starts at i: natural lines joined
// where one ends in an odd number of backslashes (that backslash and the
// next line's leading blanks dropped).
func (r *propLineReader) logical() []uint16 {
	data, n := r.data, len(r.data)
	var buf []uint16
	for {
		backslash := false
		for r.i < n && data[r.i] != '\r' && data[r.i] != '\n' {
			buf = append(buf, uint16(data[r.i]))
			backslash = data[r.i] == '\\' && !backslash
			r.i++
		}
		if !backslash {
			if r.i < n {
				r.eol()
			}
			return buf
		}
		buf = buf[:len(buf)-1] // the continuation backslash
		if r.i >= n {
			return buf
		}
		r.eol()
		for r.i < n && isPropSpace(data[r.i]) {
			r.i++
		}
	}
}

// splitKeyValue is Java's Properties.load0 for one logical line.
func splitKeyValue(line []uint16) (string, string, error) {
	keyLen, valueStart, hasSep, backslash := 0, len(line), false, false
	for keyLen < len(line) {
		c := line[keyLen]
		if (c == '=' || c == ':') && !backslash {
			valueStart, hasSep = keyLen+1, true
			break
		}
		if (c == ' ' || c == '\t' || c == '\f') && !backslash {
			valueStart = keyLen + 1
			break
		}
		backslash = c == '\\' && !backslash
		keyLen++
	}
	for valueStart < len(line) {
		c := line[valueStart]
		if c != ' ' && c != '\t' && c != '\f' {
			if !hasSep && (c == '=' || c == ':') {
				hasSep = true
			} else {
				break
			}
		}
		valueStart++
	}
	k, err := unescapeProperty(line[:keyLen])
	if err != nil {
		return "", "", err
	}
	v, err := unescapeProperty(line[valueStart:])
	if err != nil {
		return "", "", err
	}
	return k, v, nil
}

// unescapeProperty is Java's Properties.loadConvert.
func unescapeProperty(in []uint16) (string, error) {
	out := make([]uint16, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		i++
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i >= len(in) {
			break // unreachable: a trailing backslash continues the line
		}
		c = in[i]
		i++
		switch c {
		case 'u':
			if i+4 > len(in) {
				return "", errors.New(`malformed \uxxxx escape`)
			}
			var v uint16
			for _, d := range in[i : i+4] {
				switch {
				case d >= '0' && d <= '9':
					v = v<<4 + d - '0'
				case d >= 'a' && d <= 'f':
					v = v<<4 + d - 'a' + 10
				case d >= 'A' && d <= 'F':
					v = v<<4 + d - 'A' + 10
				default:
					return "", errors.New(`malformed \uxxxx escape`)
				}
			}
			i += 4
			out = append(out, v)
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'n':
			out = append(out, '\n')
		case 'f':
			out = append(out, '\f')
		default:
			out = append(out, c)
		}
	}
	return string(utf16.Decode(out)), nil
}

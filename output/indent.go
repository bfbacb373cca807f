package output

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jsonIndenter encodes values as writeJSON writes them: encoding/json
// without HTML escaping, indented by appendIndented with two spaces and a
// prefix. Its buffers are reused, so what encode returns holds until the
// next call.
type jsonIndenter struct {
	buf bytes.Buffer
	enc *json.Encoder
	out []byte
}

func newJSONIndenter() *jsonIndenter {
	j := &jsonIndenter{}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// encode returns v indented, without a trailing line break.
func (j *jsonIndenter) encode(v any, prefix string) ([]byte, error) {
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON: %w", err)
	}
	j.out = appendIndented(j.out[:0], bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")), prefix, "  ")
	return j.out, nil
}

// appendIndented appends to dst the compact JSON value src indented as
// encoding/json's Indent(dst, src, prefix, indent) indents it: a line per
// member and element, prefix and one indent per depth after each line
// break, ": " after a name, an empty object or array kept as {} or [].
//
// encoding/json.Indent is most of the cost of writing a big describe
// document: it runs its validating scanner, a function call per byte, over
// output encoding/json has just produced (70 % of the CPU of writing
// 2,000 groups × 64 partitions, docs/benchmarks.md). src here is always an
// Encoder's own compact output, so it needs no validation: this copies the
// runs between the structural bytes whole. goccy/go-json, which indents
// while it encodes, was measured too: faster still, but every kcg command
// then started 9 MB larger and the binary grew 3.5 MB (docs/architecture.md).
// TestStreamIdentical and FuzzAppendIndented compare the two byte for byte.
func appendIndented(dst, src []byte, prefix, indent string) []byte {
	// pad is a line break, prefix and the indents of the deepest line yet
	depth := 0
	pad := []byte("\n" + prefix)
	newline := func() {
		n := 1 + len(prefix) + depth*len(indent)
		for len(pad) < n {
			pad = append(pad, indent...)
		}
		dst = append(dst, pad[:n]...)
	}
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end
			continue
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i += 2
				continue
			}
			dst = append(dst, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			// a number or a literal, up to the next structural byte
			j := i + 1
			for j < len(src) && !structural[src[j]] {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		i++
	}
	return dst
}

// structural are the bytes that end a number or a literal in compact JSON.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true, ',': true, ':': true}

// stringEnd is the index after the closing quote of the string that opens
// at src[start]. The strings of a describe document are short (names,
// mostly), where a loop is faster than searching for the quote.
func stringEnd(src []byte, start int) int {
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++ // the escaped byte; \uXXXX's digits need no skipping
		case '"':
			return i + 1
		}
	}
	return len(src)
}

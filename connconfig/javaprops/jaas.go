package javaprops

import (
	"errors"
	"fmt"
	"strings"
)

// The login modules of the Kafka client for SASL/PLAIN and SASL/SCRAM;
// the parser's messages use ScramLoginModule as the example of a valid
// entry.
const (
	PlainLoginModule = "org.apache.kafka.common.security.plain.PlainLoginModule"
	ScramLoginModule = "org.apache.kafka.common.security.scram.ScramLoginModule"
)

// JAASEntry is the one login module entry of a sasl.jaas.config value.
type JAASEntry struct {
	Module  string            // the login module class, fully qualified
	Flag    string            // the control flag, lower case: required, requisite, sufficient or optional
	Options map[string]string // the key=value options, e.g. username and password
}

// ShortModule returns the class name without its package, short enough
// for an error message that tells the operator what to write.
func (e *JAASEntry) ShortModule() string {
	if i := strings.LastIndexByte(e.Module, '.'); i >= 0 {
		return e.Module[i+1:]
	}
	return e.Module
}

// knownJAASOptions may be named in error messages; any other token of a
// sasl.jaas.config value might be a piece of a password.
var knownJAASOptions = map[string]bool{"username": true, "password": true, "tokenauth": true, "serviceName": true}

// ParseJAAS parses a sasl.jaas.config value as Kafka's JaasConfig does
// (java.io.StreamTokenizer with // and /* */ comments, '-', '_' and '$'
// as word characters, and "..." or '...' strings with Java escapes):
//
//	LoginModuleClass ControlFlag (key=value)* ;
//
// Kafka accepts exactly one entry. Errors never quote the value.
func ParseJAAS(s string) (*JAASEntry, error) {
	tz := &jaasTokenizer{in: []rune(s)}
	var entries []*JAASEntry
	for {
		t := tz.next()
		if t.kind == tokEOF {
			break
		}
		if t.kind != tokWord {
			return nil, errors.New("malformed value: expected a login module class name, e.g. " + ScramLoginModule + " required username=\"...\" password=\"...\";")
		}
		e := &JAASEntry{Module: t.text, Options: map[string]string{}}
		f := tz.next()
		if f.kind != tokWord {
			return nil, errors.New("malformed value: login module control flag (required) missing after the class name")
		}
		switch strings.ToLower(f.text) {
		case "required", "requisite", "sufficient", "optional":
			e.Flag = strings.ToLower(f.text)
		default:
			return nil, errors.New("malformed value: the control flag after the class name must be required, requisite, sufficient or optional")
		}
		for {
			k := tz.next()
			if k.kind == tokEOF {
				return nil, errors.New("malformed value: the entry must end with ';'")
			}
			if k.kind == tokChar && k.char == ';' {
				break
			}
			name := "an option"
			if (k.kind == tokWord || k.kind == tokQuoted) && knownJAASOptions[k.text] {
				name = "option " + k.text
			}
			if k.kind != tokWord && k.kind != tokQuoted {
				return nil, errors.New("malformed value: expected key=\"value\" options or ';'")
			}
			if eq := tz.next(); eq.kind != tokChar || eq.char != '=' {
				return nil, fmt.Errorf("malformed value: %s has no '=' after its name", name)
			}
			v := tz.next()
			if v.kind != tokWord && v.kind != tokQuoted {
				return nil, fmt.Errorf("malformed value: %s has no value (quote values: key=\"value\")", name)
			}
			e.Options[k.text] = v.text
		}
		entries = append(entries, e)
	}
	switch len(entries) {
	case 0:
		return nil, errors.New("no login module given: write " + ScramLoginModule + " required username=\"...\" password=\"...\";")
	case 1:
		return entries[0], nil
	}
	return nil, fmt.Errorf("holds %d login modules; Kafka clients take exactly one", len(entries))
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokWord
	tokQuoted
	tokChar // an ordinary character (=, ;), or a number, which JAAS rejects
)

type jaasToken struct {
	kind tokKind
	text string
	char rune
}

type jaasTokenizer struct {
	in  []rune
	pos int
}

func jaasWordStart(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0xA0 || c == '_' || c == '$'
}

func jaasWordPart(c rune) bool {
	return jaasWordStart(c) || c >= '0' && c <= '9' || c == '.' || c == '-'
}

func (t *jaasTokenizer) next() jaasToken {
	for t.pos < len(t.in) {
		c := t.in[t.pos]
		switch {
		case c <= ' ':
			t.pos++
		case c == '/':
			t.skipComment()
		case jaasWordStart(c):
			start := t.pos
			for t.pos < len(t.in) && jaasWordPart(t.in[t.pos]) {
				t.pos++
			}
			return jaasToken{kind: tokWord, text: string(t.in[start:t.pos])}
		case c == '"' || c == '\'':
			return t.quoted(c)
		default:
			t.pos++
			if c >= '0' && c <= '9' || c == '.' || c == '-' {
				t.skipNumber()
				return jaasToken{kind: tokChar, char: '0'}
			}
			return jaasToken{kind: tokChar, char: c}
		}
	}
	return jaasToken{kind: tokEOF}
}

// quoted reads a StreamTokenizer string: it ends at the matching quote or
// at a line end; \a \b \f \n \r \t \v and octal \ooo are escapes, and a
// backslash before any other character stands for that character.
func (t *jaasTokenizer) quoted(q rune) jaasToken {
	t.pos++
	var b []rune
	for t.pos < len(t.in) {
		c := t.in[t.pos]
		if c == q {
			t.pos++
			break
		}
		if c == '\n' || c == '\r' {
			break
		}
		t.pos++
		if c != '\\' || t.pos >= len(t.in) {
			b = append(b, c)
			continue
		}
		b = append(b, t.escape())
	}
	return jaasToken{kind: tokQuoted, text: string(b)}
}

// skipComment skips the comment that starts at t.pos ('/'). As in
// StreamTokenizer: "/*" opens a block comment; any other '/' (including
// "//") comments out the rest of the line.
func (t *jaasTokenizer) skipComment() {
	if t.pos+1 < len(t.in) && t.in[t.pos+1] == '*' {
		t.pos += 2
		for t.pos < len(t.in) && !(t.in[t.pos] == '*' && t.pos+1 < len(t.in) && t.in[t.pos+1] == '/') {
			t.pos++
		}
		t.pos = min(t.pos+2, len(t.in))
		return
	}
	for t.pos < len(t.in) && t.in[t.pos] != '\n' && t.in[t.pos] != '\r' {
		t.pos++
	}
}

// skipNumber skips the digits and dots of a number after its first
// character.
func (t *jaasTokenizer) skipNumber() {
	for t.pos < len(t.in) && (t.in[t.pos] >= '0' && t.in[t.pos] <= '9' || t.in[t.pos] == '.') {
		t.pos++
	}
}

// escape reads the escape after a backslash in a quoted string (an octal
// value of up to three digits, or a letter as in Java) and returns the
// character it stands for; any other character stands for itself.
func (t *jaasTokenizer) escape() rune {
	c := t.in[t.pos]
	t.pos++
	if c >= '0' && c <= '7' {
		v, first := c-'0', c
		if t.pos < len(t.in) && t.in[t.pos] >= '0' && t.in[t.pos] <= '7' {
			v = v<<3 + t.in[t.pos] - '0'
			t.pos++
			if first <= '3' && t.pos < len(t.in) && t.in[t.pos] >= '0' && t.in[t.pos] <= '7' {
				v = v<<3 + t.in[t.pos] - '0'
				t.pos++
			}
		}
		return v
	}
	if i := strings.IndexRune("abfnrtv", c); i >= 0 {
		return rune("\a\b\f\n\r\t\v"[i])
	}
	return c
}

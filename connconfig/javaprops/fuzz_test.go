package javaprops

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// The fuzz targets of the --command-config parsers; seed corpora in
// testdata/fuzz/FuzzX/ (from testdata/properties/), run by .ci/fuzz.

// escapeAll writes s with every UTF-16 unit as a \uXXXX escape, the one
// form that reads back as exactly s whatever it holds.
func escapeAll(s string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, `\u%04x`, u)
	}
	return b.String()
}

// FuzzParse: a properties file either parses, and every key and value
// reads back the same when written escaped, or fails with a *SyntaxError
// on a line of the file and a message that quotes nothing of it.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "properties", "*.properties"))
	if len(files) == 0 {
		f.Fatal("no seeds")
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{"", "a", "a=b", "a\\", "a\\\n  b", "\\u12", "k=\\uzzzz", "a:b\r\nc d\re=f", "#x\n!y\n", "\xff\xfe=\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %q is not a *SyntaxError", err, err)
			}
			lines := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r"))
			if se.Line < 1 || se.Line > lines {
				t.Fatalf("error on line %d of a %d-line file", se.Line, lines)
			}
			if se.Msg != `malformed \uxxxx escape` {
				t.Fatalf("unexpected message %q", se.Msg)
			}
			return
		}
		var b strings.Builder
		for _, k := range p.Keys() {
			if p.Line(k) < 1 {
				t.Fatalf("key %q has line %d", k, p.Line(k))
			}
			v, _ := p.Get(k)
			fmt.Fprintf(&b, "%s=%s\n", escapeAll(k), escapeAll(v))
		}
		p2, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatalf("escaped form does not parse: %v", err)
		}
		if !slices.Equal(p.Keys(), p2.Keys()) {
			t.Fatalf("keys %q, read back %q", p.Keys(), p2.Keys())
		}
		for _, k := range p.Keys() {
			v, _ := p.Get(k)
			if v2, _ := p2.Get(k); v2 != v {
				t.Fatalf("key %q: %q, read back %q", k, v, v2)
			}
		}
	})
}

// FuzzParseJAAS: a sasl.jaas.config value parses into one entry with a
// class and a control flag, or fails with a message that never echoes
// the value (here: a password planted in the middle of the input).
func FuzzParseJAAS(f *testing.F) {
	for _, s := range [][2]string{
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="`, `";`},
		{`org.apache.kafka.common.security.scram.ScramLoginModule required username='u' password=`, `;`},
		{`x.Y required password="`, `"; z.W optional;`},
		{`/* c */ a.B sufficient // x` + "\n" + ` k="\101\n`, `\"";`},
		{``, ``}, {`a.B`, ``}, {`a.B required k=`, `1;`}, {`"`, `"`},
	} {
		f.Add(s[0], s[1])
	}
	const secret = "Zq9SECRETxx"
	f.Fuzz(func(t *testing.T, prefix, suffix string) {
		e, err := ParseJAAS(prefix + secret + suffix)
		if err != nil {
			if strings.Contains(err.Error(), "SECRET") {
				t.Fatalf("error echoes the value: %v", err)
			}
			return
		}
		switch e.Flag {
		case "required", "requisite", "sufficient", "optional":
		default:
			t.Fatalf("flag %q", e.Flag)
		}
		if e.Module == "" || e.Options == nil {
			t.Fatalf("entry %+v", e)
		}
	})
}

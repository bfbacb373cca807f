package vocab

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"billing", "billing"},
		{"grüppe 组 😀", "grüppe 组 😀"},
		{"x\x1b[2K\x1b[1A", `x\x1b[2K\x1b[1A`},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`},
		{"c1\u0085\u009b", `c1\x85\x9b`},
		{"bad\xff\xfe", `bad\xff\xfe`},
		{"cut\xc3", `cut\xc3`},
		{"rtl\u202eevil\u2066", `rtl\u202eevil\u2066`},
		{"line\u2028sep", `line\u2028sep`},
		{`already\x1b`, `already\x1b`},
	} {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// No output of Printable holds a control character, whatever the input.
func FuzzPrintable(f *testing.F) {
	f.Add("x\x1b[2K")
	f.Add("\xff\u202e\n")
	f.Fuzz(func(t *testing.T, s string) {
		got := Printable(s)
		if strings.ContainsFunc(got, unicode.IsControl) || strings.ContainsRune(got, '\u202e') {
			t.Fatalf("Printable(%q) = %q holds a control character", s, got)
		}
		if Printable(got) != got {
			t.Fatalf("Printable(%q) = %q is not stable", s, got)
		}
	})
}

func TestPrintableWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewPrintableWriter(&buf)
	if NewPrintableWriter(w) != w {
		t.Error("a PrintableWriter was wrapped twice")
	}
	in := "Consumer group 'x\x1b[2K\x1b[1A' has no active members.\nsecond\r line\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	want := "Consumer group 'x\\x1b[2K\\x1b[1A' has no active members.\nsecond\\r line\n"
	if buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	if RawWriter(w) != &buf || RawWriter(&buf) != &buf {
		t.Error("RawWriter does not return the stream beneath")
	}
}

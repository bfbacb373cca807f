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

// TestPrintableWriterCopiesNothingClean: text with nothing to escape goes
// to the stream beneath as given, in one Write, without allocating (plan's
// 15 MB summary on stderr was copied three times: docs/benchmarks.md).
func TestPrintableWriterCopiesNothingClean(t *testing.T) {
	in := []byte(strings.Repeat("bench-group-0001  bench-payments  12  95  → 90  replay 5\n", 20000))
	var got [][]byte
	w := NewPrintableWriter(writerFunc(func(b []byte) (int, error) { got = append(got, b); return len(b), nil }))
	if allocs := testing.AllocsPerRun(5, func() { got = got[:0]; _, _ = w.Write(in) }); allocs != 0 {
		t.Errorf("Write of %d clean bytes: %.0f allocations, want 0", len(in), allocs)
	}
	if len(got) != 1 || &got[0][0] != &in[0] || len(got[0]) != len(in) {
		t.Errorf("clean text went in %d writes, want the caller's bytes in one", len(got))
	}
}

// TestPrintableWriterLines: the lines that need an escape are escaped,
// the others kept, whatever the mix, as Printable of each line.
func TestPrintableWriterLines(t *testing.T) {
	for _, in := range []string{"", "\n", "a", "a\n", "\x1b", "\x1b\n", "ok\n\x1bx\nok\n", "x\r\n\r\n", "\xff\nok", "é\n\u202e\n", "a\n\x00"} {
		var want strings.Builder
		for line := range strings.Lines(in) {
			body, nl := strings.CutSuffix(line, "\n")
			want.WriteString(Printable(body))
			if nl {
				want.WriteByte('\n')
			}
		}
		var buf bytes.Buffer
		if n, err := NewPrintableWriter(&buf).Write([]byte(in)); err != nil || n != len(in) {
			t.Fatalf("Write(%q) = %d, %v", in, n, err)
		}
		if buf.String() != want.String() {
			t.Errorf("Write(%q) wrote %q, want %q", in, buf.String(), want.String())
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

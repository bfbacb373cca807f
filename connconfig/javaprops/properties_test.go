package javaprops

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// renderJavaStyle renders parsed properties the way
// testdata/DumpProperties.java does.
func renderJavaStyle(p *Properties) string {
	esc := func(s string) string {
		var b strings.Builder
		for _, u := range utf16.Encode([]rune(s)) {
			if u >= 0x20 && u < 0x7f && u != '\\' {
				b.WriteByte(byte(u))
			} else {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		}
		return b.String()
	}
	var b strings.Builder
	for _, k := range p.Keys() {
		fmt.Fprintf(&b, "[%s] = [%s]\n", esc(k), esc(p.values[k]))
	}
	return b.String()
}

// TestPropertiesMatchJava compares Parse with what
// java.util.Properties.load read from the same files (the .golden files,
// written by DumpProperties.java).
func TestPropertiesMatchJava(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "properties", "*.properties"))
	if err != nil || len(files) < 5 {
		t.Fatalf("fixtures missing: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".properties") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse(data)
			if strings.HasPrefix(string(want), "error:") {
				if err == nil {
					t.Fatalf("Java refused the file (%s) but kcg parsed it:\n%s", bytes.TrimSpace(want), renderJavaStyle(p))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := renderJavaStyle(p); got != string(want) {
				t.Errorf("kcg read:\n%s\njava.util.Properties read:\n%s", got, want)
			}
		})
	}
}

// TestPropertiesGoldenFromJava checks the .golden files are still what
// Java prints, when a JDK is installed.
func TestPropertiesGoldenFromJava(t *testing.T) {
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed: the .golden files cannot be re-checked against java.util.Properties")
	}
	if testing.Short() {
		t.Skip("-short: starting a JVM takes a second")
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "properties", "*.properties"))
	// One JVM for all files: its output is the goldens, concatenated.
	out, err := exec.Command("java", append([]string{filepath.Join("testdata", "DumpProperties.java")}, files...)...).Output()
	if err != nil {
		t.Fatalf("java DumpProperties: %v", err)
	}
	var want []byte
	for _, f := range files {
		golden, err := os.ReadFile(strings.TrimSuffix(f, ".properties") + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, golden...)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("the .golden files differ from Java's output:\n%s", out)
	}
}

func TestPropertiesLinesAndErrors(t *testing.T) {
	p, err := Parse([]byte("# c\n\na = 1 \\\n  2\nb=3\r\nc=4\ra=5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]int{"a": 7, "b": 5, "c": 6} {
		if got := p.Line(k); got != want {
			t.Errorf("line of %q = %d, want %d", k, got, want)
		}
	}
	if v, _ := p.Get("a"); v != "5" {
		t.Errorf("a = %q, want the last assignment 5", v)
	}

	const secret = "hunter2-secret"
	_, err = Parse([]byte("x=1\nsasl.jaas.config=password=\"" + secret + "\\u12G4\"\n"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 {
		t.Fatalf("err = %v, want a SyntaxError on line 2", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error echoes the line: %v", err)
	}
}

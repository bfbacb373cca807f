package javaprops

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadFileHostile: a properties file with a 100 MB value (a sparse
// file, generated here) is refused at the 1 MiB limit without being read
// into memory; a file of exactly the limit is read.
func TestReadFileHostile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.properties")
	if err := os.WriteFile(big, []byte("sasl.jaas.config="), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 100<<20); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadFile(big)
	runtime.ReadMemStats(&after)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "1 MiB") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("ReadFile of a 100 MB value: %v, want one line naming the 1 MiB limit", err)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 4*MaxFileBytes {
		t.Errorf("refusing allocated %d bytes, want at most %d", a, 4*MaxFileBytes)
	}

	exact := filepath.Join(dir, "exact.properties")
	value := strings.Repeat("v", MaxFileBytes-len("k="))
	if err := os.WriteFile(exact, []byte("k="+value), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(exact)
	if err != nil {
		t.Fatalf("a file of exactly the limit: %v", err)
	}
	p, err := Parse(data)
	if v, _ := p.Get("k"); err != nil || v != value {
		t.Fatalf("a file of exactly the limit does not parse: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

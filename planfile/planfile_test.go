package planfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/resetplan"
)

// A small valid plan, in kcg's YAML layout.
const samplePlan = `apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-11-29T07:10:00Z"
createdBy: kcg 0.1.0
cluster: {id: 4L6g3nShT-eMCtK--X86sw, bootstrap: "broker-1:9092"}
strategy: {type: shift-by, shiftBy: 10}
groups:
  - group: billing
    type: classic
    stateAtPlan: Empty
    partitions:
      - {topic: payments, partition: 0, current: 3, target: 0, logStart: 0, logEnd: 6, reason: resolved}
`

func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.yaml")
	if err := os.WriteFile(path, []byte(samplePlan), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		in         string
	}{{"file", path, ""}, {"stdin", "-", samplePlan}} {
		p, err := Read(c.path, strings.NewReader(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(p.Groups) != 1 || p.Groups[0].Group != "billing" || p.Cluster.ID != "4L6g3nShT-eMCtK--X86sw" {
			t.Errorf("%s: read %+v", c.name, p)
		}
	}
}

// Every failure to read a plan is bad input (exit 65), with the messages
// the commands print.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.yaml")
	if err := os.WriteFile(garbage, []byte("billing,payments,0,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.yaml")
	huge := bytes.NewReader(make([]byte, resetplan.MaxPlanBytes+1))
	cases := []struct {
		name, path string
		in         *bytes.Reader
		want       string // the whole message, or its start when prefix
		prefix     bool
	}{
		{name: "missing", path: missing, want: "reading plan: open " + missing + ": no such file or directory"},
		{name: "not a plan", path: garbage, want: garbage + ": ", prefix: true},
		{name: "too large", path: "-", in: huge, want: "-: larger than 64 MiB, kcg's limit for a plan file"},
	}
	for _, c := range cases {
		in := c.in
		if in == nil {
			in = bytes.NewReader(nil)
		}
		p, err := Read(c.path, in)
		if err == nil {
			t.Fatalf("%s: read %+v", c.name, p)
		}
		if code := app.ExitCode(context.Background(), err); code != app.ExitBadInput {
			t.Errorf("%s: exit %d, want %d", c.name, code, app.ExitBadInput)
		}
		got := err.Error()
		if (c.prefix && !strings.HasPrefix(got, c.want)) || (!c.prefix && got != c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if c.prefix && len(got) == len(c.want) {
			t.Errorf("%s: %q says nothing after the file name", c.name, got)
		}
	}
}

func TestWriteCreatesExclusively(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.yaml")
	if Exists(path) {
		t.Fatal("Exists before the file was written")
	}
	if err := Write(path, []byte("one"), false); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "one")
	if !Exists(path) {
		t.Error("Exists is false for a written file")
	}

	err := Write(path, []byte("two"), false)
	if !errors.Is(err, os.ErrExist) || err.Error() != path+": file already exists" {
		t.Fatalf("second create: %v, want %s: file already exists", err, path)
	}
	checkFile(t, path, "one")

	if err := Write(path, []byte("three"), true); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "three")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want only the plan (no temporary file left)", len(entries))
	}
}

// A dangling symbolic link is a name that exists: writing through it
// could create a file elsewhere.
func TestWriteRefusesDanglingLink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), path); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if !Exists(path) {
		t.Error("Exists is false for a dangling link")
	}
	if err := Write(path, []byte("x"), false); !errors.Is(err, os.ErrExist) {
		t.Errorf("create over a dangling link: %v, want os.ErrExist", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the link's target was created: %v", err)
	}
}

// The errors name the operator's file, never the temporary one beside it.
func TestWriteErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	path := filepath.Join(gone, "plan.yaml")
	for _, overwrite := range []bool{false, true} {
		err := Write(path, []byte("x"), overwrite)
		want := "writing " + path + ": the directory " + gone + " does not exist"
		if err == nil || err.Error() != want {
			t.Errorf("overwrite %v: %v, want %q", overwrite, err, want)
		}
	}
}

func checkFile(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s holds %q, want %q", path, got, want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("%s has mode %v, want 0644", path, fi.Mode().Perm())
	}
}

package dropin

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/app"
)

// FuzzParseJavaArgs fuzzes the Java command line: the arguments are the
// input split at NUL bytes (no argument can hold one). parseJavaArgs
// either refuses with a jopt-simple exception or returns only known
// options, values only for options that take one; checkJavaArgs refuses
// with a usage message or accepts. A command line refused by either gives
// exit 64 from Run with nothing on stdout, before any network. Seeds:
// testdata/fuzz/FuzzParseJavaArgs/ and the f.Add lines below.
func FuzzParseJavaArgs(f *testing.F) {
	for _, s := range []string{
		"--bootstrap-server\x00h:9092\x00--list",
		"--bootstrap-server=h:9092\x00--describe\x00--group\x00g\x00--members\x00--verbose",
		"--bootstrap-server\x00h\x00--reset-offsets\x00--group\x00g\x00--topic\x00t:0,1\x00--shift-by\x00-5\x00--dry-run",
		"--bootstrap-server\x00h\x00--reset-offsets\x00--all-groups\x00--all-topics\x00--to-earliest\x00--to-latest",
		"--list\x00--state\x00--type\x00classic", "-list", "--help", "--version", "--", "--group", "--state=",
		"--bootstrap-server\x00h\x00--delete\x00--group\x00g\x00--topic\x00t", "--validate-regex\x00(",
		"--bootstrap-server\x00h\x00--delete-offsets\x00--group\x00g", "--members", "-x", "-\x00--list",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		a, err := parseJavaArgs(args)
		if err != nil {
			var je *joptError
			if !errors.As(err, &je) || je.msg == "" {
				t.Fatalf("parse error %T %q is not a jopt-simple exception", err, err)
			}
			checkRunRefuses(t, args)
			return
		}
		for _, name := range a.order {
			kind, ok := javaOptions[name]
			if !ok || !a.Has(name) {
				t.Fatalf("parsed unknown option %q", name)
			}
			if kind == argNone && len(a.Values(name)) > 0 {
				t.Fatalf("option %q takes no value, got %q", name, a.Values(name))
			}
		}
		if a.Has("help") || a.Has("version") {
			return
		}
		var warn bytes.Buffer
		if err := checkJavaArgs(a, &warn); err != nil {
			var ue *usageExit
			if !errors.As(err, &ue) || ue.msg == "" {
				t.Fatalf("check error %T %q is not a usage exit", err, err)
			}
			checkRunRefuses(t, args)
		}
	})
}

// checkRunRefuses runs args through Run, which must refuse them with exit
// 64 and a message on stderr, and nothing on stdout.
func checkRunRefuses(t *testing.T, args []string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"kafka-consumer-groups"}, args...),
		app.IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	if code != app.ExitUsage || out.Len() > 0 || errb.Len() == 0 {
		t.Fatalf("Run(%q) = %d, stdout %q, stderr %q; want 64, a message on stderr only", args, code, out.String(), errb.String())
	}
}

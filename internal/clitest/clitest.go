// Package clitest runs the real kcg application in tests, in-process with
// buffers for its streams, for the tests of commands (kcg's own commands)
// and of dropin (the Java command line). It is imported only by tests.
package clitest

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// Result is one run of the application (or of the Java tool, in the
// side-by-side tests).
type Result struct {
	Code   int
	Stdout string
	Stderr string
}

// Run runs the application with args (without the program name) and
// returns its exit code and output. Environment variables (urfave/cli
// reads KCG_BOOTSTRAP_SERVER and the like from the process) are set with
// t.Setenv.
func Run(t testing.TB, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return RunContext(ctx, args...)
}

// RunContext is Run under ctx: a cancelled ctx is the operator's Ctrl-C.
func RunContext(ctx context.Context, args ...string) Result {
	var out, errb bytes.Buffer
	code := commands.Run(ctx, append([]string{"kcg"}, args...), commands.IO{
		In: strings.NewReader(""), Out: &out, Err: &errb,
	})
	return Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// RunTTY runs the application as Run does, but as if stdin were a
// terminal that types stdin (kcg delete's question).
func RunTTY(t testing.TB, stdin string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code := commands.Run(ctx, append([]string{"kcg"}, args...), commands.IO{
		In: strings.NewReader(stdin), InTTY: true, Out: &out, Err: &errb,
	})
	return Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// MustCode fails the test unless the run exited with code.
func (r Result) MustCode(t testing.TB, code int) Result {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
	return r
}

// Rows returns the whitespace-split lines of s that start with prefix.
func Rows(s, prefix string) [][]string {
	var out [][]string
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == prefix {
			out = append(out, f)
		}
	}
	return out
}

// Records returns n records with the values pay-0 ... pay-<n-1>.
func Records(n int) []kafkatest.Record {
	out := make([]kafkatest.Record, n)
	for i := range out {
		out[i] = kafkatest.Record{Value: fmt.Sprintf("pay-%d", i)}
	}
	return out
}

var (
	log4jStamp = regexp.MustCompile(`^\[[0-9-]+ [0-9:,]+\] `)
	// Lines of a Java stack trace and the exception lines above it.
	stackLine = regexp.MustCompile(`^(\s+at |\s+\.\.\. \d+ more|Caused by: |Exception in thread |java\.|org\.apache\.|joptsimple\.)`)
)

// JavaNotices are the lines of the Java tool's stderr a person reads, as
// the side-by-side tests compare them with kcg's stderr: no stack traces,
// log4j timestamps removed.
func JavaNotices(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if stackLine.MatchString(l) {
			continue
		}
		out = append(out, log4jStamp.ReplaceAllString(l, ""))
	}
	return strings.Join(out, "\n")
}

package commands_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
)

// An apply that committed but could not print its report (stdout full,
// or a closed pipe) must not exit 1, which says nothing was written: it
// exits 6 and stderr names what was written and the rollback plan. With
// nothing written (a refused apply) the code stays its own.
func TestApplyReportUnprintable(t *testing.T) {
	for _, tc := range []struct {
		name string
		out  func(t *testing.T) *os.File
	}{
		{"dev-full", func(t *testing.T) *os.File {
			f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip("no /dev/full:", err)
			}
			return f
		}},
		{"closed-pipe", func(t *testing.T) *os.File {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			return w
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newResetFixture(t)
			f.plan(t, "p.yaml", f.group, "--topic", f.topic, "--to-offset", "2")
			for _, format := range []string{"table", "json"} {
				out := tc.out(t)
				defer out.Close()
				var errb bytes.Buffer
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				rb := f.path("rb-" + format + ".yaml")
				code := commands.Run(ctx, []string{"kcg", "apply", f.path("p.yaml"), "--rollback-out", rb, "-o", format, "--bootstrap-server", f.e.Bootstrap},
					commands.IO{In: strings.NewReader(""), Out: out, Err: &errb})
				cancel()
				if code != 6 {
					t.Fatalf("-o %s: exit %d, want 6\nstderr: %s", format, code, errb.String())
				}
				if !strings.Contains(errb.String(), "written: "+f.group) || !strings.Contains(errb.String(), "undo with kcg apply "+rb) || !strings.Contains(errb.String(), "report could not be printed") {
					t.Fatalf("-o %s: stderr does not name what was written and the rollback:\n%s", format, errb.String())
				}
				f.mustCommitted(t, map[int32]int64{0: 2, 1: 2})
				// Undo it for the next format (its report printed normally).
				kcgOn(t, f.e, "apply", rb).MustCode(t, 0)
				f.mustCommitted(t, map[int32]int64{0: 5})
			}

			// Refused before any write: its own code (3), not 6.
			f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 7})
			out := tc.out(t)
			defer out.Close()
			var errb bytes.Buffer
			code := commands.Run(context.Background(), []string{"kcg", "apply", f.path("p.yaml"), "-o", "json", "--bootstrap-server", f.e.Bootstrap},
				commands.IO{In: strings.NewReader(""), Out: out, Err: &errb})
			if code == 6 || code == 0 {
				t.Fatalf("a refused apply with an unprintable report: exit %d\n%s", code, errb.String())
			}
			f.mustCommitted(t, map[int32]int64{0: 7})
		})
	}
}

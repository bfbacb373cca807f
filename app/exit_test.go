package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/kcg-dev/kcg/vocab"
)

// TestExitCodeFromKinds is docs/exit-codes.md's table as ExitCode reads
// it: each kind has its code, a wrapped kinded error keeps its kind, an
// error of no kind is 1, or 130 when the operator cancelled.
func TestExitCodeFromKinds(t *testing.T) {
	bg := context.Background()
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	base := errors.New("boom")
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"nil", bg, nil, ExitOK},
		{"no kind", bg, base, ExitError},
		{"failed", bg, vocab.WithKind(vocab.KindFailed, base), ExitError},
		{"differs", bg, vocab.WithKind(vocab.KindDiffers, base), ExitDiff},
		{"refused", bg, vocab.WithKind(vocab.KindRefused, base), ExitRefused},
		{"partial", bg, vocab.WithKind(vocab.KindPartial, base), ExitPartial},
		{"breach", bg, vocab.WithKind(vocab.KindBreach, base), ExitBreach},
		{"unreported", bg, vocab.WithKind(vocab.KindUnreported, base), ExitUnreported},
		{"usage", bg, vocab.WithKind(vocab.KindUsage, base), ExitUsage},
		{"bad input", bg, vocab.WithKind(vocab.KindBadInput, base), ExitBadInput},
		{"interrupted", bg, vocab.WithKind(vocab.KindInterrupted, base), ExitInterrupted},
		{"unknown kind", bg, vocab.WithKind(vocab.Kind(99), base), ExitError},
		{"wrapped kind", bg, fmt.Errorf("plan: %w", vocab.WithKind(vocab.KindRefused, base)), ExitRefused},
		{"outermost kind", bg, Usagef("x: %w", vocab.WithKind(vocab.KindRefused, base)), ExitUsage},
		{"cancelled", cancelled, fmt.Errorf("dial: %w", context.Canceled), ExitInterrupted},
		{"canceled, context live", bg, context.Canceled, ExitError},
		{"cancelled, other error", cancelled, base, ExitError},
		{"cancelled, but refused", cancelled, Refused(fmt.Errorf("x: %w", context.Canceled)), ExitRefused},
		{"Usagef", bg, Usagef("bad %s", "flag"), ExitUsage},
		{"BadInput", bg, BadInput(base), ExitBadInput},
		{"Refused", bg, Refused(base), ExitRefused},
	}
	for _, c := range cases {
		if got := ExitCode(c.ctx, c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

// TestWithCodeAndSilent: the commands still name a code; it becomes the
// kind of that code, and comes back out of ExitCode unchanged.
func TestWithCodeAndSilent(t *testing.T) {
	ctx := context.Background()
	for _, code := range []int{ExitError, ExitDiff, ExitRefused, ExitPartial, ExitBreach, ExitUnreported, ExitUsage, ExitBadInput, ExitInterrupted} {
		err := WithCode(code, errors.New("x"))
		if got := ExitCode(ctx, err); got != code {
			t.Errorf("WithCode(%d): exit %d", code, got)
		}
		if IsSilent(err) {
			t.Errorf("WithCode(%d) is silent", code)
		}
		s := Silent(code)
		if got := ExitCode(ctx, fmt.Errorf("run: %w", s)); got != code {
			t.Errorf("Silent(%d): exit %d", code, got)
		}
		if !IsSilent(s) {
			t.Errorf("Silent(%d) is not silent", code)
		}
		if got, want := s.Error(), fmt.Sprintf("exit %d", code); got != want {
			t.Errorf("Silent(%d).Error() = %q, want %q", code, got, want)
		}
	}
	if k := vocab.KindOf(Silent(ExitError)); k != vocab.KindFailed {
		t.Errorf("Silent(1) has kind %v, want failed", k)
	}
}

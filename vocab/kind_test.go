package vocab

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestKindOfWalksTheChain(t *testing.T) {
	base := errors.New("plan.json: not a kcg plan")
	bad := WithKind(KindBadInput, base)
	if bad.Error() != base.Error() {
		t.Errorf("WithKind changed the message: %q", bad.Error())
	}
	if !errors.Is(bad, base) {
		t.Error("WithKind hides the error it wraps from errors.Is")
	}
	cases := []struct {
		name string
		err  error
		want Kind
	}{
		{"no kind", base, KindNone},
		{"nil", nil, KindNone},
		{"kinded", bad, KindBadInput},
		{"wrapped kinded", fmt.Errorf("reading: %w", bad), KindBadInput},
		{"outermost kind wins", WithKind(KindUsage, fmt.Errorf("x: %w", bad)), KindUsage},
		{"joined", errors.Join(io.EOF, WithKind(KindRefused, base)), KindRefused},
		{"%v loses the kind", fmt.Errorf("x: %v", bad), KindNone},
	}
	for _, c := range cases {
		if got := KindOf(c.err); got != c.want {
			t.Errorf("%s: KindOf = %v, want %v", c.name, got, c.want)
		}
	}
	if WithKind(KindUsage, nil) != nil {
		t.Error("WithKind(k, nil) is not nil")
	}
}

func TestKindNames(t *testing.T) {
	seen := map[string]Kind{}
	for k := KindNone; k <= KindInterrupted; k++ {
		s := k.String()
		if s == "" || s[0] == 'k' {
			t.Errorf("kind %d has no name: %q", int(k), s)
		}
		if prev, dup := seen[s]; dup {
			t.Errorf("kinds %d and %d are both named %q", int(prev), int(k), s)
		}
		seen[s] = k
	}
	if got := Kind(99).String(); got != "kind(99)" {
		t.Errorf("Kind(99) = %q", got)
	}
}

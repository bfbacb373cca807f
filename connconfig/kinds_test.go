package connconfig

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kcg-dev/kcg/vocab"
)

// TestErrorKinds: flag misuse is a usage error, unusable configuration
// data bad input; the kind survives wrapping.
func TestErrorKinds(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want vocab.Kind
	}{
		{"usage ConfigError", usageErr("--sasl-mechanism", "needs --sasl-username"), vocab.KindUsage},
		{"data ConfigError", &ConfigError{Kind: ConfigErrorData, Key: "--command-config", Msg: "cannot read"}, vocab.KindBadInput},
		{"UnknownProfileError", &UnknownProfileError{Name: "prod"}, vocab.KindUsage},
		{"ErrNoBootstrap", ErrNoBootstrap, vocab.KindUsage},
		{"MechanismError", &MechanismError{Mechanism: "OAUTHBEARER", Err: errors.New("endpoint down")}, vocab.KindNone},
	}
	for _, c := range cases {
		if got := vocab.KindOf(fmt.Errorf("dial: %w", c.err)); got != c.want {
			t.Errorf("%s: kind %v, want %v", c.name, got, c.want)
		}
	}
}

// TestErrNoBootstrapUnchanged: its kind leaves its message and identity
// as they were.
func TestErrNoBootstrapUnchanged(t *testing.T) {
	if got, want := ErrNoBootstrap.Error(), "no bootstrap server: use --bootstrap-server HOST:PORT or set KCG_BOOTSTRAP_SERVER"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if !errors.Is(fmt.Errorf("x: %w", ErrNoBootstrap), ErrNoBootstrap) {
		t.Error("errors.Is does not find ErrNoBootstrap through a wrap")
	}
}

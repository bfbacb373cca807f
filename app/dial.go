package app

import (
	"context"
	"strconv"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/kafkaadmin"
)

// DefaultTimeout is the whole-command deadline when --timeout is not
// given (the Java tool's default since Kafka 4.1).
const DefaultTimeout = 30 * time.Second

// ParseTimeout accepts a duration (ParseDuration) or, as the Java tool
// does, a number of milliseconds.
func ParseTimeout(s string) (time.Duration, error) {
	if s == "" {
		return DefaultTimeout, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms <= 0 {
			return 0, Usagef("--timeout must be positive, got %q", s)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, Usagef("--timeout: %q is not a positive duration (%s) or a number of milliseconds", s, DurationForms)
	}
	return d, nil
}

// Dial resolves o and returns a client and a context bounded by o.Timeout
// (DefaultTimeout when unset). The caller calls done, which cancels and
// closes.
func Dial(parent context.Context, o connconfig.ConnOptions) (cl *kafkaadmin.Client, ctx context.Context, done func(), err error) {
	cfg, err := o.Resolve()
	if err != nil {
		return nil, nil, nil, err
	}
	cl, err = kafkaadmin.New(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(parent, deadline(o.Timeout))
	return cl, ctx, func() { cancel(); cl.Close() }, nil
}

// DialEach is Dial for a command that repeats its requests (kcg watch):
// the deadline, o.Timeout (DefaultTimeout when unset), bounds each round
// of requests rather than the whole command. round returns the context of
// one round, which the caller cancels; the caller calls done, which closes
// the client.
func DialEach(o connconfig.ConnOptions) (cl *kafkaadmin.Client, round func(parent context.Context) (context.Context, context.CancelFunc), done func(), err error) {
	// The whole-command context of Dial goes unused: each round has its
	// own deadline.
	cl, _, done, err = Dial(context.Background(), o)
	if err != nil {
		return nil, nil, nil, err
	}
	timeout := deadline(o.Timeout)
	round = func(parent context.Context) (context.Context, context.CancelFunc) {
		cl.RenewSessions() // SASL sessions and tokens expire; see RenewSessions
		return context.WithTimeout(parent, timeout)
	}
	return cl, round, done, nil
}

// deadline is the --timeout of a command, DefaultTimeout when unset.
func deadline(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return DefaultTimeout
	}
	return timeout
}

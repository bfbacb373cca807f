package app

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/groupops"
)

// Exit codes (docs/exit-codes.md).
const (
	ExitOK      = 0
	ExitError   = 1
	ExitDiff    = 2
	ExitRefused = 3
	ExitPartial = 4
	// ExitBreach: a group breaches a --max-lag, --max-time-lag or
	// --min-retention-headroom limit (describe; watch --exit-on-breach).
	ExitBreach = 5
	// ExitUnreported: the writes happened but their report could not be
	// printed (stdout closed or full); stderr names what was written.
	ExitUnreported  = 6
	ExitUsage       = 64
	ExitBadInput    = 65
	ExitInterrupted = 130
)

// ExitError carries an exit code with the error that caused it. A silent
// one prints nothing (the command already reported, e.g. a diff).
type exitError struct {
	code   int
	err    error
	silent bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// WithCode gives err the exit code code.
func WithCode(code int, err error) error { return &exitError{code: code, err: err} }

// Usagef is a usage error (exit 64): unknown flag, missing or conflicting
// options.
func Usagef(format string, a ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, a...)}
}

// BadInput is bad input data (exit 65): a malformed plan, CSV or config.
func BadInput(err error) error { return &exitError{code: ExitBadInput, err: err} }

// Refused is a precondition that refused the operation (exit 3); nothing
// was written.
func Refused(err error) error { return &exitError{code: ExitRefused, err: err} }

// Silent ends the command with code and no further message.
func Silent(code int) error { return &exitError{code: code, silent: true} }

// ExitCode maps an error to kcg's exit code. It is the one place that
// decides codes.
func ExitCode(ctx context.Context, err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var re *groupops.RefusedError
	var ote *groupops.OtherTypeError
	var sme *groupops.SourceMissingError
	var nsg *groupops.NoShareGroupsError
	var tme *groupops.TypeMismatchError
	var nst *groupops.NoStreamsGroupsError
	if errors.As(err, &re) || errors.As(err, &ote) || errors.As(err, &sme) || errors.As(err, &nsg) || errors.As(err, &tme) || errors.As(err, &nst) {
		return ExitRefused
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	if errors.Is(err, connconfig.ErrNoBootstrap) {
		return ExitUsage
	}
	var sse *groupops.ShareStrategyError
	var swt *groupops.ShareWholeTopicsError
	if errors.As(err, &sse) || errors.As(err, &swt) {
		return ExitUsage
	}
	var upe *connconfig.UnknownProfileError
	if errors.As(err, &upe) {
		return ExitUsage
	}
	var ce *connconfig.ConfigError
	if errors.As(err, &ce) {
		// Flag misuse is a usage error; a bad --command-config file or key
		// material is bad input.
		if ce.Kind == connconfig.ConfigErrorUsage {
			return ExitUsage
		}
		return ExitBadInput
	}
	return ExitError
}

// IsSilent reports whether err has been reported already.
func IsSilent(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.silent
}

// OutputClosed reports whether err is a write to a stream whose reader
// has gone (`kcg describe --all-groups | head -1`): EPIPE, which main
// receives as an error rather than a SIGPIPE death because it ignores
// the signal. A read command ends there quietly with exit 0, as the Java
// tool does; a command that wrote to Kafka reports it as any failure to
// print its report.
func OutputClosed(err error) bool {
	return err != nil && errors.Is(err, syscall.EPIPE)
}

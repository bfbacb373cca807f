package app

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/kcg-dev/kcg/vocab"
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

// exitCodes is the one mapping of error kinds to exit codes
// (docs/exit-codes.md). An error of no kind is a runtime error, 1.
var exitCodes = [...]int{
	vocab.KindNone:        ExitError,
	vocab.KindFailed:      ExitError,
	vocab.KindDiffers:     ExitDiff,
	vocab.KindRefused:     ExitRefused,
	vocab.KindPartial:     ExitPartial,
	vocab.KindBreach:      ExitBreach,
	vocab.KindUnreported:  ExitUnreported,
	vocab.KindUsage:       ExitUsage,
	vocab.KindBadInput:    ExitBadInput,
	vocab.KindInterrupted: ExitInterrupted,
}

// CodeOf is the exit code of an error of kind k.
func CodeOf(k vocab.Kind) int {
	if k >= 0 && int(k) < len(exitCodes) {
		return exitCodes[k]
	}
	return ExitError
}

// kindOfCode is the kind CodeOf maps to code (KindFailed for 1 and for a
// code kcg does not have).
func kindOfCode(code int) vocab.Kind {
	for k, c := range exitCodes {
		if c == code && vocab.Kind(k) != vocab.KindNone {
			return vocab.Kind(k)
		}
	}
	return vocab.KindFailed
}

// exitError is an error given its kind by a command (Usagef, BadInput,
// Refused, WithCode). A silent one prints nothing (the command already
// reported, e.g. a diff).
type exitError struct {
	kind   vocab.Kind
	err    error
	silent bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", CodeOf(e.kind))
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// ErrorKind makes exitError a vocab.Kinded.
func (e *exitError) ErrorKind() vocab.Kind { return e.kind }

// WithCode gives err the kind whose exit code is code (one of the Exit
// constants).
func WithCode(code int, err error) error { return &exitError{kind: kindOfCode(code), err: err} }

// Usagef is a usage error (exit 64): unknown flag, missing or conflicting
// options.
func Usagef(format string, a ...any) error {
	return &exitError{kind: vocab.KindUsage, err: fmt.Errorf(format, a...)}
}

// BadInput is bad input data (exit 65): a malformed plan, CSV or config.
func BadInput(err error) error { return &exitError{kind: vocab.KindBadInput, err: err} }

// Refused is a precondition that refused the operation (exit 3); nothing
// was written.
func Refused(err error) error { return &exitError{kind: vocab.KindRefused, err: err} }

// Silent ends the command with code and no further message.
func Silent(code int) error { return &exitError{kind: kindOfCode(code), silent: true} }

// ExitCode maps an error to kcg's exit code. It is the one place that
// decides codes, and it reads only kinds: the kind of the first error in
// err's chain that has one (vocab.KindOf). An error of no kind is an
// interrupt (130) when ctx was cancelled and the chain holds
// context.Canceled, otherwise a runtime error (1).
func ExitCode(ctx context.Context, err error) int {
	if err == nil {
		return ExitOK
	}
	k := vocab.KindOf(err)
	if k == vocab.KindNone && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		k = vocab.KindInterrupted
	}
	return CodeOf(k)
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

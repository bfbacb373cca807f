package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// Exit codes (docs/exit-codes.md; ../shared/spec/kcg.md §4).
const (
	ExitOK          = 0
	ExitError       = 1
	ExitDiff        = 2
	ExitRefused     = 3
	ExitPartial     = 4
	ExitUsage       = 64
	ExitBadInput    = 65
	ExitInterrupted = 130
)

// exitError carries an exit code with the error that caused it. silent
// errors print nothing (the command already reported, e.g. a diff).
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

// usageErrorf is a usage error (exit 64): unknown flag, missing or
// conflicting options.
func usageErrorf(format string, a ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, a...)}
}

// inputError is bad input data (exit 65): a malformed plan, CSV or config.
func inputError(err error) error { return &exitError{code: ExitBadInput, err: err} }

// refusedError is a precondition that refused the operation (exit 3);
// nothing was written.
func refusedError(err error) error { return &exitError{code: ExitRefused, err: err} }

// silentExit ends the command with code and no further message.
func silentExit(code int) error { return &exitError{code: code, silent: true} }

// exitCodeOf maps an error to kcg's exit code. It is the one place that
// decides codes.
func exitCodeOf(ctx context.Context, err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	if errors.Is(err, kafkaadmin.ErrNoBootstrap) {
		return ExitUsage
	}
	if code, ok := connConfigExitCode(err); ok {
		return code
	}
	return ExitError
}

// isSilent reports whether err has been reported already.
func isSilent(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.silent
}

// connConfigExitCode maps connection-configuration errors: flag misuse is a
// usage error (64), a bad --command-config file or key material is bad
// input (65).
func connConfigExitCode(err error) (int, bool) {
	var ce *kafkaadmin.ConfigError
	if !errors.As(err, &ce) {
		return 0, false
	}
	if ce.Kind == kafkaadmin.ConfigErrorUsage {
		return ExitUsage, true
	}
	return ExitBadInput, true
}

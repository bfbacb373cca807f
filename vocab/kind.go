package vocab

import (
	"errors"
	"strconv"
)

// Kind is what an error says happened, as far as the end of the process
// cares: the operator's command line was wrong, a file was malformed, a
// precondition refused, a write stopped part way, ... The operation
// packages give their errors a kind (an ErrorKind method); the process
// package alone turns a kind into an exit code (app.ExitCode), so no layer
// below it knows exit numbers and the process package knows no
// operation's error types.
type Kind int

// The kinds. KindNone is an error that says nothing of itself: a runtime
// failure (the cluster unreachable, Kafka refusing a read), or an interrupt
// when the operator's context was cancelled.
const (
	KindNone Kind = iota
	// KindFailed: the operation failed at run time and has said so (a
	// group not described, an offset not deleted).
	KindFailed
	// KindDiffers: two plans, or a plan and the live cluster, differ
	// (kcg diff).
	KindDiffers
	// KindRefused: a precondition refused the operation; nothing was
	// written.
	KindRefused
	// KindPartial: some writes were made and some not, or what was
	// written was overwritten while apply watched it.
	KindPartial
	// KindBreach: a group is over a --max-lag, --max-time-lag or
	// --min-retention-headroom limit.
	KindBreach
	// KindUnreported: the writes were made but their report could not be
	// printed.
	KindUnreported
	// KindUsage: the command line is wrong (a flag, its value, a name
	// that does not exist, options that conflict).
	KindUsage
	// KindBadInput: data given to kcg is malformed or cannot be used (a
	// plan file, a CSV, a config file, key material).
	KindBadInput
	// KindInterrupted: the operator interrupted the command (Ctrl-C,
	// SIGTERM).
	KindInterrupted
)

var kindNames = [...]string{
	KindNone:        "none",
	KindFailed:      "failed",
	KindDiffers:     "differs",
	KindRefused:     "refused",
	KindPartial:     "partial",
	KindBreach:      "breach",
	KindUnreported:  "unreported",
	KindUsage:       "usage",
	KindBadInput:    "bad input",
	KindInterrupted: "interrupted",
}

// String names the kind ("bad input").
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Kinded is an error that knows its kind. The method is ErrorKind, not
// Kind: several error types already have a field named Kind.
type Kinded interface {
	error
	ErrorKind() Kind
}

// KindOf returns the kind of err: that of the first error in its chain
// (errors.As order: the outermost) that has one, KindNone when none has.
func KindOf(err error) Kind {
	if k, ok := errors.AsType[Kinded](err); ok {
		return k.ErrorKind()
	}
	return KindNone
}

// WithKind gives err the kind k: the result prints as err and unwraps to
// it (errors.Is and errors.As see err). A nil err stays nil.
func WithKind(k Kind, err error) error {
	if err == nil {
		return nil
	}
	return &kindedError{kind: k, err: err}
}

type kindedError struct {
	kind Kind
	err  error
}

func (e *kindedError) Error() string   { return e.err.Error() }
func (e *kindedError) Unwrap() error   { return e.err }
func (e *kindedError) ErrorKind() Kind { return e.kind }

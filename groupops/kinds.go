package groupops

import "github.com/kcg-dev/kcg/vocab"

// The kinds of groupops' errors (vocab.Kind; app.ExitCode turns a kind
// into an exit code). They are declared here, apart from the types, so
// that each error's kind can be read in one place.

// ErrorKind: a refused plan or apply wrote nothing.
func (e *RefusedError) ErrorKind() vocab.Kind { return vocab.KindRefused }

// ErrorKind: a group of a type the operation does not manage is refused.
func (e *OtherTypeError) ErrorKind() vocab.Kind { return vocab.KindRefused }

// ErrorKind: --to-group's source group is missing or has no commit in
// the scope.
func (e *SourceMissingError) ErrorKind() vocab.Kind { return vocab.KindRefused }

// ErrorKind: a plan entry's group is of another type now than at plan
// time.
func (e *TypeMismatchError) ErrorKind() vocab.Kind { return vocab.KindRefused }

// ErrorKind: the cluster has no streams groups (Kafka 3.9, 4.0).
func (*NoStreamsGroupsError) ErrorKind() vocab.Kind { return vocab.KindRefused }

// ErrorKind: a strategy share groups cannot take is the operator's
// command line.
func (e *ShareStrategyError) ErrorKind() vocab.Kind { return vocab.KindUsage }

// ErrorKind: a partition list for a share group's offsets is the
// operator's command line.
func (e *ShareWholeTopicsError) ErrorKind() vocab.Kind { return vocab.KindUsage }

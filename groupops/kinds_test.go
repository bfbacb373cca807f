package groupops

import (
	"fmt"
	"testing"

	"github.com/kcg-dev/kcg/vocab"
)

// TestErrorKinds: each groupops error that decides an exit code has its
// kind, also when a caller wraps it (app.ExitCode reads the kind).
func TestErrorKinds(t *testing.T) {
	cases := []struct {
		err  error
		want vocab.Kind
	}{
		{&RefusedError{}, vocab.KindRefused},
		{&OtherTypeError{}, vocab.KindRefused},
		{&SourceMissingError{}, vocab.KindRefused},
		{&TypeMismatchError{}, vocab.KindRefused},
		{&NoStreamsGroupsError{}, vocab.KindRefused},
		{&NoShareGroupsError{}, vocab.KindRefused},
		{&ShareStrategyError{}, vocab.KindUsage},
		{&ShareWholeTopicsError{}, vocab.KindUsage},
		// Errors the commands give a kind themselves have none of their own.
		{&StillActiveError{}, vocab.KindNone},
		{&CheckpointsTopicMissingError{}, vocab.KindNone},
		{&FromFileError{}, vocab.KindNone},
	}
	for _, c := range cases {
		if got := vocab.KindOf(fmt.Errorf("plan: %w", c.err)); got != c.want {
			t.Errorf("%T: kind %v, want %v", c.err, got, c.want)
		}
	}
}

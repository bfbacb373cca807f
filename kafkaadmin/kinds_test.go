package kafkaadmin

import (
	"fmt"
	"testing"

	"github.com/kcg-dev/kcg/vocab"
)

// TestErrorKinds: a cluster without share groups refuses (exit 3); wire
// errors have no kind (a runtime failure, exit 1).
func TestErrorKinds(t *testing.T) {
	cases := []struct {
		err  error
		want vocab.Kind
	}{
		{&NoShareGroupsError{API: "ShareGroupDescribe"}, vocab.KindRefused},
		{&UnreachableError{}, vocab.KindNone},
		{&TimeoutError{}, vocab.KindNone},
		{&UnknownTopicError{Topic: "t"}, vocab.KindNone},
	}
	for _, c := range cases {
		if got := vocab.KindOf(fmt.Errorf("describe: %w", c.err)); got != c.want {
			t.Errorf("%T: kind %v, want %v", c.err, got, c.want)
		}
	}
}

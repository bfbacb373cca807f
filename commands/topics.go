package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// topicArgs parses the --topic values (T or T:0,2) of a native command.
// An empty topic name (--topic "", --topic :0) is a usage error: it is a
// variable that expanded to nothing, never a topic.
func topicArgs(c *cli.Context) ([]resetplan.TopicSpec, error) {
	var out []resetplan.TopicSpec
	for _, a := range c.StringSlice("topic") {
		ts, err := resetplan.ParseTopicArg(a)
		if err != nil {
			return nil, app.Usagef("%s", err)
		}
		if strings.TrimSpace(ts.Topic) == "" {
			return nil, app.Usagef("--topic %q names no topic: give --topic T or --topic T:0,2", a)
		}
		out = append(out, ts)
	}
	return out, nil
}

// withTopicHints adds, to a plan's "topic X does not exist", the
// cluster's topics closest to each (a typo: --topic paymnts), as a
// missing group gets. Listing the topics is best effort: if it fails, err
// is returned as it was.
func withTopicHints(ctx context.Context, cl *kafkaadmin.Client, err error) error {
	var nf *resetplan.NotFoundError
	if !errors.As(err, &nf) {
		return err
	}
	// The topics named alone, then those of named partitions (t:0).
	missing := slices.Clone(nf.Topics)
	for _, tp := range nf.Partitions {
		if !slices.Contains(missing, tp.Topic) {
			missing = append(missing, tp.Topic)
		}
	}
	topics, lerr := cl.Topics(ctx, nil)
	if lerr != nil {
		return err
	}
	names := make([]string, 0, len(topics))
	for name, ti := range topics {
		if ti.Err == nil {
			names = append(names, name)
		}
	}
	var hints []string
	for _, t := range missing {
		if _, ok := topics[t]; ok && topics[t].Err == nil {
			continue // the topic exists: a partition of it does not
		}
		if near := groupops.ClosestNames(t, names, 3); len(near) > 0 {
			hints = append(hints, fmt.Sprintf("closest to %q: %s", t, strings.Join(near, ", ")))
		}
	}
	if len(hints) == 0 {
		return err
	}
	return &hintedError{err: err, hint: strings.Join(hints, "; ")}
}

// hintedError is err with a hint after it; errors.Is and As see err, so
// its exit code is err's.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + " (" + e.hint + ")" }
func (e *hintedError) Unwrap() error { return e.err }

package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// translateOptionsFrom checks the --translate-from options of kcg plan:
// --checkpoints-topic and --max-checkpoint-age only with it, and no
// --allow-new-group (a checkpoint is the proof a group exists upstream;
// a group without one is refused whatever the flags).
func translateOptionsFrom(c *cli.Context, o *planOptions) error {
	st := &o.request.Strategy
	if st.Type != resetplan.StrategyTranslateFrom {
		for _, f := range []string{"checkpoints-topic", "max-checkpoint-age"} {
			if c.IsSet(f) {
				return app.Usagef("--%s goes with --translate-from ALIAS", f)
			}
		}
		return nil
	}
	if c.IsSet("checkpoints-topic") {
		if c.String("checkpoints-topic") == "" {
			return app.Usagef("--checkpoints-topic: a topic name is required")
		}
		st.CheckpointsTopic = c.String("checkpoints-topic")
	}
	if st.MaxCheckpointAge = c.Duration("max-checkpoint-age"); st.MaxCheckpointAge < 0 {
		return app.Usagef("--max-checkpoint-age must not be negative")
	}
	if o.allowNewGroup {
		return app.Usagef("--translate-from plans the groups MirrorMaker 2 has checkpoints for: drop --allow-new-group")
	}
	return nil
}

// readCheckpoints reads the checkpoints topic into the strategy and
// returns the groups to plan: those named, or with --all-groups every
// group that has a checkpoint. A topic kcg cannot decode is bad input
// (exit 65); a missing topic a refusal (exit 3).
func readCheckpoints(ctx context.Context, cl *kafkaadmin.Client, o *planOptions) ([]string, error) {
	st := &o.request.Strategy
	cps, err := groupops.ReadCheckpoints(ctx, cl, st.CheckpointsTopic)
	var missing *groupops.CheckpointsTopicMissingError
	var bad *groupops.CheckpointRecordError
	switch {
	case errors.As(err, &missing):
		return nil, app.Refused(err)
	case errors.As(err, &bad):
		return nil, app.BadInput(err)
	case err != nil:
		return nil, err
	}
	st.Checkpoints = cps
	if !o.scope.all {
		return o.scope.groups, nil
	}
	// --all-groups: the groups with a checkpoint in the scope (--topic
	// narrows it), so a topic filter does not turn into refusals.
	var groups []string
	for g, tps := range cps {
		for tp := range tps {
			if resetplan.InScope(o.request.Scope, tp) {
				groups = append(groups, g)
				break
			}
		}
	}
	if len(groups) == 0 {
		return nil, app.Refused(errors.New("--all-groups: " + st.CheckpointsTopic + " holds no checkpoint in the scope given: MirrorMaker 2 has translated no such group yet; no plan was written"))
	}
	slices.Sort(groups)
	return groups, nil
}

// readFailoverSource reads the source cluster of a translate-from plan,
// opts, dialed by dial, for kcg show: each group's commits there and the
// time span of the records committed past each checkpoint.
func readFailoverSource(parent context.Context, dial dialFunc, opts connconfig.ConnOptions, p *resetplan.Plan) (*output.FailoverSource, error) {
	cl, ctx, done, err := dial(parent)
	if err != nil {
		return nil, err
	}
	defer done()
	pos, err := groupops.ReadSourcePositions(ctx, cl, p)
	if err != nil {
		return nil, fmt.Errorf("reading the source cluster %s: %w", cl.Bootstrap(), err)
	}
	src := &output.FailoverSource{Cluster: cl.Bootstrap(), Partitions: map[output.FailoverKey]output.SourcePartition{}}
	if opts.Profile != "" {
		src.Cluster = "profile " + opts.Profile + " (" + cl.Bootstrap() + ")"
	}
	for g, m := range pos {
		for tp, sp := range m {
			src.Partitions[output.FailoverKey{Group: g, TP: tp}] = output.SourcePartition{SourceTopic: sp.SourceTopic, Committed: sp.Committed, Span: sp.Span, Err: sp.Err}
		}
	}
	return src, nil
}

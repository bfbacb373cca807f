package commands

import (
	"context"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/sandbox"
	"github.com/urfave/cli/v2"
)

// dialFunc connects a command to its cluster: the client, a context under
// parent bounded by --timeout, and done, which releases both. Each options
// struct of a command that talks to Kafka carries one, set from the flags
// by its xOptionsFrom, so that its run function needs no CLI context and a
// test can hand it a fake (another cluster, or a dial that fails).
type dialFunc func(parent context.Context) (cl *kafkaadmin.Client, ctx context.Context, done func(), err error)

// dialEachFunc is dialFunc for kcg watch (app.DialEach): --timeout bounds
// each round of requests, whose context round gives.
type dialEachFunc func() (cl *kafkaadmin.Client, round func(parent context.Context) (context.Context, context.CancelFunc), done func(), err error)

// dialFrom is how c's command connects: as its connection flags say, or,
// with --sandbox, to a demo cluster that lives as long as the command. The
// flags are read now; an error in them is the dial's, returned when the
// run connects (after the run's own checks that need no cluster).
func dialFrom(c *cli.Context) dialFunc {
	o, err := connOptions(c)
	if !c.Bool("sandbox") {
		return dialWith(o, err)
	}
	return dialSandbox(o, err, sandboxConflict(c))
}

// dialWith dials o, or returns err (the error of reading o from the
// flags) without dialing.
func dialWith(o connconfig.ConnOptions, err error) dialFunc {
	return func(parent context.Context) (*kafkaadmin.Client, context.Context, func(), error) {
		if err != nil {
			return nil, nil, nil, err
		}
		return app.Dial(parent, o)
	}
}

// dialEachFrom is dialFrom for kcg watch.
func dialEachFrom(c *cli.Context) dialEachFunc {
	o, err := connOptions(c)
	return func() (*kafkaadmin.Client, func(context.Context) (context.Context, context.CancelFunc), func(), error) {
		if err != nil {
			return nil, nil, nil, err
		}
		return app.DialEach(o)
	}
}

// dialSandbox starts a demo cluster and dials it with o's settings but
// its address (no profile, no --command-config); conflict is a connection
// flag typed beside --sandbox (sandboxConflict), and err the error of
// reading o, each returned in the order connecting meets them.
func dialSandbox(o connconfig.ConnOptions, err, conflict error) dialFunc {
	return func(parent context.Context) (*kafkaadmin.Client, context.Context, func(), error) {
		if conflict != nil {
			return nil, nil, nil, conflict
		}
		sb, serr := sandbox.Start(parent, sandbox.Options{})
		if serr != nil {
			return nil, nil, nil, serr
		}
		if err != nil {
			sb.Close()
			return nil, nil, nil, err
		}
		so := o
		so.Bootstrap = sb.Addr()
		so.CommandConfig = ""
		so.UseProfiles = false // the demo cluster is no profile's
		cl, ctx, done, derr := app.Dial(parent, so)
		if derr != nil {
			sb.Close()
			return nil, nil, nil, derr
		}
		return cl, ctx, func() { done(); sb.Close() }, nil
	}
}

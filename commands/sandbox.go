package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/sandbox"
	"github.com/urfave/cli/v2"
)

func sandboxFlag() cli.Flag {
	return &cli.BoolFlag{Name: "sandbox", Usage: "run against a fresh in-process demo cluster (no Kafka needed; see 'kcg sandbox')"}
}

func sandboxCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:  "sandbox",
		Usage: "run an in-memory Kafka-compatible cluster with demo groups until interrupted",
		Description: "Starts a Kafka-compatible cluster (franz-go's kfake) on loopback and seeds it:\n" +
			"topic payments (1 partition, records pay-0..pay-5) with group billing\n" +
			"committed at 3 (lag 3); topic orders (3 partitions) with groups fulfillment\n" +
			"and analytics (partition 2 never committed); group shipping with a live\n" +
			"member. Point kcg at the printed address, e.g.\n" +
			"  kcg describe --all-groups --bootstrap-server ADDRESS\n" +
			"or use --sandbox on list, describe or plan for a one-shot run.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "port", Usage: "port to listen on", DefaultText: "a free port"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if p := c.Int("port"); p < 0 || p > 65535 {
				return app.Usagef("--port %d: a port is 0 (a free one) to 65535", p)
			}
			sb, err := sandbox.Start(c.Context, sandbox.Options{Port: c.Int("port")})
			if err != nil {
				return err
			}
			defer sb.Close()
			fmt.Fprintf(s.Out, "%s\n", sb.Addr())
			fmt.Fprintf(s.Err, "kcg sandbox: Kafka-compatible cluster %q at %s (Ctrl-C stops it)\n", sb.ClusterID(), sb.Addr())
			fmt.Fprintf(s.Err, "  try: kcg describe --all-groups --bootstrap-server %s\n", sb.Addr())
			<-c.Context.Done()
			return c.Context.Err() // Ctrl-C or SIGTERM: exit 130, as every command

		},
	}
}

// connectOrSandbox connects as the flags say, or, with --sandbox, starts a
// demo cluster that lives as long as the command (dialFrom), for the steps
// that are given the CLI context rather than a dial (shell completion).
func connectOrSandbox(c *cli.Context) (*kafkaadmin.Client, context.Context, func(), error) {
	return dialFrom(c)(c.Context)
}

// sandboxConflict refuses a connection flag typed with --sandbox,
// whatever its value (also one equal to KCG_BOOTSTRAP_SERVER): the
// operator named a cluster, and the demo one would answer instead. A value
// only in the environment (KCG_BOOTSTRAP_SERVER, KCG_PROFILE) is no
// conflict: --sandbox on the command line wins over the environment.
// --timeout applies to the sandbox too.
func sandboxConflict(c *cli.Context) error {
	typed := typedFlags(c)
	for _, f := range connectionFlags() {
		name := f.Names()[0]
		if name == "timeout" || !typed[name] {
			continue
		}
		return app.Usagef("--sandbox runs against its own demo cluster: it cannot be combined with --%s", name)
	}
	return nil
}

// argsKey is the App.Metadata key of the command line Run parsed.
const argsKey = "args"

// typedFlags are the names (every alias) of the flags of c's command typed
// on the command line, as opposed to taken from the environment, which
// urfave/cli's IsSet does not tell apart.
func typedFlags(c *cli.Context) map[string]bool {
	args, _ := c.App.Metadata[argsKey].([]string)
	out := map[string]bool{}
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := lookupFlag(c.Command, "-"+name)
		if f == nil {
			continue
		}
		for _, n := range f.Names() {
			out[n] = true
		}
		if takesValue(f) && !hasValue {
			i++ // its value, whatever it looks like
		}
	}
	return out
}

package commands

import (
	"context"
	"fmt"

	"github.com/kcg-dev/kcg/internal/app"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/sandbox"
	"github.com/urfave/cli/v2"
)

func sandboxFlag() cli.Flag {
	return &cli.BoolFlag{Name: "sandbox", Usage: "run against a fresh in-process demo cluster (no Kafka needed; see 'kcg sandbox')"}
}

func sandboxCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:  "sandbox",
		Usage: "run an in-memory Kafka-compatible cluster with demo groups until interrupted",
		Description: "Starts a Kafka-compatible cluster (franz-go's kfake) on loopback and seeds it:\n" +
			"topic payments (1 partition, records pay-0..pay-5) with group billing\n" +
			"committed at 3 (lag 3); topic orders (3 partitions) with groups fulfillment\n" +
			"and analytics (partition 2 never committed); group shipping with a live\n" +
			"member. Point kcg at the printed address, e.g.\n" +
			"  kcg describe --all-groups --bootstrap-server ADDRESS\n" +
			"or use --sandbox on any command for a one-shot run.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "port", Usage: "port to listen on (default: a free port)"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			sb, err := sandbox.Start(c.Context, sandbox.Options{Port: c.Int("port")})
			if err != nil {
				return err
			}
			defer sb.Close()
			fmt.Fprintf(s.Out, "%s\n", sb.Addr())
			fmt.Fprintf(s.Err, "kcg sandbox: Kafka-compatible cluster %q at %s (Ctrl-C stops it)\n", sandbox.ClusterID, sb.Addr())
			fmt.Fprintf(s.Err, "  try: kcg describe --all-groups --bootstrap-server %s\n", sb.Addr())
			<-c.Context.Done()
			return nil
		},
	}
}

// connectOrSandbox connects as the flags say, or, with --sandbox, starts a
// demo cluster that lives as long as the command.
func connectOrSandbox(c *cli.Context) (*kafkaadmin.Client, context.Context, func(), error) {
	if !c.Bool("sandbox") {
		cl, ctx, done, err := connect(c)
		return cl, ctx, done, err
	}
	sb, err := sandbox.Start(c.Context, sandbox.Options{})
	if err != nil {
		return nil, nil, nil, err
	}
	o, err := connOptions(c)
	if err != nil {
		sb.Close()
		return nil, nil, nil, err
	}
	o.Bootstrap = sb.Addr()
	o.CommandConfig = ""
	cl, ctx, done, err := app.Dial(c.Context, o)
	if err != nil {
		sb.Close()
		return nil, nil, nil, err
	}
	return cl, ctx, func() { done(); sb.Close() }, nil
}

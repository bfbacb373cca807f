// Command kcg replaces Apache Kafka's kafka-consumer-groups.sh: describe
// consumer groups and their lag, and reset offsets through reviewed plan
// files. See docs/ and README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/kcg-dev/kcg/commands"
)

func main() {
	// A closed stdout (`kcg describe --all-groups | head -1`) is then a
	// write error that commands.Run ends quietly with 0, not a SIGPIPE
	// death (exit 141 under pipefail).
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := commands.Run(ctx, os.Args, commands.StdIO())
	stop()
	os.Exit(code)
}

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
	"github.com/kcg-dev/kcg/internal/app"
)

// Set by a release build that links -X main.version=... (goreleaser);
// internal/app's own variables can be set with -X directly instead (see
// internal/app/version.go). Empty values leave app's as they are.
var (
	version = ""
	commit  = ""
	date    = ""
)

func main() {
	for _, v := range []struct{ from, to *string }{{&version, &app.BuildVersion}, {&commit, &app.Commit}, {&date, &app.Date}} {
		if *v.from != "" {
			*v.to = *v.from
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := commands.Run(ctx, os.Args, commands.StdStreams())
	stop()
	os.Exit(code)
}

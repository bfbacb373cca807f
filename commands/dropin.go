package commands

import (
	"context"
	"fmt"
)

// runDropIn runs the Java kafka-consumer-groups command line.
func runDropIn(ctx context.Context, args []string, s Streams) int {
	for _, a := range args[1:] {
		if a == "--version" {
			fmt.Fprintln(s.Out, Version())
			return ExitOK
		}
	}
	fmt.Fprintln(s.Err, "kcg: the kafka-consumer-groups command line is not supported by this build yet; use kcg's own commands (kcg --help)")
	return ExitUsage
}

// dropInMarkdown documents drop-in mode in the command reference.
const dropInMarkdown = `
# DROP-IN MODE

Called with the Java tool's command line — first argument an option such as
` + "`--bootstrap-server`" + `, or the binary named ` + "`kafka-consumer-groups`" + ` or
` + "`kafka-consumer-groups.sh`" + ` — kcg behaves as Apache Kafka's
kafka-consumer-groups.sh. See docs/migration.md.
`

package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/urfave/cli/v2"
)

// defaultTimeout is the whole-command deadline when --timeout is not given.
const defaultTimeout = 30 * time.Second

// connectionFlags are on every command that talks to Kafka (leaf commands,
// so they can be typed anywhere after the command name).
func connectionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "bootstrap-server", Aliases: []string{"b"}, Usage: "Kafka bootstrap servers, HOST:PORT[,HOST:PORT]", EnvVars: []string{"KCG_BOOTSTRAP_SERVER"}},
		&cli.StringFlag{Name: "command-config", Usage: "Java client properties file (security.protocol, sasl.*, ssl.*)"},
		&cli.StringFlag{Name: "security-protocol", Usage: "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL"},
		&cli.StringFlag{Name: "sasl-mechanism", Usage: "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512"},
		&cli.StringFlag{Name: "sasl-username", Usage: "SASL user name"},
		&cli.StringFlag{Name: "sasl-password", Usage: "SASL password (prefer env KCG_SASL_PASSWORD)", EnvVars: []string{"KCG_SASL_PASSWORD"}},
		&cli.StringFlag{Name: "tls-ca-file", Usage: "PEM file of CA certificates to trust"},
		&cli.StringFlag{Name: "tls-cert-file", Usage: "PEM client certificate (mutual TLS)"},
		&cli.StringFlag{Name: "tls-key-file", Usage: "PEM client key (mutual TLS)"},
		&cli.StringFlag{Name: "tls-server-name", Usage: "server name to verify instead of the broker host"},
		&cli.BoolFlag{Name: "tls-insecure-skip-verify", Usage: "do not verify broker certificates (unsafe; for tests only)"},
		timeoutFlag(),
	}
}

func timeoutFlag() cli.Flag {
	return &cli.StringFlag{Name: "timeout", Value: "30s", Usage: "deadline for the whole command: a duration (30s, 2m) or milliseconds"}
}

func outputFlag(formats ...string) cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: formats[0], Usage: "output format: " + strings.Join(formats, ", ")}
}

// parseTimeout accepts a Go duration or, as the Java tool does, a number
// of milliseconds.
func parseTimeout(s string) (time.Duration, error) {
	if s == "" {
		return defaultTimeout, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms <= 0 {
			return 0, usageErrorf("--timeout must be positive, got %q", s)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, usageErrorf("--timeout: %q is not a duration (30s, 2m) or a number of milliseconds", s)
	}
	return d, nil
}

// connOptions gathers the connection flags.
func connOptions(c *cli.Context) (kafkaadmin.ConnOptions, error) {
	t, err := parseTimeout(c.String("timeout"))
	if err != nil {
		return kafkaadmin.ConnOptions{}, err
	}
	return kafkaadmin.ConnOptions{
		Bootstrap:             c.String("bootstrap-server"),
		CommandConfig:         c.String("command-config"),
		SecurityProtocol:      c.String("security-protocol"),
		SASLMechanism:         c.String("sasl-mechanism"),
		SASLUsername:          c.String("sasl-username"),
		SASLPassword:          c.String("sasl-password"),
		TLSCAFile:             c.String("tls-ca-file"),
		TLSCertFile:           c.String("tls-cert-file"),
		TLSKeyFile:            c.String("tls-key-file"),
		TLSServerName:         c.String("tls-server-name"),
		TLSInsecureSkipVerify: c.Bool("tls-insecure-skip-verify"),
		Timeout:               t,
	}, nil
}

// connect resolves the connection flags and returns a client and a context
// bounded by --timeout. The caller closes the client and cancels.
func connect(c *cli.Context) (*kafkaadmin.Client, context.Context, context.CancelFunc, error) {
	o, err := connOptions(c)
	if err != nil {
		return nil, nil, nil, err
	}
	return dial(c.Context, o)
}

func dial(parent context.Context, o kafkaadmin.ConnOptions) (*kafkaadmin.Client, context.Context, context.CancelFunc, error) {
	cfg, err := o.Resolve()
	if err != nil {
		return nil, nil, nil, err
	}
	cl, err := kafkaadmin.New(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	return cl, ctx, func() { cancel(); cl.Close() }, nil
}

// groupsFromArgs collects groups given as positional arguments and as
// repeated --group flags, in order, without duplicates.
func groupsFromArgs(c *cli.Context) []string {
	return dedupe(append(c.Args().Slice(), c.StringSlice("group")...))
}

// dedupe returns in without repeats, in first-seen order.
func dedupe[T comparable](in []T) []T {
	seen := make(map[T]bool, len(in))
	var out []T
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// groupScope returns the groups named (arguments and --group) and whether
// --all-groups was given; exactly one of the two is required.
func groupScope(c *cli.Context) ([]string, bool, error) {
	groups, all := groupsFromArgs(c), c.Bool("all-groups")
	if all && len(groups) > 0 {
		return nil, false, usageErrorf("give groups or --all-groups, not both")
	}
	if !all && len(groups) == 0 {
		return nil, false, usageErrorf("%s", errNoGroups)
	}
	return groups, all, nil
}

func groupFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "group", Aliases: []string{"g"}, Usage: "group id (repeatable; groups may also be given as arguments)"}
}

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

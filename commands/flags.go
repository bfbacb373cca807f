package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

// action is a command's Action: fill and validate its options from the
// flags (from), then run it (run) with the command's context. Keeping the
// two apart lets the options be tested without a broker, and the run
// without a command line (its options carry their dial).
func action[T any](s IO, from func(*cli.Context) (T, error), run func(context.Context, IO, T) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := refuseManyProfiles(c); err != nil {
			return err
		}
		o, err := from(c)
		if err != nil {
			return err
		}
		return run(c.Context, s, o)
	}
}

// connectionFlags are on every command that talks to Kafka (leaf commands,
// so they can be typed anywhere after the command name). --all-profiles
// is hidden: only list, describe and watch (fleetConnectionFlags) read
// several clusters, and the others refuse it with their reason.
func connectionFlags() []cli.Flag { return append(connFlags(), allProfilesFlag(true)) }

// fleetConnectionFlags are the connection flags of list, describe and
// watch, which take --profile a,b,c and --all-profiles.
func fleetConnectionFlags() []cli.Flag { return append(connFlags(), allProfilesFlag(false)) }

func connFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "bootstrap-server", Aliases: []string{"b"}, Usage: "Kafka bootstrap servers, HOST:PORT[,HOST:PORT]", EnvVars: []string{"KCG_BOOTSTRAP_SERVER"}},
		&cli.StringFlag{Name: "profile", Usage: "named cluster from the config file (see 'kcg profile list'); list, describe and watch take several, a,b,c", EnvVars: []string{"KCG_PROFILE"}},
		&cli.StringFlag{Name: "command-config", Usage: "Java client properties file (security.protocol, sasl.*, ssl.*)"},
		&cli.StringFlag{Name: "security-protocol", Usage: "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL"},
		&cli.StringFlag{Name: "sasl-mechanism", Usage: "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM or GSSAPI"},
		&cli.StringFlag{Name: "sasl-username", Usage: "SASL user name"},
		&cli.StringFlag{Name: "sasl-password", Usage: "SASL password (prefer env KCG_SASL_PASSWORD)", EnvVars: []string{"KCG_SASL_PASSWORD"}},
		&cli.StringFlag{Name: "sasl-oauth-token-endpoint", Usage: "OAUTHBEARER: OIDC token endpoint URL (client id: --sasl-username, secret: KCG_SASL_PASSWORD), or file:///PATH"},
		&cli.StringFlag{Name: "sasl-oauth-token-file", Usage: "OAUTHBEARER: file holding the token (re-read when it changes)"},
		&cli.StringFlag{Name: "sasl-oauth-scope", Usage: "OAUTHBEARER: scope to ask the token endpoint for"},
		&cli.StringFlag{Name: "sasl-kerberos-keytab", Usage: "GSSAPI: the client principal's keytab (default: the kinit ticket cache)"},
		&cli.StringFlag{Name: "sasl-kerberos-principal", Usage: "GSSAPI: the client principal, NAME[/INSTANCE][@REALM]"},
		&cli.StringFlag{Name: "sasl-kerberos-service-name", Usage: "GSSAPI: the brokers' service name (sasl.kerberos.service.name), usually kafka"},
		&cli.StringFlag{Name: "krb5-config", Usage: "GSSAPI: krb5.conf to read (default: -Djava.security.krb5.conf of $KAFKA_OPTS, else $KRB5_CONFIG, else /etc/krb5.conf)"},
		&cli.StringFlag{Name: "tls-ca-file", Usage: "PEM file of CA certificates to trust"},
		&cli.StringFlag{Name: "tls-cert-file", Usage: "PEM client certificate (mutual TLS)"},
		&cli.StringFlag{Name: "tls-key-file", Usage: "PEM client key (mutual TLS)"},
		&cli.StringFlag{Name: "tls-server-name", Usage: "server name to verify instead of the broker host"},
		&cli.BoolFlag{Name: "tls-insecure-skip-verify", Usage: "do not verify broker certificates (unsafe; for tests only)"},
		&cli.StringFlag{Name: "timeout", Value: "30s", Usage: "deadline for the whole command: a duration (30s, 2m) or milliseconds"},
	}
}

// formatFlag is -o/--output with the formats its command accepts, so the
// parser, the error message and completion use one list.
type formatFlag struct {
	*cli.StringFlag
	formats []string
}

// outputFlag is -o/--output accepting formats, the first the default.
func outputFlag(formats ...string) cli.Flag {
	return &formatFlag{
		StringFlag: &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: formats[0], Usage: "output format: " + strings.Join(formats, ", ")},
		formats:    formats,
	}
}

// formatsOf returns the -o formats cmd accepts (nil: it has no -o).
func formatsOf(cmd *cli.Command) []string {
	if cmd == nil {
		return nil
	}
	for _, f := range cmd.Flags {
		if ff, ok := f.(*formatFlag); ok {
			return ff.formats
		}
	}
	return nil
}

// formatName reads -o as typed by users (case-insensitive: -o JSON) and
// returns the canonical name, or a usage error listing the formats this
// command accepts.
func formatName(c *cli.Context) (string, error) {
	v := c.String("output")
	formats := formatsOf(c.Command)
	for _, f := range formats {
		if strings.EqualFold(strings.TrimSpace(v), f) {
			return f, nil
		}
	}
	return "", app.Usagef("unknown output format %q: valid formats are %s", v, strings.Join(formats, ", "))
}

func groupFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "group", Aliases: []string{"g"}, Usage: "group id (repeatable; groups may also be given as arguments)"}
}

// formatFrom reads -o as a document format; a bad value is a usage error.
func formatFrom(c *cli.Context) (output.Format, error) {
	name, err := formatName(c)
	if err != nil {
		return "", err
	}
	f, err := output.ParseFormat(name)
	if err != nil {
		return f, app.Usagef("%s", err)
	}
	return f, nil
}

// connOptions gathers the connection flags.
func connOptions(c *cli.Context) (connconfig.ConnOptions, error) {
	t, err := app.ParseTimeout(c.String("timeout"))
	if err != nil {
		return connconfig.ConnOptions{}, err
	}
	return connconfig.ConnOptions{
		UseProfiles:            true,
		Profile:                c.String("profile"),
		ProfileFrom:            flagSource(c, "profile", "--profile", connconfig.EnvProfile),
		BootstrapFrom:          flagSource(c, "bootstrap-server", "--bootstrap-server", "KCG_BOOTSTRAP_SERVER"),
		Bootstrap:              c.String("bootstrap-server"),
		CommandConfig:          c.String("command-config"),
		SecurityProtocol:       c.String("security-protocol"),
		SASLMechanism:          c.String("sasl-mechanism"),
		SASLUsername:           c.String("sasl-username"),
		SASLPassword:           c.String("sasl-password"),
		SASLPasswordFromEnv:    flagSource(c, "sasl-password", "--sasl-password", "KCG_SASL_PASSWORD") == "KCG_SASL_PASSWORD",
		SASLOAuthTokenEndpoint: c.String("sasl-oauth-token-endpoint"),
		SASLOAuthTokenFile:     c.String("sasl-oauth-token-file"),
		SASLOAuthScope:         c.String("sasl-oauth-scope"),
		Kerberos: connconfig.KerberosOptions{
			Keytab:      c.String("sasl-kerberos-keytab"),
			Principal:   c.String("sasl-kerberos-principal"),
			ServiceName: c.String("sasl-kerberos-service-name"),
			Krb5Config:  c.String("krb5-config"),
		},
		TLSCAFile:             c.String("tls-ca-file"),
		TLSCertFile:           c.String("tls-cert-file"),
		TLSKeyFile:            c.String("tls-key-file"),
		TLSServerName:         c.String("tls-server-name"),
		TLSInsecureSkipVerify: c.Bool("tls-insecure-skip-verify"),
		Connect:               connectOptionsOf(c),
		Timeout:               t,
	}, nil
}

// flagSource names where a flag's value came from, for messages: the
// flag, or its environment variable when the value is the variable's.
func flagSource(c *cli.Context, name, flag, env string) string {
	if v, ok := os.LookupEnv(env); ok && v != "" && v == c.String(name) {
		return env
	}
	return flag
}

// groupsFromArgs collects groups given as positional arguments and as
// repeated --group flags, in order, without duplicates.
func groupsFromArgs(c *cli.Context) []string {
	return vocab.Dedupe(append(c.Args().Slice(), c.StringSlice("group")...))
}

var errNoGroups = errors.New("no groups given: name groups or use --all-groups")

// groupScope is the groups named (arguments and --group) or --all-groups;
// exactly one of the two is required.
type groupScope struct {
	groups []string
	all    bool
	// types are the group types --all-groups takes (--type; nil: the
	// default, consumer groups: groupops.DefaultAllGroupsTypes).
	types []string
	// hasType is a command with --type (plan).
	hasType bool
}

func groupScopeFrom(c *cli.Context) (groupScope, error) {
	s := groupScope{groups: groupsFromArgs(c), all: c.Bool("all-groups")}
	if s.all && len(s.groups) > 0 {
		return s, app.Usagef("give groups or --all-groups, not both")
	}
	if !s.all && len(s.groups) == 0 {
		return s, app.Usagef("%s", errNoGroups)
	}
	if s.hasType = hasFlag(c, "type"); s.hasType && c.IsSet("type") {
		if !s.all {
			return s, app.Usagef("--type chooses the group types of --all-groups: named groups are taken as they are; drop --type")
		}
		var err error
		if s.types, err = groupops.ParseAllGroupsTypes(c.String("type")); err != nil {
			return s, app.Usagef("%s", err)
		}
	}
	return s, nil
}

// hasFlag reports whether c's command defines flag name.
func hasFlag(c *cli.Context, name string) bool {
	if c.Command == nil {
		return false
	}
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}

// resolve returns the group ids: the named ones, or every group of the
// types --all-groups takes (without --type: every consumer group). For
// --all-groups it says on notes how many share, streams or other groups
// it left out.
func (s groupScope) resolve(ctx context.Context, cl *kafkaadmin.Client, notes io.Writer) ([]string, error) {
	if !s.all {
		return s.groups, nil
	}
	l, err := s.listAll(ctx, cl, notes)
	return l.IDs, err
}

// classify is resolve followed by the split by family for op
// (groupops.Typed, which describe and watch read): --all-groups types its
// ids from the listing that found them; named groups are typed by reading
// them (groupops.ClassifyNamed), and what that read is not read again.
func (s groupScope) classify(ctx context.Context, cl *kafkaadmin.Client, notes io.Writer, op groupops.Op) (groupops.Typed, error) {
	if !s.all {
		return groupops.ClassifyNamed(ctx, cl, s.groups, op)
	}
	l, err := s.listAll(ctx, cl, notes)
	if err != nil {
		return groupops.Typed{}, err
	}
	return l.Typed(op)
}

// listAll lists --all-groups' groups and says on notes how many it left
// out.
func (s groupScope) listAll(ctx context.Context, cl *kafkaadmin.Client, notes io.Writer) (groupops.Listed, error) {
	l, err := groupops.ListAllGroups(ctx, cl, s.types)
	others := l.Others
	if err == nil && others > 0 {
		how := "kcg list --type all shows them"
		if s.hasType {
			how += "; --type names the types to take (e.g. --type share)"
		}
		what := "not consumer groups (share, streams)"
		if s.types != nil {
			what = "of other types than --type " + strings.Join(s.types, ",")
		}
		fmt.Fprintf(notes, "note: --all-groups leaves out %d %s that %s %s; %s\n",
			others, plural(others, "group", "groups"), plural(others, "is", "are"), what, how)
	}
	return l, err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

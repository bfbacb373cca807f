package commands

import (
	"os"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/connect"
	"github.com/urfave/cli/v2"
)

// connectFlags are where Kafka Connect is, on the commands that show or
// reset a connector's group (describe, list, plan, apply, diff):
// docs/connect.md. A profile's connect: section gives the same.
func connectFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "connect", Usage: "Kafka Connect REST URL, http(s)://HOST:PORT (repeatable): show and reset the groups of sink connectors", EnvVars: []string{"KCG_CONNECT"}},
		&cli.StringFlag{Name: "connect-ca-file", Usage: "Kafka Connect: PEM file of CA certificates to trust"},
		&cli.StringFlag{Name: "connect-cert-file", Usage: "Kafka Connect: PEM client certificate (mutual TLS)"},
		&cli.StringFlag{Name: "connect-key-file", Usage: "Kafka Connect: PEM client key (mutual TLS)"},
		&cli.StringFlag{Name: "connect-username", Usage: "Kafka Connect: basic auth user (password: env " + connconfig.EnvConnectPassword + ")"},
		&cli.BoolFlag{Name: "connect-insecure-skip-verify", Usage: "Kafka Connect: do not verify its certificate (unsafe; for tests only)"},
	}
}

// connectOptionsOf reads the Connect flags (empty on a command without
// them).
func connectOptionsOf(c *cli.Context) connconfig.ConnectOptions {
	return connconfig.ConnectOptions{
		URLs:        c.StringSlice("connect"),
		CAFile:      c.String("connect-ca-file"),
		CertFile:    c.String("connect-cert-file"),
		KeyFile:     c.String("connect-key-file"),
		Username:    c.String("connect-username"),
		InsecureTLS: c.Bool("connect-insecure-skip-verify"),
		Password:    os.Getenv(connconfig.EnvConnectPassword),
	}
}

// connectClients resolves c's Connect settings (flags, then the
// profile's connect: section) into one client per Connect cluster; none
// when Connect is not configured. No network.
func connectClients(c *cli.Context) ([]*connect.Client, error) {
	o, err := connOptions(c)
	if err != nil {
		return nil, err
	}
	if c.Bool("sandbox") {
		o.UseProfiles = false
	}
	cc, err := o.ResolveConnect()
	if err != nil || !cc.Configured() {
		return nil, err
	}
	return connect.Clients(connect.Config{URLs: cc.URLs, TLS: cc.TLS, Username: cc.Username, Password: cc.Password}), nil
}

// fleetConnect is connectClients for a command that may read several
// clusters (f non-nil): Kafka Connect belongs to one cluster, so with
// several profiles no owner is read (docs/fleet.md), and --connect, which
// would name one Connect for all of them, is refused.
func fleetConnect(c *cli.Context, f *fleet) ([]*connect.Client, error) {
	if f == nil {
		return connectClients(c)
	}
	if c.IsSet("connect") {
		return nil, app.Usagef("--connect names one cluster's Kafka Connect: give it with one profile (several profiles show no owners)")
	}
	return nil, nil
}

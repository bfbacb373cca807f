package commands

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

// profileCommand is `kcg profile list|show|use`: the named clusters of the
// config file (docs/profiles.md). None of them connects to Kafka.
func profileCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:  "profile",
		Usage: "list, show and choose the named clusters of the config file",
		Description: "Profiles live in $KCG_CONFIG, else $XDG_CONFIG_HOME/kcg/config.yaml, else\n" +
			"~/.config/kcg/config.yaml. Choose one per command with --profile NAME or\n" +
			"KCG_PROFILE, or make one current with 'kcg profile use NAME'. Secrets are\n" +
			"referenced (sasl.passwordEnv, sasl.passwordFile), never written in the file,\n" +
			"and a profile's credentials are sent only to its own bootstrap servers.\n" +
			"See docs/profiles.md.",
		Subcommands: []*cli.Command{
			{
				Name:   "list",
				Usage:  "list the profiles; the current one is marked",
				Flags:  []cli.Flag{outputFlag("table", "json", "yaml")},
				Action: action(s, profileListOptionsFrom, runProfileList),
			},
			{
				Name:      "show",
				Usage:     "show a profile's settings (secrets as their references, never their values)",
				ArgsUsage: "[NAME]",
				Flags:     []cli.Flag{outputFlag("table", "json", "yaml")},
				Action:    action(s, profileShowOptionsFrom, runProfileShow),
			},
			{
				Name:      "use",
				Usage:     "make NAME the current profile (rewrites the current: line of the config file)",
				ArgsUsage: "NAME",
				Action:    action(s, profileUseOptionsFrom, runProfileUse),
			},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return app.Usagef("profile: unknown subcommand %q: use list, show or use", c.Args().First())
			}
			return app.Usagef("profile: give a subcommand: list, show or use")
		},
	}
}

type profileOptions struct {
	format output.Format
	name   string
}

func profileListOptionsFrom(c *cli.Context) (profileOptions, error) {
	if err := noArgs(c); err != nil {
		return profileOptions{}, err
	}
	f, err := formatFrom(c)
	return profileOptions{format: f}, err
}

func profileShowOptionsFrom(c *cli.Context) (profileOptions, error) {
	if c.Args().Len() > 1 {
		return profileOptions{}, app.Usagef("profile show: give at most one profile name")
	}
	f, err := formatFrom(c)
	return profileOptions{format: f, name: c.Args().First()}, err
}

func profileUseOptionsFrom(c *cli.Context) (profileOptions, error) {
	if c.Args().Len() != 1 {
		return profileOptions{}, app.Usagef("profile use: give exactly one profile name (see 'kcg profile list')")
	}
	return profileOptions{name: c.Args().First()}, nil
}

// readProfiles reads the config file. A missing file is no profiles
// (missingOK) or a usage error naming the path.
func readProfiles(missingOK bool) (*connconfig.ProfileFile, error) {
	path, err := connconfig.ConfigPath()
	if err != nil {
		return nil, err
	}
	f, err := connconfig.ReadProfileFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if missingOK {
			return &connconfig.ProfileFile{Path: path}, nil
		}
		return nil, app.Usagef("no config file at %s: create it (see docs/profiles.md) or set %s", path, connconfig.EnvConfig)
	}
	return f, err
}

func runProfileList(_ context.Context, s IO, o profileOptions) error {
	f, err := readProfiles(true)
	if err != nil {
		return err
	}
	if len(f.Profiles) == 0 && o.format == output.FormatTable {
		fmt.Fprintf(s.Err, "kcg: no profiles in %s (see docs/profiles.md)\n", f.Path)
	}
	return output.Write(s.Out, o.format, output.NewProfileList(f))
}

func runProfileShow(_ context.Context, s IO, o profileOptions) error {
	f, err := readProfiles(false)
	if err != nil {
		return err
	}
	name := o.name
	if name == "" {
		// The profile a command would use: KCG_PROFILE, else current:.
		name = os.Getenv(connconfig.EnvProfile)
	}
	if name == "" {
		name = f.Current
	}
	if name == "" {
		return app.Usagef("profile show: no current profile in %s: name one (see 'kcg profile list')", f.Path)
	}
	p, ok := f.Lookup(name)
	if !ok {
		return app.WithCode(app.ExitUsage, &connconfig.UnknownProfileError{Name: name, From: "profile show", Path: f.Path, Known: f.Names()})
	}
	return output.Write(s.Out, o.format, output.NewProfileDocument(f, p))
}

func runProfileUse(_ context.Context, s IO, o profileOptions) error {
	path, err := connconfig.ConfigPath()
	if err != nil {
		return err
	}
	err = connconfig.UseProfile(path, o.name)
	if errors.Is(err, fs.ErrNotExist) {
		return app.Usagef("profile use: no config file at %s: create it (see docs/profiles.md) or set %s", path, connconfig.EnvConfig)
	}
	var ue *connconfig.UnknownProfileError
	if errors.As(err, &ue) {
		return app.WithCode(app.ExitUsage, err)
	}
	if err != nil {
		return err
	}
	// A plain line: `kcg:` starts errors only.
	fmt.Fprintf(s.Err, "current profile is now %s (%s)\n", o.name, path)
	return nil
}

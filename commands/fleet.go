package commands

// Many clusters in one command: kcg list, describe and watch with
// --profile a,b,c or --all-profiles read every named profile's cluster at
// once, each with its own client, and print one document whose groups
// carry their cluster (docs/fleet.md).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

// fleetCommands are the commands that read several clusters.
var fleetCommands = []string{"list", "describe", "watch"}

// oneCluster says why a command other than list, describe and watch
// refuses several profiles.
var oneCluster = map[string]string{
	"plan":           "a plan is one cluster's change",
	"apply":          "a plan is applied to the one cluster it was made for",
	"diff":           "a plan is compared with the one cluster it was made for",
	"delete":         "a delete changes one cluster",
	"delete-offsets": "a delete changes one cluster",
}

// maxFleetReads bounds how many clusters are read at the same time.
const maxFleetReads = 16

// allProfilesFlag is --all-profiles: shown on list, describe and watch,
// hidden elsewhere (where it is refused with a reason, not as unknown).
func allProfilesFlag(hidden bool) cli.Flag {
	return &cli.BoolFlag{Name: "all-profiles", Hidden: hidden, Usage: "read the clusters of every profile in the config file at once (docs/fleet.md)"}
}

// manyProfiles reports whether c names several clusters, and how
// (--all-profiles, --profile or KCG_PROFILE).
func manyProfiles(c *cli.Context) (string, bool) {
	if !hasFlag(c, "profile") {
		return "", false
	}
	if hasFlag(c, "all-profiles") && c.Bool("all-profiles") {
		return "--all-profiles", true
	}
	if p := c.String("profile"); strings.Contains(p, ",") {
		return flagSource(c, "profile", "--profile", connconfig.EnvProfile) + " " + p, true
	}
	return "", false
}

// refuseManyProfiles refuses several profiles on a command that works on
// one cluster (usage, 64).
func refuseManyProfiles(c *cli.Context) error {
	how, many := manyProfiles(c)
	if !many || c.Command == nil || slices.Contains(fleetCommands, c.Command.Name) {
		return nil
	}
	why, ok := oneCluster[c.Command.Name]
	if !ok {
		why = "kcg " + c.Command.Name + " works on one cluster"
	}
	return app.Usagef("%s: %s; name one profile (list, describe and watch take several)", how, why)
}

// fleet is the clusters of --profile a,b,c or --all-profiles, in profile
// name order: each one's connection options.
type fleet struct {
	profiles []string
	opts     []connconfig.ConnOptions
}

// fleetFrom reads the profiles c names; nil when it names one cluster.
// The names are checked against the config file before anything
// connects: an unknown one is a usage error, as for --profile NAME.
func fleetFrom(c *cli.Context) (*fleet, error) {
	how, many := manyProfiles(c)
	if !many {
		return nil, nil
	}
	all := c.Bool("all-profiles")
	if all && flagSource(c, "profile", "--profile", connconfig.EnvProfile) == "--profile" && c.String("profile") != "" {
		return nil, app.Usagef("give --profile a,b or --all-profiles, not both")
	}
	if c.Bool("sandbox") {
		return nil, app.Usagef("--sandbox runs against its own demo cluster: it cannot be combined with %s", how)
	}
	if b := strings.TrimSpace(c.String("bootstrap-server")); b != "" {
		from := flagSource(c, "bootstrap-server", "--bootstrap-server", "KCG_BOOTSTRAP_SERVER")
		return nil, app.Usagef("%s names one cluster, and %s several: each profile's bootstrap is its cluster's; drop %s", from, how, from)
	}
	base, err := connOptions(c)
	if err != nil {
		return nil, err
	}
	path, err := connconfig.ConfigPath()
	if err != nil {
		return nil, err
	}
	file, err := connconfig.ReadProfileFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, app.Usagef("%s: there is no config file at %s (see docs/profiles.md; %s names another file)", how, path, connconfig.EnvConfig)
	}
	if err != nil {
		return nil, err
	}
	names := file.Names()
	from := flagSource(c, "profile", "--profile", connconfig.EnvProfile)
	if !all {
		names = nil
		for _, n := range strings.Split(c.String("profile"), ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			if _, ok := file.Lookup(n); !ok {
				return nil, &connconfig.UnknownProfileError{Name: n, From: from, Path: path, Known: file.Names()}
			}
			names = append(names, n)
		}
		slices.Sort(names)
		names = slices.Compact(names)
	}
	if len(names) == 0 {
		return nil, app.Usagef("%s: %s defines no profile", how, path)
	}
	f := &fleet{profiles: names}
	for _, n := range names {
		o := base
		o.Profile, o.ProfileFrom = n, from
		f.opts = append(f.opts, o)
	}
	return f, nil
}

// fleetPart is what one cluster of a fleet read gave: its status (id or
// error), the value read, and the lines it had for stderr.
type fleetPart[T any] struct {
	status output.ClusterStatus
	val    T
	err    error
	errOut bytes.Buffer
}

// readFleet reads every cluster of f at once (at most maxFleetReads at a
// time), each with its own client and its own --timeout, with read; the
// parts are in f's order. read writes its stderr lines to errOut, which
// readFleet keeps per cluster so that the lines of two clusters never
// mix.
func readFleet[T any](parent context.Context, f *fleet, read func(ctx context.Context, cl *kafkaadmin.Client, errOut io.Writer) (T, error)) []*fleetPart[T] {
	parts := make([]*fleetPart[T], len(f.profiles))
	sem := make(chan struct{}, maxFleetReads)
	var wg sync.WaitGroup
	for i := range f.profiles {
		p := &fleetPart[T]{status: output.ClusterStatus{Profile: f.profiles[i]}}
		parts[i] = p
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cl, ctx, done, err := app.Dial(parent, f.opts[i])
			if err == nil {
				defer done()
				p.val, err = read(ctx, cl, &p.errOut)
				if err == nil {
					p.status.ID = clusterID(ctx, cl)
				}
			}
			p.fail(err)
		}()
	}
	wg.Wait()
	return parts
}

// clusterID is cl's cluster id as its last Metadata answer gave it; nil
// when it gave none.
func clusterID(ctx context.Context, cl *kafkaadmin.Client) *string {
	info, err := cl.RecentCluster(ctx)
	if err != nil || info.ClusterID == "" {
		return nil
	}
	return output.Ptr(info.ClusterID)
}

// fail records err (nil: none) as the part's error.
func (p *fleetPart[T]) fail(err error) {
	p.err = err
	if err != nil {
		p.status.Error = output.Ptr(vocab.OneLine(err.Error()))
	}
}

// statuses are the parts' cluster statuses, in order.
func statuses[T any](parts []*fleetPart[T]) []output.ClusterStatus {
	out := make([]output.ClusterStatus, len(parts))
	for i, p := range parts {
		out[i] = p.status
	}
	return out
}

// reportFleet writes each cluster's stderr lines, each naming its profile
// (profileLines), then one line per cluster that could not be read, and
// returns how many could not. When none could be read the error is the
// first cluster's (its own exit code); an interrupt is the interrupt.
func reportFleet[T any](ctx context.Context, w io.Writer, parts []*fleetPart[T]) (failed int, err error) {
	for _, p := range parts {
		profileLines(w, p.status.Profile, p.errOut.Bytes())
		if p.err != nil {
			failed++
			fmt.Fprintf(w, "kcg: profile %s: %s\n", p.status.Profile, vocab.OneLine(p.err.Error()))
		}
	}
	if ctx.Err() != nil {
		return failed, ctx.Err()
	}
	if failed == len(parts) {
		return failed, app.Silent(app.ExitCode(ctx, parts[0].err))
	}
	return failed, nil
}

// profileLines writes lines to w, each naming profile: "kcg: X" becomes
// "kcg: profile P: X", any other line "profile P: X".
func profileLines(w io.Writer, profile string, lines []byte) {
	for len(lines) > 0 {
		line, rest, _ := bytes.Cut(lines, []byte("\n"))
		lines = rest
		if text, ok := bytes.CutPrefix(line, []byte("kcg: ")); ok {
			fmt.Fprintf(w, "kcg: profile %s: %s\n", profile, text)
		} else {
			fmt.Fprintf(w, "profile %s: %s\n", profile, line)
		}
	}
}

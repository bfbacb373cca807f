package commands

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

type watchOptions struct {
	scope         groupScope
	interval      time.Duration
	count         int
	timeLag       bool
	readCommitted bool
	format        output.Format
	// metricsListen serves the latest sample as Prometheus metrics.
	metricsListen string
	limits        thresholds
	exitOnBreach  bool
	dial          dialEachFunc
	// fleet is --profile a,b or --all-profiles (nil: one cluster).
	fleet *fleet
}

func watchCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "watch",
		Usage:     "re-describe groups every interval: lag, consume and produce rates, ETA and status",
		ArgsUsage: "GROUP... | --all-groups",
		Description: "Each sample costs the request phases of describe. On a terminal the table is\n" +
			"redrawn in place, fits the window (columns leave from MEMBERS and STATE on),\n" +
			"shows the most alarming groups when not all fit, and colours STATUS unless\n" +
			"NO_COLOR is set; -o json writes one LagSample document per line per sample.\n" +
			"Ends after --count samples or on Ctrl-C, with the last sample complete.\n" +
			"--metrics-listen serves the latest sample at /metrics (Prometheus text format,\n" +
			"the metrics of describe -o prometheus) and /healthz; a scrape sends nothing to\n" +
			"Kafka, and a failed sample keeps the last values with kcg_up 0 and watch goes\n" +
			"on. --exit-on-breach ends the watch with exit 5 at the first sample in which a\n" +
			"group is over a --max-lag, --max-time-lag or --min-retention-headroom limit.\n" +
			"--profile a,b,c or --all-profiles watch several clusters at once, one\n" +
			"exporter for the fleet; a cluster down is shown as such until it answers\n" +
			"(docs/fleet.md).",
		Flags: append([]cli.Flag{
			groupFlag(),
			&cli.BoolFlag{Name: "all-groups", Usage: "watch every consumer group"},
			durationFlag(&cli.DurationFlag{Name: "interval", Value: 5 * time.Second, Usage: "time between samples"}),
			&cli.IntFlag{Name: "count", Usage: "stop after N samples (0: until Ctrl-C)"},
			&cli.BoolFlag{Name: "time-lag", Usage: "read the next record's timestamp each sample (one Fetch per partition leader)"},
			isolationFlag(),
			outputFlag("table", "json", "none"),
			&cli.StringFlag{Name: "metrics-listen", Usage: "serve the latest sample as Prometheus metrics at http://`ADDR`/metrics (and /healthz), e.g. :9308"},
			&cli.BoolFlag{Name: "exit-on-breach", Usage: "exit 5 after the first sample in which a group breaches --max-lag, --max-time-lag or --min-retention-headroom"},
		}, append(thresholdFlags(), fleetConnectionFlags()...)...),
		Action: action(s, watchOptionsFrom, runWatch),
	}
}

func watchOptionsFrom(c *cli.Context) (watchOptions, error) {
	o := watchOptions{interval: c.Duration("interval"), count: c.Int("count"), timeLag: c.Bool("time-lag")}
	var err error
	if o.scope, err = groupScopeFrom(c); err != nil {
		return o, err
	}
	if o.interval <= 0 {
		return o, app.Usagef("--interval must be positive, got %s", o.interval)
	}
	if o.count < 0 {
		return o, app.Usagef("--count must be 0 or more, got %d", o.count)
	}
	if o.readCommitted, err = readCommittedFrom(c); err != nil {
		return o, err
	}
	if o.format, err = formatFrom(c); err != nil {
		return o, err
	}
	if o.metricsListen = c.String("metrics-listen"); c.IsSet("metrics-listen") {
		if err := metricsAddr(o.metricsListen); err != nil {
			return o, err
		}
	}
	if o.limits, err = thresholdsFrom(c); err != nil {
		return o, err
	}
	o.exitOnBreach = c.Bool("exit-on-breach")
	switch {
	case o.exitOnBreach && !o.limits.set():
		return o, app.Usagef("--exit-on-breach needs a limit: --max-lag, --max-time-lag or --min-retention-headroom")
	case o.limits.set() && !o.exitOnBreach:
		return o, app.Usagef("watch checks --max-lag, --max-time-lag and --min-retention-headroom only with --exit-on-breach")
	}
	o.timeLag = o.timeLag || o.limits.needsTimeLag()
	o.dial = dialEachFrom(c)
	o.fleet, err = fleetFrom(c)
	return o, err
}

// runWatch samples until --count or Ctrl-C. --timeout bounds each sample,
// not the whole watch.
func runWatch(ctx context.Context, s IO, o watchOptions) error {
	src, err := watchSourceOf(o)
	if err != nil {
		return err
	}
	defer src.close()
	var metrics *metricsServer
	if o.metricsListen != "" {
		if metrics, err = listenFleetMetrics(o.metricsListen, src.names()); err != nil {
			return err
		}
		defer metrics.close()
	}
	redraw := s.OutTTY && o.format == output.FormatTable
	if redraw {
		// Every way out of runWatch — --count, Ctrl-C, SIGTERM, an error —
		// passes here, so the cursor is shown again; the error itself is
		// printed on stderr after this has run.
		fmt.Fprint(s.Out, output.ScreenStart)
		defer fmt.Fprint(s.Out, output.ScreenEnd)
	}
	// Samples start every interval from the first (not an interval after
	// the previous one ended), so a sample's own time does not stretch the
	// period; a sample that takes longer than the interval is followed at
	// once by the next, never by a burst of catching up.
	next := time.Now()
	partial := false
	for n := 0; o.count == 0 || n < o.count; n++ {
		if n > 0 {
			next = next.Add(o.interval)
			if now := time.Now(); next.Before(now) {
				next = now
			}
			select {
			case <-ctx.Done():
				return ctx.Err() // Ctrl-C between samples: exit 130
			case <-time.After(time.Until(next)):
			}
		}
		doc, err := src.sample(ctx, s, o, metrics)
		if err != nil {
			if ctx.Err() != nil {
				// Ctrl-C during a sample: the last printed one is
				// complete; exit 130 as every interrupted command.
				return ctx.Err()
			}
			if metrics == nil {
				return err
			}
			// An exporter outlives a failed sample: the last good values
			// stay, with kcg_up 0, and the next sample tries again.
			fmt.Fprintf(s.Err, "kcg: sample failed (serving the last good one with kcg_up 0): %s\n", vocab.OneLine(err.Error()))
			continue
		}
		partial = output.DownClusters(doc.Clusters) != ""
		switch {
		case o.format == output.FormatNone:
		case o.format == output.FormatJSON:
			err = output.WriteJSONLine(s.Out, doc)
		case redraw:
			_, err = s.Out.Write(doc.Frame(watchScreen(s, o.interval)))
		default:
			err = output.Write(s.Out, output.FormatTable, doc)
		}
		if err != nil {
			return err
		}
		if n == 0 {
			if err := refuseMissingWatched(s, o.scope, doc, src.missing); err != nil {
				return err
			}
		}
		if o.exitOnBreach && o.limits.report(s.Err, sampleValues(doc)) > 0 {
			return app.Silent(app.ExitBreach)
		}
	}
	return fleetExit(boolInt(partial)) // the last sample lacked a cluster: 1
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// refuseMissingWatched ends a watch whose first sample found a named group
// that does not exist, as describe does (exit 1, the same line on
// stderr): a typo would otherwise be watched as an idle group. A group
// deleted later in the watch is shown with its error and watched on.
func refuseMissingWatched(s IO, scope groupScope, doc output.LagSample, nowhere []string) error {
	if scope.all {
		return nil
	}
	missing := 0
	for _, g := range doc.Groups {
		if notFound(g) {
			fmt.Fprintln(s.Err, output.DeadGroupMessage(g.Group))
			missing++
		}
	}
	for _, g := range nowhere { // several clusters: on none of them
		fmt.Fprintln(s.Err, output.DeadGroupMessage(g))
		missing++
	}
	if missing > 0 {
		return app.Silent(app.ExitError)
	}
	return nil
}

// notFound reports whether g is a group that does not exist.
func notFound(g output.WatchedGroup) bool {
	return g.State == nil && g.Error != nil && *g.Error == vocab.ErrGroupNotFound.Error()
}

// watchScreen is the terminal as it is now: its size is asked before every
// frame, so a resized window is followed at the next sample.
func watchScreen(s IO, interval time.Duration) output.Screen {
	sc := output.Screen{Color: !s.NoColor, Interval: interval}
	if s.OutSize != nil {
		if w, h, ok := s.OutSize(); ok {
			sc.Width, sc.Height = w, h
		}
	}
	return sc
}

// watchSnapshot is one sample's describe, read as describe reads it: the
// groups typed (named ones by reading them, --all-groups from the listing
// that found them), then the snapshot of every group.
func watchSnapshot(ctx context.Context, cl *kafkaadmin.Client, o watchOptions) (*groupops.Snapshot, error) {
	typed, err := o.scope.classify(ctx, cl, io.Discard, groupops.OpDescribe) // describe says which groups --all-groups leaves out; a sample every few seconds would repeat it
	if err != nil {
		return nil, err
	}
	return groupops.DescribeTyped(ctx, cl, typed, groupops.DescribeOptions{ReadCommitted: o.readCommitted, TimeLag: o.timeLag, Classified: true})
}

// watchSample takes one sample: describe's phases within the context
// sampleContext gives each sample (bounded by --timeout); with
// --metrics-listen also its metrics (those of describe -o prometheus).
func watchSample(parent context.Context, cl *kafkaadmin.Client, sampleContext func(context.Context) (context.Context, context.CancelFunc), o watchOptions, w *groupops.Watcher) (output.LagSample, output.Metrics, error) {
	ctx, cancel := sampleContext(parent)
	defer cancel()
	start := time.Now()
	snap, err := watchSnapshot(ctx, cl, o)
	if err != nil {
		return output.LagSample{}, output.Metrics{}, err
	}
	now := time.Now()
	m := output.Metrics{Cluster: snap.Cluster.ClusterID} // the id, also for the clusters of a fleet's sample
	if o.metricsListen != "" {
		doc := output.NewGroupDescriptionListOf(snap, nil)
		m = output.Metrics{Doc: doc, Cluster: snap.Cluster.ClusterID, TimeLag: o.timeLag, Up: true, Took: now.Sub(start), At: now}
	}
	return output.NewLagSampleOf(w.Add(snap, now), now, o.timeLag), m, nil
}

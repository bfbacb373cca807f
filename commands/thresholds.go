package commands

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

// thresholds are the limits of --max-lag, --max-time-lag and
// --min-retention-headroom; a nil limit is not checked.
type thresholds struct {
	maxLag       *int64
	maxTimeLag   *time.Duration
	minRetention *time.Duration
}

// thresholdFlags are describe's and watch's limit flags.
func thresholdFlags() []cli.Flag {
	return []cli.Flag{
		&cli.Int64Flag{Name: "max-lag", Usage: "exit 5 when a group's total lag is above `N` records (one stderr line per breaching group)"},
		durationFlag(&cli.DurationFlag{Name: "max-time-lag", Usage: "exit 5 when a group's largest time lag is above `DURATION` (implies --time-lag)"}),
		durationFlag(&cli.DurationFlag{Name: "min-retention-headroom", Usage: "exit 5 when a group's smallest retention headroom is below `DURATION` (implies --time-lag)"}),
	}
}

// thresholdsFrom reads the limit flags; a negative limit is a usage error.
func thresholdsFrom(c *cli.Context) (thresholds, error) {
	var t thresholds
	if c.IsSet("max-lag") {
		v := c.Int64("max-lag")
		if v < 0 {
			return t, app.Usagef("--max-lag must be 0 or more, got %d", v)
		}
		t.maxLag = &v
	}
	for _, f := range []struct {
		name string
		dst  **time.Duration
	}{{"max-time-lag", &t.maxTimeLag}, {"min-retention-headroom", &t.minRetention}} {
		if c.IsSet(f.name) {
			v := c.Duration(f.name)
			if v < 0 {
				return t, app.Usagef("--%s must be 0 or more, got %s", f.name, v)
			}
			*f.dst = &v
		}
	}
	return t, nil
}

// set reports whether any limit was given.
func (t thresholds) set() bool {
	return t.maxLag != nil || t.maxTimeLag != nil || t.minRetention != nil
}

// needsTimeLag reports whether a limit reads time lags or retention.
func (t thresholds) needsTimeLag() bool { return t.maxTimeLag != nil || t.minRetention != nil }

// groupValues are what the limits judge of one group; nil is unknown and
// breaches nothing.
type groupValues struct {
	// cluster is the group's profile with several clusters, else "".
	cluster               string
	group                 string
	lag, timeLag, minHead *int64
}

// breach is the one stderr line of a group over some limit, and false
// when it is within all of them.
func (t thresholds) breach(g groupValues) (string, bool) {
	var over []string
	if t.maxLag != nil && g.lag != nil && *g.lag > *t.maxLag {
		over = append(over, fmt.Sprintf("lag %d > --max-lag %d", *g.lag, *t.maxLag))
	}
	if t.maxTimeLag != nil && g.timeLag != nil && time.Duration(*g.timeLag)*time.Millisecond > *t.maxTimeLag {
		over = append(over, fmt.Sprintf("time lag %s > --max-time-lag %s", output.HumanMillis(*g.timeLag), *t.maxTimeLag))
	}
	if t.minRetention != nil && g.minHead != nil && time.Duration(*g.minHead)*time.Millisecond < *t.minRetention {
		over = append(over, fmt.Sprintf("retention headroom %s < --min-retention-headroom %s", output.HumanMillis(*g.minHead), *t.minRetention))
	}
	if len(over) == 0 {
		return "", false
	}
	where := ""
	if g.cluster != "" {
		where = "profile " + g.cluster + ": " // a breach names its cluster
	}
	return fmt.Sprintf("kcg: %sgroup %s breaches: %s", where, g.group, strings.Join(over, "; ")), true
}

// report writes one line per breaching group and returns how many.
func (t thresholds) report(w io.Writer, gs []groupValues) int {
	n := 0
	for _, g := range gs {
		if line, ok := t.breach(g); ok {
			fmt.Fprintln(w, line)
			n++
		}
	}
	return n
}

func describeValues(l output.GroupDescriptionList) []groupValues {
	out := make([]groupValues, 0, len(l.Groups))
	for _, g := range l.Groups {
		if g.Error == nil {
			out = append(out, groupValues{cluster: clusterOf(g.Cluster), group: g.Group, lag: g.TotalLag, timeLag: g.MaxTimeLagMs, minHead: g.MinRetentionHeadroomMs})
		}
	}
	return out
}

func sampleValues(s output.LagSample) []groupValues {
	out := make([]groupValues, 0, len(s.Groups))
	for _, g := range s.Groups {
		if g.Error == nil {
			out = append(out, groupValues{cluster: clusterOf(g.Cluster), group: g.Group, lag: g.Lag, timeLag: g.MaxTimeLagMs, minHead: g.MinRetentionHeadroomMs})
		}
	}
	return out
}

// clusterOf is c's profile, "" for one cluster's groups.
func clusterOf(c *output.ClusterRef) string {
	if c == nil {
		return ""
	}
	return c.Profile
}

package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
)

// watchSource is what kcg watch samples: one cluster, or every cluster of
// --profile a,b / --all-profiles, each with its own client and its own
// Watcher (the rates are per cluster).
type watchSource struct {
	clusters []*watchedCluster
	fleet    bool
	// missing are the named groups that no cluster had in the last
	// sample (several clusters only).
	missing []string
}

type watchedCluster struct {
	profile string
	cl      *kafkaadmin.Client
	round   func(context.Context) (context.Context, context.CancelFunc)
	done    func()
	// dialErr is a profile that could not be resolved: the cluster is
	// down for the whole watch.
	dialErr error
	w       *groupops.Watcher
	// down is whether its last sample failed, to say so once on stderr
	// when it goes down and once when it answers again.
	down bool
}

// watchSourceOf dials the clusters of o: a profile of several that cannot
// be dialed is a cluster down, not the end of the watch.
func watchSourceOf(o watchOptions) (*watchSource, error) {
	if o.fleet == nil {
		cl, round, done, err := o.dial()
		if err != nil {
			return nil, err
		}
		return &watchSource{clusters: []*watchedCluster{{cl: cl, round: round, done: done, w: groupops.NewWatcher()}}}, nil
	}
	src := &watchSource{fleet: true}
	for i, name := range o.fleet.profiles {
		c := &watchedCluster{profile: name, w: groupops.NewWatcher()}
		c.cl, c.round, c.done, c.dialErr = app.DialEach(o.fleet.opts[i])
		src.clusters = append(src.clusters, c)
	}
	return src, nil
}

// names are the clusters' profiles ("" for one cluster).
func (src *watchSource) names() []string {
	out := make([]string, len(src.clusters))
	for i, c := range src.clusters {
		out[i] = c.profile
	}
	return out
}

func (src *watchSource) close() {
	for _, c := range src.clusters {
		if c.done != nil {
			c.done()
		}
	}
}

// clusterSample is one cluster's part of a sample.
type clusterSample struct {
	doc output.LagSample
	m   output.Metrics
	err error
}

// sample takes one sample of every cluster at once and records it in
// metrics (nil: no --metrics-listen). With several clusters the sample
// fails only when every cluster failed; a cluster that fails is in the
// document's clusters with its error (and one stderr line when it goes
// down, one when it answers again).
func (src *watchSource) sample(ctx context.Context, s IO, o watchOptions, metrics *metricsServer) (output.LagSample, error) {
	parts := make([]clusterSample, len(src.clusters))
	var wg sync.WaitGroup
	for i, c := range src.clusters {
		if c.dialErr != nil {
			parts[i].err = c.dialErr
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &parts[i]
			p.doc, p.m, p.err = watchSample(ctx, c.cl, c.round, o, c.w)
		}()
	}
	wg.Wait()
	if metrics != nil {
		good, bad := map[int]output.Metrics{}, map[int]error{}
		for i, p := range parts {
			if p.err != nil {
				bad[i] = p.err
			} else {
				good[i] = p.m
			}
		}
		metrics.sampledAll(good, bad)
	}
	if !src.fleet {
		return parts[0].doc, parts[0].err
	}
	return src.merge(ctx, s, o, parts)
}

// merge is the sample of several clusters: their groups, each with its
// cluster, and the clusters' statuses. A named group a cluster does not
// have is left out of its part; one that no cluster answering has is in
// src.missing.
func (src *watchSource) merge(ctx context.Context, s IO, o watchOptions, parts []clusterSample) (output.LagSample, error) {
	cs := make([]output.ClusterStatus, len(parts))
	samples := make([]output.LagSample, len(parts))
	if err := allFailed(src.clusters, parts); err != nil {
		// Nothing answered: a failed sample, as of one cluster, whose
		// one error names every profile.
		return output.LagSample{}, err
	}
	seen := map[string]bool{}
	for i, p := range parts {
		c := src.clusters[i]
		cs[i].Profile = c.profile
		if p.err != nil {
			cs[i].Error = output.Ptr(vocab.OneLine(p.err.Error()))
			if !c.down && ctx.Err() == nil {
				fmt.Fprintf(s.Err, "kcg: profile %s: sample failed, shown as down until it answers: %s\n", c.profile, *cs[i].Error)
			}
			c.down = true
			continue
		}
		if c.down {
			fmt.Fprintf(s.Err, "kcg: profile %s: answering again\n", c.profile)
		}
		c.down = false
		if p.m.Cluster != "" {
			cs[i].ID = output.Ptr(p.m.Cluster)
		}
		doc := p.doc
		if !o.scope.all {
			doc.Groups = slices.DeleteFunc(slices.Clone(doc.Groups), notFound)
		}
		for _, g := range doc.Groups {
			seen[g.Group] = true
		}
		samples[i] = doc
	}
	src.missing = nil
	for _, g := range o.scope.groups {
		if !seen[g] {
			src.missing = append(src.missing, g)
		}
	}
	return output.NewFleetLagSample(cs, samples, time.Now(), o.timeLag), nil
}

// allFailed is the error of a sample in which no cluster answered: the
// first cluster's (its kind, so its exit code), naming every profile and
// its error; nil when some cluster answered. The clusters are then all
// down: the one that answers first says so.
func allFailed(clusters []*watchedCluster, parts []clusterSample) error {
	for _, p := range parts {
		if p.err == nil {
			return nil
		}
	}
	var others []string
	for i, p := range parts {
		clusters[i].down = true
		if i > 0 {
			others = append(others, "profile "+clusters[i].profile+": "+vocab.OneLine(p.err.Error()))
		}
	}
	if len(others) == 0 {
		return fmt.Errorf("profile %s: %w", clusters[0].profile, parts[0].err)
	}
	return fmt.Errorf("no cluster answered: profile %s: %w; %s", clusters[0].profile, parts[0].err, strings.Join(others, "; "))
}

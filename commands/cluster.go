package commands

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// groupView is everything describe (and plan, diff, apply) learn about one
// group in one pass over the cluster.
type groupView struct {
	desc    kafkaadmin.GroupDescription
	offsets map[kafkaadmin.TopicPartition]kafkaadmin.CommittedOffset
	// invalid are partitions listed with a committed offset of -1: shown
	// without a committed offset, as the Java tool shows them.
	invalid []kafkaadmin.TopicPartition
	err     error // the group could not be described or its offsets fetched
}

// logBounds are a partition's log-start and log-end offsets; a nil bound is
// unknown (the partition has no leader, or the lookup failed).
type logBounds struct {
	start, end *int64
	err        error
}

// snapshot is the state of several groups and the partitions they touch,
// gathered with a bounded number of request phases whatever the number of
// groups: one DescribeGroups/ConsumerGroupDescribe phase, one OffsetFetch
// phase (multi-group where supported), and one ListOffsets phase per kind
// (batched per leader).
type snapshot struct {
	cluster kafkaadmin.ClusterInfo
	groups  []groupView // in the order asked
	bounds  map[kafkaadmin.TopicPartition]logBounds
}

// consumerGroupsOnly keeps the groups the Java tool lists as consumer
// groups: classic groups with protocol type "consumer" or "" (admin-only
// "simple" groups) and KIP-848 consumer groups; share, streams and Connect
// groups are not consumer groups.
func consumerGroupsOnly(gs []kafkaadmin.GroupListing) []kafkaadmin.GroupListing {
	out := gs[:0:0]
	for _, g := range gs {
		switch strings.ToLower(g.Type) {
		case "", kafkaadmin.TypeClassic:
			if g.ProtocolType != "" && g.ProtocolType != "consumer" {
				continue
			}
		case kafkaadmin.TypeConsumer:
		default:
			continue
		}
		out = append(out, g)
	}
	return out
}

// allGroupIDs lists every consumer group id, sorted.
func allGroupIDs(ctx context.Context, cl *kafkaadmin.Client) ([]string, error) {
	gs, err := cl.ListGroups(ctx, kafkaadmin.ListGroupsOptions{})
	if err != nil {
		return nil, err
	}
	gs = consumerGroupsOnly(gs)
	ids := make([]string, 0, len(gs))
	for _, g := range gs {
		ids = append(ids, g.Group)
	}
	sort.Strings(ids)
	return ids, nil
}

// takeSnapshot gathers groups' descriptions, committed offsets and the log
// bounds of every partition they are assigned or have committed.
func takeSnapshot(ctx context.Context, cl *kafkaadmin.Client, groups []string, progress func(string)) (*snapshot, error) {
	info, err := cl.Cluster(ctx)
	if err != nil {
		return nil, err
	}
	s := &snapshot{cluster: info}
	progress("describing groups")
	descs, err := cl.DescribeGroups(ctx, groups)
	if err != nil {
		return nil, err
	}
	progress("fetching committed offsets")
	offs, err := cl.FetchOffsets(ctx, groups)
	if err != nil {
		return nil, err
	}
	var tps []kafkaadmin.TopicPartition
	add := func(tp kafkaadmin.TopicPartition) { tps = append(tps, tp) }
	for i := range groups {
		v := groupView{desc: descs[i], offsets: offs[i].Offsets, invalid: offs[i].Invalid}
		switch {
		case descs[i].Err != nil:
			v.err = descs[i].Err
		case offs[i].Err != nil:
			v.err = offs[i].Err
		}
		for tp := range v.offsets {
			add(tp)
		}
		for _, tp := range v.invalid {
			add(tp)
		}
		for _, m := range v.desc.Members {
			for _, a := range m.Assignment {
				for _, p := range a.Partitions {
					add(kafkaadmin.TopicPartition{Topic: a.Topic, Partition: p})
				}
			}
		}
		s.groups = append(s.groups, v)
	}
	progress("listing log offsets")
	s.bounds, err = listBounds(ctx, cl, sortedPartitions(tps))
	if err != nil {
		return nil, err
	}
	return s, nil
}

// sortedPartitions returns tps without repeats, sorted by (topic,
// partition): the order of every request and report.
func sortedPartitions(tps []kafkaadmin.TopicPartition) []kafkaadmin.TopicPartition {
	out := dedupe(tps)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Topic != out[j].Topic {
			return out[i].Topic < out[j].Topic
		}
		return out[i].Partition < out[j].Partition
	})
	return out
}

// listBounds looks up log-start and log-end offsets of tps: two batched
// ListOffsets phases.
func listBounds(ctx context.Context, cl *kafkaadmin.Client, tps []kafkaadmin.TopicPartition) (map[kafkaadmin.TopicPartition]logBounds, error) {
	out := make(map[kafkaadmin.TopicPartition]logBounds, len(tps))
	if len(tps) == 0 {
		return out, nil
	}
	ends, err := cl.ListOffsets(ctx, tps, kafkaadmin.Latest)
	if err != nil {
		return nil, err
	}
	// A partition whose log end could not be read (no leader, gone) is not
	// asked again for its start: that would only wait out the same retries
	// a second time.
	answered := make([]kafkaadmin.TopicPartition, 0, len(tps))
	for _, tp := range tps {
		if ends[tp].Err == nil {
			answered = append(answered, tp)
		}
	}
	starts, err := cl.ListOffsets(ctx, answered, kafkaadmin.Earliest)
	if err != nil {
		return nil, err
	}
	for _, tp := range tps {
		var b logBounds
		if e := ends[tp]; e.Err == nil {
			v := e.Offset
			b.end = &v
		} else {
			b.err = e.Err
		}
		if st, ok := starts[tp]; ok && st.Err == nil {
			v := st.Offset
			b.start = &v
		} else if b.err == nil {
			b.err = st.Err
		}
		out[tp] = b
	}
	return out, nil
}

// notFound reports whether a description says the group does not exist.
func notFound(d kafkaadmin.GroupDescription) bool {
	return d.Err == nil && !d.Exists
}

var errNoGroups = errors.New("no groups given: name groups or use --all-groups")

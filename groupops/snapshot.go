package groupops

import (
	"context"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// TopicPartition is the shared partition name.
type TopicPartition = vocab.TopicPartition

// Group is one group as its family reads it: its description and its
// positions (committed offsets; a share group's share-partition start
// offsets), and the few details only its family has.
type Group struct {
	// Family is the group's family; "" reads as FamilyConsumer.
	Family  Family
	Desc    kafkaadmin.GroupDescription
	Offsets map[TopicPartition]kafkaadmin.CommittedOffset
	// Invalid are partitions without a position: listed with a committed
	// offset of -1 (shown without a committed offset, as the Java tool
	// shows them), or a share group's uninitialized share-partitions.
	Invalid []TopicPartition
	// Share is a share group's own view (FamilyShare), nil for the others;
	// a streams group's topology rides in Desc.Streams.
	Share *ShareDetail
	// Owner is the Kafka Connect sink connector that owns the group
	// (connector.go); nil when none does, or Connect was not read.
	Owner *Owner
	// Err is set when the group could not be described or its offsets
	// fetched.
	Err error
}

// Commits reports whether the group's positions are committed offsets
// (consumer and streams groups): false for a share group, whose start
// offsets have no commit time lag and whose lag is the broker's.
func (g Group) Commits() bool { return familyOf(g.Family).commits() }

// Name is the group id.
func (g Group) Name() string { return g.Desc.Group }

// OtherProtocol is the protocol type of a classic group that is no
// consumer group (Kafka Connect's workers use "connect"): such a group
// has members and a state but no consumer assignment, and commits no
// offsets of its own. "" for every other group.
func (g Group) OtherProtocol() string {
	if g.Desc.Exists && !vocab.IsConsumerGroup(g.Desc.Type, g.Desc.ProtocolType) && FamilyOf(g.Desc.Type) == FamilyConsumer {
		return g.Desc.ProtocolType
	}
	return ""
}

// Partitions are every partition the group is assigned or has committed,
// unsorted and possibly repeated.
func (g Group) Partitions() []TopicPartition {
	tps := make([]TopicPartition, 0, len(g.Offsets)+len(g.Invalid))
	for tp := range g.Offsets {
		tps = append(tps, tp)
	}
	tps = append(tps, g.Invalid...)
	for _, m := range g.Desc.Members {
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				tps = append(tps, TopicPartition{Topic: a.Topic, Partition: p})
			}
		}
	}
	return tps
}

// LogBounds are a partition's log-start and log-end offsets; a nil bound is
// unknown (the partition has no leader, or the lookup failed).
type LogBounds struct {
	Start, End *int64
	// Stable is the last stable offset (ListOffsets latest, read
	// committed); nil unless the snapshot was Describe's, or unknown.
	Stable *int64
	Err    error
}

// LagEnd is the offset lag is measured against: the high watermark, or
// with readCommitted the last stable offset.
func (b LogBounds) LagEnd(readCommitted bool) *int64 {
	if readCommitted {
		return b.Stable
	}
	return b.End
}

// Snapshot is the state of several groups and the partitions they touch.
type Snapshot struct {
	Cluster kafkaadmin.ClusterInfo
	Groups  []Group // in the order asked
	Bounds  map[TopicPartition]LogBounds
	// Now is the time the time lags (TimeLagAt) were measured at; zero
	// unless ReadTimeLags ran.
	Now time.Time
	// timeLags are the time lags by partition and committed offset.
	timeLags map[kafkaadmin.RecordAt]TimeLag
	// ReadCommitted measures lag and time lag against the last stable
	// offset instead of the high watermark.
	ReadCommitted bool
	// Retention is each committed topic's deletion settings; nil unless
	// ReadRetention ran.
	Retention map[string]kafkaadmin.TopicRetention
	// OwnersRead says Kafka Connect was asked for the groups' owners
	// (DescribeOptions.Connect); OwnersErr is a Connect cluster that could
	// not be read.
	OwnersRead bool
	OwnersErr  error
}

// ReadGroups describes groups and fetches their committed offsets: one
// DescribeGroups/ConsumerGroupDescribe phase and one OffsetFetch phase
// (multi-group where the broker supports it), whatever the number of
// groups. A group that fails has Err set; the others are still returned.
func ReadGroups(ctx context.Context, cl *kafkaadmin.Client, groups []string) ([]Group, error) {
	descs, offs, err := cl.DescribeAndFetch(ctx, groups)
	if err != nil {
		return nil, err
	}
	return joinGroups(groups, descs, offs), nil
}

// joinGroups pairs each group's description and committed offsets.
func joinGroups(groups []string, descs []kafkaadmin.GroupDescription, offs []kafkaadmin.GroupOffsets) []Group {
	out := make([]Group, len(groups))
	for i := range groups {
		g := Group{Desc: descs[i], Offsets: offs[i].Offsets, Invalid: offs[i].Invalid}
		switch {
		case descs[i].Err != nil:
			g.Err = descs[i].Err
		case offs[i].Err != nil:
			g.Err = offs[i].Err
		}
		if g.Desc.Group == "" {
			g.Desc.Group = groups[i]
		}
		out[i] = g
	}
	return out
}

// TakeSnapshot is ReadGroups plus the log bounds of every partition the
// groups are assigned or have committed: what describe shows. progress is
// told each phase as it starts.
func TakeSnapshot(ctx context.Context, cl *kafkaadmin.Client, groups []string, progress func(string)) (*Snapshot, error) {
	return takeSnapshot(ctx, cl, groups, progress, true, false)
}

// takeSnapshot is TakeSnapshot; checkTypes false skips RefuseOtherTypes,
// for groups Classify has just found to be consumer groups.
func takeSnapshot(ctx context.Context, cl *kafkaadmin.Client, groups []string, progress func(string), checkTypes, stable bool) (*Snapshot, error) {
	if checkTypes {
		if err := RefuseOtherTypes(ctx, cl, groups); err != nil {
			return nil, err
		}
	}
	progress("describing groups")
	gs, err := ReadGroups(ctx, cl, groups)
	if err != nil {
		return nil, err
	}
	return snapshotOf(ctx, cl, gs, progress, stable)
}

// snapshotOf is the snapshot of groups already read: the log bounds of
// their partitions (with stable, their last stable offsets too), and the cluster's identity from the Metadata answer
// that named those partitions' leaders (a Metadata request of its own
// only when there were none to look up).
func snapshotOf(ctx context.Context, cl *kafkaadmin.Client, gs []Group, progress func(string), stable bool) (*Snapshot, error) {
	var tps []TopicPartition
	for _, g := range gs {
		tps = append(tps, g.Partitions()...)
	}
	progress("listing log offsets")
	bounds, err := listBounds(ctx, cl, vocab.SortedPartitions(tps), stable)
	if err != nil {
		return nil, err
	}
	info, err := cl.RecentCluster(ctx)
	if err != nil {
		return nil, err
	}
	return &Snapshot{Cluster: info, Groups: gs, Bounds: bounds}, nil
}

// listBounds looks up log-start and log-end offsets of tps, and with
// stable their last stable offsets: two or three batched ListOffsets
// phases (one request per partition leader each), in flight together.
// The phases used to run one after the other: a round trip to each
// leader per phase where one suffices. A partition whose log end could
// not be read (no leader, gone) keeps only that error: its start and
// stable offsets, asked at the same moment, are not shown.
func listBounds(ctx context.Context, cl *kafkaadmin.Client, tps []TopicPartition, stable bool) (map[TopicPartition]LogBounds, error) {
	out := make(map[TopicPartition]LogBounds, len(tps))
	if len(tps) == 0 {
		return out, nil
	}
	qs := []kafkaadmin.OffsetQuery{{Spec: kafkaadmin.Latest}, {Spec: kafkaadmin.Earliest}}
	if stable {
		qs = append(qs, kafkaadmin.OffsetQuery{Spec: kafkaadmin.Latest, Isolation: kafkaadmin.ReadCommitted})
	}
	got, err := cl.ListOffsetsAll(ctx, tps, qs)
	if err != nil {
		return nil, err
	}
	ends, starts := got[0], got[1]
	var stables map[TopicPartition]kafkaadmin.ListedOffset
	if stable {
		stables = got[2]
	}
	for _, tp := range tps {
		var b LogBounds
		e := ends[tp]
		if e.Err != nil {
			b.Err = e.Err
			out[tp] = b
			continue
		}
		v := e.Offset
		b.End = &v
		if st := starts[tp]; st.Err == nil {
			v := st.Offset
			b.Start = &v
		} else {
			b.Err = st.Err
		}
		if lo, ok := stables[tp]; ok && lo.Err == nil {
			v := lo.Offset
			b.Stable = &v
		}
		out[tp] = b
	}
	return out, nil
}

// planInputs are the plan-time view of groups, each as its family enters
// a plan (family.planEntry): type, state, members and current offsets. A
// group that could not be read fails the whole plan: a plan must not
// silently leave out a group the operator named. It consumes gs: each
// group's Offsets map is dropped once copied, so the two maps of a plan's
// 128,000 partitions are not both held to the end (plan's peak memory,
// docs/benchmarks.md); its callers read gs no more.
func planInputs(gs []Group) ([]resetplan.GroupSnapshot, error) {
	out := make([]resetplan.GroupSnapshot, 0, len(gs))
	for i := range gs {
		g := gs[i]
		gs[i].Offsets = nil
		snap, err := familyOf(g.Family).planEntry(g)
		if err != nil {
			return nil, err
		}
		out = append(out, snap)
	}
	return out, nil
}

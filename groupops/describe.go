package groupops

import (
	"context"
	"github.com/kcg-dev/kcg/connect"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// DescribeOptions is what Describe reads besides the groups.
type DescribeOptions struct {
	// ReadCommitted measures lag against the last stable offset
	// (Snapshot.ReadCommitted).
	ReadCommitted bool
	// TimeLag also reads the timestamp of the next record of every
	// commit behind the log end (ReadTimeLags) and the topics' retention
	// (ReadRetention).
	TimeLag bool
	// Progress, if not nil, is told each phase as it starts.
	Progress func(string)
	// Classified says the groups keep committed offsets (consumer or
	// streams groups), as Classify found them a moment ago in this
	// command: the snapshot does not list the coordinators' groups again
	// to check their type (a listing of every group of the coordinator,
	// about a megabyte at 20,000 groups).
	Classified bool
	// Connect, when given, are the Kafka Connect clusters asked which sink
	// connector owns each group (Group.Owner).
	Connect []*connect.Client
}

// Describe reads what kcg describe shows, and each sample of kcg watch: the
// snapshot of groups (TakeSnapshot, with the last stable offsets of its
// partitions read beside their log bounds) and, with o.TimeLag, the time
// lags (ReadTimeLags) and retention headroom (ReadRetention), in that
// order. The groups are read as consumer groups; DescribeTyped reads
// groups of every family.
func Describe(ctx context.Context, cl *kafkaadmin.Client, groups []string, o DescribeOptions) (*Snapshot, error) {
	if !o.Classified {
		if err := RefuseOtherTypes(ctx, cl, groups); err != nil {
			return nil, err
		}
	}
	return DescribeTyped(ctx, cl, Typed{ids: groups}, o)
}

// DescribeTyped is Describe of groups of any family (Classify,
// ClassifyNamed, Listed.Typed): each family's groups are read by their
// family, in one request phase per family (the groups ClassifyNamed read
// are not read again), then the log bounds of every group's partitions in
// one phase, and the rest of Describe once for all of them. The snapshot
// holds the groups in the order given.
func DescribeTyped(ctx context.Context, cl *kafkaadmin.Client, t Typed, o DescribeOptions) (*Snapshot, error) {
	progress := o.progress()
	if len(t.read) < len(t.ids) {
		progress("describing groups")
	}
	gs, err := readFamilies(ctx, cl, t.ids, t.FamilyOf, t.read)
	if err != nil {
		return nil, err
	}
	snap, err := snapshotOf(ctx, cl, gs, progress, true)
	if err != nil {
		return nil, err
	}
	return describeRest(ctx, cl, snap, o)
}

func (o DescribeOptions) progress() func(string) {
	if o.Progress == nil {
		return func(string) {}
	}
	return o.Progress
}

// describeRest is what Describe reads after the snapshot.
func describeRest(ctx context.Context, cl *kafkaadmin.Client, snap *Snapshot, o DescribeOptions) (*Snapshot, error) {
	progress := o.progress()
	snap.ReadCommitted = o.ReadCommitted
	readOwners(ctx, o.Connect, snap)
	if o.TimeLag {
		progress("reading record timestamps")
		if err := ReadTimeLags(ctx, cl, snap); err != nil {
			return nil, err
		}
		progress("reading topic retention")
		if err := ReadRetention(ctx, cl, snap); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

package resetplan

// PartitionImpact is what one partition's reset does to its consumer, in
// offsets (with compaction or transaction markers the number of records is
// at most this).
type PartitionImpact struct {
	Topic     string
	Partition int32
	// Replay is current-target when the target moves back (records read
	// again), Skip is target-current when it moves forward (records never
	// read). Both nil when the partition has no current commit or the
	// entry deletes the offset: there is nothing to compare against.
	Replay *int64
	Skip   *int64
}

// GroupImpact sums a group's partitions; partitions with nil impact do
// not count, NoCurrent says how many there were.
type GroupImpact struct {
	Group      string
	Replay     int64
	Skip       int64
	NoCurrent  int
	Partitions []PartitionImpact
}

// PlanImpact is the impact of a whole plan. These numbers are derived:
// `kcg show` prints them, the plan file does not store them.
type PlanImpact struct {
	Replay    int64
	Skip      int64
	NoCurrent int
	Groups    []GroupImpact
}

// Impact returns the partition's replay/skip counts (see PartitionImpact).
func (p Partition) Impact() PartitionImpact {
	pi := PartitionImpact{Topic: p.Topic, Partition: p.Partition}
	if p.Current == nil || p.Target == nil {
		return pi
	}
	zero := int64(0)
	pi.Replay, pi.Skip = &zero, &zero
	switch d := *p.Target - *p.Current; {
	case d < 0:
		pi.Replay = i64(-d)
	case d > 0:
		pi.Skip = i64(d)
	}
	return pi
}

// ComputeImpact returns per-partition, per-group and total impact, in plan
// order.
func ComputeImpact(p *Plan) PlanImpact {
	p = canonicalOrder(p)
	var out PlanImpact
	for _, g := range p.Groups {
		gi := GroupImpact{Group: g.Group, Partitions: make([]PartitionImpact, 0, len(g.Partitions))}
		for _, pt := range g.Partitions {
			pi := pt.Impact()
			if pi.Replay == nil {
				gi.NoCurrent++
			} else {
				gi.Replay += *pi.Replay
				gi.Skip += *pi.Skip
			}
			gi.Partitions = append(gi.Partitions, pi)
		}
		out.Replay += gi.Replay
		out.Skip += gi.Skip
		out.NoCurrent += gi.NoCurrent
		out.Groups = append(out.Groups, gi)
	}
	return out
}

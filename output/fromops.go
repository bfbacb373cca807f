package output

import (
	"slices"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// The constructors of the documents that report an operation of groupops:
// commands and dropin hand the operation's result here instead of building
// documents field by field.

// errText is err as one line, nil for no error.
func errText(err error) *string {
	if err == nil {
		return nil
	}
	return Ptr(vocab.OneLine(err.Error()))
}

// NewGroupListOf is the GroupList document of listed groups, sorted.
func NewGroupListOf(gs []kafkaadmin.GroupListing) GroupList {
	out := make([]GroupListing, 0, len(gs))
	for _, g := range gs {
		l := GroupListing{Group: g.Group, ProtocolType: g.ProtocolType}
		if g.State != "" {
			l.State = Ptr(g.State)
		}
		if g.Type != "" {
			l.Type = Ptr(g.Type)
		}
		out = append(out, l)
	}
	doc := NewGroupList(out)
	doc.Sort()
	return doc
}

// NewGroupDescriptionListOf turns a snapshot into the GroupDescriptionList
// document, sorted: every view at once, nulls for what does not exist,
// groups of every family (a share group's entry: type share, per
// partition the share-partition start offset, startOffset, with
// committedOffset null, and the lag the broker gives; its table layout is
// the renderer's, share.go). With topics, only those topics' partitions
// are listed.
func NewGroupDescriptionListOf(s *groupops.Snapshot, topics []resetplan.TopicSpec) GroupDescriptionList {
	var filter func(vocab.TopicPartition) bool
	if len(topics) > 0 {
		filter = func(tp vocab.TopicPartition) bool {
			return slices.ContainsFunc(topics, func(ts resetplan.TopicSpec) bool { return ts.Covers(tp) })
		}
	}
	groups := make([]GroupDescription, 0, len(s.Groups))
	stamps := timestamps{}
	for _, g := range s.Groups {
		groups = append(groups, describeGroup(g, s, filter, stamps))
	}
	doc := NewGroupDescriptionList(groups)
	doc.Sort()
	return doc
}

// timestamps formats each record time of a snapshot once: the groups
// committed at the same offset of a partition share one TimeLag (see
// Snapshot.TimeLagAt), so its *time.Time names the time, and the
// documents of those partitions share the formatted string. Nothing
// writes through a document's pointers.
type timestamps map[*time.Time]*string

func (ts timestamps) format(t *time.Time) *string {
	s, ok := ts[t]
	if !ok {
		s = Ptr(t.UTC().Format(TimestampFormat))
		ts[t] = s
	}
	return s
}

func describeGroup(v groupops.Group, s *groupops.Snapshot, topicFilter func(vocab.TopicPartition) bool, stamps timestamps) GroupDescription {
	d := v.Desc
	g := GroupDescription{Group: d.Group, Members: []Member{}, Offsets: []PartitionOffset{}, Owner: ownerField(s.OwnersRead, v.Owner)}
	if v.Err != nil {
		g.Error = errText(v.Err)
		return g
	}
	if !d.Exists {
		// A group that does not exist has no state, only the error; the
		// command exits 1 as for any group that could not be described.
		g.Error = Ptr(vocab.ErrGroupNotFound.Error())
		return g
	}
	g.State = Ptr(d.State)
	g.Type = Ptr(d.Type)
	g.ProtocolType = d.ProtocolType
	if d.Assignor != "" {
		g.Assignor = Ptr(d.Assignor)
	}
	if d.Coordinator.Host != "" {
		g.Coordinator = &Coordinator{ID: d.Coordinator.ID, Host: d.Coordinator.Host, Port: d.Coordinator.Port}
	}
	g.GroupEpoch = d.GroupEpoch
	g.TargetAssignmentEpoch = d.AssignmentEpoch

	// A partition is named with its member. A share-partition is shared
	// by every member assigned it: there it is named only when one
	// member has it.
	owners := map[vocab.TopicPartition][]*kafkaadmin.Member{}
	for i := range d.Members {
		m := &d.Members[i]
		om := Member{
			MemberID:        m.MemberID,
			ClientID:        m.ClientID,
			Host:            m.ClientHost,
			GroupInstanceID: m.InstanceID,
			MemberEpoch:     m.MemberEpoch,
			Upgraded:        m.Upgraded,
			Assignments:     toAssignments(m.Assignment),
		}
		if d.Type == vocab.TypeConsumer {
			t := toAssignments(m.TargetAssignment)
			om.TargetAssignments = &t
		}
		g.Members = append(g.Members, om)
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				tp := vocab.TopicPartition{Topic: a.Topic, Partition: p}
				owners[tp] = append(owners[tp], m)
			}
		}
	}

	// Offsets: every partition assigned to a member or committed.
	keys := vocab.SortedPartitions(v.Partitions())
	if topicFilter != nil {
		keys = slices.DeleteFunc(keys, func(tp vocab.TopicPartition) bool { return !topicFilter(tp) })
	}
	g.Offsets = make([]PartitionOffset, 0, len(keys))
	for _, tp := range keys {
		po := PartitionOffset{Topic: tp.Topic, Partition: tp.Partition, StreamsTopic: streamsTopicKind(d.Streams, tp.Topic)}
		b := s.Bounds[tp]
		po.LogStartOffset = b.Start
		po.LogEndOffset = b.End
		if v.Commits() {
			committedOffset(&po, v, s, tp, stamps)
		} else {
			startOffset(&po, v, tp)
		}
		if ms := owners[tp]; len(ms) == 1 || (len(ms) > 1 && v.Commits()) {
			m := ms[len(ms)-1]
			po.MemberID = Ptr(m.MemberID)
			po.ClientID = Ptr(m.ClientID)
			po.Host = Ptr(m.ClientHost)
		}
		g.Offsets = append(g.Offsets, po)
	}
	g.TotalLag = SumLag(g.Offsets)
	g.MaxTimeLagMs = MaxTimeLag(g.Offsets)
	g.MinRetentionHeadroomMs = MinRetentionHeadroom(g.Offsets)
	g.Streams = toStreamsDescription(d.Streams)
	return g
}

// committedOffset fills po with the group's committed offset of tp, its
// time lag, and the lag against the log end (the last stable offset with
// read committed).
func committedOffset(po *PartitionOffset, v groupops.Group, s *groupops.Snapshot, tp vocab.TopicPartition, stamps timestamps) {
	b := s.Bounds[tp]
	if c, ok := v.Offsets[tp]; ok {
		po.CommittedOffset = Ptr(c.Offset)
		po.CommittedLeaderEpoch = c.LeaderEpoch
		po.Metadata = Ptr(c.Metadata)
		if tl, ok := s.TimeLagAt(tp, c.Offset); ok {
			if tl.Timestamp != nil {
				po.CommittedTimestamp = stamps.format(tl.Timestamp)
			}
			po.TimeLagMs = tl.Millis
			po.TimeLagFlags = tl.Flags
			po.RetentionHeadroomMs = tl.RetentionHeadroomMs
		}
	}
	po.LastStableOffset = b.Stable
	po.Lag = Lag(po.CommittedOffset, b.LagEnd(s.ReadCommitted))
}

func toAssignments(tps []kafkaadmin.TopicPartitions) []TopicPartitions {
	out := make([]TopicPartitions, 0, len(tps))
	for _, tp := range tps {
		out = append(out, TopicPartitions{Topic: tp.Topic, Partitions: append([]int32{}, tp.Partitions...)})
	}
	return out
}

// NewPlanStatusOf is `kcg diff PLAN`'s document: the check of the plan at
// path against the live cluster.
func NewPlanStatusOf(path, digest string, c *groupops.Check) PlanStatus {
	doc := PlanStatus{
		APIVersion: APIVersion, Kind: KindPlanStatus, Plan: path, Digest: digest,
		PlanClusterID: c.Plan.Cluster.ID, ClusterID: c.ClusterID, Ready: c.Ready(), AlreadyApplied: c.AlreadyApplied(),
		plan: c.Plan,
	}
	doc.NewGroups = append(doc.NewGroups, c.Missing...)
	for _, a := range c.Active {
		doc.ActiveGroups = append(doc.ActiveGroups, ActiveGroup{Group: a.Group, State: a.State, Members: a.Members})
	}
	for _, d := range c.Drift {
		doc.Drift = append(doc.Drift, DriftEntry{Group: d.Group, Topic: d.Topic, Partition: d.Partition, Planned: d.Planned, Live: d.Live})
	}
	for _, r := range c.OutOfRange {
		doc.OutOfRange = append(doc.OutOfRange, RangeEntry{Group: r.Group, Topic: r.TP.Topic, Partition: r.TP.Partition, Target: r.Target, LogStart: r.Start, LogEnd: r.End, Error: errText(r.Err)})
	}
	for _, p := range c.Pending {
		doc.WouldWrite = append(doc.WouldWrite, PendingEntry{Group: p.Group, Topic: p.TP.Topic, Partition: p.TP.Partition, From: p.From, To: p.To})
	}
	return doc
}

// ApplyReportOf names the inputs of NewApplyReportOf.
type ApplyReportOf struct {
	// Plan is the plan file's path as given, Digest its digest, ClusterID
	// the cluster it was applied to.
	Plan, Digest, ClusterID string
	// RollbackPlan is the rollback plan's path, "" when none was written
	// (an already-applied plan).
	RollbackPlan string
	// Result is what Apply (or Check.Unchanged) returned.
	Result groupops.ApplyResult
	// Source is the plan applied, which the Markdown view names (ticket,
	// strategy); nil leaves it out.
	Source *resetplan.Plan
	// Approvals are the verified approvals, if any were asked for.
	Approvals []Approval
}

// NewApplyReportOf is `kcg apply`'s report of in.Result: its status is the
// result's verdict.
func NewApplyReportOf(in ApplyReportOf) ApplyReport {
	doc := NewApplyReport(in.Plan, in.Digest, in.ClusterID).WithPlan(in.Source)
	doc.Approvals = in.Approvals
	if in.RollbackPlan != "" {
		doc.RollbackPlan = Ptr(in.RollbackPlan)
	}
	switch in.Result.Verdict().Status {
	case groupops.StatusAlreadyApplied:
		doc.Result = ResultAlreadyApplied
	case groupops.StatusApplied:
		doc.Result = ResultApplied
	case groupops.StatusFailed:
		doc.Result = ResultFailed
	case groupops.StatusPartial:
		doc.Result = ResultPartial
	}
	r := in.Result
	for _, g := range r.Groups {
		ag := ApplyGroup{Group: g.Group, Result: string(g.Outcome), Error: errText(g.Err)}
		for _, p := range g.Partitions {
			ap := ApplyPartition{Topic: p.TP.Topic, Partition: p.TP.Partition, Before: p.Before, Target: p.Target, After: p.After, Result: string(p.Outcome)}
			if p.Error != "" {
				ap.Error = Ptr(p.Error)
			}
			ag.Partitions = append(ag.Partitions, ap)
		}
		doc.Groups = append(doc.Groups, ag)
	}
	return doc
}

// NewGroupDeleteResultOf is `kcg delete`'s document, sorted.
func NewGroupDeleteResultOf(ds []groupops.GroupDeletion) GroupDeleteResult {
	var entries []GroupDeletion
	for _, d := range ds {
		e := GroupDeletion{Group: d.Group, Deleted: d.Err == nil}
		if d.Err != nil {
			e.Error = Ptr(kafkaadmin.Meaning(d.Err))
		}
		entries = append(entries, e)
	}
	doc := NewGroupDeleteResult(entries)
	doc.Sort()
	return doc
}

// NewOffsetDeleteResultOf is `kcg delete-offsets`'s document, sorted.
func NewOffsetDeleteResultOf(r groupops.OffsetDeletion) OffsetDeleteResult {
	doc := NewOffsetDeleteResult(r.Group, nil, nil)
	if r.GroupErr != nil {
		doc.Error = Ptr(kafkaadmin.Meaning(r.GroupErr))
	}
	for _, p := range r.Partitions {
		e := OffsetDeletion{Topic: p.Topic, Partition: p.Partition, Deleted: p.Err == nil}
		if p.Err != nil {
			e.Error = Ptr(kafkaadmin.Meaning(p.Err))
		}
		doc.Partitions = append(doc.Partitions, e)
	}
	doc.Sort()
	return doc
}

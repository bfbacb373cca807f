package commands

import (
	"sort"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
)

// describeDoc turns a snapshot into the GroupDescriptionList document:
// every view at once, nulls for what does not exist.
func describeDoc(s *snapshot, topicFilter map[string]bool) output.GroupDescriptionList {
	groups := make([]output.GroupDescription, 0, len(s.groups))
	for _, v := range s.groups {
		groups = append(groups, describeGroup(v, s.bounds, topicFilter))
	}
	return output.NewGroupDescriptionList(groups)
}

func describeGroup(v groupView, bounds map[kafkaadmin.TopicPartition]logBounds, topicFilter map[string]bool) output.GroupDescription {
	d := v.desc
	g := output.GroupDescription{Group: d.Group, Members: []output.Member{}, Offsets: []output.PartitionOffset{}}
	if v.err != nil {
		msg := oneLine(v.err.Error())
		g.Error = &msg
		return g
	}
	if !d.Exists {
		// A group that does not exist has no state, only the error; the
		// command exits 1 as for any group that could not be described.
		msg := "the group does not exist"
		g.Error = &msg
		return g
	}
	g.State = output.Ptr(d.State)
	g.Type = output.Ptr(d.Type)
	g.ProtocolType = d.ProtocolType
	if d.Assignor != "" {
		g.Assignor = output.Ptr(d.Assignor)
	}
	if d.Coordinator.Host != "" {
		g.Coordinator = &output.Coordinator{ID: d.Coordinator.ID, Host: d.Coordinator.Host, Port: d.Coordinator.Port}
	}
	g.GroupEpoch = d.GroupEpoch
	g.TargetAssignmentEpoch = d.AssignmentEpoch

	owner := map[kafkaadmin.TopicPartition]*kafkaadmin.Member{}
	for i := range d.Members {
		m := &d.Members[i]
		om := output.Member{
			MemberID:        m.MemberID,
			ClientID:        m.ClientID,
			Host:            m.ClientHost,
			GroupInstanceID: m.InstanceID,
			MemberEpoch:     m.MemberEpoch,
			Upgraded:        m.Upgraded,
			Assignments:     toAssignments(m.Assignment),
		}
		if d.Type == kafkaadmin.TypeConsumer {
			t := toAssignments(m.TargetAssignment)
			om.TargetAssignments = &t
		}
		g.Members = append(g.Members, om)
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				owner[kafkaadmin.TopicPartition{Topic: a.Topic, Partition: p}] = m
			}
		}
	}

	// Offsets: every partition assigned to a member or committed.
	tps := map[kafkaadmin.TopicPartition]bool{}
	for tp := range owner {
		tps[tp] = true
	}
	for tp := range v.offsets {
		tps[tp] = true
	}
	for _, tp := range v.invalid {
		tps[tp] = true
	}
	keys := make([]kafkaadmin.TopicPartition, 0, len(tps))
	for tp := range tps {
		if topicFilter != nil && !topicFilter[tp.Topic] {
			continue
		}
		keys = append(keys, tp)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Topic != keys[j].Topic {
			return keys[i].Topic < keys[j].Topic
		}
		return keys[i].Partition < keys[j].Partition
	})
	for _, tp := range keys {
		po := output.PartitionOffset{Topic: tp.Topic, Partition: tp.Partition}
		if c, ok := v.offsets[tp]; ok {
			po.CommittedOffset = output.Ptr(c.Offset)
			po.CommittedLeaderEpoch = c.LeaderEpoch
			po.Metadata = output.Ptr(c.Metadata)
		}
		b := bounds[tp]
		po.LogStartOffset = b.start
		po.LogEndOffset = b.end
		po.Lag = output.Lag(po.CommittedOffset, po.LogEndOffset)
		if m := owner[tp]; m != nil {
			po.MemberID = output.Ptr(m.MemberID)
			po.ClientID = output.Ptr(m.ClientID)
			po.Host = output.Ptr(m.ClientHost)
		}
		g.Offsets = append(g.Offsets, po)
	}
	g.TotalLag = output.SumLag(g.Offsets)
	g.Sort()
	return g
}

func toAssignments(tps []kafkaadmin.TopicPartitions) []output.TopicPartitions {
	out := make([]output.TopicPartitions, 0, len(tps))
	for _, tp := range tps {
		out = append(out, output.TopicPartitions{Topic: tp.Topic, Partitions: append([]int32{}, tp.Partitions...)})
	}
	return out
}

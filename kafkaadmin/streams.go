package kafkaadmin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kcg-dev/kcg/vocab"
)

// TypeStreams is the group type of a KIP-1071 streams group.
const TypeStreams = vocab.TypeStreams

// protocolTypeStreams is the protocol type kcg gives a streams group's
// description (the broker's ListGroups reports "streams").
const protocolTypeStreams = "streams"

// StreamsGroup is what StreamsGroupDescribe (KIP-1071, Kafka 4.1+) says of
// a streams group beyond what every group description carries: the
// topology the group runs and each member's tasks. A streams group keeps
// its committed offsets in the usual OffsetCommit/OffsetFetch, so the
// rest of kcg reads and writes them as a consumer group's.
type StreamsGroup struct {
	GroupEpoch      int32
	AssignmentEpoch int32
	// TopologyEpoch is the epoch of the group's topology; -1 when the
	// group has none (no member ever sent one, or it is Empty and the
	// broker forgot it).
	TopologyEpoch int32
	// Subtopologies, sorted by id.
	Subtopologies []Subtopology
	// Members, sorted by member id.
	Members []StreamsMember
	// Assignor is the server-side task assignor (v1+), "" when unknown.
	Assignor string
}

// Subtopology is one subtopology of a streams group's topology.
type Subtopology struct {
	ID string
	// SourceTopics are every topic the subtopology reads, the
	// repartition topics among them.
	SourceTopics []string
	// RepartitionSourceTopics are the repartition topics it reads.
	RepartitionSourceTopics []string
	// RepartitionSinkTopics are the repartition topics it writes.
	RepartitionSinkTopics []string
	// ChangelogTopics are its state stores' changelog topics.
	ChangelogTopics []string
}

// StreamsMember is one member of a streams group.
type StreamsMember struct {
	MemberID      string
	InstanceID    *string
	ProcessID     string
	ClientID      string
	ClientHost    string
	MemberEpoch   int32
	TopologyEpoch int32
	// Endpoint is the member's user endpoint (application.server),
	// host:port, "" when it has none.
	Endpoint string
	// Assignment and TargetAssignment are the member's current and
	// target tasks.
	Assignment       StreamsTasks
	TargetAssignment StreamsTasks
	// Classic: the member joined with the classic protocol.
	Classic bool
}

// StreamsTasks are a member's tasks by kind; each list is sorted by
// subtopology.
type StreamsTasks struct {
	Active  []TaskIDs
	Standby []TaskIDs
	Warmup  []TaskIDs
}

// TaskIDs are the tasks of one subtopology: one per partition.
type TaskIDs struct {
	Subtopology string
	Partitions  []int32
}

// Topic kinds of a streams group's topology.
const (
	StreamsTopicInput       = "input"
	StreamsTopicRepartition = "repartition"
	StreamsTopicChangelog   = "changelog"
)

// TopicKinds names every topic of the topology: a source topic that is no
// repartition topic is an input topic; repartition and changelog topics
// are the application's internal topics.
func (s *StreamsGroup) TopicKinds() map[string]string {
	out := map[string]string{}
	for _, st := range s.Subtopologies {
		for _, t := range st.ChangelogTopics {
			out[t] = StreamsTopicChangelog
		}
		for _, t := range slices.Concat(st.RepartitionSourceTopics, st.RepartitionSinkTopics) {
			out[t] = StreamsTopicRepartition
		}
	}
	for _, st := range s.Subtopologies {
		for _, t := range st.SourceTopics {
			if _, ok := out[t]; !ok {
				out[t] = StreamsTopicInput
			}
		}
	}
	return out
}

// InputTopics are the topology's input topics (source topics that are
// not repartition topics), sorted: what the Java tool's
// --all-input-topics resets.
func (s *StreamsGroup) InputTopics() []string { return s.topicsOf(StreamsTopicInput) }

// InternalTopics are the topology's repartition and changelog topics,
// sorted.
func (s *StreamsGroup) InternalTopics() []string {
	return slices.Sorted(slices.Values(slices.Concat(s.topicsOf(StreamsTopicRepartition), s.topicsOf(StreamsTopicChangelog))))
}

func (s *StreamsGroup) topicsOf(kind string) []string {
	var out []string
	for t, k := range s.TopicKinds() {
		if k == kind {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// ErrNoStreamsGroups is returned by DescribeStreamsGroups when the cluster
// has no streams groups (no StreamsGroupDescribe: Kafka before 4.1, or
// the feature off).
var ErrNoStreamsGroups = errors.New("the broker has no streams groups (KIP-1071, Kafka 4.1 and later: it does not offer StreamsGroupDescribe)")

// HasStreamsGroups reports whether the cluster offers StreamsGroupDescribe.
func (c *Client) HasStreamsGroups(ctx context.Context) (bool, error) {
	return c.offers(ctx, kmsg.NewPtrStreamsGroupDescribeRequest())
}

// DescribeStreamsGroups describes groups with StreamsGroupDescribe only,
// in the order given; a group that is not a streams group is described
// as not existing (Exists false). It fails with ErrNoStreamsGroups when
// the cluster has no streams groups.
func (c *Client) DescribeStreamsGroups(ctx context.Context, groups []string) ([]GroupDescription, error) {
	if _, err := c.RecentCluster(ctx); err != nil {
		return nil, err
	}
	v, err := c.pickOr(ctx, kmsg.NewPtrStreamsGroupDescribeRequest(), 1, ErrNoStreamsGroups)
	if err != nil {
		return nil, err
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), c.describeStreamsGroups(v), groups)
	if err != nil {
		return nil, err
	}
	for i, e := range errs {
		if e != nil {
			out[i] = GroupDescription{Group: groups[i], Err: e}
		}
	}
	return out, nil
}

// describeStreamsGroups is StreamsGroupDescribe at version v for the
// engine. DescribeGroups hands it the groups the classic API does not
// know (a streams group is GROUP_ID_NOT_FOUND to DescribeGroups and
// ConsumerGroupDescribe); a group it does not know either is described
// as DescribeGroups v6 describes a group that does not exist.
func (c *Client) describeStreamsGroups(v int16) *sharded[string, GroupDescription] {
	return &sharded[string, GroupDescription]{
		split: describeGroupBatches,
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrStreamsGroupDescribeRequest()
			req.Version = v
			req.Groups = batch
			return req
		},
		decode: func(_ context.Context, broker int32, _ []string, resp kmsg.Response, r *reply[string, GroupDescription]) error {
			groups := resp.(*kmsg.StreamsGroupDescribeResponse).Groups
			for i := range groups {
				g := &groups[i]
				e := kerr("StreamsGroupDescribe", "group "+g.Group, g.ErrorCode, g.ErrorMessage)
				switch {
				case e == nil:
					r.set(g.Group, c.streamsGroupDescription(broker, g))
				case errors.Is(e, kafka.GroupIdNotFound):
					r.set(g.Group, GroupDescription{Group: g.Group, Exists: false, NotFound: true, State: vocab.StateDead, Type: TypeClassic, Coordinator: c.brokerOrID(broker)})
				case retriable(e):
					r.retry(g.Group, e)
				default:
					r.set(g.Group, GroupDescription{Group: g.Group, Err: e})
				}
			}
			return nil
		},
		missing: noDescription,
	}
}

// streamsGroupDescription converts a described streams group. Its
// members' Assignment are the partitions of their active tasks (every
// source topic of the task's subtopology, at the task's partition): the
// partitions the member consumes, as a consumer group member's
// assignment is.
func (c *Client) streamsGroupDescription(broker int32, g *kmsg.StreamsGroupDescribeResponseGroup) GroupDescription {
	sg := &StreamsGroup{GroupEpoch: g.Epoch, AssignmentEpoch: g.AssignmentEpoch, TopologyEpoch: -1}
	if g.AssignorName != nil {
		sg.Assignor = *g.AssignorName
	}
	if t := g.Topology; t != nil {
		sg.TopologyEpoch = t.Epoch
		for _, st := range t.Subtopologies {
			sg.Subtopologies = append(sg.Subtopologies, Subtopology{
				ID:                      st.SubtopologyID,
				SourceTopics:            sortedCopy(st.SourceTopics),
				RepartitionSinkTopics:   sortedCopy(st.RepartitionSinkTopics),
				RepartitionSourceTopics: sortedCopy(topicInfoNames(st.RepartitionSourceTopics)),
				ChangelogTopics:         sortedCopy(topicInfoNames(st.StateChangelogTopics)),
			})
		}
		slices.SortFunc(sg.Subtopologies, func(a, b Subtopology) int { return cmp.Compare(a.ID, b.ID) })
	}
	sources := map[string][]string{}
	for _, st := range sg.Subtopologies {
		sources[st.ID] = slices.Compact(sortedCopy(slices.Concat(st.SourceTopics, st.RepartitionSourceTopics)))
	}
	d := GroupDescription{
		Group:           g.Group,
		Exists:          g.State != vocab.StateDead,
		Type:            TypeStreams,
		ProtocolType:    protocolTypeStreams,
		State:           g.State,
		Assignor:        sg.Assignor,
		Coordinator:     c.brokerOrID(broker),
		GroupEpoch:      &sg.GroupEpoch,
		AssignmentEpoch: &sg.AssignmentEpoch,
		Streams:         sg,
	}
	for i := range g.Members {
		m := &g.Members[i]
		sm := StreamsMember{
			MemberID: m.MemberID, InstanceID: m.InstanceID, ProcessID: m.ProcessID,
			ClientID: m.ClientID, ClientHost: m.ClientHost, MemberEpoch: m.MemberEpoch,
			TopologyEpoch: m.TopologyEpoch, Classic: m.IsClassic,
			Assignment:       streamsTasks(m.Assignment),
			TargetAssignment: streamsTasks(m.TargetAssignment),
		}
		if ep := m.UserEndpoint; ep != nil && ep.Host != "" {
			sm.Endpoint = fmt.Sprintf("%s:%d", ep.Host, ep.Port)
		}
		sg.Members = append(sg.Members, sm)
		epoch := m.MemberEpoch
		d.Members = append(d.Members, Member{
			MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, ClientHost: m.ClientHost,
			MemberEpoch: &epoch,
			Assignment:  taskPartitions(sm.Assignment.Active, sources),
			// The target's partitions, as a consumer-protocol member's.
			TargetAssignment: taskPartitions(sm.TargetAssignment.Active, sources),
		})
	}
	slices.SortFunc(sg.Members, func(a, b StreamsMember) int { return cmp.Compare(a.MemberID, b.MemberID) })
	slices.SortFunc(d.Members, func(a, b Member) int { return cmp.Compare(a.MemberID, b.MemberID) })
	return d
}

func topicInfoNames(ts []kmsg.TopicInfo) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.Topic)
	}
	return out
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func streamsTasks(a kmsg.StreamsAssignment) StreamsTasks {
	conv := func(ts []kmsg.TaskIDs) []TaskIDs {
		var out []TaskIDs
		for _, t := range ts {
			ps := slices.Clone(t.Partitions)
			slices.Sort(ps)
			out = append(out, TaskIDs{Subtopology: t.SubtopologyID, Partitions: ps})
		}
		slices.SortFunc(out, func(a, b TaskIDs) int { return cmp.Compare(a.Subtopology, b.Subtopology) })
		return out
	}
	return StreamsTasks{Active: conv(a.ActiveTasks), Standby: conv(a.StandbyTasks), Warmup: conv(a.WarmupTasks)}
}

// taskPartitions are the partitions of tasks: each task's partition of
// every source topic of its subtopology.
func taskPartitions(tasks []TaskIDs, sources map[string][]string) []TopicPartitions {
	byTopic := map[string][]int32{}
	for _, t := range tasks {
		for _, topic := range sources[t.Subtopology] {
			byTopic[topic] = append(byTopic[topic], t.Partitions...)
		}
	}
	var out []TopicPartitions
	for topic, ps := range byTopic {
		slices.Sort(ps)
		out = append(out, TopicPartitions{Topic: topic, Partitions: slices.Compact(ps)})
	}
	slices.SortFunc(out, func(a, b TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	return out
}

package output

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// StreamsDescription is what describe adds for a streams group (KIP-1071,
// StreamsGroupDescribe): the topology's topics by kind and each member's
// tasks. Only streams groups carry it ("streams" is absent otherwise).
type StreamsDescription struct {
	// TopologyEpoch is the epoch of the group's topology; nil when the
	// broker knows none.
	TopologyEpoch *int32 `json:"topologyEpoch" yaml:"topologyEpoch"`
	// InputTopics are the topology's input topics: what the reset
	// --all-topics covers (kafka-streams-groups --all-input-topics).
	InputTopics []string `json:"inputTopics" yaml:"inputTopics"`
	// RepartitionTopics and ChangelogTopics are the application's
	// internal topics. kcg never deletes them.
	RepartitionTopics []string `json:"repartitionTopics" yaml:"repartitionTopics"`
	ChangelogTopics   []string `json:"changelogTopics" yaml:"changelogTopics"`
	// Subtopologies, sorted by id.
	Subtopologies []StreamsSubtopology `json:"subtopologies" yaml:"subtopologies"`
	// Members, sorted by member id.
	Members []StreamsMember `json:"members" yaml:"members"`
}

// StreamsSubtopology is one subtopology of the topology.
type StreamsSubtopology struct {
	ID                      string   `json:"id" yaml:"id"`
	SourceTopics            []string `json:"sourceTopics" yaml:"sourceTopics"`
	RepartitionSourceTopics []string `json:"repartitionSourceTopics" yaml:"repartitionSourceTopics"`
	RepartitionSinkTopics   []string `json:"repartitionSinkTopics" yaml:"repartitionSinkTopics"`
	ChangelogTopics         []string `json:"changelogTopics" yaml:"changelogTopics"`
}

// StreamsMember is one member of a streams group with its tasks.
type StreamsMember struct {
	MemberID        string  `json:"memberId" yaml:"memberId"`
	ProcessID       string  `json:"processId" yaml:"processId"`
	ClientID        string  `json:"clientId" yaml:"clientId"`
	Host            string  `json:"host" yaml:"host"`
	GroupInstanceID *string `json:"groupInstanceId" yaml:"groupInstanceId"`
	MemberEpoch     int32   `json:"memberEpoch" yaml:"memberEpoch"`
	TopologyEpoch   int32   `json:"topologyEpoch" yaml:"topologyEpoch"`
	// Endpoint is application.server (host:port); nil when unset.
	Endpoint *string `json:"endpoint" yaml:"endpoint"`
	// IsClassic: the member joined with the classic protocol.
	IsClassic bool `json:"isClassic" yaml:"isClassic"`
	// Tasks and TargetTasks are the current and target assignment.
	Tasks       StreamsTasks `json:"tasks" yaml:"tasks"`
	TargetTasks StreamsTasks `json:"targetTasks" yaml:"targetTasks"`
}

// StreamsTasks are tasks by kind.
type StreamsTasks struct {
	Active  []StreamsTaskIDs `json:"active" yaml:"active"`
	Standby []StreamsTaskIDs `json:"standby" yaml:"standby"`
	Warmup  []StreamsTaskIDs `json:"warmup" yaml:"warmup"`
}

// StreamsTaskIDs are the tasks of one subtopology, one per partition.
type StreamsTaskIDs struct {
	Subtopology string  `json:"subtopology" yaml:"subtopology"`
	Partitions  []int32 `json:"partitions" yaml:"partitions"`
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// toStreamsDescription converts kafkaadmin's streams group.
func toStreamsDescription(s *kafkaadmin.StreamsGroup) *StreamsDescription {
	if s == nil {
		return nil
	}
	kinds := s.TopicKinds()
	of := func(kind string) []string {
		out := []string{}
		for t, k := range kinds {
			if k == kind {
				out = append(out, t)
			}
		}
		slices.Sort(out)
		return out
	}
	d := &StreamsDescription{
		InputTopics:       of(kafkaadmin.StreamsTopicInput),
		RepartitionTopics: of(kafkaadmin.StreamsTopicRepartition),
		ChangelogTopics:   of(kafkaadmin.StreamsTopicChangelog),
		Subtopologies:     []StreamsSubtopology{},
		Members:           []StreamsMember{},
	}
	if s.TopologyEpoch >= 0 {
		d.TopologyEpoch = Ptr(s.TopologyEpoch)
	}
	for _, st := range s.Subtopologies {
		d.Subtopologies = append(d.Subtopologies, StreamsSubtopology{
			ID: st.ID, SourceTopics: nonNilStrings(st.SourceTopics),
			RepartitionSourceTopics: nonNilStrings(st.RepartitionSourceTopics),
			RepartitionSinkTopics:   nonNilStrings(st.RepartitionSinkTopics),
			ChangelogTopics:         nonNilStrings(st.ChangelogTopics),
		})
	}
	for _, m := range s.Members {
		sm := StreamsMember{
			MemberID: m.MemberID, ProcessID: m.ProcessID, ClientID: m.ClientID, Host: m.ClientHost,
			GroupInstanceID: m.InstanceID, MemberEpoch: m.MemberEpoch, TopologyEpoch: m.TopologyEpoch,
			IsClassic: m.Classic, Tasks: toStreamsTasks(m.Assignment), TargetTasks: toStreamsTasks(m.TargetAssignment),
		}
		if m.Endpoint != "" {
			sm.Endpoint = Ptr(m.Endpoint)
		}
		d.Members = append(d.Members, sm)
	}
	return d
}

func toStreamsTasks(t kafkaadmin.StreamsTasks) StreamsTasks {
	conv := func(ts []kafkaadmin.TaskIDs) []StreamsTaskIDs {
		out := []StreamsTaskIDs{}
		for _, x := range ts {
			out = append(out, StreamsTaskIDs{Subtopology: x.Subtopology, Partitions: append([]int32{}, x.Partitions...)})
		}
		return out
	}
	return StreamsTasks{Active: conv(t.Active), Standby: conv(t.Standby), Warmup: conv(t.Warmup)}
}

// streamsTopicKind is the kind of topic in group g's topology ("input",
// "repartition", "changelog"), nil when g is no streams group or the
// topology does not name it.
func streamsTopicKind(s *kafkaadmin.StreamsGroup, topic string) *string {
	if s == nil {
		return nil
	}
	if k, ok := s.TopicKinds()[topic]; ok {
		return Ptr(k)
	}
	return nil
}

// TaskList renders tasks as Kafka Streams names them
// (SUBTOPOLOGY_PARTITION, comma-separated), "-" for none.
func TaskList(ts []StreamsTaskIDs) string {
	var out []string
	for _, t := range ts {
		for _, p := range t.Partitions {
			out = append(out, t.Subtopology+"_"+strconv.Itoa(int(p)))
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}

// writeStreamsTables follows the offsets table for the streams groups of
// l: the topology's topics by kind, then each member's tasks.
func writeStreamsTables(w io.Writer, l GroupDescriptionList) error {
	var topics, members [][]string
	for _, g := range l.Groups {
		s := g.Streams
		if g.Error != nil || s == nil {
			continue
		}
		for kind, ts := range map[string][]string{kafkaadmin.StreamsTopicInput: s.InputTopics, kafkaadmin.StreamsTopicRepartition: s.RepartitionTopics, kafkaadmin.StreamsTopicChangelog: s.ChangelogTopics} {
			for _, t := range ts {
				topics = append(topics, append(lead(3, g.Cluster, g.Group), t, kind))
			}
		}
		for _, m := range s.Members {
			members = append(members, append(lead(9, g.Cluster, g.Group), m.MemberID, m.ProcessID, m.ClientID, m.Host, strconv.Itoa(int(m.TopologyEpoch)),
				TaskList(m.Tasks.Active), TaskList(m.Tasks.Standby), TaskList(m.Tasks.Warmup)))
		}
	}
	if len(topics) == 0 && len(members) == 0 {
		return nil
	}
	fleet := len(l.Clusters) > 0
	k := 2 // the columns that order the topics: [CLUSTER] GROUP TOPIC
	if fleet {
		k = 3
	}
	slices.SortFunc(topics, func(a, b []string) int {
		return strings.Compare(strings.Join(a[:k], "\x00"), strings.Join(b[:k], "\x00"))
	})
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	if err := renderTable(w, withCluster(fleet, "GROUP", "TOPIC", "STREAMS-TOPIC"), topics); err != nil {
		return err
	}
	if len(members) == 0 {
		return nil
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return renderTable(w, withCluster(fleet, "GROUP", "MEMBER-ID", "PROCESS-ID", "CLIENT-ID", "HOST", "TOPOLOGY-EPOCH", "ACTIVE-TASKS", "STANDBY-TASKS", "WARMUP-TASKS"), members)
}

package output

import (
	"cmp"
	"slices"

	"github.com/kcg-dev/kcg/vocab"
	"gopkg.in/yaml.v3"
)

// APIVersion is the schema version of every kcg document. Fields may be
// added under v1; none is renamed or changes meaning.
const APIVersion = "kcg/v1"

// The document kinds, so a script can check what it reads.
const (
	KindGroupList            = "GroupList"
	KindGroupDescriptionList = "GroupDescriptionList"
)

// Group types as kcg writes them in documents (Kafka's names, lower case):
// vocab's, under the names output's callers already use.
const (
	TypeClassic  = vocab.TypeClassic
	TypeConsumer = vocab.TypeConsumer
)

// Ptr returns a pointer to v. Documents use pointers for every value that
// may not exist, so building them needs this often.
func Ptr[T any](v T) *T { return &v }

// GroupList is the document of `kcg list -o json|yaml`.
type GroupList struct {
	// APIVersion is always "kcg/v1" and Kind "GroupList".
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// Clusters are the clusters read, only in a document of several
	// (--profile a,b, --all-profiles): absent otherwise.
	Clusters []ClusterStatus `json:"clusters,omitempty" yaml:"clusters,omitempty"`
	// Groups is sorted by group id after Sort (by cluster, then group id,
	// in a document of several clusters).
	Groups []GroupListing `json:"groups" yaml:"groups"`
}

// GroupListing is one group as the cluster lists it.
type GroupListing struct {
	// Cluster is the cluster the group is on, only in a document of
	// several clusters: absent otherwise.
	Cluster *ClusterRef `json:"cluster,omitempty" yaml:"cluster,omitempty"`
	// Group is the group id.
	Group string `json:"group" yaml:"group"`
	// State is Kafka's state name (Stable, Empty, ...); nil when the broker
	// does not say (ListGroups before v4).
	State *string `json:"state" yaml:"state"`
	// Type is "classic" or "consumer"; nil when the broker does not say
	// (ListGroups before v5).
	Type *string `json:"type" yaml:"type"`
	// ProtocolType is "consumer" for consumer groups and "" for groups that
	// only commit offsets (assign() users, "simple" groups).
	ProtocolType string `json:"protocolType" yaml:"protocolType"`
	// Owner is the Kafka Connect sink connector that owns the group
	// (owner.go): absent unless Connect was given, null when none does.
	Owner **ConnectorOwner `json:"owner,omitempty" yaml:"owner,omitempty"`
}

// NewGroupList returns a GroupList document holding groups.
func NewGroupList(groups []GroupListing) GroupList {
	return GroupList{APIVersion: APIVersion, Kind: KindGroupList, Groups: groups}
}

// Sort orders the groups by group id.
func (l GroupList) Sort() {
	slices.SortStableFunc(l.Groups, func(a, b GroupListing) int { return byCluster(a.Cluster, b.Cluster, a.Group, b.Group) })
}

// normalized returns a copy whose lists are non-nil, so JSON writes [] as
// YAML does (encoding/json writes a nil slice as null, yaml.v3 as []).
func (l GroupList) normalized() any {
	l.Groups = nonNil(l.Groups)
	return l
}

// GroupDescriptionList is the document of `kcg describe -o json|yaml`. It
// holds every view at once (offsets, members, state, coordinator), whatever
// table flags were given.
type GroupDescriptionList struct {
	// APIVersion is always "kcg/v1" and Kind "GroupDescriptionList".
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// Clusters are the clusters read, only in a document of several
	// (--profile a,b, --all-profiles): absent otherwise.
	Clusters []ClusterStatus `json:"clusters,omitempty" yaml:"clusters,omitempty"`
	// Groups is sorted by group id after Sort (by cluster, then group id,
	// in a document of several clusters).
	Groups []GroupDescription `json:"groups" yaml:"groups"`
}

// The values of --isolation: what describe's and watch's lag is measured
// against.
const (
	IsolationReadUncommitted = "read-uncommitted"
	IsolationReadCommitted   = "read-committed"
)

// NewGroupDescriptionList returns a GroupDescriptionList document holding
// groups.
func NewGroupDescriptionList(groups []GroupDescription) GroupDescriptionList {
	return GroupDescriptionList{APIVersion: APIVersion, Kind: KindGroupDescriptionList, Groups: groups}
}

// Sort puts the whole document in kcg's stable order: groups by id, and
// within each group members, assignments and offsets (see
// GroupDescription.Sort).
func (l GroupDescriptionList) Sort() {
	slices.SortStableFunc(l.Groups, func(a, b GroupDescription) int { return byCluster(a.Cluster, b.Cluster, a.Group, b.Group) })
	for i := range l.Groups {
		l.Groups[i].Sort()
	}
}

func (l GroupDescriptionList) normalized() any {
	gs := make([]GroupDescription, len(l.Groups))
	for i, g := range l.Groups {
		gs[i] = g.normalized()
	}
	l.Groups = gs
	return l
}

// GroupDescription is everything kcg reports about one group. A group that
// could not be described carries Error and nulls (or empty lists) for what
// is unknown; the other groups of the document are unaffected.
type GroupDescription struct {
	// Cluster is the cluster the group is on, only in a document of
	// several clusters: absent otherwise.
	Cluster *ClusterRef `json:"cluster,omitempty" yaml:"cluster,omitempty"`
	// Group is the group id.
	Group string `json:"group" yaml:"group"`
	// State is Kafka's state name (Stable, Empty, PreparingRebalance,
	// CompletingRebalance, Assigning, Reconciling, Dead); nil when unknown.
	State *string `json:"state" yaml:"state"`
	// Type is "classic", "consumer" or "share"; nil when unknown.
	Type *string `json:"type" yaml:"type"`
	// ProtocolType is "consumer" for consumer groups, "" for groups that only
	// commit offsets.
	ProtocolType string `json:"protocolType" yaml:"protocolType"`
	// Assignor is the partition assignor: the chosen protocol of a classic
	// group (range, cooperative-sticky, ...) or the server assignor of a
	// consumer-protocol group (uniform, range); nil when there is none
	// (e.g. an Empty classic group).
	Assignor *string `json:"assignor" yaml:"assignor"`
	// Coordinator is the broker coordinating the group; nil when unknown.
	Coordinator *Coordinator `json:"coordinator" yaml:"coordinator"`
	// GroupEpoch and TargetAssignmentEpoch exist for consumer-protocol
	// (KIP-848) groups only; nil for classic groups.
	GroupEpoch            *int32 `json:"groupEpoch" yaml:"groupEpoch"`
	TargetAssignmentEpoch *int32 `json:"targetAssignmentEpoch" yaml:"targetAssignmentEpoch"`
	// Members are the active members, sorted by member id after Sort (the
	// Java tool prints them in broker order).
	Members []Member `json:"members" yaml:"members"`
	// Offsets has one entry per partition that is assigned to a member or
	// has a committed offset, sorted by (topic, partition) after Sort.
	Offsets []PartitionOffset `json:"offsets" yaml:"offsets"`
	// TotalLag is the sum of the known lags (see SumLag); nil when no
	// partition's lag is known.
	TotalLag *int64 `json:"totalLag" yaml:"totalLag"`
	// MaxTimeLagMs is the largest known time lag of the offsets; nil when
	// none is known (or without --time-lag).
	MaxTimeLagMs *int64 `json:"maxTimeLagMs" yaml:"maxTimeLagMs"`
	// MinRetentionHeadroomMs is the smallest known retention headroom of
	// the offsets; nil when none is known (or without --time-lag).
	MinRetentionHeadroomMs *int64 `json:"minRetentionHeadroomMs" yaml:"minRetentionHeadroomMs"`
	// Streams is a streams group's topology and tasks (output/streams.go);
	// absent for every other group.
	Streams *StreamsDescription `json:"streams,omitempty" yaml:"streams,omitempty"`
	// Owner is the Kafka Connect sink connector that owns the group
	// (owner.go): absent unless Connect was given, null when none does.
	Owner **ConnectorOwner `json:"owner,omitempty" yaml:"owner,omitempty"`
	// Error says why the group could not be described; nil when it could.
	Error *string `json:"error" yaml:"error"`
}

// Sort orders, in place, the members by member id, each member's
// assignments by topic with partitions ascending, and the offsets by
// (topic, partition).
func (d GroupDescription) Sort() {
	slices.SortStableFunc(d.Members, func(a, b Member) int { return cmp.Compare(a.MemberID, b.MemberID) })
	for i := range d.Members {
		m := &d.Members[i]
		sortAssignments(m.Assignments)
		if m.TargetAssignments != nil {
			sortAssignments(*m.TargetAssignments)
		}
	}
	slices.SortStableFunc(d.Offsets, func(a, b PartitionOffset) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
}

func (d GroupDescription) normalized() GroupDescription {
	ms := make([]Member, len(d.Members))
	for i, m := range d.Members {
		m.Assignments = normalizeAssignments(m.Assignments)
		if m.TargetAssignments != nil {
			t := normalizeAssignments(*m.TargetAssignments)
			m.TargetAssignments = &t
		}
		ms[i] = m
	}
	d.Members = ms
	os := make([]PartitionOffset, len(d.Offsets))
	for i, o := range d.Offsets {
		o.TimeLagFlags = nonNil(o.TimeLagFlags)
		os[i] = o
	}
	d.Offsets = os
	return d
}

// IsConsumerProtocol reports whether the group uses the consumer protocol
// of KIP-848 (type "consumer").
func (d GroupDescription) IsConsumerProtocol() bool {
	return d.Type != nil && *d.Type == TypeConsumer
}

// SumLag returns the sum of the known lags of offsets, or nil when no lag
// is known: a partition without a committed offset or without a log end
// offset contributes nothing rather than turning the total into a guess.
func SumLag(offsets []PartitionOffset) *int64 {
	var sum int64
	known := false
	for _, o := range offsets {
		if o.Lag != nil {
			sum += *o.Lag
			known = true
		}
	}
	if !known {
		return nil
	}
	return &sum
}

// MaxTimeLag returns the largest known time lag of offsets, or nil when
// none is known.
func MaxTimeLag(offsets []PartitionOffset) *int64 {
	return maxKnown(offsets, func(o PartitionOffset) *int64 { return o.TimeLagMs })
}

// maxKnown is the largest non-nil value(x) of xs, nil when there is none.
// MinRetentionHeadroom returns the smallest known retention headroom of
// offsets, or nil when none is known.
func MinRetentionHeadroom(offsets []PartitionOffset) *int64 {
	var out *int64
	for _, o := range offsets {
		if h := o.RetentionHeadroomMs; h != nil && (out == nil || *h < *out) {
			out = h
		}
	}
	return out
}

func maxKnown[T any](xs []T, value func(T) *int64) *int64 {
	var m *int64
	for _, x := range xs {
		if v := value(x); v != nil && (m == nil || *v > *m) {
			m = Ptr(*v)
		}
	}
	return m
}

// TimestampFormat is how documents write a record timestamp: RFC 3339,
// UTC, milliseconds.
const TimestampFormat = "2006-01-02T15:04:05.000Z07:00"

// Coordinator is the broker that coordinates a group.
type Coordinator struct {
	ID   int32  `json:"id" yaml:"id"`
	Host string `json:"host" yaml:"host"`
	Port int32  `json:"port" yaml:"port"`
}

// Member is one active member of a group.
type Member struct {
	// MemberID is the member (consumer) id the coordinator gave it.
	MemberID string `json:"memberId" yaml:"memberId"`
	// ClientID is the client.id the consumer was configured with.
	ClientID string `json:"clientId" yaml:"clientId"`
	// Host is the client's address as the broker saw it, e.g. "/10.0.0.7".
	Host string `json:"host" yaml:"host"`
	// GroupInstanceID is the static membership id (group.instance.id); nil
	// for dynamic members.
	GroupInstanceID *string `json:"groupInstanceId" yaml:"groupInstanceId"`
	// MemberEpoch is the member's epoch in a consumer-protocol group; nil
	// for classic groups.
	MemberEpoch *int32 `json:"memberEpoch" yaml:"memberEpoch"`
	// Upgraded tells, for a member of a consumer-protocol group, whether it
	// speaks the consumer protocol (true) or joined as a classic consumer
	// (false); nil for classic groups and when the broker does not say.
	Upgraded *bool `json:"upgraded" yaml:"upgraded"`
	// Assignments is the member's current assignment.
	Assignments []TopicPartitions `json:"assignments" yaml:"assignments"`
	// TargetAssignments is the assignment the coordinator is moving the
	// member to in a consumer-protocol group; nil for classic groups.
	TargetAssignments *[]TopicPartitions `json:"targetAssignments" yaml:"targetAssignments"`
}

// NumPartitions returns how many partitions the member currently owns.
func (m Member) NumPartitions() int {
	n := 0
	for _, a := range m.Assignments {
		n += len(a.Partitions)
	}
	return n
}

// TopicPartitions is a set of partitions of one topic.
type TopicPartitions struct {
	Topic      string  `json:"topic" yaml:"topic"`
	Partitions []int32 `json:"partitions" yaml:"partitions"`
}

// MarshalYAML writes the partition list in flow style ("partitions: [0,
// 1, 2]"), one line per topic as in the plan file, instead of one line per
// partition; the fields and their order are those of the struct.
func (tp TopicPartitions) MarshalYAML() (any, error) {
	// plain has the same fields and tags but no MarshalYAML, so encoding it
	// does not recurse.
	type plain TopicPartitions
	p := plain(tp)
	p.Partitions = nonNil(p.Partitions)
	var n yaml.Node
	if err := n.Encode(p); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "partitions" {
			n.Content[i+1].Style = yaml.FlowStyle
		}
	}
	return &n, nil
}

func sortAssignments(as []TopicPartitions) {
	slices.SortStableFunc(as, func(a, b TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	for _, a := range as {
		slices.Sort(a.Partitions)
	}
}

func normalizeAssignments(as []TopicPartitions) []TopicPartitions {
	out := make([]TopicPartitions, len(as))
	for i, a := range as {
		a.Partitions = nonNil(a.Partitions)
		out[i] = a
	}
	return out
}

// PartitionOffset is one partition of a group: its committed offset, its
// log bounds, the lag between them and the member that owns it.
type PartitionOffset struct {
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	// StreamsTopic is, in a streams group, the kind of topic in its
	// topology: "input", "repartition" or "changelog"; absent otherwise.
	StreamsTopic *string `json:"streamsTopic,omitempty" yaml:"streamsTopic,omitempty"`
	// CommittedOffset is the group's committed offset; nil when the group
	// has not committed one for this partition.
	CommittedOffset *int64 `json:"committedOffset" yaml:"committedOffset"`
	// StartOffset is a share group's share-partition start offset (the
	// first record not yet delivered and acknowledged: where the group
	// resumes; KIP-932), present for share groups only, which have no
	// committed offsets (CommittedOffset is null).
	StartOffset *int64 `json:"startOffset,omitempty" yaml:"startOffset,omitempty"`
	// CommittedLeaderEpoch is the leader epoch stored with the commit; nil
	// when there is no commit or the committer did not record one.
	CommittedLeaderEpoch *int32 `json:"committedLeaderEpoch" yaml:"committedLeaderEpoch"`
	// LogStartOffset and LogEndOffset are the partition's bounds (ListOffsets
	// EARLIEST and LATEST, the high watermark); nil when unknown, e.g. the
	// partition has no leader.
	LogStartOffset *int64 `json:"logStartOffset" yaml:"logStartOffset"`
	LogEndOffset   *int64 `json:"logEndOffset" yaml:"logEndOffset"`
	// LastStableOffset is the partition's last stable offset (ListOffsets
	// LATEST, read committed): below the first open transaction; nil when
	// unknown.
	LastStableOffset *int64 `json:"lastStableOffset" yaml:"lastStableOffset"`
	// Lag is LogEndOffset - CommittedOffset (with --isolation
	// read-committed LastStableOffset - CommittedOffset); nil unless both
	// are known. It can be negative when a commit lies beyond the end.
	Lag *int64 `json:"lag" yaml:"lag"`
	// CommittedTimestamp is the timestamp of the next record the group
	// will consume (the first data record at or after the committed
	// offset), RFC 3339 UTC with milliseconds; nil when caught up, without
	// a commit, when it could not be read, or without --time-lag.
	CommittedTimestamp *string `json:"committedTimestamp" yaml:"committedTimestamp"`
	// TimeLagMs is now - CommittedTimestamp in whole milliseconds; 0 when
	// caught up; nil without a commit, when unknown, or without --time-lag.
	TimeLagMs *int64 `json:"timeLagMs" yaml:"timeLagMs"`
	// TimeLagFlags says how the time lag was found when it is not the
	// plain case: below-log-start, future-timestamp, log-append-time,
	// open-transaction.
	TimeLagFlags []string `json:"timeLagFlags" yaml:"timeLagFlags"`
	// RetentionHeadroomMs is how long until time-based retention may
	// delete the record at the committed offset: its timestamp + the
	// topic's retention.ms - now, 0 when it is already gone
	// (below-log-start), the whole retention.ms when caught up; nil for
	// retention.ms=-1, a compact-only topic, an unknown timestamp, or
	// without --time-lag (docs/time-lag.md).
	RetentionHeadroomMs *int64 `json:"retentionHeadroomMs" yaml:"retentionHeadroomMs"`
	// RetentionHeadroomBytes would be the bytes left before size-based
	// retention (retention.bytes) may delete the segment holding the
	// committed record. Kafka's protocol tells a partition's size
	// (DescribeLogDirs) but not where its segments start, so kcg cannot
	// tell it and it is always null (docs/time-lag.md).
	RetentionHeadroomBytes *int64 `json:"retentionHeadroomBytes" yaml:"retentionHeadroomBytes"`
	// MemberID, ClientID and Host name the member the partition is assigned
	// to; nil when no member owns it.
	MemberID *string `json:"memberId" yaml:"memberId"`
	ClientID *string `json:"clientId" yaml:"clientId"`
	Host     *string `json:"host" yaml:"host"`
	// Metadata is the metadata string stored with the commit ("" when the
	// committer gave none); nil when there is no commit.
	Metadata *string `json:"metadata" yaml:"metadata"`
}

// Lag returns end - committed when both are known, else nil. Commands use
// it to fill PartitionOffset.Lag by the Java tool's rule.
func Lag(committed, end *int64) *int64 {
	if committed == nil || end == nil {
		return nil
	}
	l := *end - *committed
	return &l
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

package kafkaadmin

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TopicPartition names one partition. It is vocab's, so the layers above
// pass partitions to and from this package without converting them.
type TopicPartition = vocab.TopicPartition

// Broker is one broker of the cluster.
type Broker struct {
	ID   int32
	Host string
	Port int32
	Rack *string
}

// Addr is host:port.
func (b Broker) Addr() string { return fmt.Sprintf("%s:%d", b.Host, b.Port) }

// ClusterInfo identifies the cluster.
type ClusterInfo struct {
	ClusterID    string
	ControllerID int32
	Brokers      []Broker // sorted by id
}

// PartitionInfo is one partition's leadership.
type PartitionInfo struct {
	Partition   int32
	Leader      int32 // -1: no leader
	LeaderEpoch int32
}

// TopicInfo is one topic's partitions, sorted by partition id. Err is set
// (an *KafkaError with UNKNOWN_TOPIC_OR_PARTITION, or an authorization
// error) when the topic cannot be described.
type TopicInfo struct {
	Name       string
	ID         [16]byte
	Partitions []PartitionInfo
	Err        error
}

// metadataVersion is the highest Metadata version kcg asks for: v12 is
// flexible, carries topic ids (needed to name KIP-848 assignments, which
// some brokers send by id only) and the cluster id.
const metadataVersion = 12

// metadata sends a fresh Metadata request (kafka-go's own Metadata call is
// served from a cache that may be seconds old). topics nil means all topics;
// an empty non-nil slice means none.
func (c *Client) metadata(ctx context.Context, topics []string) (*kmsg.MetadataResponse, error) {
	req := kmsg.NewPtrMetadataRequest()
	v, ok, err := c.pickVersion(ctx, req, metadataVersion)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("the broker does not support the Metadata API")
	}
	req.Version = v
	if topics != nil {
		req.Topics = make([]kmsg.MetadataRequestTopic, 0, len(topics))
		for _, t := range topics {
			rt := kmsg.NewMetadataRequestTopic()
			rt.Topic = kmsg.StringPtr(t)
			req.Topics = append(req.Topics, rt)
		}
	}
	var resp *kmsg.MetadataResponse
	err = withRetry(ctx, func() error {
		r, err := c.roundTrip(ctx, anyBroker, req)
		if err != nil {
			return err
		}
		resp = r.(*kmsg.MetadataResponse)
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.rememberBrokers(resp)
	return resp, nil
}

func (c *Client) rememberBrokers(resp *kmsg.MetadataResponse) {
	info := &ClusterInfo{ControllerID: resp.ControllerID}
	if resp.ClusterID != nil {
		info.ClusterID = *resp.ClusterID
	}
	brokers := make(map[int32]Broker, len(resp.Brokers))
	for _, b := range resp.Brokers {
		br := Broker{ID: b.NodeID, Host: b.Host, Port: b.Port, Rack: b.Rack}
		brokers[b.NodeID] = br
		info.Brokers = append(info.Brokers, br)
	}
	slices.SortFunc(info.Brokers, func(a, b Broker) int { return cmp.Compare(a.ID, b.ID) })
	c.mu.Lock()
	c.brokers = brokers
	c.cluster = info
	c.clusterAt = time.Now()
	c.mu.Unlock()
}

// metadataReuse is how long one Metadata answer serves the operations that
// follow it (RecentCluster, cachedTopics). A command makes its calls one
// after the other within milliseconds: describe used to send six Metadata
// requests in a row, each a round trip on a remote cluster. Retries after
// leader or coordinator errors always ask again.
const metadataReuse = 2 * time.Second

// RecentCluster is Cluster, reusing a Metadata answer of the last
// metadataReuse: the cluster answered, and its brokers are known.
func (c *Client) RecentCluster(ctx context.Context) (ClusterInfo, error) {
	c.mu.Lock()
	if c.cluster != nil && time.Since(c.clusterAt) < metadataReuse {
		info := *c.cluster
		c.mu.Unlock()
		return info, nil
	}
	c.mu.Unlock()
	return c.Cluster(ctx)
}

// cachedTopics returns the leaders of the partitions tps from Metadata
// answers of the last metadataReuse, or nil when those did not describe
// every one of them with a leader.
func (c *Client) cachedTopics(tps []TopicPartition) map[string]TopicInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]TopicInfo{}
	for _, tp := range tps {
		e, ok := c.topics[tp.Topic]
		if !ok || time.Since(e.at) >= metadataReuse {
			return nil
		}
		ps := e.info.Partitions
		i, _ := slices.BinarySearchFunc(ps, tp.Partition, func(p PartitionInfo, n int32) int { return cmp.Compare(p.Partition, n) })
		if i == len(ps) || ps[i].Partition != tp.Partition || ps[i].Leader < 0 {
			return nil
		}
		out[tp.Topic] = e.info
	}
	return out
}

// rememberTopics keeps the topics of a Metadata answer that were described
// without an error, for cachedTopics.
func (c *Client) rememberTopics(ts map[string]TopicInfo) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.topics == nil {
		c.topics = map[string]topicEntry{}
	}
	for n, ti := range ts {
		if ti.Err == nil {
			c.topics[n] = topicEntry{info: ti, at: now}
		} else {
			delete(c.topics, n)
		}
	}
}

// Cluster checks that the cluster answers and returns its identity and
// brokers. Every command calls it first: an unreachable cluster is an
// error, never an empty result.
//
// The first call of a client is answered by the Metadata kafka-go's first
// connection asked a moment before (its versions are kcg's too: warm.go),
// rather than by a second one.
func (c *Client) Cluster(ctx context.Context) (ClusterInfo, error) {
	if _, err := c.apiVersions(ctx); err != nil {
		return ClusterInfo{}, err
	}
	if info, ok := c.takeDiscovered(); ok {
		return info, nil
	}
	if _, err := c.metadata(ctx, []string{}); err != nil {
		return ClusterInfo{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return *c.cluster, nil
}

// learnBroker adds b, as FindCoordinator named it, to the brokers known
// when the last Metadata answer did not name it (or none was asked yet):
// the descriptions of a group name its coordinator without a Metadata
// round trip of their own.
func (c *Client) learnBroker(b Broker) {
	if b.Host == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.brokers[b.ID]; ok {
		return
	}
	if c.brokers == nil {
		c.brokers = map[int32]Broker{}
	}
	c.brokers[b.ID] = b
}

func (c *Client) broker(id int32) (Broker, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.brokers[id]
	return b, ok
}

// Topics describes the named topics (all topics when names is nil). A topic
// that does not exist is present in the result with Err set.
func (c *Client) Topics(ctx context.Context, names []string) (map[string]TopicInfo, error) {
	if names != nil && len(names) == 0 {
		return map[string]TopicInfo{}, nil
	}
	resp, err := c.metadata(ctx, names)
	if err != nil {
		return nil, err
	}
	out := make(map[string]TopicInfo, len(resp.Topics))
	for _, t := range resp.Topics {
		name := ""
		if t.Topic != nil {
			name = *t.Topic
		}
		ti := TopicInfo{Name: name, ID: t.TopicID}
		if t.ErrorCode != 0 {
			ti.Err = kerr("Metadata", "topic "+name, t.ErrorCode, nil)
			if kafka.Error(t.ErrorCode) == kafka.UnknownTopicOrPartition {
				ti.Err = &UnknownTopicError{Topic: name}
			}
		}
		for _, p := range t.Partitions {
			ti.Partitions = append(ti.Partitions, PartitionInfo{Partition: p.Partition, Leader: p.Leader, LeaderEpoch: p.LeaderEpoch})
		}
		slices.SortFunc(ti.Partitions, func(a, b PartitionInfo) int { return cmp.Compare(a.Partition, b.Partition) })
		out[name] = ti
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			out[n] = TopicInfo{Name: n, Err: &UnknownTopicError{Topic: n}}
		}
	}
	c.rememberTopics(out)
	return out, nil
}

// UnknownTopicError means a topic does not exist.
type UnknownTopicError struct{ Topic string }

func (e *UnknownTopicError) Error() string { return fmt.Sprintf("topic %q does not exist", e.Topic) }

// Is makes errors.Is(err, kafka.UnknownTopicOrPartition) true.
func (e *UnknownTopicError) Is(target error) bool { return target == kafka.UnknownTopicOrPartition }

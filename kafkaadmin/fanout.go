package kafkaadmin

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The ListOffsets fan-out (issue 34 item 2, docs/benchmarks.md "Round
// trips over a network delay"). A command's log bounds need the leaders
// of the partitions its groups committed, and those come from a Metadata
// answer that only the offsets' answer can ask for: one round trip for
// the Metadata, then one for ListOffsets at the leaders. On a small
// cluster whose brokers are already known, each phase's ListOffsets of
// every partition goes to every broker at once, beside the Metadata, and
// for each partition the answer of the leader that Metadata names is
// kept: one round trip. The brokers that do not lead a partition answer
// NOT_LEADER_OR_FOLLOWER for it; those answers are dropped unread, and a
// broker that leads none of them is not waited for. Every
// partition without a successful answer from its leader (no leader, a
// leader that moved, a topic or partition that does not exist, a broker
// whose request failed) then goes through the leader-routed path with
// that Metadata answer, so its result, its retries and its error are the
// ones that path gives.

// fanOutAge bounds the age of the broker list the fan-out trusts:
// kafka-go's transport, which routes kcg's requests by broker id,
// refreshes its own list as often (New's MetadataTTL). A broker the list
// misses costs no result: its partitions take the leader-routed path.
const fanOutAge = 10 * time.Second

// fanOutBrokers returns the ids of the cluster's brokers when they are
// known without a round trip (the cluster kafka-go's first connection
// described, or kcg's last Metadata answer, at most fanOutAge old) and
// few enough that phases requests to each and the Metadata beside them
// fit within the in-flight bound at once; nil otherwise.
func (c *Client) fanOutBrokers(phases int) []int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	info, at := c.cluster, c.clusterAt
	if info == nil {
		info, at = c.discovered, c.discoveredAt
	}
	if info == nil || len(info.Brokers) == 0 || time.Since(at) >= fanOutAge || len(info.Brokers)*phases+1 > maxInFlight {
		return nil
	}
	ids := make([]int32, len(info.Brokers))
	for i, b := range info.Brokers {
		ids[i] = b.ID
	}
	return ids
}

// fanOut answers the ListOffsets phases qs (at version v) for tps by the
// fan-out when it applies: the partitions' leaders are not known from a
// moment-old Metadata answer and fanOutBrokers allows it. ok is false
// when it does not apply (nothing was sent); otherwise the results are
// in the order of qs, or err is why the call failed.
func (c *Client) fanOut(ctx context.Context, tps []TopicPartition, qs []OffsetQuery, v int16) (got []map[TopicPartition]ListedOffset, ok bool, err error) {
	_, got, ok, err = c.fanOutTopics(ctx, tps, qs, v)
	return got, ok, err
}

// ListOffsetsAndTopics is ListOffsetsAll by the fan-out, with the
// Metadata answer of tps' topics it read (as Topics returns it): ok is
// false, and nothing was sent, when the fan-out does not apply (a
// moment-old answer names the leaders, or the cluster is too big or its
// brokers unknown). plan asks it for the bounds of the partitions its
// groups committed, beside the Metadata that checks their topics exist.
func (c *Client) ListOffsetsAndTopics(ctx context.Context, tps []TopicPartition, qs []OffsetQuery) (topics map[string]TopicInfo, got []map[TopicPartition]ListedOffset, ok bool, err error) {
	if len(tps) == 0 || c.fanOutBrokers(len(qs)) == nil {
		return nil, nil, false, nil
	}
	v, err := c.listOffsetsVersion(ctx, qs)
	if err != nil {
		return nil, nil, true, err
	}
	return c.fanOutTopics(ctx, tps, qs, v)
}

// fanOutTopics is fanOut, with the Metadata answer it read.
func (c *Client) fanOutTopics(ctx context.Context, tps []TopicPartition, qs []OffsetQuery, v int16) (meta map[string]TopicInfo, got []map[TopicPartition]ListedOffset, ok bool, err error) {
	if len(tps) == 0 || c.cachedTopics(tps) != nil {
		return nil, nil, false, nil
	}
	brokers := c.fanOutBrokers(len(qs))
	if brokers == nil {
		return nil, nil, false, nil
	}
	var metaErr error
	metaDone := make(chan struct{})
	go func() {
		defer close(metaDone)
		meta, metaErr = c.Topics(ctx, topicsOf(tps))
	}()
	answers := c.sendFanOut(ctx, vocab.Dedupe(tps), qs, v, brokers)
	<-metaDone
	if metaErr != nil {
		answers.abandon()
		return nil, nil, true, metaErr
	}
	leaders := leadersOf(meta, tps)
	got, err = c.settleFanOut(ctx, tps, qs, v, meta, leaders, brokers, answers.of(leaders))
	return meta, got, true, err
}

// fanOutAnswers are the ListOffsets answers of every phase from every
// broker, as they come in.
type fanOutAnswers struct {
	cancel  context.CancelFunc
	brokers []int32
	done    [][]chan struct{}             // by phase, then broker
	resp    [][]*kmsg.ListOffsetsResponse // set before done closes; nil when the request failed
}

// sendFanOut sends each phase of qs for asked to every broker, at once.
// A partition given twice is asked once, as the engine's path asks it.
func (c *Client) sendFanOut(ctx context.Context, asked []TopicPartition, qs []OffsetQuery, v int16, brokers []int32) *fanOutAnswers {
	ctx, cancel := context.WithCancel(ctx)
	a := &fanOutAnswers{cancel: cancel, brokers: brokers, done: make([][]chan struct{}, len(qs)), resp: make([][]*kmsg.ListOffsetsResponse, len(qs))}
	for i, q := range qs {
		a.done[i] = make([]chan struct{}, len(brokers))
		a.resp[i] = make([]*kmsg.ListOffsetsResponse, len(brokers))
		for j, b := range brokers {
			a.done[i][j] = make(chan struct{})
			go func() {
				defer close(a.done[i][j])
				resp, err := c.roundTrip(ctx, b, listOffsets(v, q.Spec, q.Isolation).request(asked))
				if err == nil {
					a.resp[i][j], _ = resp.(*kmsg.ListOffsetsResponse)
				}
			}()
		}
	}
	return a
}

// of waits for the answers of the brokers that lead some partition (by
// leaders) and returns them, nil for the others, whose requests are
// abandoned: a broker that leads none of them (or one kcg cannot reach)
// holds nothing up, as it would not on the leader-routed path.
func (a *fanOutAnswers) of(leaders map[TopicPartition]int32) [][]*kmsg.ListOffsetsResponse {
	lead := map[int32]bool{}
	for _, l := range leaders {
		lead[l] = true
	}
	out := make([][]*kmsg.ListOffsetsResponse, len(a.done))
	for i := range a.done {
		out[i] = make([]*kmsg.ListOffsetsResponse, len(a.brokers))
		for j, b := range a.brokers {
			if lead[b] {
				<-a.done[i][j]
				out[i][j] = a.resp[i][j]
			}
		}
	}
	a.abandon()
	return out
}

// abandon ends the requests still out.
func (a *fanOutAnswers) abandon() { a.cancel() }

// leadersOf is the leader meta names for each of tps that has one.
func leadersOf(meta map[string]TopicInfo, tps []TopicPartition) map[TopicPartition]int32 {
	out := make(map[TopicPartition]int32, len(tps))
	for _, tp := range tps {
		ti := meta[tp.Topic]
		if ti.Err != nil {
			continue
		}
		i, found := slices.BinarySearchFunc(ti.Partitions, tp.Partition, func(p PartitionInfo, n int32) int {
			return int(p.Partition) - int(n)
		})
		if found && ti.Partitions[i].Leader >= 0 {
			out[tp] = ti.Partitions[i].Leader
		}
	}
	return out
}

// settleFanOut keeps, for each phase and partition, the successful answer
// of the partition's leader (answers[phase][i] is brokers[i]'s, nil when
// its request failed), and sends the partitions left through the
// leader-routed path with meta, every phase at once. The call fails when
// a phase of that path fails.
func (c *Client) settleFanOut(ctx context.Context, tps []TopicPartition, qs []OffsetQuery, v int16, meta map[string]TopicInfo, leaders map[TopicPartition]int32, brokers []int32, answers [][]*kmsg.ListOffsetsResponse) ([]map[TopicPartition]ListedOffset, error) {
	out := make([]map[TopicPartition]ListedOffset, len(qs))
	rest := make([]map[TopicPartition]ListedOffset, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		out[i] = make(map[TopicPartition]ListedOffset, len(tps))
		for j, resp := range answers[i] {
			if resp == nil {
				continue
			}
			for _, t := range resp.Topics {
				for _, p := range t.Partitions {
					tp := TopicPartition{Topic: t.Topic, Partition: p.Partition}
					if l, ok := leaders[tp]; ok && l == brokers[j] && p.ErrorCode == 0 {
						out[i][tp] = listed(q.Spec, &p)
					}
				}
			}
		}
		var left []TopicPartition
		for _, tp := range tps {
			if _, ok := out[i][tp]; !ok {
				left = append(left, tp)
			}
		}
		if len(left) > 0 {
			wg.Go(func() { rest[i], errs[i] = c.listOffsetsRouted(ctx, left, q, v, meta) })
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		maps.Copy(out[i], rest[i])
	}
	return out, nil
}

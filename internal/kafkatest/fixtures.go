package kafkatest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/protocol/offsetcommit"
)

// Record is a record for Produce. An empty Key is a null key; a zero Time
// is the current time. Time is stored as the record's CreateTime.
type Record struct {
	Key, Value string
	Time       time.Time
	// Tombstone writes a null value (Value is ignored): what compaction
	// reads as "delete the key".
	Tombstone bool
}

// Timeouts of the fixtures. A fresh real broker answers group requests with
// COORDINATOR_NOT_AVAILABLE / COORDINATOR_LOAD_IN_PROGRESS for a moment, and
// a new topic's partitions need a moment to get leaders.
const (
	fixtureTimeout = 60 * time.Second
	retryBackoff   = 100 * time.Millisecond
)

// retriable reports errors worth another try in a fixture: transient broker
// states and connection trouble.
func retriable(err error) bool {
	if err == nil {
		return false
	}
	var kerr kafka.Error
	if errors.As(err, &kerr) {
		switch kerr {
		case kafka.UnknownTopicOrPartition, // new topic not yet in the broker's metadata
			kafka.LeaderNotAvailable,
			kafka.NotLeaderForPartition,
			kafka.RequestTimedOut,
			kafka.GroupLoadInProgress,
			kafka.GroupCoordinatorNotAvailable,
			kafka.NotCoordinatorForGroup,
			kafka.RebalanceInProgress,
			kafka.NotEnoughReplicas,
			kafka.KafkaStorageError,
			kafka.FencedLeaderEpoch,
			kafka.UnknownLeaderEpoch,
			kafka.OffsetNotAvailable,
			// Seen from ListOffsets on a new topic right after a
			// failure test restarted a broker of the cluster.
			kafka.Unknown:
			return true
		}
		return kerr.Temporary()
	}
	var nerr net.Error
	// EOF: a pooled connection to a broker that a failure test killed and
	// restarted is cut on its first use.
	return errors.As(err, &nerr) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// retry runs fn until it returns nil or a non-retriable error, or the
// fixture timeout passes; it fails the test with the last error.
func retry(t testing.TB, what string, fn func(ctx context.Context) error) {
	t.Helper()
	deadline := time.Now().Add(fixtureTimeout)
	var err error
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		err = fn(ctx)
		cancel()
		if err == nil {
			return
		}
		if !retriable(err) {
			t.Fatalf("kafkatest: %s: %v", what, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("kafkatest: %s: still failing after %d attempts in %v: %v", what, attempt, fixtureTimeout, err)
		}
		time.Sleep(retryBackoff)
	}
}

// CreateTopic creates a topic with replication factor 1 and waits until
// every partition has a leader that answers. configs are topic configs as
// "key=value" ("message.timestamp.type=LogAppendTime").
func (e *Env) CreateTopic(t testing.TB, name string, partitions int, configs ...string) {
	t.Helper()
	var entries []kafka.ConfigEntry
	for _, c := range configs {
		k, v, ok := strings.Cut(c, "=")
		if !ok {
			t.Fatalf("kafkatest: topic config %q is not key=value", c)
		}
		entries = append(entries, kafka.ConfigEntry{ConfigName: k, ConfigValue: v})
	}
	retry(t, "create topic "+name, func(ctx context.Context) error {
		res, err := e.Client.CreateTopics(ctx, &kafka.CreateTopicsRequest{Topics: []kafka.TopicConfig{{
			Topic: name, NumPartitions: partitions, ReplicationFactor: 1, ConfigEntries: entries,
		}}})
		if err != nil {
			return err
		}
		if err := res.Errors[name]; err != nil && !errors.Is(err, kafka.TopicAlreadyExists) {
			return err
		}
		return nil
	})
	// Ready when every partition's leader answers ListOffsets.
	reqs := make([]kafka.OffsetRequest, partitions)
	for p := range reqs {
		reqs[p] = kafka.LastOffsetOf(p)
	}
	retry(t, "wait for topic "+name, func(ctx context.Context) error {
		res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{Topics: map[string][]kafka.OffsetRequest{name: reqs}})
		if err != nil {
			return err
		}
		got := res.Topics[name]
		if len(got) != partitions {
			return kafka.LeaderNotAvailable
		}
		for _, p := range got {
			if p.Error != nil {
				return p.Error
			}
		}
		return nil
	})
}

// Produce appends records to one partition in a single batch (acks=all,
// no compression) and returns the offset of the first. Each record's Time
// becomes its CreateTime exactly.
func (e *Env) Produce(t testing.TB, topic string, partition int, records ...Record) int64 {
	t.Helper()
	if len(records) == 0 {
		t.Fatal("kafkatest: Produce needs at least one record")
	}
	now := time.Now()
	recs := make([]kafka.Record, len(records))
	for i, r := range records {
		rec := kafka.Record{Time: r.Time, Value: kafka.NewBytes([]byte(r.Value))}
		if rec.Time.IsZero() {
			rec.Time = now
		}
		if r.Tombstone {
			rec.Value = nil
		}
		if r.Key != "" {
			rec.Key = kafka.NewBytes([]byte(r.Key))
		}
		recs[i] = rec
	}
	var base int64
	retry(t, fmt.Sprintf("produce to %s/%d", topic, partition), func(ctx context.Context) error {
		res, err := e.Client.Produce(ctx, &kafka.ProduceRequest{
			Topic:        topic,
			Partition:    partition,
			RequiredAcks: kafka.RequireAll,
			Records:      kafka.NewRecordReader(recs...),
		})
		if err != nil {
			return err
		}
		if res.Error != nil {
			return res.Error
		}
		for _, rerr := range res.RecordErrors {
			return rerr
		}
		base = res.BaseOffset
		return nil
	})
	return base
}

// Commit commits offsets for a group the way an admin tool does: generation
// -1, no member id, leader epoch -1 (OffsetCommit through kafka-go's
// low-level protocol). The group must be Empty or not exist; a group with
// active members rejects it and the test fails.
func (e *Env) Commit(t testing.TB, group, topic string, offsets map[int32]int64) {
	t.Helper()
	req := commitRequest(group, topic, offsets)
	retry(t, fmt.Sprintf("commit %s %s %v", group, topic, offsets), func(ctx context.Context) error {
		return e.sendCommit(ctx, req)
	})
}

// AssignCommitter commits offsets for group every interval, as a consumer
// that uses assign() and commitSync (or a stream processor committing the
// same way) does while it reads nothing new: the same positions again and
// again, with generation -1 and no member id, so that the group has no
// member for DescribeGroups to show. It commits until stop is called (also
// at test cleanup); a commit that fails is tried again at the next tick.
func (e *Env) AssignCommitter(t testing.TB, group, topic string, offsets map[int32]int64, interval time.Duration) (stop func()) {
	t.Helper()
	req := commitRequest(group, topic, offsets)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
			_ = e.sendCommit(cctx, req)
			ccancel()
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

// commitRequest is an admin tool's OffsetCommit of offsets (topic
// partition → offset): generation -1, no member id, leader epoch -1.
func commitRequest(group, topic string, offsets map[int32]int64) *offsetcommit.Request {
	parts := make([]offsetcommit.RequestPartition, 0, len(offsets))
	for p, off := range offsets {
		parts = append(parts, offsetcommit.RequestPartition{
			PartitionIndex: p, CommittedOffset: off, CommittedLeaderEpoch: -1,
		})
	}
	slices.SortFunc(parts, func(a, b offsetcommit.RequestPartition) int { return cmp.Compare(a.PartitionIndex, b.PartitionIndex) })
	return &offsetcommit.Request{
		GroupID: group, GenerationID: -1, MemberID: "",
		Topics: []offsetcommit.RequestTopic{{Name: topic, Partitions: parts}},
	}
}

// sendCommit sends req and returns its first partition error.
func (e *Env) sendCommit(ctx context.Context, req *offsetcommit.Request) error {
	m, err := e.Transport.RoundTrip(ctx, e.Client.Addr, req)
	if err != nil {
		return err
	}
	res := m.(*offsetcommit.Response)
	for _, rt := range res.Topics {
		for _, rp := range rt.Partitions {
			if rp.ErrorCode != 0 {
				return fmt.Errorf("%s/%d: %w", rt.Name, rp.PartitionIndex, kafka.Error(rp.ErrorCode))
			}
		}
	}
	return nil
}

// Committed returns the group's committed offsets, topic → partition →
// offset, leaving out partitions without one. An unknown group gives an
// empty map (kfake answers GROUP_ID_NOT_FOUND, Kafka no offsets).
func (e *Env) Committed(t testing.TB, group string) map[string]map[int32]int64 {
	t.Helper()
	out := map[string]map[int32]int64{}
	retry(t, "offset fetch "+group, func(ctx context.Context) error {
		clear(out)
		res, err := e.Client.OffsetFetch(ctx, &kafka.OffsetFetchRequest{GroupID: group})
		if err != nil {
			return err
		}
		if res.Error != nil {
			if errors.Is(res.Error, kafka.GroupIdNotFound) {
				return nil
			}
			return res.Error
		}
		for topic, parts := range res.Topics {
			for _, p := range parts {
				if p.Error != nil {
					return fmt.Errorf("%s/%d: %w", topic, p.Partition, p.Error)
				}
				if p.CommittedOffset < 0 {
					continue
				}
				if out[topic] == nil {
					out[topic] = map[int32]int64{}
				}
				out[topic][int32(p.Partition)] = p.CommittedOffset
			}
		}
		return nil
	})
	return out
}

// Package sandbox runs an in-process, Kafka-compatible cluster (franz-go's
// kfake) on loopback, seeded with demo topics and groups, so kcg can be
// tried without a Kafka cluster: `kcg sandbox`, or `--sandbox` on any
// command for a one-shot run.
//
// The demo data is the example every Kafka operator learns first — a
// 1-partition "payments" topic with six records and a group "billing" that
// committed 3, so its lag is 3 — plus a 3-partition "orders" topic read by
// groups at different lags (one partition never committed) and a group
// with a live member.
package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
)

// ClusterIDPrefix starts every sandbox's cluster id, so plans made against
// one say so. The rest is random per Start: a plan made against one
// sandbox is refused by another (cluster mismatch), as by any other
// cluster.
const ClusterIDPrefix = "kcg-sandbox-"

// newClusterID is ClusterIDPrefix and 12 random hex digits.
func newClusterID() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("choosing the sandbox cluster id: %w", err)
	}
	return ClusterIDPrefix + hex.EncodeToString(b[:]), nil
}

// Sandbox is a running demo cluster.
type Sandbox struct {
	cluster *kfake.Cluster
	addr    string
	id      string
	stop    context.CancelFunc
	wg      sync.WaitGroup
	readers []*kafka.Reader
}

// Options configures Start.
type Options struct {
	// Port to listen on (0: a free port).
	Port int
	// Now is the clock for record timestamps (time.Now when nil).
	Now func() time.Time
}

// Start runs the cluster and seeds the demo data. It returns once the
// live member has joined, so a describe right after shows it Stable.
func Start(ctx context.Context, o Options) (*Sandbox, error) {
	id, err := newClusterID()
	if err != nil {
		return nil, err
	}
	opts := []kfake.Opt{kfake.NumBrokers(1), kfake.ClusterID(id)}
	if o.Port != 0 {
		opts = append(opts, kfake.Ports(o.Port))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return nil, fmt.Errorf("starting the sandbox cluster: %w", err)
	}
	s := &Sandbox{cluster: c, addr: c.ListenAddrs()[0], id: id}
	runCtx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	if err := s.seed(ctx, runCtx, now()); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Addr is the bootstrap address, host:port.
func (s *Sandbox) Addr() string { return s.addr }

// ClusterID is this sandbox's cluster id (ClusterIDPrefix and a random
// part chosen by Start), as Metadata answers it.
func (s *Sandbox) ClusterID() string { return s.id }

// Close stops the live member and the cluster.
func (s *Sandbox) Close() {
	s.stop()
	for _, r := range s.readers {
		_ = r.Close()
	}
	s.wg.Wait()
	s.cluster.Close()
}

// Topic layout of the demo.
var topics = []struct {
	name       string
	partitions int32
	records    []int // records per partition
}{
	{"payments", 1, []int{6}},
	{"orders", 3, []int{40, 35, 30}},
}

// Committed offsets of the demo groups.
var commits = []struct {
	group   string
	topic   string
	offsets map[int32]int64
}{
	{"billing", "payments", map[int32]int64{0: 3}},
	{"fulfillment", "orders", map[int32]int64{0: 40, 1: 33, 2: 30}},
	// Partition 2 never committed: describe shows "-" (null in JSON).
	{"analytics", "orders", map[int32]int64{0: 12, 1: 5}},
}

// liveGroup has one member that stays joined while the sandbox runs.
const liveGroup = "shipping"

func (s *Sandbox) seed(ctx, runCtx context.Context, now time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cl := &kafka.Client{Addr: kafka.TCP(s.addr), Timeout: 10 * time.Second}
	for _, t := range topics {
		// Through kafka-go, so its metadata cache learns the topic before
		// the produce below.
		ct, err := cl.CreateTopics(ctx, &kafka.CreateTopicsRequest{Topics: []kafka.TopicConfig{{Topic: t.name, NumPartitions: int(t.partitions), ReplicationFactor: 1}}})
		if err == nil {
			err = ct.Errors[t.name]
		}
		if err != nil {
			return fmt.Errorf("creating topic %s: %w", t.name, err)
		}
		for p, n := range t.records {
			recs := make([]kafka.Record, n)
			for i := range recs {
				// One record every ten minutes, the newest a minute ago, so
				// --to-datetime and --by-duration have something to find.
				ts := now.Add(-time.Minute - time.Duration(n-1-i)*10*time.Minute).Truncate(time.Millisecond)
				val := fmt.Sprintf("%s-%d", t.name, i)
				if t.name == "payments" {
					val = fmt.Sprintf("pay-%d", i)
				}
				recs[i] = kafka.Record{Time: ts, Value: kafka.NewBytes([]byte(val))}
			}
			resp, err := cl.Produce(ctx, &kafka.ProduceRequest{
				Topic: t.name, Partition: p, RequiredAcks: kafka.RequireAll,
				Records: kafka.NewRecordReader(recs...),
			})
			if err != nil {
				return fmt.Errorf("producing to %s/%d: %w", t.name, p, err)
			}
			if resp.Error != nil {
				return fmt.Errorf("producing to %s/%d: %w", t.name, p, resp.Error)
			}
		}
	}

	admin, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{s.addr}})
	if err != nil {
		return err
	}
	defer admin.Close()
	for _, c := range commits {
		var offs []kafkaadmin.OffsetToCommit
		for p, o := range c.offsets {
			offs = append(offs, kafkaadmin.OffsetToCommit{TopicPartition: kafkaadmin.TopicPartition{Topic: c.topic, Partition: p}, Offset: o})
		}
		res, err := admin.CommitOffsets(ctx, c.group, offs)
		if err != nil {
			return fmt.Errorf("committing offsets for %s: %w", c.group, err)
		}
		for tp, e := range res {
			if e != nil {
				return fmt.Errorf("committing %s for %s: %w", tp, c.group, e)
			}
		}
	}

	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:           []string{s.addr},
		GroupID:           liveGroup,
		GroupTopics:       []string{"orders"},
		Dialer:            &kafka.Dialer{ClientID: "shipping-worker", Timeout: 10 * time.Second},
		SessionTimeout:    10 * time.Second,
		RebalanceTimeout:  5 * time.Second,
		HeartbeatInterval: time.Second,
		MaxWait:           500 * time.Millisecond,
		StartOffset:       kafka.LastOffset,
	})
	s.readers = append(s.readers, r)
	s.wg.Go(func() {
		// Fetch without committing: the member stays joined and its
		// partitions show no committed offset.
		for runCtx.Err() == nil {
			if _, err := r.FetchMessage(runCtx); err != nil && !errors.Is(err, context.Canceled) && runCtx.Err() == nil {
				time.Sleep(100 * time.Millisecond)
			}
		}
	})
	if _, err := s.cluster.WaitGroupStable(ctx, liveGroup, 1); err != nil {
		return fmt.Errorf("waiting for the live member of %s: %w", liveGroup, err)
	}
	return nil
}

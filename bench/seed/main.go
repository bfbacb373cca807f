// Command seed fills a Kafka cluster with consumer groups for bench/run:
// one topic with P partitions and R records per partition, and N groups
// with a committed offset on every partition (admin commits: generation -1,
// no member, so the groups are Empty). The committed offsets vary per group
// and partition, so lags are between 0 and R/2.
//
// It is idempotent: an existing topic with the same partition count is
// reused, records are produced only up to R per partition, and commits
// overwrite. Commits go one OffsetCommit request per group (all P
// partitions), at most -concurrency in flight; franz-go routes each to the
// group's coordinator and retries coordinator errors.
//
//	go run ./bench/seed -bootstrap 127.0.0.1:9092 -groups 1000 -partitions 16
//
// With -live DURATION it then keeps the cluster busy for that long, as an
// operator's cluster is (live.go): records produced at -produce-rate, every
// seeded group committing advancing offsets every -commit-interval, and
// -members more groups consumed by real group consumers. bench/soak uses it;
// without -live (the default) nothing changes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

type options struct {
	bootstrap   string
	topic       string
	prefix      string
	groups      int
	partitions  int
	records     int
	concurrency int
	timeout     time.Duration

	live           time.Duration // 0: seed and exit
	produceRate    int           // records/s while live
	commitInterval time.Duration // each seeded group commits this often while live
	members        int           // live groups with a real consumer
}

func main() {
	var o options
	flag.StringVar(&o.bootstrap, "bootstrap", "", "bootstrap server(s), comma-separated (required)")
	flag.StringVar(&o.topic, "topic", "bench-payments", "topic to create and commit on")
	flag.StringVar(&o.prefix, "prefix", "bench-group-", "group id prefix; groups are PREFIX0000, PREFIX0001, ...")
	flag.IntVar(&o.groups, "groups", 1000, "number of groups")
	flag.IntVar(&o.partitions, "partitions", 16, "partitions of the topic")
	flag.IntVar(&o.records, "records", 100, "records per partition")
	flag.IntVar(&o.concurrency, "concurrency", 32, "OffsetCommit requests in flight")
	flag.DurationVar(&o.timeout, "timeout", 5*time.Minute, "give up seeding after this long (-live time not counted)")
	flag.DurationVar(&o.live, "live", 0, "after seeding, keep producing and committing for this long (0: off)")
	flag.IntVar(&o.produceRate, "produce-rate", 2000, "with -live: records/s produced, spread over the partitions")
	flag.DurationVar(&o.commitInterval, "commit-interval", 5*time.Second, "with -live: every group commits advancing offsets this often, spread over the interval")
	flag.IntVar(&o.members, "members", 20, "with -live: this many more groups (PREFIX-live-0000, ...) consumed by real group consumers")
	flag.Parse()
	if o.bootstrap == "" || o.groups < 0 || o.partitions < 1 || o.records < 1 || o.concurrency < 1 ||
		o.live < 0 || o.produceRate < 0 || o.commitInterval <= 0 || o.members < 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	// Ctrl-C or SIGTERM ends seeding or the live phase cleanly.
	sig, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(sig, o.timeout)
	defer cancel()
	topicID, err := run(ctx, o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "seed: %v\n", err)
		os.Exit(1)
	}
	if o.live > 0 && sig.Err() == nil {
		if err := live(sig, o, topicID); err != nil {
			fmt.Fprintf(os.Stderr, "seed: live: %v\n", err)
			os.Exit(1)
		}
	}
}

// GroupName is the id of group i.
func groupName(prefix string, i int) string { return fmt.Sprintf("%s%04d", prefix, i) }

func run(ctx context.Context, o options) (topicID [16]byte, err error) {
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(strings.Split(o.bootstrap, ",")...),
		kgo.ClientID("kcg-bench-seed"),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.DisableIdempotentWrite(),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0),
	)
	if err != nil {
		return topicID, err
	}
	defer cl.Close()

	start := time.Now()
	if err := createTopic(ctx, cl, o); err != nil {
		return topicID, err
	}
	ends, topicID, err := waitLeaders(ctx, cl, o)
	if err != nil {
		return topicID, err
	}
	produced, err := produce(ctx, cl, o, ends)
	if err != nil {
		return topicID, err
	}
	tProduce := time.Since(start)

	cstart := time.Now()
	if err := commitAll(ctx, cl, o, topicID); err != nil {
		return topicID, err
	}
	fmt.Fprintf(os.Stderr, "seed: topic %s (%d partitions, %d records produced now, %d per partition); %d groups × %d partitions committed in %.2fs (topic and records: %.2fs)\n",
		o.topic, o.partitions, produced, o.records, o.groups, o.partitions, time.Since(cstart).Seconds(), tProduce.Seconds())
	return topicID, nil
}

func createTopic(ctx context.Context, cl *kgo.Client, o options) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic = o.topic
	rt.NumPartitions = int32(o.partitions)
	rt.ReplicationFactor = -1 // the broker's default.replication.factor
	req.Topics = append(req.Topics, rt)
	req.TimeoutMillis = 30000
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("create topic %s: %w", o.topic, err)
	}
	for _, t := range resp.Topics {
		if e := kerr.ErrorForCode(t.ErrorCode); e != nil && !errors.Is(e, kerr.TopicAlreadyExists) {
			return fmt.Errorf("create topic %s: %w", o.topic, e)
		}
	}
	return nil
}

// waitLeaders waits until every partition has a leader that answers
// ListOffsets, and returns the log-end offsets and the topic id.
func waitLeaders(ctx context.Context, cl *kgo.Client, o options) (map[int32]int64, [16]byte, error) {
	var last error
	for {
		ends, id, err := logEnds(ctx, cl, o)
		if err == nil {
			return ends, id, nil
		}
		if !kerr.IsRetriable(err) && !errors.Is(err, kerr.UnknownTopicOrPartition) {
			return nil, id, fmt.Errorf("topic %s: %w", o.topic, err)
		}
		last = err
		select {
		case <-ctx.Done():
			return nil, id, fmt.Errorf("topic %s not ready: %w", o.topic, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func logEnds(ctx context.Context, cl *kgo.Client, o options) (ends map[int32]int64, id [16]byte, err error) {
	mreq := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(o.topic)
	mreq.Topics = append(mreq.Topics, mt)
	mresp, err := mreq.RequestWith(ctx, cl)
	if err != nil {
		return nil, id, err
	}
	if len(mresp.Topics) != 1 {
		return nil, id, fmt.Errorf("metadata for %s: %d topics", o.topic, len(mresp.Topics))
	}
	if e := kerr.ErrorForCode(mresp.Topics[0].ErrorCode); e != nil {
		return nil, id, e
	}
	id = mresp.Topics[0].TopicID
	if n := len(mresp.Topics[0].Partitions); n != o.partitions {
		if n > 0 {
			return nil, id, fmt.Errorf("topic %s exists with %d partitions, want %d (use another -topic)", o.topic, n, o.partitions)
		}
		return nil, id, kerr.LeaderNotAvailable
	}
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = -1
	lt := kmsg.NewListOffsetsRequestTopic()
	lt.Topic = o.topic
	for p := 0; p < o.partitions; p++ {
		lp := kmsg.NewListOffsetsRequestTopicPartition()
		lp.Partition = int32(p)
		lp.CurrentLeaderEpoch = -1
		lp.Timestamp = -1 // latest
		lt.Partitions = append(lt.Partitions, lp)
	}
	req.Topics = append(req.Topics, lt)
	resp, err := req.RequestWith(ctx, cl) // kgo splits it per leader
	if err != nil {
		return nil, id, err
	}
	ends = map[int32]int64{}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if e := kerr.ErrorForCode(p.ErrorCode); e != nil {
				return nil, id, e
			}
			ends[p.Partition] = p.Offset
		}
	}
	if len(ends) != o.partitions {
		return nil, id, kerr.LeaderNotAvailable
	}
	return ends, id, nil
}

// produce tops every partition up to o.records records.
func produce(ctx context.Context, cl *kgo.Client, o options, ends map[int32]int64) (int, error) {
	var recs []*kgo.Record
	for p := 0; p < o.partitions; p++ {
		for i := ends[int32(p)]; i < int64(o.records); i++ {
			recs = append(recs, &kgo.Record{
				Topic:     o.topic,
				Partition: int32(p),
				Key:       []byte(fmt.Sprintf("key-%d", i)),
				Value:     []byte(fmt.Sprintf(`{"partition":%d,"n":%d}`, p, i)),
			})
		}
	}
	if len(recs) == 0 {
		return 0, nil
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return 0, fmt.Errorf("produce: %w", err)
	}
	return len(recs), nil
}

// committedOffset is group g's commit on partition p: between records/2 and
// records, so every group has some lag on most partitions.
func committedOffset(o options, g, p int) int64 {
	return int64(o.records - (g*7+p*3)%(o.records/2+1))
}

func commitAll(ctx context.Context, cl *kgo.Client, o options, topicID [16]byte) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		done     atomic.Int64
	)
	sem := make(chan struct{}, o.concurrency)
	for g := 0; g < o.groups; g++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := commitGroup(ctx, cl, o, topicID, g); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
				return
			}
			done.Add(1)
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		return fmt.Errorf("committed %d of %d groups: %w", done.Load(), o.groups, ctx.Err())
	}
	return nil
}

func commitGroup(ctx context.Context, cl *kgo.Client, o options, topicID [16]byte, g int) error {
	return commitOffsets(ctx, cl, o, topicID, groupName(o.prefix, g), func(p int) int64 { return committedOffset(o, g, p) })
}

// commitOffsets commits offset(p) on every partition for group as an admin
// commit (generation -1, no member), retrying retriable errors.
func commitOffsets(ctx context.Context, cl *kgo.Client, o options, topicID [16]byte, group string, offset func(p int) int64) error {
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group = group
	req.Generation = -1
	req.MemberID = ""
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = o.topic   // v0-v9
	rt.TopicID = topicID // v10+ (Kafka 4.1+)
	for p := 0; p < o.partitions; p++ {
		rp := kmsg.NewOffsetCommitRequestTopicPartition()
		rp.Partition = int32(p)
		rp.Offset = offset(p)
		rp.LeaderEpoch = -1
		rt.Partitions = append(rt.Partitions, rp)
	}
	req.Topics = append(req.Topics, rt)
	backoff := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		resp, err := req.RequestWith(ctx, cl)
		if err == nil {
			err = commitErr(resp)
		}
		if err == nil {
			return nil
		}
		if !kerr.IsRetriable(err) || attempt >= 20 {
			return fmt.Errorf("commit %s: %w", group, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("commit %s: %w (last error: %v)", group, ctx.Err(), err)
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

func commitErr(resp *kmsg.OffsetCommitResponse) error {
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if e := kerr.ErrorForCode(p.ErrorCode); e != nil {
				return fmt.Errorf("%s/%d: %w", t.Topic, p.Partition, e)
			}
		}
	}
	return nil
}

package kafkatest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Transaction produces records to one partition inside a transaction
// (franz-go's transactional producer, on both tiers) and leaves it open:
// until end is called the partition's last stable offset stays at the
// transaction's first record. end(true) commits, end(false) aborts; both
// write the transaction marker. An open transaction is aborted when the
// test ends.
func (e *Env) Transaction(t testing.TB, topic string, partition int32, records ...Record) (end func(commit bool)) {
	t.Helper()
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(e.Bootstrap),
		kgo.TransactionalID(UniqueName(t, "txn")),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ClientID("kcg-kafkatest-txn"),
	)
	if err != nil {
		t.Fatalf("kafkatest: transactional producer: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), fixtureTimeout)
	defer cancel()
	if err := cl.BeginTransaction(); err != nil {
		cl.Close()
		t.Fatalf("kafkatest: begin transaction: %v", err)
	}
	now := time.Now()
	for _, r := range records {
		rec := &kgo.Record{Topic: topic, Partition: partition, Value: []byte(r.Value), Timestamp: r.Time}
		if rec.Timestamp.IsZero() {
			rec.Timestamp = now
		}
		if r.Key != "" {
			rec.Key = []byte(r.Key)
		}
		if err := cl.ProduceSync(ctx, rec).FirstErr(); err != nil {
			cl.Close()
			t.Fatalf("kafkatest: produce in a transaction to %s/%d: %v", topic, partition, err)
		}
	}
	var once sync.Once
	finish := func(commit bool) error {
		var err error
		once.Do(func() {
			defer cl.Close()
			ctx, cancel := context.WithTimeout(context.Background(), fixtureTimeout)
			defer cancel()
			how := kgo.TryAbort
			if commit {
				how = kgo.TryCommit
			}
			err = cl.EndTransaction(ctx, how)
		})
		return err
	}
	t.Cleanup(func() { _ = finish(false) })
	return func(commit bool) {
		t.Helper()
		if err := finish(commit); err != nil {
			t.Fatal(fmt.Errorf("kafkatest: end transaction (commit %v): %w", commit, err))
		}
		e.waitStable(t, topic, int(partition))
	}
}

// waitStable waits until the partition's last stable offset reaches its
// high watermark: Kafka writes the transaction markers after EndTxn has
// answered, so the LSO catches up a moment later.
func (e *Env) waitStable(t testing.TB, topic string, partition int) {
	t.Helper()
	end := func(ctx context.Context, iso kafka.IsolationLevel) (int64, error) {
		res, err := e.Client.ListOffsets(ctx, &kafka.ListOffsetsRequest{
			Topics:         map[string][]kafka.OffsetRequest{topic: {kafka.LastOffsetOf(partition)}},
			IsolationLevel: iso,
		})
		if err != nil {
			return 0, err
		}
		for _, p := range res.Topics[topic] {
			if p.Error != nil {
				return 0, p.Error
			}
			return p.LastOffset, nil
		}
		return 0, kafka.LeaderNotAvailable
	}
	retry(t, fmt.Sprintf("wait for the markers of %s/%d", topic, partition), func(ctx context.Context) error {
		hw, err := end(ctx, kafka.ReadUncommitted)
		if err != nil {
			return err
		}
		lso, err := end(ctx, kafka.ReadCommitted)
		if err != nil {
			return err
		}
		if lso != hw {
			return kafka.OffsetNotAvailable // not yet: retried
		}
		return nil
	})
}

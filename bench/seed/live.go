package main

// The -live phase: for -live DURATION after seeding, keep the cluster busy
// the way an operator's is, so a long `kcg watch` (bench/soak) sees lag
// that moves, offsets that advance and groups with members:
//
//   - records produced at -produce-rate records/s, round-robin over the
//     partitions, small values;
//   - every seeded group (PREFIX0000, ...) commits every -commit-interval,
//     the groups spread evenly over the interval (not a burst every 5 s);
//     each commit moves toward the log end read at the start of the round
//     but stays behind it, so the lag is never 0 and changes every round;
//   - -members more groups, PREFIX-live-0000, ..., each consumed by one
//     real franz-go group consumer with autocommit, so they are Stable with
//     a member. Their ids differ from the admin-committed groups', so an
//     admin commit never meets a live generation.
//
// A line on stderr every minute and a final one; an error (exit 1) when
// commits or produces failed persistently.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

type liveStats struct {
	produced, produceErrs           atomic.Int64
	commits, commitErrs, skipped    atomic.Int64
	lateRounds, endsErrs            atomic.Int64
	consumed, consumeErrs, assigned atomic.Int64

	mu      sync.Mutex
	lastErr string
}

func (st *liveStats) fail(what string, err error) {
	st.mu.Lock()
	st.lastErr = what + ": " + err.Error()
	st.mu.Unlock()
}

type liveSnap struct{ produced, produceErrs, commits, commitErrs int64 }

func (st *liveStats) snap() liveSnap {
	return liveSnap{st.produced.Load(), st.produceErrs.Load(), st.commits.Load(), st.commitErrs.Load()}
}

// stopped reports whether err is only the live phase ending.
func stopped(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

func live(parent context.Context, o options, topicID [16]byte) error {
	ctx, cancel := context.WithTimeout(parent, o.live)
	defer cancel()
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(strings.Split(o.bootstrap, ",")...),
		kgo.ClientID("kcg-bench-seed-live"),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.DisableIdempotentWrite(),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	)
	if err != nil {
		return err
	}
	defer cl.Close()

	fmt.Fprintf(os.Stderr, "seed: live for %s: %d records/s over %d partitions; %d groups commit every %s; %d live groups (%s) with a consumer\n",
		o.live, o.produceRate, o.partitions, o.groups, o.commitInterval, o.members, liveGroupName(o.prefix, 0))
	var st liveStats
	var wg sync.WaitGroup
	wg.Go(func() { produceLoop(ctx, cl, o, &st) })
	wg.Go(func() { commitLoop(ctx, cl, o, topicID, &st) })
	for i := range o.members {
		wg.Go(func() { consumeLoop(ctx, o, i, &st) })
	}

	start := time.Now()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	prev := st.snap()
	deadWindows, worst := 0, 0 // consecutive minutes in which nothing committed (or produced) succeeded
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
			now := st.snap()
			if (now.commitErrs > prev.commitErrs && now.commits == prev.commits) ||
				(now.produceErrs > prev.produceErrs && now.produced == prev.produced) {
				deadWindows++
			} else {
				deadWindows = 0
			}
			worst = max(worst, deadWindows)
			fmt.Fprintf(os.Stderr, "seed: live %s: %s\n", time.Since(start).Round(time.Second), st.line(now, prev, time.Minute))
			prev = now
		}
	}
	wg.Wait()
	el := time.Since(start)
	now := st.snap()
	why := "the -live duration ended"
	if parent.Err() != nil {
		why = "signalled"
	}
	fmt.Fprintf(os.Stderr, "seed: live done after %s (%s): %s\n", el.Round(time.Second), why, st.line(now, liveSnap{}, el))
	st.mu.Lock()
	last := st.lastErr
	st.mu.Unlock()
	if last != "" {
		fmt.Fprintf(os.Stderr, "seed: live: last error: %s\n", last)
	}
	// Persistently: two minutes in a row with failures and no success, more
	// than 1 % of the commits failed, or nothing ever succeeded.
	switch {
	case worst >= 2:
		return fmt.Errorf("commits or produces failed for %d minutes in a row", worst)
	case now.commitErrs*100 > now.commits+now.commitErrs:
		return fmt.Errorf("%d of %d commits failed", now.commitErrs, now.commits+now.commitErrs)
	case now.produceErrs > 0 && now.produced == 0:
		return fmt.Errorf("every produce failed (%d records)", now.produceErrs)
	}
	return nil
}

func (st *liveStats) line(now, prev liveSnap, over time.Duration) string {
	return fmt.Sprintf("produced %d records (%.0f/s, %d failed); commits %d ok, %d failed, %d skipped (the last still in flight), %d late rounds, %d log-end reads failed; live groups: %d partitions assigned, %d records consumed, %d fetch errors",
		now.produced-prev.produced, float64(now.produced-prev.produced)/over.Seconds(), now.produceErrs-prev.produceErrs,
		now.commits-prev.commits, now.commitErrs-prev.commitErrs, st.skipped.Load(), st.lateRounds.Load(), st.endsErrs.Load(),
		st.assigned.Load(), st.consumed.Load(), st.consumeErrs.Load())
}

func liveGroupName(prefix string, i int) string {
	return fmt.Sprintf("%s-live-%04d", strings.TrimSuffix(prefix, "-"), i)
}

// produceLoop produces o.produceRate records/s in batches every 100 ms,
// catching up at most a second's worth when the broker was slow.
func produceLoop(ctx context.Context, cl *kgo.Client, o options, st *liveStats) {
	if o.produceRate == 0 {
		return
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	var sent int64
	p := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		due := int64(float64(o.produceRate)*time.Since(start).Seconds()) - sent
		if due > int64(o.produceRate) { // more than a second behind: drop the rest
			sent += due - int64(o.produceRate)
			due = int64(o.produceRate)
		}
		if due <= 0 {
			continue
		}
		recs := make([]*kgo.Record, 0, due)
		for i := int64(0); i < due; i++ {
			recs = append(recs, &kgo.Record{Topic: o.topic, Partition: int32(p), Value: fmt.Appendf(nil, `{"live":%d}`, sent+i)})
			p = (p + 1) % o.partitions
		}
		sent += due
		for _, r := range cl.ProduceSync(ctx, recs...) {
			switch {
			case r.Err == nil:
				st.produced.Add(1)
			case stopped(ctx, r.Err):
			default:
				st.produceErrs.Add(1)
				st.fail("produce", r.Err)
			}
		}
	}
}

// commitLoop commits for every seeded group once per o.commitInterval,
// group g at g/groups of the way into the interval.
func commitLoop(ctx context.Context, cl *kgo.Client, o options, topicID [16]byte, st *liveStats) {
	if o.groups == 0 {
		return
	}
	P := o.partitions
	prev := make([]int64, o.groups*P) // each group's last commit: offsets only advance
	for g := range o.groups {
		for p := range P {
			prev[g*P+p] = committedOffset(o, g, p)
		}
	}
	// The lag each commit leaves: 1 to about a round's worth of records.
	span := max(4, int(float64(o.produceRate)*o.commitInterval.Seconds())/P)
	inflight := make([]atomic.Bool, o.groups)
	type job struct {
		g, round int
		ends     []int64
	}
	jobs := make(chan job, o.concurrency)
	var wg sync.WaitGroup
	for range o.concurrency {
		wg.Go(func() {
			for j := range jobs {
				off := prev[j.g*P : (j.g+1)*P]
				for p := range P {
					n := j.ends[p] - int64(1+(j.g*7+p*3+j.round*13)%span)
					n = max(n, off[p])
					n = max(min(n, j.ends[p]-1), 0)
					off[p] = n
				}
				err := commitOffsets(ctx, cl, o, topicID, groupName(o.prefix, j.g), func(p int) int64 { return off[p] })
				switch {
				case err == nil:
					st.commits.Add(1)
				case stopped(ctx, err):
				default:
					st.commitErrs.Add(1)
					st.fail("commit", err)
				}
				inflight[j.g].Store(false)
			}
		})
	}
	defer func() { close(jobs); wg.Wait() }()

	step := o.commitInterval / time.Duration(o.groups)
	var ends []int64 // the last log ends read; nil until one is
	for round := 1; ctx.Err() == nil; round++ {
		start := time.Now()
		if m, _, err := logEnds(ctx, cl, o); err == nil {
			ends = make([]int64, P)
			for p, e := range m {
				ends[p] = e
			}
		} else if !stopped(ctx, err) {
			st.endsErrs.Add(1)
			st.fail("log ends", err)
		}
		if ends == nil { // no log end yet: commit nothing rather than 0
			if !sleep(ctx, time.Until(start.Add(o.commitInterval))) {
				return
			}
			continue
		}
		for g := 0; g < o.groups; g++ {
			if d := time.Until(start.Add(time.Duration(g) * step)); d > time.Millisecond {
				if !sleep(ctx, d) {
					return
				}
			}
			if !inflight[g].CompareAndSwap(false, true) {
				st.skipped.Add(1)
				continue
			}
			select {
			case jobs <- job{g, round, ends}:
			case <-ctx.Done():
				return
			}
		}
		if time.Since(start) > o.commitInterval+step+time.Second {
			st.lateRounds.Add(1)
		}
		if !sleep(ctx, time.Until(start.Add(o.commitInterval))) {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// consumeLoop is live group i's one member: a real group consumer that
// reads the topic and commits with autocommit.
func consumeLoop(ctx context.Context, o options, i int, st *liveStats) {
	group := liveGroupName(o.prefix, i)
	c, err := kgo.NewClient(
		kgo.SeedBrokers(strings.Split(o.bootstrap, ",")...),
		kgo.ClientID("kcg-bench-seed-consumer"),
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(o.topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.AutoCommitInterval(o.commitInterval),
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, m map[string][]int32) {
			st.assigned.Add(int64(len(m[o.topic])))
		}),
		kgo.OnPartitionsRevoked(func(ctx context.Context, c *kgo.Client, m map[string][]int32) {
			st.assigned.Add(-int64(len(m[o.topic])))
			_ = c.CommitMarkedOffsets(ctx)
		}),
	)
	if err != nil {
		st.consumeErrs.Add(1)
		st.fail("consumer "+group, err)
		return
	}
	defer c.Close() // leaves the group
	for ctx.Err() == nil {
		fs := c.PollFetches(ctx)
		fs.EachError(func(_ string, _ int32, err error) {
			if !stopped(ctx, err) {
				st.consumeErrs.Add(1)
				st.fail("consumer "+group, err)
			}
		})
		st.consumed.Add(int64(fs.NumRecords()))
	}
}

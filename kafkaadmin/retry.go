package kafkaadmin

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// kafka-go retries nothing, and a fresh cluster or a rolling restart
// answers "coordinator not available", "loading" or "not leader" for a few
// seconds. Every retry in this package goes through retry below, so they
// all back off the same way: exponentially from retryFirstBackoff to
// retryMaxBackoff, with jitter, and never more than a bound of times.
const (
	retryFirstBackoff = 50 * time.Millisecond
	retryMaxBackoff   = time.Second
)

// The bounds of the three retrying paths. --timeout ends every one of
// them sooner when it is shorter than their backoff adds up to; the bound
// only decides when a cluster that keeps answering "try again" is given up
// on.
const (
	// requestRetries bounds withRetry, one request retried as a whole,
	// and the rounds of the engine's brokerRouter (FindCoordinator,
	// ListGroups): about 25 seconds of backoff.
	requestRetries = 30
	// coordinatorRetries bounds the rounds of the engine's
	// coordinatorRouter (shard.go): each round looks the moved
	// coordinators up again, itself within requestRetries.
	coordinatorRetries = 20
	// listOffsetsRetries bounds the retries of partitions whose leader is
	// moving or missing (the engine's leaderRouter: ListOffsets, Fetch):
	// about five seconds of backoff, enough for a leader election, short
	// enough that a partition that stays offline (its broker is down)
	// costs describe seconds, not the whole --timeout, before it is shown
	// without offsets.
	listOffsetsRetries = 8
)

// retryReserve is the time retry leaves on the context's deadline: a
// wait that would end closer to the deadline than this is not started,
// and retry returns errRetriesExhausted at once. The caller then still
// has time to report what it has — describe the partitions it could read
// with the others shown unknown, apply the offsets it reads back —
// instead of every request dying together with the --timeout
// (docs/reliability.md, network faults).
const retryReserve = 500 * time.Millisecond

// errRetriesExhausted is what retry returns when the bound is reached: the
// caller's last error says why, and retry does not know it.
var errRetriesExhausted = errors.New("kafkaadmin: retries exhausted")

// retry calls try with attempt 0, 1, 2, ... for as long as it reports that
// something is left to try again, at most retries+1 times, waiting between
// attempts. It returns nil once try reports it is done,
// errRetriesExhausted when the bound is reached, and the context's error
// when the context ends during a wait; it also returns errRetriesExhausted
// when the next wait would end within retryReserve of the context's
// deadline. try keeps its own results and last error: retry only decides
// whether and when to call it again.
func retry(ctx context.Context, retries int, try func(attempt int) (again bool)) error {
	backoff := retryFirstBackoff
	for attempt := 0; ; attempt++ {
		if !try(attempt) {
			return nil
		}
		if attempt >= retries {
			return errRetriesExhausted
		}
		wait := jitter(backoff)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl)-wait < retryReserve {
			return errRetriesExhausted
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		backoff = min(backoff*2, retryMaxBackoff)
	}
}

// jitter returns a wait between half of backoff and backoff. The goroutines
// of one operation (one per coordinator or leader) fail together when a
// broker restarts; without jitter they would all come back at the same
// moment, again and again.
func jitter(backoff time.Duration) time.Duration {
	return backoff/2 + rand.N(backoff/2+1)
}

// withRetry runs fn until it succeeds or returns an error that is not
// retriable, within requestRetries and the context. It returns fn's last
// error, also when the context ends, so the operator sees why, not just
// "deadline exceeded".
func withRetry(ctx context.Context, fn func() error) error {
	var err error
	_ = retry(ctx, requestRetries, func(int) bool {
		err = fn()
		return err != nil && retriable(err)
	})
	return err
}

// withRetryCoordinator is withRetry for an idempotent request that kafka-go
// routes to a group's coordinator itself: a lost connection is retried
// too, since it is most often the coordinator's broker going down, and
// Kafka moves the coordinator to another broker once the controller has
// fenced it (5-9 s on the test cluster). The caller reads back what was
// written, so a retried request never goes unreported.
func withRetryCoordinator(ctx context.Context, fn func() error) error {
	var err error
	_ = retry(ctx, requestRetries, func(int) bool {
		err = fn()
		return err != nil && (retriable(err) || isNetwork(err))
	})
	return err
}

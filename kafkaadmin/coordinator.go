package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// findCoordinatorBatch is how many group ids one FindCoordinator v4+
// request carries.
const findCoordinatorBatch = 500

// coordinators returns the coordinator broker id of each group, from the
// cache or from FindCoordinator (v4+: one request for many groups; older
// brokers: one request per group, bounded in flight). A group whose
// coordinator cannot be found is in errs.
func (c *Client) coordinators(ctx context.Context, groups []string) (map[string]int32, map[string]error, error) {
	out := make(map[string]int32, len(groups))
	errs := map[string]error{}
	var missing []string
	c.mu.Lock()
	for _, g := range groups {
		if id, ok := c.coords[g]; ok {
			out[g] = id
		} else {
			missing = append(missing, g)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, errs, nil
	}
	v, ok, err := c.pickVersion(ctx, 10, 4)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errors.New("the broker does not support the FindCoordinator API")
	}

	lookup := func(keys []string) (map[string]int32, map[string]error, error) {
		found := map[string]int32{}
		failed := map[string]error{}
		req := kmsg.NewPtrFindCoordinatorRequest()
		req.Version = v
		if v >= 4 {
			req.CoordinatorKeys = keys
		} else {
			req.CoordinatorKey = keys[0]
		}
		resp, err := c.roundTrip(ctx, anyBroker, req)
		if err != nil {
			return nil, nil, err
		}
		r := resp.(*kmsg.FindCoordinatorResponse)
		if v < 4 {
			if e := kerr("FindCoordinator", "group "+keys[0], r.ErrorCode, r.ErrorMessage); e != nil {
				failed[keys[0]] = e
			} else {
				found[keys[0]] = r.NodeID
			}
			return found, failed, nil
		}
		for _, co := range r.Coordinators {
			if e := kerr("FindCoordinator", "group "+co.Key, co.ErrorCode, co.ErrorMessage); e != nil {
				failed[co.Key] = e
			} else {
				found[co.Key] = co.NodeID
			}
		}
		return found, failed, nil
	}

	var batches [][]string
	if v >= 4 {
		for i := 0; i < len(missing); i += findCoordinatorBatch {
			batches = append(batches, missing[i:min(i+findCoordinatorBatch, len(missing))])
		}
	} else {
		for _, g := range missing {
			batches = append(batches, []string{g})
		}
	}

	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for _, batch := range batches {
		wg.Go(func() {
			pending := batch
			// Retry only the keys whose coordinator is not available yet:
			// a fresh cluster answers COORDINATOR_NOT_AVAILABLE while it
			// creates __consumer_offsets.
			err := withRetry(ctx, func() error {
				found, failed, err := lookup(pending)
				if err != nil {
					return err
				}
				mu.Lock()
				for g, id := range found {
					out[g] = id
				}
				mu.Unlock()
				var again []string
				var lastErr error
				for g, e := range failed {
					if retriable(e) {
						again = append(again, g)
						lastErr = e
						continue
					}
					mu.Lock()
					errs[g] = e
					mu.Unlock()
				}
				slices.Sort(again)
				pending = again
				return lastErr
			})
			if err != nil {
				mu.Lock()
				if len(pending) > 0 && retriable(err) {
					for _, g := range pending {
						errs[g] = err
					}
				} else if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, nil, firstErr
	}
	c.mu.Lock()
	for g, id := range out {
		c.coords[g] = id
	}
	c.mu.Unlock()
	return out, errs, nil
}

func (c *Client) forgetCoordinator(groups ...string) {
	c.mu.Lock()
	for _, g := range groups {
		delete(c.coords, g)
	}
	c.mu.Unlock()
}

// coordinatorFunc handles the groups one coordinator owns. It returns the
// groups to try again (their coordinator moved or is loading) together with
// the error that said so; any other per-group outcome it records itself.
// A returned error with no retry list applies to all of its groups.
type coordinatorFunc func(ctx context.Context, broker int32, groups []string) (retry []string, err error)

// forCoordinators finds the coordinators of groups and calls fn once per
// coordinator with its groups, coordinators in parallel (bounded by the
// client's in-flight limit). Groups fn asks to retry are looked up again
// after a backoff. It returns the groups that could not be handled, with
// why.
func (c *Client) forCoordinators(ctx context.Context, groups []string, fn coordinatorFunc) (map[string]error, error) {
	failed := map[string]error{}
	pending := vocab.Dedupe(groups)
	if len(pending) == 0 {
		return failed, nil
	}
	var fatal, lastErr error
	var again []string
	err := retry(ctx, coordinatorRetries, func(int) bool {
		coords, cerrs, err := c.coordinators(ctx, pending)
		if err != nil {
			fatal = err
			return false
		}
		for g, e := range cerrs {
			failed[g] = e
		}
		byBroker := map[int32][]string{}
		for _, g := range pending {
			if id, ok := coords[g]; ok {
				byBroker[id] = append(byBroker[id], g)
			}
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		again, lastErr = nil, nil
		for broker, gs := range byBroker {
			wg.Go(func() {
				redo, err := fn(ctx, broker, gs)
				mu.Lock()
				defer mu.Unlock()
				if err != nil && len(redo) == 0 {
					if retriable(err) || isNetwork(err) {
						redo = gs
					} else {
						for _, g := range gs {
							failed[g] = err
						}
						return
					}
				}
				if len(redo) > 0 {
					again = append(again, redo...)
					lastErr = err
				}
			})
		}
		wg.Wait()
		if len(again) == 0 {
			return false
		}
		// The coordinator of these groups moved (or a broker dropped the
		// connection): look them up again.
		c.forgetCoordinator(again...)
		slices.Sort(again)
		pending = again
		// A context already over would end the wait at once; stop here
		// instead, so that the groups carry the error of their last
		// attempt.
		return ctx.Err() == nil
	})
	if fatal != nil {
		return nil, fatal
	}
	if len(again) > 0 {
		why := lastErr
		if why == nil || (err != nil && !errors.Is(err, errRetriesExhausted)) {
			// The context ended during the wait, or the last attempt gave
			// no reason: the deadline is the news.
			why = c.ctxErr(ctx)
		}
		for _, g := range again {
			failed[g] = why
		}
	}
	return failed, nil
}

func isNetwork(err error) bool {
	var ue *UnreachableError
	return errors.As(err, &ue)
}

// chunks splits s into slices of at most n.
func chunks[T any](s []T, n int) [][]T {
	var out [][]T
	for i := 0; i < len(s); i += n {
		out = append(out, s[i:min(i+n, len(s))])
	}
	return out
}

// eachBatch calls fn for every batch, all at once (roundTrip's in-flight
// bound limits how many requests are out), and returns the first error.
func eachBatch[T any](batches [][]T, fn func([]T) error) error {
	if len(batches) == 1 {
		return fn(batches[0])
	}
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for _, b := range batches {
		wg.Go(func() {
			if err := fn(b); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// CoordinatorOf returns the coordinator broker of group.
func (c *Client) CoordinatorOf(ctx context.Context, group string) (Broker, error) {
	coords, errs, err := c.coordinators(ctx, []string{group})
	if err != nil {
		return Broker{}, err
	}
	if e := errs[group]; e != nil {
		return Broker{}, e
	}
	b, ok := c.broker(coords[group])
	if !ok {
		if _, err := c.Cluster(ctx); err != nil {
			return Broker{}, err
		}
		if b, ok = c.broker(coords[group]); !ok {
			return Broker{}, fmt.Errorf("coordinator %d of group %s is not in the cluster metadata", coords[group], group)
		}
	}
	return b, nil
}

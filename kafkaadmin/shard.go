package kafkaadmin

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// sharded describes one Kafka request to the sharded-request engine, for
// keys K (group ids, partitions, broker ids) whose results are R.
//
// An operation on many groups or partitions is one request per broker
// that owns some of them (the group's coordinator, the partition's
// leader), cut into batches, sent in parallel within the client's
// in-flight bound, retried while the owners move, and answered per key in
// the order the caller gave them. A per-API file describes its request
// with a sharded value (how to cut a broker's keys into batches, how to
// build one request, how to decode its answer) and hands it to shard with
// a router (coordinatorRouter, leaderRouter, brokerRouter) that knows
// where each key goes and how its failures are retried. The request's
// version comes from pickVersion, from the request's own kmsg key.
//
// Adding a coordinator-routed API (DescribeShareGroupOffsets,
// AlterShareGroupOffsets, StreamsGroupDescribe) is: in the operation, pick
// the version with pickVersion(ctx, kmsg.NewPtrXRequest(), max); write a
// sharded[string, R] whose request builds the kmsg request for a batch of
// groups and whose decode reads one response, settling each group with
// reply.set (its result, which may carry a per-group error), reply.retry
// (a retriable error: the group is looked up again and resent) or
// reply.pass (handed to the then stage on the same coordinator, as
// ConsumerGroupDescribe hands DescribeGroups the groups it does not know);
// and call shard(ctx, c, c.coordinatorRouter(), api, groups). Coordinator
// lookups, batching, concurrency, retries and the order of the answers
// come with it.
type sharded[K comparable, R any] struct {
	// split cuts the keys one broker gets into the batches of its
	// requests; nil sends them all in one.
	split func(keys []K) [][]K
	// request builds the request for one batch.
	request func(batch []K) kmsg.Request
	// decode reads the answer to one batch's request from broker and
	// settles its keys through r. An error is handled like the request's
	// own failure.
	decode func(ctx context.Context, broker int32, batch []K, resp kmsg.Response, r *reply[K, R]) error
	// then, when set, is sent to the same broker after every batch of
	// this one answered, with the keys decode passed on (reply.pass).
	then *sharded[K, R]
	// eager sends then's requests together with this stage's, for all
	// of this stage's keys, rather than after it: one round trip instead
	// of two, for requests that may ask about keys this stage answers
	// (those answers are dropped: then settles only the keys this stage
	// passed on, as it would have been asked).
	eager bool
	// missing is the error of a key nothing answered for; nil leaves
	// such a key with neither a result nor an error (its R's zero value).
	missing func(K) error
	// fatal: a failed request that is not retried fails the whole call
	// (ListOffsets, FindCoordinator), not only its keys. Coordinator
	// routing always fails the keys.
	fatal bool
}

// A router says where each key of an operation goes and how its failures
// are retried; the engine's rounds are the same for all of them.
type router[K comparable] struct {
	// retries bounds the rounds after the first (retry.go).
	retries int
	// route sends pending keys to brokers for attempt (0 first).
	route func(ctx context.Context, pending []K, attempt int) (routed[K], error)
	// network: a lost connection is retried like a retriable error.
	network bool
	// brokerWide: a failed request stands for all the keys of its broker
	// (they are all retried or all failed), and the retries its other
	// requests asked for are dropped with it.
	brokerWide bool
	// again, when set, is told the keys of the next round first.
	again func(keys []K)
	// gaveUp returns what the keys still to retry carry after the last
	// round (keysErr), or an error for the whole call; end is retry's
	// result and last the last retriable error seen.
	gaveUp func(ctx context.Context, end, last error) (keysErr, callErr error)
	// stopOnCtx ends the rounds once the context is over, so the keys
	// carry the error of their last attempt rather than the wait's.
	stopOnCtx bool
}

// routed is one round's routing of the pending keys.
type routed[K comparable] struct {
	byBroker map[int32][]K
	failed   map[K]error // keys that cannot be routed, and why
	wait     []K         // keys to try again next round (no owner yet)
	waitErr  error       // why they wait
}

// answers collects what the rounds learn, for every key. The results
// are kept in a slice, one slot per distinct key in the caller's order: a
// map would allocate every result larger than its inline limit (a
// GroupDescription), one per group.
type answers[K comparable, R any] struct {
	mu   sync.Mutex
	slot map[K]int // a key's index in res and got
	res  []R
	got  []bool
	errs map[K]error
}

// newAnswers returns the answers for keys, and the distinct keys in order.
func newAnswers[K comparable, R any](keys []K) (*answers[K, R], []K) {
	a := &answers[K, R]{slot: make(map[K]int, len(keys)), errs: map[K]error{}}
	var distinct []K
	for _, k := range keys {
		if _, ok := a.slot[k]; !ok {
			a.slot[k] = len(distinct)
			distinct = append(distinct, k)
		}
	}
	a.res = make([]R, len(distinct))
	a.got = make([]bool, len(distinct))
	return a, distinct
}

// reply is what the decoding of one request settles: results and errors
// go straight to the answers; the keys to retry and to pass on stay with
// the broker's shard until all of its requests have answered.
type reply[K comparable, R any] struct {
	all      *answers[K, R]
	mu       sync.Mutex
	again    []K
	againErr error
	next     []K
	// only, when set, are the keys the decoding may settle: an eager
	// stage's answer also holds keys the stage before it settled.
	only map[K]bool
}

// asked reports whether the decoding may settle k.
func (r *reply[K, R]) asked(k K) bool { return r.only == nil || r.only[k] }

// set records k's result (an answer for a key not asked is dropped).
func (r *reply[K, R]) set(k K, v R) {
	if !r.asked(k) {
		return
	}
	r.all.mu.Lock()
	if i, ok := r.all.slot[k]; ok {
		r.all.res[i], r.all.got[i] = v, true
	}
	r.all.mu.Unlock()
}

// fail records that k cannot be answered, and why.
func (r *reply[K, R]) fail(k K, err error) {
	if !r.asked(k) {
		return
	}
	r.all.mu.Lock()
	r.all.errs[k] = err
	r.all.mu.Unlock()
}

// retry asks for k to be routed and sent again; err is why.
func (r *reply[K, R]) retry(k K, err error) {
	if !r.asked(k) {
		return
	}
	r.mu.Lock()
	r.again = append(r.again, k)
	r.againErr = err
	r.mu.Unlock()
}

// pass hands k to the then stage on the same broker.
func (r *reply[K, R]) pass(k K) {
	if !r.asked(k) {
		return
	}
	r.mu.Lock()
	r.next = append(r.next, k)
	r.mu.Unlock()
}

// round is the outcome of one round over every broker; mu guards it.
type round[K comparable] struct {
	mu      sync.Mutex
	again   []K
	lastErr error
	fatal   error
}

// retry adds keys to the next round; the caller holds rd.mu.
func (rd *round[K]) retry(keys []K, err error) {
	rd.again = append(rd.again, keys...)
	rd.lastErr = err
}

// shard sends api for keys through rt and returns each key's result or
// error, in the order of keys (a key given twice is answered twice); a
// key with a result has no error, even when an earlier or later attempt
// failed for it. The error is set when the call as a whole failed: the
// cluster could not be reached, or a fatal request failed.
func shard[K comparable, R any](ctx context.Context, c *Client, rt router[K], api *sharded[K, R], keys []K) ([]R, []error, error) {
	all, pending := newAnswers[K, R](keys)
	if len(pending) > 0 {
		if err := rounds(ctx, c, rt, api, all, pending); err != nil {
			return nil, nil, err
		}
	}
	res := all.res
	if len(pending) < len(keys) {
		res = make([]R, len(keys))
	}
	errs := make([]error, len(keys))
	for i, k := range keys {
		j := all.slot[k]
		if all.got[j] {
			res[i] = all.res[j]
			continue
		}
		if errs[i] = all.errs[k]; errs[i] == nil && api.missing != nil {
			errs[i] = api.missing(k)
		}
	}
	return res, errs, nil
}

// rounds routes and sends pending until nothing is left to retry or rt's
// bound is reached.
func rounds[K comparable, R any](ctx context.Context, c *Client, rt router[K], api *sharded[K, R], all *answers[K, R], pending []K) error {
	var fatal, lastErr error
	var again []K // the keys the last round left to retry
	end := retry(ctx, rt.retries, func(attempt int) bool {
		to, err := rt.route(ctx, pending, attempt)
		if err != nil {
			fatal = err
			return false
		}
		for k, e := range to.failed {
			all.errs[k] = e
		}
		rd := &round[K]{again: to.wait, lastErr: to.waitErr}
		var wg sync.WaitGroup
		for broker, keys := range to.byBroker {
			wg.Go(func() { sendShard(ctx, c, rt, api, all, rd, broker, keys) })
		}
		wg.Wait()
		again, lastErr = rd.again, rd.lastErr
		if fatal = rd.fatal; fatal != nil || len(rd.again) == 0 {
			return false
		}
		if rt.again != nil {
			rt.again(rd.again)
		}
		pending = rd.again
		return !rt.stopOnCtx || ctx.Err() == nil
	})
	if fatal != nil {
		return fatal
	}
	if len(again) == 0 {
		return nil
	}
	why, err := rt.gaveUp(ctx, end, lastErr)
	if err != nil {
		return err
	}
	for _, k := range again {
		all.errs[k] = why
	}
	return nil
}

// sendShard sends the keys of one broker: api's batches in parallel, then
// its then stage with the keys they passed on, and records in rd what is
// left to retry.
func sendShard[K comparable, R any](ctx context.Context, c *Client, rt router[K], api *sharded[K, R], all *answers[K, R], rd *round[K], broker int32, keys []K) {
	rep := &reply[K, R]{all: all}
	var shardErr error
	for stage, in := api, keys; stage != nil && len(in) > 0; stage = stage.then {
		rep.next = nil
		var early func() []earlyAnswer[K]
		if stage.eager && stage.then != nil {
			early = sendEarly(ctx, c, stage.then, broker, in)
		}
		batches := [][]K{in}
		if stage.split != nil {
			batches = stage.split(in)
		}
		shardErr = eachBatch(batches, func(batch []K) error {
			err := sendBatch(ctx, c, stage, rep, broker, batch)
			if err == nil || rt.brokerWide {
				return err
			}
			requestFailed(rt, stage, all, rd, batch, err)
			return nil
		})
		if early != nil {
			answers := early()
			if shardErr == nil {
				stage = stage.then
				shardErr = settleEarly(ctx, rt, stage, rep, rd, broker, answers)
			}
		}
		if shardErr != nil {
			break
		}
		in = rep.next
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	switch {
	case shardErr == nil:
		if len(rep.again) > 0 {
			rd.retry(rep.again, rep.againErr)
		}
	case retriable(shardErr) || isNetwork(shardErr):
		rd.retry(keys, shardErr)
	default:
		all.failAll(keys, shardErr)
	}
}

// earlyAnswer is the answer to one batch of an eager then stage.
type earlyAnswer[K comparable] struct {
	batch []K
	resp  kmsg.Response
	err   error
}

// sendEarly sends api's requests for keys to broker in the background;
// the function returned waits for their answers.
func sendEarly[K comparable, R any](ctx context.Context, c *Client, api *sharded[K, R], broker int32, keys []K) func() []earlyAnswer[K] {
	batches := [][]K{keys}
	if api.split != nil {
		batches = api.split(keys)
	}
	out := make([]earlyAnswer[K], len(batches))
	var wg sync.WaitGroup
	for i, b := range batches {
		wg.Go(func() {
			resp, err := c.roundTrip(ctx, broker, api.request(b))
			out[i] = earlyAnswer[K]{batch: b, resp: resp, err: err}
		})
	}
	return func() []earlyAnswer[K] {
		wg.Wait()
		return out
	}
}

// settleEarly decodes the answers of an eager then stage for the keys the
// stage before passed on (rep.next) alone, as if only those had been
// asked; a failed request counts for those of its keys.
func settleEarly[K comparable, R any](ctx context.Context, rt router[K], api *sharded[K, R], rep *reply[K, R], rd *round[K], broker int32, answers []earlyAnswer[K]) error {
	passed := make(map[K]bool, len(rep.next))
	for _, k := range rep.next {
		passed[k] = true
	}
	rep.next = nil
	rep.only = passed
	defer func() { rep.only = nil }()
	for _, a := range answers {
		var asked []K
		for _, k := range a.batch {
			if passed[k] {
				asked = append(asked, k)
			}
		}
		if len(asked) == 0 {
			continue
		}
		err := a.err
		if err == nil {
			err = api.decode(ctx, broker, asked, a.resp, rep)
		}
		if err == nil {
			continue
		}
		if rt.brokerWide {
			return err
		}
		requestFailed(rt, api, rep.all, rd, asked, err)
	}
	return nil
}

// requestFailed handles the failed request of batch when the failure is
// the request's alone (not brokerWide): its keys are retried or failed,
// or the call fails.
func requestFailed[K comparable, R any](rt router[K], api *sharded[K, R], all *answers[K, R], rd *round[K], batch []K, err error) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	switch {
	case retriable(err) || (rt.network && isNetwork(err)):
		rd.retry(batch, err)
	case api.fatal:
		if rd.fatal == nil {
			rd.fatal = err
		}
	default:
		all.failAll(batch, err)
	}
}

func (a *answers[K, R]) failAll(keys []K, err error) {
	a.mu.Lock()
	for _, k := range keys {
		a.errs[k] = err
	}
	a.mu.Unlock()
}

// sendBatch sends one request of api to broker and decodes its answer.
func sendBatch[K comparable, R any](ctx context.Context, c *Client, api *sharded[K, R], rep *reply[K, R], broker int32, batch []K) error {
	resp, err := c.roundTrip(ctx, broker, api.request(batch))
	if err != nil {
		return err
	}
	return api.decode(ctx, broker, batch, resp, rep)
}

// coordinatorRouter routes groups to their coordinators (from the cache or
// FindCoordinator) for at most coordinatorRetries rounds. A group whose
// coordinator moved or is loading is looked up again and resent; so are
// all the groups of a broker whose request failed with a retriable error
// or a lost connection (most often the coordinator going down: Kafka
// moves it once the controller has fenced the broker).
func (c *Client) coordinatorRouter() router[string] {
	return router[string]{
		retries: coordinatorRetries,
		route: func(ctx context.Context, pending []string, _ int) (routed[string], error) {
			coords, failed, err := c.coordinators(ctx, pending)
			if err != nil {
				return routed[string]{}, err
			}
			byBroker := map[int32][]string{}
			for _, g := range pending {
				if id, ok := coords[g]; ok {
					byBroker[id] = append(byBroker[id], g)
				}
			}
			return routed[string]{byBroker: byBroker, failed: failed}, nil
		},
		network:    true,
		brokerWide: true,
		again: func(groups []string) {
			c.forgetCoordinator(groups...)
			slices.Sort(groups)
		},
		stopOnCtx: true,
		gaveUp: func(ctx context.Context, end, last error) (error, error) {
			if last == nil || (end != nil && !errors.Is(end, errRetriesExhausted)) {
				// The context ended during the wait, or the last attempt
				// gave no reason: the deadline is the news.
				return c.ctxErr(ctx), nil
			}
			return last, nil
		},
	}
}

// leaderRouter routes partitions to their leaders (partitionLeaders) for
// at most listOffsetsRetries rounds: a partition without a leader, whose
// leader moved, or whose leader's connection was lost is tried again. op
// names the request in the error of a partition that stays without a
// leader. A context that ends during a wait fails the call.
func (c *Client) leaderRouter(op string) router[TopicPartition] {
	return c.leaderRouterKnown(op, nil)
}

// leaderRouterKnown is leaderRouter whose first round routes by known (a
// Metadata answer of those partitions' topics just read) when it is not
// nil; the rounds after it ask again, as leaderRouter's do.
func (c *Client) leaderRouterKnown(op string, known map[string]TopicInfo) router[TopicPartition] {
	return router[TopicPartition]{
		retries: listOffsetsRetries,
		route: func(ctx context.Context, pending []TopicPartition, attempt int) (routed[TopicPartition], error) {
			var meta map[string]TopicInfo
			if attempt == 0 {
				meta = known
			}
			byLeader, failed, noLeader, err := c.partitionLeaders(ctx, pending, attempt, meta)
			if err != nil {
				return routed[TopicPartition]{}, err
			}
			r := routed[TopicPartition]{byBroker: byLeader, failed: failed, wait: noLeader}
			if len(noLeader) > 0 {
				r.waitErr = &KafkaError{Op: op, What: noLeader[0].String(), Code: kafka.LeaderNotAvailable}
			}
			return r, nil
		},
		network: true,
		gaveUp: func(ctx context.Context, end, last error) (error, error) {
			if end != nil && !errors.Is(end, errRetriesExhausted) {
				return nil, c.ctxErr(ctx)
			}
			return last, nil
		},
	}
}

// brokerRouter sends every key to broker (anyBroker: a bootstrap
// server), in one request, for at most requestRetries rounds (withRetry's
// bound): only the keys the answer calls retriable are sent again. A lost
// connection is not retried; the keys left carry the last retriable
// error.
func brokerRouter[K cmp.Ordered](broker int32) router[K] {
	return router[K]{
		retries: requestRetries,
		route: func(_ context.Context, pending []K, _ int) (routed[K], error) {
			return routed[K]{byBroker: map[int32][]K{broker: pending}}, nil
		},
		again:  func(keys []K) { slices.Sort(keys) },
		gaveUp: func(_ context.Context, _, last error) (error, error) { return last, nil },
	}
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

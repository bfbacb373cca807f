package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// findCoordinatorBatch is how many group ids one FindCoordinator v4+
// request carries.
const findCoordinatorBatch = 500

// findCoordinatorMax is the newest FindCoordinator version kcg sends.
const findCoordinatorMax = 4

// coordinators returns the coordinator broker id of each group, from the
// cache or from FindCoordinator (v4+: one request for many groups; older
// brokers: one request per group, bounded in flight). A group whose
// coordinator cannot be found is in errs. Each batch is sent through the
// engine on its own, so a batch that keeps hearing "not available" retries
// only its own groups.
func (c *Client) coordinators(ctx context.Context, groups []string) (map[string]int32, map[string]error, error) {
	// The versions first: when they make the client connect, its first
	// connection brings these coordinators (piggyback.go).
	c.ExpectGroups(groups)
	req := kmsg.NewPtrFindCoordinatorRequest()
	v, ok, err := c.pickVersion(ctx, req, findCoordinatorMax)
	if err != nil {
		return nil, nil, err
	}
	out, missing := c.cachedCoordinators(groups)
	errs := map[string]error{}
	if len(missing) == 0 {
		return out, errs, nil
	}
	if !ok {
		return nil, nil, errors.New("the broker does not support the FindCoordinator API")
	}
	size := 1
	if v >= 4 {
		size = findCoordinatorBatch
	}
	api := findCoordinator(v)
	var mu sync.Mutex
	err = eachBatch(chunks(missing, size), func(batch []string) error {
		found, failed, err := shard(ctx, c, brokerRouter[string](anyBroker), api, batch)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for i, g := range batch {
			switch {
			case failed[i] != nil:
				errs[g] = failed[i]
			case found[i].ok:
				out[g] = found[i].id
				c.learnBroker(found[i].broker)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	for g, id := range out {
		c.coords[g] = id
	}
	c.mu.Unlock()
	return out, errs, nil
}

// LookUpCoordinators finds the coordinators of groups, in one batched
// FindCoordinator phase, for the calls that follow: reads of the same
// groups started together then find them cached rather than each asking
// (plan's missing-group check beside its read). A group whose lookup
// failed is looked up again by the call that needs it; the error is the
// call's own (the cluster could not be reached).
func (c *Client) LookUpCoordinators(ctx context.Context, groups []string) error {
	_, _, err := c.coordinators(ctx, groups)
	return err
}

// cachedCoordinators splits groups into those whose coordinator is cached
// and those to look up.
func (c *Client) cachedCoordinators(groups []string) (map[string]int32, []string) {
	out := make(map[string]int32, len(groups))
	var missing []string
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, g := range groups {
		if id, ok := c.coords[g]; ok {
			out[g] = id
		} else {
			missing = append(missing, g)
		}
	}
	return out, missing
}

// coordinatorID is FindCoordinator's answer for one group.
type coordinatorID struct {
	id int32
	ok bool
	// broker is the coordinator's address as FindCoordinator names it.
	broker Broker
}

// findCoordinator is FindCoordinator at version v for the engine: v4+
// carries many groups (CoordinatorKeys), older versions one
// (CoordinatorKey). A group whose coordinator is not available yet (a
// fresh cluster answers so while it creates __consumer_offsets) is asked
// again.
func findCoordinator(v int16) *sharded[string, coordinatorID] {
	return &sharded[string, coordinatorID]{
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrFindCoordinatorRequest()
			req.Version = v
			if v >= 4 {
				req.CoordinatorKeys = batch
			} else {
				req.CoordinatorKey = batch[0]
			}
			return req
		},
		decode: func(_ context.Context, _ int32, batch []string, resp kmsg.Response, r *reply[string, coordinatorID]) error {
			fr := resp.(*kmsg.FindCoordinatorResponse)
			if v < 4 {
				settleCoordinator(r, batch[0], Broker{ID: fr.NodeID, Host: fr.Host, Port: fr.Port}, fr.ErrorCode, fr.ErrorMessage)
				return nil
			}
			for _, co := range fr.Coordinators {
				settleCoordinator(r, co.Key, Broker{ID: co.NodeID, Host: co.Host, Port: co.Port}, co.ErrorCode, co.ErrorMessage)
			}
			return nil
		},
		fatal: true,
	}
}

func settleCoordinator(r *reply[string, coordinatorID], group string, b Broker, code int16, msg *string) {
	e := kerr("FindCoordinator", "group "+group, code, msg)
	switch {
	case e == nil:
		r.set(group, coordinatorID{id: b.ID, ok: true, broker: b})
	case retriable(e):
		r.retry(group, e)
	default:
		r.fail(group, e)
	}
}

func (c *Client) forgetCoordinator(groups ...string) {
	c.mu.Lock()
	for _, g := range groups {
		delete(c.coords, g)
	}
	c.mu.Unlock()
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

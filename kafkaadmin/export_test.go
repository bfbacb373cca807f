package kafkaadmin

import (
	"context"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// NewRawForTest returns a Client for addr, for tests that send raw
// requests.
func NewRawForTest(addr string) *Client {
	c, err := New(connconfig.Config{Bootstrap: []string{addr}})
	if err != nil {
		panic(err)
	}
	return c
}

// RawForTest sends req to the bootstrap broker (single-broker clusters:
// the coordinator and every leader).
func (c *Client) RawForTest(ctx context.Context, req kmsg.Request) (kmsg.Response, error) {
	return c.roundTrip(ctx, anyBroker, req)
}

// SupportsForTest reports whether the cluster (its bootstrap broker)
// advertises req's API at version minVersion or above.
func (c *Client) SupportsForTest(ctx context.Context, req kmsg.Request, minVersion int16) (bool, error) {
	vs, err := c.apiVersions(ctx)
	if err != nil {
		return false, err
	}
	r, ok := vs[req.Key()]
	return ok && r.max >= minVersion, nil
}

// ListOffsetsLeaderPathForTest is one ListOffsets phase by the
// leader-routed path alone, never the fan-out (fanout.go): the results
// the fan-out must give.
func (c *Client) ListOffsetsLeaderPathForTest(ctx context.Context, tps []TopicPartition, q OffsetQuery) (map[TopicPartition]ListedOffset, error) {
	v, err := c.listOffsetsVersion(ctx, []OffsetQuery{q})
	if err != nil {
		return nil, err
	}
	return c.listOffsetsRouted(ctx, tps, q, v, nil)
}

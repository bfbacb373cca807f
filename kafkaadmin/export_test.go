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

package kafkaadmin

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// describeConfigsBatch is how many topics one DescribeConfigs request
// asks for.
const describeConfigsBatch = 500

// TopicRetention is what a topic's configuration says about when its
// records may be deleted.
type TopicRetention struct {
	// Ms is retention.ms; nil when time-based deletion is off for the
	// topic: retention.ms=-1, or cleanup.policy without "delete" (a
	// compact-only topic).
	Ms *int64
	// Bytes is retention.bytes per partition; nil when unlimited (-1) or
	// deletion is off.
	Bytes *int64
	Err   error
}

// TopicRetentions reads retention.ms, retention.bytes and cleanup.policy
// of topics: DescribeConfigs through the sharded-request engine, sent to
// any broker (topic configs are the controller's, every broker answers
// them), in batches. A topic that could not be read has Err set.
func (c *Client) TopicRetentions(ctx context.Context, topics []string) (map[string]TopicRetention, error) {
	out := make(map[string]TopicRetention, len(topics))
	if len(topics) == 0 {
		return out, nil
	}
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrDescribeConfigsRequest(), 4)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the DescribeConfigs API")
	}
	sorted := slices.Sorted(slices.Values(topics))
	sorted = slices.Compact(sorted)
	api := describeConfigs(v)
	for _, batch := range chunks(sorted, describeConfigsBatch) {
		got, errs, err := shard(ctx, c, brokerRouter[string](anyBroker), api, batch)
		if err != nil {
			return nil, err
		}
		for i, t := range batch {
			r := got[i]
			if errs[i] != nil {
				r = TopicRetention{Err: errs[i]}
			}
			out[t] = r
		}
	}
	return out, nil
}

// describeConfigs is DescribeConfigs at version v for the engine: one
// resource per topic, only the three keys that decide deletion.
func describeConfigs(v int16) *sharded[string, TopicRetention] {
	return &sharded[string, TopicRetention]{
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrDescribeConfigsRequest()
			req.Version = v
			for _, t := range batch {
				r := kmsg.NewDescribeConfigsRequestResource()
				r.ResourceType = kmsg.ConfigResourceTypeTopic
				r.ResourceName = t
				r.ConfigNames = []string{"retention.ms", "retention.bytes", "cleanup.policy"}
				req.Resources = append(req.Resources, r)
			}
			return req
		},
		decode: func(_ context.Context, _ int32, _ []string, resp kmsg.Response, r *reply[string, TopicRetention]) error {
			for _, res := range resp.(*kmsg.DescribeConfigsResponse).Resources {
				e := kerr("DescribeConfigs", "topic "+res.ResourceName, res.ErrorCode, res.ErrorMessage)
				switch {
				case e == nil:
					r.set(res.ResourceName, retentionOf(res.Configs))
				case retriable(e):
					r.retry(res.ResourceName, e)
				default:
					r.fail(res.ResourceName, e)
				}
			}
			return nil
		},
	}
}

// retentionOf reads the deletion settings from a topic's configs.
func retentionOf(cfgs []kmsg.DescribeConfigsResponseResourceConfig) TopicRetention {
	vals := map[string]string{}
	for _, c := range cfgs {
		if c.Value != nil {
			vals[c.Name] = *c.Value
		}
	}
	var tr TopicRetention
	policy, ok := vals["cleanup.policy"]
	if ok && !slices.Contains(strings.Split(strings.ReplaceAll(policy, " ", ""), ","), "delete") {
		return tr // compact only: nothing is deleted by age or size
	}
	if n, err := strconv.ParseInt(vals["retention.ms"], 10, 64); err == nil && n >= 0 {
		tr.Ms = &n
	}
	if n, err := strconv.ParseInt(vals["retention.bytes"], 10, 64); err == nil && n >= 0 {
		tr.Bytes = &n
	}
	return tr
}

package kafkatest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ShareStartOffsets reads group's share-partition start offsets with
// franz-go (DescribeShareGroupOffsets v0, all topics), independently of
// kcg's own client: what a share-group apply is checked against. A
// share-partition not initialised (-1) is left out; a group the broker
// does not know is empty.
func (e *Env) ShareStartOffsets(t testing.TB, group string) map[string]map[int32]int64 {
	t.Helper()
	out := map[string]map[int32]int64{}
	retry(t, "share offsets of "+group, func(ctx context.Context) error {
		clear(out)
		req := kmsg.NewPtrDescribeShareGroupOffsetsRequest()
		req.Groups = []kmsg.DescribeShareGroupOffsetsRequestGroup{{GroupID: group}}
		resp, err := req.RequestWith(ctx, e.kgoClient(t))
		if err != nil {
			return err
		}
		for _, g := range resp.Groups {
			if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
				if err == kerr.GroupIDNotFound {
					return nil
				}
				return fmt.Errorf("group %s: %w", g.GroupID, err)
			}
			for _, tp := range g.Topics {
				for _, p := range tp.Partitions {
					if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
						return fmt.Errorf("%s/%d: %w", tp.Topic, p.Partition, err)
					}
					if p.StartOffset < 0 {
						continue
					}
					if out[tp.Topic] == nil {
						out[tp.Topic] = map[int32]int64{}
					}
					out[tp.Topic][p.Partition] = p.StartOffset
				}
			}
		}
		return nil
	})
	return out
}

// HasShareGroups reports whether the cluster has the share-group APIs
// (ShareGroupDescribe): 4.1 and later, and kfake.
func (e *Env) HasShareGroups(t testing.TB) bool {
	t.Helper()
	return e.hasAPI(t, kmsg.ShareGroupDescribe)
}

// HasStreamsGroups reports whether the cluster has the streams-group APIs
// (StreamsGroupDescribe): 4.1 and later; kfake has none.
func (e *Env) HasStreamsGroups(t testing.TB) bool {
	t.Helper()
	return e.hasAPI(t, kmsg.StreamsGroupDescribe)
}

// hasAPI reports whether the cluster's ApiVersions offers key.
func (e *Env) hasAPI(t testing.TB, key kmsg.Key) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, e.kgoClient(t))
	if err != nil {
		t.Fatalf("kafkatest: ApiVersions: %v", err)
	}
	for _, k := range res.ApiKeys {
		if k.ApiKey == int16(key) {
			return true
		}
	}
	return false
}

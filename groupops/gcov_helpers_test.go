package groupops_test

import (
	"context"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

// The gcov_*_test.go files test groupops from outside, through its
// exported operations and pure functions only, so that they hold whatever
// shape the package's internals take.

// gcClient is an admin client of the brokers at addrs and a context for
// one test's requests.
func gcClient(t *testing.T, addrs ...string) (*kafkaadmin.Client, context.Context) {
	t.Helper()
	cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: addrs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return cl, ctx
}

// gcTopic makes a topic of n partitions, each holding offsets 0..5, and
// returns its name.
func gcTopic(t *testing.T, e *kafkatest.Env, n int) string {
	t.Helper()
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, n)
	for p := range n {
		recs := make([]kafkatest.Record, 6)
		for i := range recs {
			recs[i] = kafkatest.Record{Value: "v"}
		}
		e.Produce(t, topic, p, recs...)
	}
	return topic
}

func gcPtr(v int64) *int64 { return &v }

// gcOffset is "none" for nil, else the number: for messages.
func gcOffset(p *int64) any {
	if p == nil {
		return "none"
	}
	return *p
}

// gcClusterID is the cluster's id, as a plan made on it carries.
func gcClusterID(t *testing.T, ctx context.Context, cl *kafkaadmin.Client) string {
	t.Helper()
	info, err := cl.Cluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info.ClusterID
}

// gcPlan is a reset plan made by hand on cluster id: one group of topic's
// partitions, parts[p] = {current, target} (nil: none / delete).
func gcPlan(id string, groups ...resetplan.Group) *resetplan.Plan {
	return &resetplan.Plan{Cluster: resetplan.Cluster{ID: id}, Groups: groups}
}

func gcGroup(group, topic string, parts ...[2]*int64) resetplan.Group {
	g := resetplan.Group{Group: group}
	for p, ct := range parts {
		g.Partitions = append(g.Partitions, resetplan.Partition{Topic: topic, Partition: int32(p), Current: ct[0], Target: ct[1], LogEnd: 6, Reason: resetplan.Reason("resolved")})
	}
	return g
}

// gcApply preflights plan, fails the test unless it may be applied, and
// applies it.
func gcApply(t *testing.T, ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan) (*groupops.Check, groupops.ApplyResult) {
	t.Helper()
	c, err := groupops.Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Refusal(false); err != nil {
		t.Fatalf("preflight refuses the plan: %v", err)
	}
	return c, groupops.Apply(ctx, cl, c, groupops.ApplyOptions{})
}

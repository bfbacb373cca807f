package kafkatest

import (
	"context"
	"fmt"
	"testing"
)

// ClassicMemberInConsumerGroup starts a classic-protocol Java consumer
// (group.protocol=classic) in group, which must already be a KIP-848
// consumer group: Kafka 4.x keeps the group a consumer group and serves
// the classic member through its upgrade path, so describe shows a mixed
// group (the Java tool's UPGRADED column). It waits until
// ConsumerGroupDescribe lists the member with an assignment. Real broker
// only (the member is the Java console consumer).
func (e *Env) ClassicMemberInConsumerGroup(t testing.TB, group, topic string) *Member {
	t.Helper()
	e.RequireReal(t, "the classic member of a KIP-848 group is the Java console consumer")
	clientID := UniqueName(t, "classic-in-848")
	m := &Member{Group: group, ClientID: clientID}
	var exited func() error
	m.stop, exited = e.javaConsumer(t, group, topic, clientID, "classic")
	t.Cleanup(m.Stop)
	e.waitFor(t, fmt.Sprintf("classic member %s in consumer group %s", clientID, group), exited, func(ctx context.Context) (bool, string, error) {
		g, err := e.describeConsumerGroup(ctx, group)
		if err != nil {
			return false, "", err
		}
		if g.ErrorCode != 0 {
			return false, fmt.Sprintf("ConsumerGroupDescribe error %d", g.ErrorCode), nil
		}
		in := false
		for _, mem := range g.Members {
			if mem.ClientID == clientID && len(mem.Assignment.TopicPartitions) > 0 {
				in = true
			}
		}
		return g.State == "Stable" && in, fmt.Sprintf("state %s, %d members, ours assigned: %v", g.State, len(g.Members), in), nil
	})
	return m
}

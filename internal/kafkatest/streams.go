package kafkatest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// StreamsTopologyMember starts testdata/StreamsTopologyApp.java with
// application.id = group on input (which must exist): a streams group
// (KIP-1071) whose topology has an input topic, a repartition topic and a
// changelog topic. It commits every 100 ms, so the group's offsets follow
// what it consumed. It waits until ListGroups lists the group with type
// "streams" and StreamsGroupDescribe reports it Stable with one member.
// Real broker only; it skips on brokers without streams groups.
func (e *Env) StreamsTopologyMember(t testing.TB, group, input string) *Member {
	t.Helper()
	e.RequireReal(t, "a streams group needs Kafka Streams on the real broker")
	e.requireAPI(t, kmsg.StreamsGroupHeartbeat, "streams groups (KIP-1071)")
	props := filepath.Join(t.TempDir(), "streams.properties")
	conf := "application.id=" + group + "\nbootstrap.servers=" + e.Bootstrap + "\ngroup.protocol=streams\n" +
		"commit.interval.ms=100\nreplication.factor=-1\n" +
		"state.dir=" + filepath.Join(t.TempDir(), "state") + "\n"
	if err := os.WriteFile(props, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &Member{Group: group, ClientID: group}
	var exited func() error
	app := filepath.Join(filepath.Dir(streamsApp(t)), "StreamsTopologyApp.java")
	m.stop, exited = startJava(t, app, group, props, input)
	t.Cleanup(m.Stop)
	e.waitFor(t, "streams group "+group+" Stable", exited, func(ctx context.Context) (bool, string, error) {
		req := kmsg.NewPtrStreamsGroupDescribeRequest()
		req.Groups = []string{group}
		res, err := req.RequestWith(ctx, e.kgoClient(t))
		if err != nil {
			return false, "", err
		}
		if len(res.Groups) != 1 || res.Groups[0].ErrorCode != 0 {
			return false, "not described yet", nil
		}
		g := res.Groups[0]
		return g.State == "Stable" && len(g.Members) == 1, "state " + g.State, nil
	})
	return m
}

package kafkatest

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestConnectSink proves the Connect worker of .ci/kafka, the tests' sink
// connector and this kit on the real cluster: a sink with two tasks
// writes every record of a two-partition topic to its file, its group
// commits the log end, a PATCH of its offsets while STOPPED runs the
// connector's alterOffsets hook and, resumed, it replays from there.
func TestConnectSink(t *testing.T) {
	e := Cluster(t)
	c := e.Connect(t)
	topic := UniqueName(t, "connect")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, Record{Value: "a0"}, Record{Value: "a1"}, Record{Value: "a2"})
	e.Produce(t, topic, 1, Record{Value: "b0"}, Record{Value: "b1"})

	name := UniqueName(t, "sink")
	s := c.CreateSink(t, name, []string{topic}, SinkOptions{Tasks: 2})
	if s.Group != "connect-"+name {
		t.Fatalf("group %q, want connect-%s", s.Group, name)
	}
	if state, tasks := c.Status(t, name); state != "RUNNING" || !reflect.DeepEqual(tasks, []string{"RUNNING", "RUNNING"}) {
		t.Fatalf("status %s %v, want RUNNING with two RUNNING tasks", state, tasks)
	}
	want := []SinkRecord{
		{topic, 0, 0, "a0"}, {topic, 0, 1, "a1"}, {topic, 0, 2, "a2"},
		{topic, 1, 0, "b0"}, {topic, 1, 1, "b1"},
	}
	if got := sorted(s.WaitRecords(t, 5)); !reflect.DeepEqual(got, want) {
		t.Fatalf("records %+v, want %+v", got, want)
	}
	e.WaitCommitted(t, s.Group, map[string]map[int32]int64{topic: {0: 3, 1: 2}})

	// KIP-875 on the real worker: stop, alter, resume.
	c.put(t, "/connectors/"+url.PathEscape(name)+"/stop", http.StatusNoContent)
	c.WaitState(t, name, "STOPPED", "", 0)
	patch := map[string]any{"offsets": []any{map[string]any{
		"partition": map[string]any{"kafka_topic": topic, "kafka_partition": 0},
		"offset":    map[string]any{"kafka_offset": 1},
	}}}
	if status, body := c.Request(t, http.MethodPatch, "/connectors/"+url.PathEscape(name)+"/offsets", patch); status != http.StatusOK {
		t.Fatalf("PATCH offsets: %d %s", status, body)
	}
	wantCall := `{"offsets":[{"topic":"` + topic + `","partition":0,"offset":1}]}`
	if calls := s.AlterCalls(t); !reflect.DeepEqual(calls, []string{wantCall}) {
		t.Fatalf("alterOffsets calls %q, want [%s]", calls, wantCall)
	}
	e.WaitCommitted(t, s.Group, map[string]map[int32]int64{topic: {0: 1, 1: 2}})
	c.put(t, "/connectors/"+url.PathEscape(name)+"/resume", http.StatusAccepted)
	c.WaitState(t, name, "RUNNING", "RUNNING", 2)
	got := s.WaitRecords(t, 7)
	if replay := sorted(got[5:]); !reflect.DeepEqual(replay, want[1:3]) {
		t.Fatalf("replayed %+v, want %+v", replay, want[1:3])
	}
}

// TestConnectSinkFailIfExists: fail.if.exists fails the tasks on start, so
// a test can make a connector fail when it is resumed.
func TestConnectSinkFailIfExists(t *testing.T) {
	e := Cluster(t)
	c := e.Connect(t)
	topic := UniqueName(t, "connect")
	e.CreateTopic(t, topic, 1)
	flag := filepath.Join(t.TempDir(), "fail")
	name := UniqueName(t, "sink")
	group := UniqueName(t, "group")
	s := c.CreateSink(t, name, []string{topic}, SinkOptions{GroupID: group, FailIfExists: flag})
	if s.Group != group {
		t.Fatalf("group %q, want %q", s.Group, group)
	}
	c.put(t, "/connectors/"+url.PathEscape(name)+"/stop", http.StatusNoContent)
	c.WaitState(t, name, "STOPPED", "", 0)
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.put(t, "/connectors/"+url.PathEscape(name)+"/resume", http.StatusAccepted)
	c.WaitState(t, name, "RUNNING", "FAILED", 1)
	st, _ := c.status(t, name)
	if !strings.Contains(st.Tasks[0].Trace, "fail.if.exists") {
		t.Fatalf("task trace %q does not say fail.if.exists", firstLine(st.Tasks[0].Trace))
	}
}

func (c *Connect) put(t *testing.T, path string, want int) {
	t.Helper()
	if status, body := c.Request(t, http.MethodPut, path, nil); status != want {
		t.Fatalf("PUT %s: %d %s, want %d", path, status, body, want)
	}
}

func sorted(recs []SinkRecord) []SinkRecord {
	out := append([]SinkRecord(nil), recs...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Partition != out[j].Partition {
			return out[i].Partition < out[j].Partition
		}
		return out[i].Offset < out[j].Offset
	})
	return out
}

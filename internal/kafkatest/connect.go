package kafkatest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The environment of the Kafka Connect tests: `.ci/kafka/kafka.sh connect
// start` runs a Connect distributed worker beside the cluster and writes
// these to the env file (.ci/run exports them).
const (
	// EnvConnectURL is the worker's REST URL (http://127.0.0.1:PORT).
	EnvConnectURL = "KCG_TEST_CONNECT_URL"
	// EnvConnectVersion is the worker's Apache Kafka version.
	EnvConnectVersion = "KCG_TEST_CONNECT_VERSION"
)

// SinkClass is the tests' own sink connector (.ci/kafka/connect-sink), on
// the worker's plugin.path: it appends one JSON line per record to the
// file of its "file" config.
const SinkClass = "dev.kcg.test.connect.FileLinesSinkConnector"

// connectTimeout bounds the waits for a connector's state.
const connectTimeout = 90 * time.Second

// Connect is the real Kafka Connect worker of the tests.
type Connect struct {
	// URL is the worker's REST URL, for the code under test.
	URL string
	// Version is the worker's Apache Kafka version ("" when unknown).
	Version string

	http *http.Client
}

// Connect returns the Connect worker beside the real cluster, or skips the
// test, saying why, when there is none (KCG_TEST_CONNECT_URL unset, or the
// kfake tier: the worker runs against the real cluster only). A worker
// that is configured but does not answer fails the test.
func (e *Env) Connect(t testing.TB) *Connect {
	t.Helper()
	u := strings.TrimRight(strings.TrimSpace(os.Getenv(EnvConnectURL)), "/")
	if u == "" {
		t.Skipf("needs a real Kafka Connect worker: %s is set by `.ci/kafka/kafka.sh connect start` (see docs/testing.md)", EnvConnectURL)
	}
	if !e.Real {
		t.Skipf("the Connect worker at %s runs against the real cluster, and this is %s; set %s too", u, e.Name(), EnvBootstrap)
	}
	c := &Connect{URL: u, Version: os.Getenv(EnvConnectVersion), http: &http.Client{Timeout: 30 * time.Second}}
	if status, body := c.Request(t, http.MethodGet, "/", nil); status != http.StatusOK {
		t.Fatalf("kafkatest: %s=%s but GET / answers %d: %s", EnvConnectURL, u, status, body)
	}
	return c
}

// Request sends one REST request to the worker (body, when not nil, as
// JSON) and returns the status and the body. It fails the test only when
// the worker cannot be reached.
func (c *Connect) Request(t testing.TB, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, c.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("kafkatest: Connect %s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("kafkatest: Connect %s %s: reading the answer: %v", method, path, err)
	}
	return res.StatusCode, b
}

// SinkOptions are the options of [Connect.CreateSink].
type SinkOptions struct {
	// Tasks is tasks.max (0: 1).
	Tasks int
	// GroupID sets consumer.override.group.id; "" leaves Connect's
	// default group, connect-NAME.
	GroupID string
	// FailIfExists makes the connector's tasks fail on start while this
	// file exists (its fail.if.exists config).
	FailIfExists string
	// Extra configs, set last (they may override the ones above).
	Extra map[string]string
}

// Sink is a sink connector of the tests' own class on the worker.
type Sink struct {
	// Name is the connector's name; Group its consumer group; File the
	// file its tasks append one JSON line per record to.
	Name, Group, File string
}

// SinkRecord is one line of a Sink's file: where the record was read, and
// its value as a string ("" for a null value).
type SinkRecord struct {
	Topic     string
	Partition int32
	Offset    int64
	Value     string
}

// CreateSink creates a sink connector of [SinkClass] named name, reading
// topics, its file in a new temporary folder, and waits until it and all
// its tasks are RUNNING. At cleanup it is deleted (and waited for) before
// the folder is removed.
func (c *Connect) CreateSink(t testing.TB, name string, topics []string, o SinkOptions) *Sink {
	t.Helper()
	tasks := o.Tasks
	if tasks <= 0 {
		tasks = 1
	}
	dir, err := os.MkdirTemp("", "kcg-sink-")
	if err != nil {
		t.Fatal(err)
	}
	s := &Sink{Name: name, Group: "connect-" + name, File: filepath.Join(dir, "records.jsonl")}
	config := map[string]string{
		"connector.class": SinkClass,
		"tasks.max":       strconv.Itoa(tasks),
		"topics":          strings.Join(topics, ","),
		"file":            s.File,
	}
	if o.GroupID != "" {
		config["consumer.override.group.id"] = o.GroupID
		s.Group = o.GroupID
	}
	if o.FailIfExists != "" {
		config["fail.if.exists"] = o.FailIfExists
	}
	for k, v := range o.Extra {
		config[k] = v
	}
	t.Cleanup(func() {
		c.deleteConnector(t, name)
		_ = os.RemoveAll(dir)
	})
	if status, body := c.Request(t, http.MethodPut, "/connectors/"+url.PathEscape(name)+"/config", config); status != http.StatusCreated && status != http.StatusOK {
		t.Fatalf("kafkatest: creating connector %s: %d %s", name, status, body)
	}
	c.WaitState(t, name, "RUNNING", "RUNNING", tasks)
	return s
}

// deleteConnector deletes it and waits until the worker no longer knows it
// (so its tasks stop writing before their folder goes); at cleanup.
func (c *Connect) deleteConnector(t testing.TB, name string) {
	t.Helper()
	path := "/connectors/" + url.PathEscape(name)
	poll(t, "connector "+name+" to be deleted", func() (bool, string) {
		status, body := c.Request(t, http.MethodDelete, path, nil)
		if status >= 300 && status != http.StatusNotFound && status != http.StatusConflict { // 409: rebalancing, try again
			t.Fatalf("kafkatest: deleting connector %s: %d %s", name, status, body)
		}
		return status == http.StatusNotFound, fmt.Sprintf("%d %s", status, body)
	})
}

// poll calls check every 200 ms until it is done, for at most
// connectTimeout, then fails the test with what it waited for and check's
// last word.
func poll(t testing.TB, what string, check func() (done bool, last string)) {
	t.Helper()
	deadline := time.Now().Add(connectTimeout)
	for {
		done, last := check()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("kafkatest: gave up waiting %v for %s; last: %s", connectTimeout, what, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// connectorStatus is GET /connectors/NAME/status.
type connectorStatus struct {
	Connector struct {
		State string `json:"state"`
		Trace string `json:"trace"`
	} `json:"connector"`
	Tasks []struct {
		ID    int    `json:"id"`
		State string `json:"state"`
		Trace string `json:"trace"`
	} `json:"tasks"`
}

// status is the connector's status; found is false on 404.
func (c *Connect) status(t testing.TB, name string) (st connectorStatus, found bool) {
	t.Helper()
	status, body := c.Request(t, http.MethodGet, "/connectors/"+url.PathEscape(name)+"/status", nil)
	if status == http.StatusNotFound {
		return st, false
	}
	if status != http.StatusOK {
		t.Fatalf("kafkatest: status of connector %s: %d %s", name, status, body)
	}
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatalf("kafkatest: status of connector %s: %v in %s", name, err, body)
	}
	return st, true
}

// Status returns the connector's state (RUNNING, PAUSED, STOPPED, FAILED,
// UNASSIGNED; "" when the worker does not know it) and its tasks' states
// in task id order.
func (c *Connect) Status(t testing.TB, name string) (state string, taskStates []string) {
	t.Helper()
	st, found := c.status(t, name)
	if !found {
		return "", nil
	}
	taskStates = make([]string, len(st.Tasks))
	for _, task := range st.Tasks {
		if task.ID >= 0 && task.ID < len(taskStates) {
			taskStates[task.ID] = task.State
		}
	}
	return st.Connector.State, taskStates
}

// WaitState waits until the connector is in state and, when taskState is
// not "", it has tasks tasks (0: any number but none) all in taskState.
// It fails with the last status seen, and at once with the trace of a
// connector or task that FAILED when that is not what it waits for.
func (c *Connect) WaitState(t testing.TB, name, state, taskState string, tasks int) {
	t.Helper()
	what := fmt.Sprintf("connector %s to be %s (tasks %q)", name, state, taskState)
	poll(t, what, func() (bool, string) {
		st, found := c.status(t, name)
		if !found {
			return false, "not created yet"
		}
		states := make([]string, len(st.Tasks))
		ok := st.Connector.State == state
		for i, task := range st.Tasks {
			states[i] = task.State
			if taskState != "" && task.State != taskState {
				ok = false
			}
			if task.State == "FAILED" && taskState != "FAILED" {
				t.Fatalf("kafkatest: connector %s: task %d FAILED: %s", name, task.ID, firstLine(task.Trace))
			}
		}
		if taskState != "" && (len(st.Tasks) == 0 || (tasks > 0 && len(st.Tasks) != tasks)) {
			ok = false
		}
		if !ok && st.Connector.State == "FAILED" && state != "FAILED" {
			t.Fatalf("kafkatest: connector %s FAILED: %s", name, firstLine(st.Connector.Trace))
		}
		return ok, fmt.Sprintf("connector %s, tasks %v", st.Connector.State, states)
	})
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// Records returns the lines the sink's tasks have written so far, in file
// order (none before the first record).
func (s *Sink) Records(t testing.TB) []SinkRecord {
	t.Helper()
	var out []SinkRecord
	for i, line := range readLines(t, s.File) {
		var r struct {
			Topic     string  `json:"topic"`
			Partition int32   `json:"partition"`
			Offset    int64   `json:"offset"`
			Value     *string `json:"value"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("kafkatest: %s line %d: %v: %s", s.File, i+1, err, line)
		}
		rec := SinkRecord{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset}
		if r.Value != nil {
			rec.Value = *r.Value
		}
		out = append(out, rec)
	}
	return out
}

// WaitRecords waits until the sink's file holds at least n records and
// returns them all; it fails with what it saw after a bounded wait.
func (s *Sink) WaitRecords(t testing.TB, n int) []SinkRecord {
	t.Helper()
	var recs []SinkRecord
	poll(t, fmt.Sprintf("sink %s to write %d records", s.Name, n), func() (bool, string) {
		recs = s.Records(t)
		return len(recs) >= n, fmt.Sprintf("%d records: %+v", len(recs), recs)
	})
	return recs
}

// WaitCommitted waits until the group's committed offsets ([Env.Committed])
// are exactly want, topic → partition → offset (a sink's group commits
// every offset.flush.interval.ms, 500 ms on the tests' worker).
func (e *Env) WaitCommitted(t testing.TB, group string, want map[string]map[int32]int64) {
	t.Helper()
	poll(t, fmt.Sprintf("group %s to commit %v", group, want), func() (bool, string) {
		got := e.Committed(t, group)
		return reflect.DeepEqual(got, want), fmt.Sprint(got)
	})
}

// AlterCalls returns the calls of the connector's alterOffsets hook (PATCH
// or DELETE of /connectors/NAME/offsets), one JSON line each:
// {"offsets":[{"topic":T,"partition":P,"offset":O or null},...]}, the
// partitions sorted by topic and partition.
func (s *Sink) AlterCalls(t testing.TB) []string {
	t.Helper()
	return readLines(t, s.File+".alter")
}

// readLines returns the file's complete lines (a last line still being
// written is left for the next read); a missing file has none.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	} else {
		return nil
	}
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

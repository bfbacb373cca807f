package commands_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/connectproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// realSink is a running sink connector of the tests' own on the real
// Connect worker, that has consumed and committed every record of its
// two-partition topic: 6 records on partition 0 and 4 on partition 1,
// record i written at base + i minutes.
type realSink struct {
	e     *kafkatest.Env
	c     *kafkatest.Connect
	s     *kafkatest.Sink
	topic string
	base  time.Time
	dir   string
}

func newRealSink(t *testing.T, o kafkatest.SinkOptions) *realSink {
	t.Helper()
	e := kafkatest.Cluster(t)
	c := e.Connect(t) // skips without a worker
	f := &realSink{e: e, c: c, topic: kafkatest.UniqueName(t, "t"), base: time.Now().Add(-time.Hour).UTC().Truncate(time.Second), dir: t.TempDir()}
	e.CreateTopic(t, f.topic, 2)
	for p, n := range []int{6, 4} {
		var recs []kafkatest.Record
		for i := 0; i < n; i++ {
			recs = append(recs, kafkatest.Record{Value: f.topic, Time: f.base.Add(time.Duration(i) * time.Minute)})
		}
		e.Produce(t, f.topic, p, recs...)
	}
	o.Tasks = 2
	f.s = c.CreateSink(t, kafkatest.UniqueName(t, "sink"), []string{f.topic}, o)
	f.s.WaitRecords(t, 10)
	f.waitCommitted(t, map[int32]int64{0: 6, 1: 4})
	return f
}

func (f *realSink) waitCommitted(t *testing.T, want map[int32]int64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := f.e.Committed(t, f.s.Group)[f.topic]
		if len(got) == len(want) && got[0] == want[0] && got[1] == want[1] {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s committed %v, want %v", f.s.Group, got, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// plan is kcg plan --connector NAME --to-datetime base+2m over the
// Connect at url; returns the plan's path.
func (f *realSink) plan(t *testing.T, url string) string {
	t.Helper()
	p := filepath.Join(f.dir, "rewind.yaml")
	kcgOn(t, f.e, "plan", "--connector", f.s.Name, "--all-topics", "--to-datetime", f.base.Add(2*time.Minute).Format("2006-01-02T15:04:05Z"),
		"--out", p, "--connect", url).MustCode(t, 0)
	return p
}

func (f *realSink) apply(t *testing.T, url, plan string) clitest.Result {
	t.Helper()
	return kcgOn(t, f.e, "apply", plan, "--connect", url, "--timeout", "2m")
}

// replayed are the records the sink received after the first n, sorted.
func replayed(recs []kafkatest.SinkRecord, n int) []kafkatest.SinkRecord {
	out := slices.Clone(recs[n:])
	slices.SortFunc(out, func(a, b kafkatest.SinkRecord) int {
		if a.Partition != b.Partition {
			return int(a.Partition - b.Partition)
		}
		return int(a.Offset - b.Offset)
	})
	return out
}

var rollbackPathRE = regexp.MustCompile(`rollback plan written to (\S+)`)

// TestConnectRewindRealWorker is issue 33's "done when": a running sink
// connector on a real Connect worker rewound with plan --connector NAME
// --to-datetime T → show → apply: the connector's alterOffsets hook ran,
// its file received the replayed records from exactly the planned
// offsets, it ends RUNNING; the rollback plan restores the offsets it had
// (the log end: nothing more is replayed) and resumes it again.
func TestConnectRewindRealWorker(t *testing.T) {
	f := newRealSink(t, kafkatest.SinkOptions{})
	p := f.plan(t, f.c.URL)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: " + f.s.Name, "class: dev.kcg.test.connect.FileLinesSinkConnector", "stateAtPlan: RUNNING", "tasks: 2",
		"{topic: " + f.topic + ", partition: 0, offset: 6}", "{topic: " + f.topic + ", partition: 1, offset: 4}", "current: 6, target: 2", "current: 4, target: 2"} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("plan lacks %q:\n%s", want, data)
		}
	}
	show := kcg(t, "show", p).MustCode(t, 0)
	if !strings.Contains(show.Stdout, "connector "+f.s.Name+" (dev.kcg.test.connect.FileLinesSinkConnector) on Kafka Connect "+f.c.URL+": RUNNING with 2 tasks") {
		t.Fatalf("show:\n%s", show.Stdout)
	}

	r := f.apply(t, f.c.URL, p).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "offsets written (connect) and verified (2 partitions); resumed: RUNNING") {
		t.Fatalf("apply stderr: %s", r.Stderr)
	}
	want := []kafkatest.SinkRecord{
		{Topic: f.topic, Partition: 0, Offset: 2, Value: f.topic}, {Topic: f.topic, Partition: 0, Offset: 3, Value: f.topic},
		{Topic: f.topic, Partition: 0, Offset: 4, Value: f.topic}, {Topic: f.topic, Partition: 0, Offset: 5, Value: f.topic},
		{Topic: f.topic, Partition: 1, Offset: 2, Value: f.topic}, {Topic: f.topic, Partition: 1, Offset: 3, Value: f.topic},
	}
	if got := replayed(f.s.WaitRecords(t, 16), 10); !slices.Equal(got, want) {
		t.Fatalf("replayed %+v, want %+v", got, want)
	}
	wantCall := `{"offsets":[{"topic":"` + f.topic + `","partition":0,"offset":2},{"topic":"` + f.topic + `","partition":1,"offset":2}]}`
	if calls := f.s.AlterCalls(t); !slices.Equal(calls, []string{wantCall}) {
		t.Fatalf("alterOffsets calls %q, want [%s]", calls, wantCall)
	}
	if state, tasks := f.c.Status(t, f.s.Name); state != "RUNNING" || !slices.Equal(tasks, []string{"RUNNING", "RUNNING"}) {
		t.Fatalf("connector %s %v after apply", state, tasks)
	}
	f.waitCommitted(t, map[int32]int64{0: 6, 1: 4})

	m := rollbackPathRE.FindStringSubmatch(r.Stderr)
	if m == nil {
		t.Fatalf("no rollback plan in %q", r.Stderr)
	}
	// The rollback restores 6 and 4, which the replay has committed again:
	// already applied, nothing stopped.
	rb := f.apply(t, f.c.URL, m[1]).MustCode(t, 0)
	if !strings.Contains(rb.Stderr, "already applied") {
		t.Fatalf("rollback: %s", rb.Stderr)
	}

	// The rollback of a rewind that was replayed is already applied; to
	// see a rollback move the offsets, rewind the connector stopped: apply
	// leaves it STOPPED at 2 and 2, and its rollback writes 6 and 4 back
	// through the hook, leaving it STOPPED (it was at plan time).
	if status, body := f.c.Request(t, "PUT", "/connectors/"+f.s.Name+"/stop", nil); status >= 300 {
		t.Fatalf("stop: %d %s", status, body)
	}
	f.c.WaitState(t, f.s.Name, "STOPPED", "", 0)
	p2 := filepath.Join(f.dir, "rewind-stopped.yaml")
	kcgOn(t, f.e, "plan", "--connector", f.s.Name, "--all-topics", "--to-datetime", f.base.Add(2*time.Minute).Format("2006-01-02T15:04:05Z"),
		"--out", p2, "--connect", f.c.URL).MustCode(t, 0)
	r = f.apply(t, f.c.URL, p2).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "left STOPPED, as it was STOPPED at plan time") {
		t.Fatalf("apply of a stopped connector: %s", r.Stderr)
	}
	f.waitCommitted(t, map[int32]int64{0: 2, 1: 2})
	m = rollbackPathRE.FindStringSubmatch(r.Stderr)
	if m == nil {
		t.Fatalf("no rollback plan in %q", r.Stderr)
	}
	r = f.apply(t, f.c.URL, m[1]).MustCode(t, 0)
	f.waitCommitted(t, map[int32]int64{0: 6, 1: 4})
	back := `{"offsets":[{"topic":"` + f.topic + `","partition":0,"offset":6},{"topic":"` + f.topic + `","partition":1,"offset":4}]}`
	if calls := f.s.AlterCalls(t); len(calls) != 3 || calls[2] != back {
		t.Fatalf("alterOffsets calls %q, want the rollback's %s last", calls, back)
	}
	if state, _ := f.c.Status(t, f.s.Name); state != "STOPPED" {
		t.Fatalf("connector %s after the rollback, want STOPPED", state)
	}
	if n := len(f.s.Records(t)); n != 16 {
		t.Fatalf("%d records, want 16: nothing replayed while stopped", n)
	}
}

// TestConnectFailuresRealWorker: the failure paths on the real worker,
// through internal/connectproxy (the plan made through the proxy, so its
// Connect URL is the proxy's), each reported exactly: the connector left
// STOPPED with the one command that resumes it, or, when it fails on
// resume, said so after the verified write.
func TestConnectFailuresRealWorker(t *testing.T) {
	t.Run("unreachable-after-stop", func(t *testing.T) {
		f := newRealSink(t, kafkatest.SinkOptions{})
		px := connectproxy.Start(t, f.c.URL)
		p := f.plan(t, px.URL)
		px.DownAfter("PUT", "/connectors/*/stop", connectproxy.Refused)
		r := f.apply(t, px.URL, p).MustCode(t, 1)
		if !strings.Contains(r.Stderr, "kcg: connector "+f.s.Name+" left STOPPED: Kafka Connect "+px.URL+": GET /connectors/"+f.s.Name+"/status: ") ||
			!strings.Contains(r.Stderr, "done: preflight, stopped; no offset was written; resume it with: curl -X PUT "+px.URL+"/connectors/"+f.s.Name+"/resume") {
			t.Fatalf("stderr: %s", r.Stderr)
		}
		f.c.WaitState(t, f.s.Name, "STOPPED", "", 0)
		f.waitCommitted(t, map[int32]int64{0: 6, 1: 4})
		if calls := f.s.AlterCalls(t); len(calls) != 0 {
			t.Fatalf("alterOffsets called: %q", calls)
		}
	})
	t.Run("409-rebalance", func(t *testing.T) {
		f := newRealSink(t, kafkatest.SinkOptions{})
		px := connectproxy.Start(t, f.c.URL)
		p := f.plan(t, px.URL)
		px.Rebalance("PATCH", "/connectors/*/offsets", 1)
		r := f.apply(t, px.URL, p).MustCode(t, 1)
		if !strings.Contains(r.Stderr, "PATCH /connectors/"+f.s.Name+"/offsets: "+connectproxy.RebalanceMessage+" (409: Connect is rebalancing or busy") ||
			!strings.Contains(r.Stderr, "left STOPPED") || !strings.Contains(r.Stderr, "no offset was written; rollback plan ") ||
			!strings.Contains(r.Stderr, "resume it with: curl -X PUT "+px.URL+"/connectors/"+f.s.Name+"/resume") {
			t.Fatalf("stderr: %s", r.Stderr)
		}
		if state, _ := f.c.Status(t, f.s.Name); state != "STOPPED" {
			t.Fatalf("connector %s, want STOPPED", state)
		}
		f.waitCommitted(t, map[int32]int64{0: 6, 1: 4})
	})
	t.Run("fails-on-resume", func(t *testing.T) {
		flag := filepath.Join(t.TempDir(), "fail")
		f := newRealSink(t, kafkatest.SinkOptions{FailIfExists: flag})
		p := f.plan(t, f.c.URL)
		if err := os.WriteFile(flag, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		r := f.apply(t, f.c.URL, p).MustCode(t, 4)
		if !strings.Contains(r.Stderr, "kcg: connector "+f.s.Name+" resumed, and is ") || !strings.Contains(r.Stderr, "FAILED") ||
			!strings.Contains(r.Stderr, "done: preflight, stopped, tasks gone, rollback plan written, offsets written, verified; rollback plan ") {
			t.Fatalf("stderr: %s", r.Stderr)
		}
		f.waitCommitted(t, map[int32]int64{0: 2, 1: 2})
		if calls := f.s.AlterCalls(t); len(calls) != 1 {
			t.Fatalf("alterOffsets calls %q", calls)
		}
	})
}

package clienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/IBM/sarama"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// EnvPython is the Python interpreter that has confluent-kafka and
// kafka-python installed (.ci/clients makes a virtual environment and sets
// it). Unset: the Python clients' tests skip, saying so.
const EnvPython = "KCG_CLIENTS_PYTHON"

// delivered is one record a member received, as it reports it.
type delivered struct {
	Partition int32 `json:"partition"`
	Offset    int64 `json:"offset"`
}

// member is one running client: a process (Python, Java) or a Sarama
// consumer in this test binary. recs gets every record it receives.
type member struct {
	name   string
	recs   chan delivered
	exited func() error  // non-nil once the member died on its own
	stderr func() string // the tail of its stderr so far
	stop   func()
	once   sync.Once
}

// Stop stops the member (idempotent; also run at the test's cleanup): a
// process gets SIGTERM (its client closes), then SIGKILL after 20 s.
func (m *member) Stop() { m.once.Do(m.stop) }

// recordWriter is a member process's stdout: each line that is a JSON
// record report goes to recs, the rest is dropped. exec's one copying
// goroutine writes it.
type recordWriter struct {
	buf  []byte
	recs chan delivered
}

func (w *recordWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		var d delivered
		if line := w.buf[:i]; bytes.HasPrefix(line, []byte(`{"partition"`)) && json.Unmarshal(line, &d) == nil {
			w.recs <- d
		}
		w.buf = w.buf[i+1:]
	}
}

// startProcess starts cmd, whose stdout has one JSON line per record,
// through kafkatest.StartProcess (SIGTERM at Stop, SIGKILL 20 s later).
func startProcess(t *testing.T, name string, cmd *exec.Cmd) *member {
	t.Helper()
	m := &member{name: name, recs: make(chan delivered, 100000)}
	m.stop, m.exited, m.stderr = kafkatest.StartProcessLogged(t, cmd, name, &recordWriter{recs: m.recs})
	t.Cleanup(m.Stop)
	return m
}

// testdata is the path of a file of this package's testdata folder.
func testdata(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", name)
}

// requirePython returns the interpreter of EnvPython, or skips.
func requirePython(t *testing.T) string {
	t.Helper()
	py := os.Getenv(EnvPython)
	if py == "" {
		t.Skipf("%s is not set: it names a Python with confluent-kafka and kafka-python (.ci/clients makes one)", EnvPython)
	}
	return py
}

// pythonMember starts testdata/member.py with lib ("confluent" or
// "kafka-python") and its extra flags.
func pythonMember(lib string, extra ...string) startFunc {
	return func(t *testing.T, s *scenario, id string, probe bool) *member {
		t.Helper()
		args := []string{testdata("member.py"), "--lib", lib, "--bootstrap", s.e.Bootstrap,
			"--group", s.group, "--topic", s.topic, "--client-id", s.group + "-" + id}
		for _, x := range extra {
			args = append(args, strings.ReplaceAll(x, "{id}", s.group+"-"+id))
		}
		if probe {
			args = append(args, "--probe")
		}
		return startProcess(t, lib+" "+id, exec.Command(requirePython(t), args...))
	}
}

// javaMember starts testdata/JavaMember.java (the Java 4.4 consumer) with
// props (besides bootstrap.servers, group.id and client.id; "{id}" is
// replaced by the client id) in mode "subscribe" or "assign:P"; the probe
// of an assign() member assigns every partition.
func javaMember(mode string, props ...string) startFunc {
	return func(t *testing.T, s *scenario, id string, probe bool) *member {
		t.Helper()
		s.e.RequireReal(t, "the Java consumer runs against the real broker")
		m := mode
		if strings.HasPrefix(mode, "assign:") {
			m = "assign:" + map[string]string{"a": "0", "b": "1"}[id]
			if probe {
				m = "assign:all"
			}
		}
		file := s.properties(t, id, append([]string{"group.id=" + s.group}, props...)...)
		args := []string{file, s.topic, m}
		if probe {
			args = append(args, "probe")
		}
		return startProcess(t, "java "+id, kafkatest.JavaCommand(t, javaProgram("JavaMember"), args...))
	}
}

// streamsMember starts testdata/StreamsMember.java, Kafka Streams 4.4 on
// the classic protocol, application.id = the group.
func streamsMember(t *testing.T, s *scenario, id string, probe bool) *member {
	t.Helper()
	s.e.RequireReal(t, "Kafka Streams runs against the real broker")
	commit := "100"
	if probe {
		commit = "600000" // the probe commits nothing (it is not closed)
	}
	file := s.properties(t, id, "application.id="+s.group, "group.protocol=classic",
		"commit.interval.ms="+commit, "num.stream.threads=1", "session.timeout.ms=6000",
		"heartbeat.interval.ms=1000", "state.dir="+t.TempDir())
	args := []string{file, s.topic}
	if probe {
		args = append(args, "probe")
	}
	return startProcess(t, "streams "+id, kafkatest.JavaCommand(t, javaProgram("StreamsMember"), args...))
}

// properties writes a client properties file: bootstrap.servers, client.id
// (the group's name and id) and props.
func (s *scenario) properties(t *testing.T, id string, props ...string) string {
	t.Helper()
	cid := s.group + "-" + id
	lines := []string{"bootstrap.servers=" + s.e.Bootstrap, "client.id=" + cid}
	for _, p := range props {
		lines = append(lines, strings.ReplaceAll(p, "{id}", cid))
	}
	file := filepath.Join(t.TempDir(), id+".properties")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// saramaMember runs a Sarama consumer group member in this test binary
// with the balance strategy (sticky, roundrobin); it marks and commits each
// record synchronously (autocommit off), and in a probe commits nothing.
func saramaMember(strategy sarama.BalanceStrategy) startFunc {
	return func(t *testing.T, s *scenario, id string, probe bool) *member {
		t.Helper()
		cfg := sarama.NewConfig()
		cfg.Version = sarama.V3_6_0_0
		cfg.ClientID = s.group + "-" + id
		cfg.Consumer.Offsets.Initial = sarama.OffsetOldest
		cfg.Consumer.Offsets.AutoCommit.Enable = false
		cfg.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy}
		cfg.Consumer.Group.Session.Timeout = 6 * time.Second
		cfg.Consumer.Group.Heartbeat.Interval = time.Second
		cfg.Consumer.MaxWaitTime = 200 * time.Millisecond
		g, err := sarama.NewConsumerGroup([]string{s.e.Bootstrap}, s.group, cfg)
		if err != nil {
			t.Fatalf("sarama: %v", err)
		}
		m := &member{name: "sarama " + id, recs: make(chan delivered, 100000)}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		var mu sync.Mutex
		var failed error
		go func() {
			defer close(done)
			h := saramaHandler{recs: m.recs, probe: probe}
			for ctx.Err() == nil {
				if err := g.Consume(ctx, []string{s.topic}, h); err != nil && ctx.Err() == nil {
					if errors.Is(err, sarama.ErrClosedConsumerGroup) {
						mu.Lock()
						failed = err
						mu.Unlock()
						return
					}
					time.Sleep(200 * time.Millisecond)
				}
			}
		}()
		m.exited = func() error {
			mu.Lock()
			defer mu.Unlock()
			return failed
		}
		m.stop = func() {
			cancel()
			<-done
			_ = g.Close() // leaves the group
		}
		t.Cleanup(m.Stop)
		return m
	}
}

type saramaHandler struct {
	recs  chan delivered
	probe bool
}

func (saramaHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (saramaHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (h saramaHandler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		h.recs <- delivered{Partition: msg.Partition, Offset: msg.Offset}
		if !h.probe {
			sess.MarkMessage(msg, "")
			sess.Commit()
		}
	}
	return nil
}

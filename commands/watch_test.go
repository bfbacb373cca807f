package commands_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/output"
)

// background is the test's TB for a fixture called from a goroutine of
// the test: t.Fatal (and FailNow) may only be called from the test's own
// goroutine, so a failing fixture there records the error with t.Error and
// ends only its own goroutine. The test waits for that goroutine before it
// returns, so the error is never reported after the test has completed.
type background struct{ testing.TB }

func (b background) Fatal(args ...any) { b.Helper(); b.Error(args...); runtime.Goexit() }
func (b background) Fatalf(format string, args ...any) {
	b.Helper()
	b.Errorf(format, args...)
	runtime.Goexit()
}
func (b background) FailNow() { b.Fail(); runtime.Goexit() }

type lagSample struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Time       string `json:"time"`
	Groups     []struct {
		Group       string           `json:"group"`
		Lag         *int64           `json:"lag"`
		ConsumeRate *float64         `json:"consumeRate"`
		ProduceRate *float64         `json:"produceRate"`
		EtaSeconds  *float64         `json:"etaSeconds"`
		Status      string           `json:"status"`
		Partitions  []map[string]any `json:"partitions"`
	} `json:"groups"`
}

// watch -o json: one LagSample per line per sample; rates null on the
// first and measured after; a group consuming faster than the producer
// has an ETA; a group whose commits do not move and that has no members
// is STOP.
func TestWatchJSONLines(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	moving := kafkatest.UniqueName(t, "billing")
	stopped := kafkatest.UniqueName(t, "stopped")
	e.CreateTopic(t, topic, 1)
	// Enough records that the commits never catch up with the log end
	// while the watch runs (at 20 a round, 100 rounds: 10 s or more).
	e.Produce(t, topic, 0, records(2000)...)
	e.Commit(t, moving, topic, map[int32]int64{0: 0})
	e.Commit(t, stopped, topic, map[int32]int64{0: 10})

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { // produces 1 record and commits 20 more every 100 ms
		t := background{t}
		committed := int64(0)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			e.Produce(t, topic, 0, records(1)...)
			committed = min(committed+20, 2000)
			e.Commit(t, moving, topic, map[int32]int64{0: committed})
		}
	})
	// 2 s samples: on a loaded three-broker cluster one produce can take
	// most of a second, and a 1 s window then saw no record written.
	r := kcgOn(t, e, "watch", moving, stopped, "--interval", "2s", "--count", "3", "-o", "json")
	close(stop)
	wg.Wait()
	r.MustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), r.Stdout)
	}
	for i, line := range lines {
		var s lagSample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		if s.APIVersion != "kcg/v1" || s.Kind != "LagSample" || len(s.Groups) != 2 || s.Time == "" {
			t.Fatalf("line %d: %s", i+1, line)
		}
		var m, st = s.Groups[0], s.Groups[1]
		if m.Group != moving {
			m, st = st, m
		}
		if i == 0 {
			if m.ConsumeRate != nil || m.ProduceRate != nil || m.Status != "UNKNOWN" {
				t.Errorf("first sample: %s", line)
			}
			continue
		}
		if m.ConsumeRate == nil || *m.ConsumeRate <= 0 || m.ProduceRate == nil || *m.ProduceRate <= 0 {
			t.Errorf("sample %d: rates of %s not > 0: %s", i+1, moving, line)
		}
		if m.Lag != nil && *m.Lag > 0 && m.EtaSeconds == nil {
			t.Errorf("sample %d: catching up without an ETA: %s", i+1, line)
		}
		if st.Status != "STOP" || st.ConsumeRate == nil || *st.ConsumeRate != 0 {
			t.Errorf("sample %d: %s status %s, want STOP with consumeRate 0: %s", i+1, stopped, st.Status, line)
		}
	}
}

// A commit moved backwards during the window: REWIND.
func TestWatchRewind(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(50)...)
	e.Commit(t, group, topic, map[int32]int64{0: 40})
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(500 * time.Millisecond)
		e.Commit(background{t}, group, topic, map[int32]int64{0: 5})
	}()
	r := kcgOn(t, e, "watch", group, "--interval", "1s", "--count", "2", "-o", "json")
	<-done // before anything can end the test: the goroutine may still report
	r.MustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	var s lagSample
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &s) != nil || s.Groups[0].Status != "REWIND" {
		t.Errorf("want REWIND in the second sample:\n%s", r.Stdout)
	}
}

// The table: one row per group with the status and the trend.
func TestWatchTable(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(5)...)
	e.Commit(t, group, topic, map[int32]int64{0: 2})
	r := kcgOn(t, e, "watch", group, "--interval", "100ms", "--count", "2", "--time-lag").MustCode(t, 0)
	got := rows(r.Stdout, group)
	if len(got) != 2 || got[1][len(got[1])-2] != "STOP" || got[1][len(got[1])-1] != "▁▁" || !strings.Contains(r.Stdout, "TIME-LAG") {
		t.Errorf("table:\n%s", r.Stdout)
	}
	if strings.Contains(r.Stdout, "\033[") {
		t.Errorf("escape codes without a terminal:\n%q", r.Stdout)
	}
}

// On a terminal (OutTTY, a size, colour allowed or not): the cursor is
// hidden, each sample is a frame drawn from the cursor home that fits the
// width, and the cursor is shown again at the end, after --count as after
// Ctrl-C.
func TestWatchTerminalFrames(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing-with-a-long-name")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(5)...)
	e.Commit(t, group, topic, map[int32]int64{0: 2})
	run := func(ctx context.Context, noColor bool, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := commands.Run(ctx, append([]string{"kcg", "watch", group, "--bootstrap-server", e.Bootstrap}, args...), commands.IO{
			In: strings.NewReader(""), Out: &out, Err: &errb, OutTTY: true, NoColor: noColor,
			OutSize: func() (int, int, bool) { return 40, 12, true },
		})
		return code, out.String(), errb.String()
	}
	code, out, stderr := run(context.Background(), false, "--interval", "100ms", "--count", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(out, output.ScreenStart) || !strings.HasSuffix(out, output.ScreenEnd) {
		t.Errorf("cursor not hidden then shown again: %q", out)
	}
	frames := strings.Split(strings.TrimPrefix(strings.TrimSuffix(out, output.ScreenEnd), output.ScreenStart), "\033[H")
	if len(frames) != 3 || frames[0] != "" {
		t.Fatalf("%d frames, want 2: %q", len(frames)-1, out)
	}
	plain := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)
	for _, f := range frames[1:] {
		for _, l := range strings.Split(plain.ReplaceAllString(f, ""), "\n") {
			if n := utf8.RuneCountInString(l); n > 40 {
				t.Errorf("line of %d runes on a 40-column terminal: %q", n, l)
			}
		}
	}
	if !strings.Contains(frames[2], "\033[31mSTOP\033[0m") {
		t.Errorf("STOP not in red in the second frame: %q", frames[2])
	}
	_, out, _ = run(context.Background(), true, "--interval", "100ms", "--count", "2")
	if strings.Contains(out, "\033[31m") || !strings.Contains(out, "STOP") {
		t.Errorf("NoColor: %q", out)
	}
	// Ctrl-C while waiting for the next sample: exit 130, cursor shown.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(1500*time.Millisecond, cancel)
	code, out, stderr = run(ctx, false, "--interval", "1m")
	if code != 130 || stderr != "kcg: interrupted\n" || !strings.HasSuffix(out, output.ScreenEnd) || strings.Count(out, "\033[H") != 2 {
		t.Errorf("after Ctrl-C: exit %d, stderr %q, stdout %q", code, stderr, out)
	}
}

// A named group that does not exist is reported as describe reports it
// (the same stderr line, exit 1), not watched as an idle group with
// STATUS OK; its JSON entry carries the error.
func TestWatchMissingGroup(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	real := kafkatest.UniqueName(t, "billing")
	missing := kafkatest.UniqueName(t, "nosuch")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, real, topic, map[int32]int64{0: 0})

	r := kcgOn(t, e, "watch", missing, "--interval", "100ms", "--count", "3", "-o", "json")
	if r.Code != 1 || !strings.Contains(r.Stderr, "Error: Consumer group '"+missing+"' does not exist.") {
		t.Fatalf("watch of a missing group: exit %d, stderr %q; want 1 and describe's line", r.Code, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 1 {
		t.Fatalf("watch of a missing group printed %d samples, want the first only:\n%s", len(lines), r.Stdout)
	}
	var doc struct {
		Groups []struct {
			Group  string  `json:"group"`
			Status string  `json:"status"`
			Error  *string `json:"error"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Groups) != 1 || doc.Groups[0].Error == nil || *doc.Groups[0].Error != "the group does not exist" || doc.Groups[0].Status == "OK" {
		t.Fatalf("sample of a missing group: %s", lines[0])
	}

	// With a group that exists beside it: the table still shows, exit 1.
	r = kcgOn(t, e, "watch", real, missing, "--count", "2", "--interval", "100ms")
	if r.Code != 1 || !strings.Contains(r.Stdout, real) || strings.Count(r.Stderr, "does not exist") != 1 {
		t.Fatalf("watch of a real and a missing group: exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	if regexp.MustCompile(missing + `\s.*\bOK\b`).MatchString(r.Stdout) {
		t.Fatalf("a missing group shows STATUS OK:\n%s", r.Stdout)
	}
}

// Issue 30 item 5: kcg watch of a share group was refused as "not a
// consumer group … nothing was written". It watches a share group as
// describe describes it: its start offsets as the committed offsets, the
// broker's lag (describe's), in every format (json, table, none), beside
// a consumer group. On the real broker the group is Empty and lagging
// (the member left, records came after), so the numbers hold still and
// must equal describe's exactly, and --exit-on-breach sees its lag.
func TestWatchShareGroup(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	m := f.e.ShareGroupMember(t, share, f.topic)
	if f.e.Real { // kfake keeps no start offsets (TestDescribeShareGroup)
		waitShareOffsets(t, f.e, share, f.topic, 2)
		m.Stop()
		waitShareState(t, f.e, share, "Empty")
		f.e.Produce(t, f.topic, 0, records(4)...)
		f.e.Produce(t, f.topic, 1, records(7)...)
	}

	type offsets struct {
		Partition int32  `json:"partition"`
		Start     *int64 `json:"startOffset"`
		Committed *int64 `json:"committedOffset"`
		Lag       *int64 `json:"lag"`
	}
	var desc struct {
		Groups []struct {
			Group    string    `json:"group"`
			State    *string   `json:"state"`
			TotalLag *int64    `json:"totalLag"`
			Offsets  []offsets `json:"offsets"`
		} `json:"groups"`
	}
	r := kcgOn(t, f.e, "describe", share, "-o", "json").MustCode(t, 0)
	if err := json.Unmarshal([]byte(r.Stdout), &desc); err != nil || len(desc.Groups) != 1 {
		t.Fatalf("describe: %v\n%s", err, r.Stdout)
	}
	d := desc.Groups[0]

	var s struct {
		Groups []struct {
			Group      string    `json:"group"`
			State      *string   `json:"state"`
			Lag        *int64    `json:"lag"`
			Status     string    `json:"status"`
			Error      *string   `json:"error"`
			Partitions []offsets `json:"partitions"`
		} `json:"groups"`
	}
	r = kcgOn(t, f.e, "watch", share, f.group, "--interval", "200ms", "--count", "2", "-o", "json").MustCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &s) != nil || len(s.Groups) != 2 {
		t.Fatalf("watch -o json: want 2 samples of 2 groups:\n%s", r.Stdout)
	}
	w := s.Groups[0]
	if w.Group != share {
		w = s.Groups[1]
	}
	if w.Group != share || w.Error != nil || w.State == nil || len(w.Partitions) != len(d.Offsets) {
		t.Fatalf("the share group's sample %+v, describe's %+v:\n%s", w, d, lines[1])
	}
	for i, p := range w.Partitions {
		if f.e.Real && p.Committed == nil {
			t.Errorf("partition %d: no committedOffset (the start offset)", p.Partition)
		}
		if f.e.Real && (!eqInt(p.Committed, d.Offsets[i].Start) || !eqInt(p.Lag, d.Offsets[i].Lag)) {
			t.Errorf("partition %d: watch committedOffset %s lag %s, describe startOffset %s lag %s",
				p.Partition, intOrNull(p.Committed), intOrNull(p.Lag), intOrNull(d.Offsets[i].Start), intOrNull(d.Offsets[i].Lag))
		}
	}
	if f.e.Real && (!eqInt(w.Lag, d.TotalLag) || *w.State != *d.State) {
		t.Errorf("watch lag %s state %s, describe totalLag %s state %s", intOrNull(w.Lag), *w.State, intOrNull(d.TotalLag), *d.State)
	}

	// The table: the group's row has describe's total lag.
	r = kcgOn(t, f.e, "watch", share, "--interval", "200ms", "--count", "2").MustCode(t, 0)
	rs := rows(r.Stdout, share)
	if len(rs) != 2 || len(rs[1]) < 4 {
		t.Fatalf("watch table: rows %q\n%s", rs, r.Stdout)
	}
	if f.e.Real && rs[1][3] != intOrNull(d.TotalLag) && !(d.TotalLag == nil && rs[1][3] == "-") {
		t.Errorf("watch table: LAG %s, describe totalLag %s", rs[1][3], intOrNull(d.TotalLag))
	}
	if r := kcgOn(t, f.e, "watch", share, "--count", "1", "-o", "none").MustCode(t, 0); r.Stdout != "" || r.Stderr != "" {
		t.Errorf("watch -o none: stdout %q stderr %q, want nothing", r.Stdout, r.Stderr)
	}
	if f.e.Real && d.TotalLag != nil && *d.TotalLag > 0 {
		r = kcgOn(t, f.e, "watch", share, "--count", "1", "-o", "none", "--exit-on-breach", "--max-lag", "0").MustCode(t, 5)
		if !strings.Contains(r.Stderr, share) || !strings.Contains(r.Stderr, strconv.FormatInt(*d.TotalLag, 10)) {
			t.Errorf("--exit-on-breach: stderr %q, want the group and its lag %d", r.Stderr, *d.TotalLag)
		}
	}
}

func eqInt(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func intOrNull(v *int64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatInt(*v, 10)
}

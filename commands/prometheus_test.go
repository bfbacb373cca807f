package commands_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// parseMetrics parses the text exposition format with Prometheus's own
// parser and checks every family has HELP and is a gauge.
func parseMetrics(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the Prometheus parser refuses the output: %v\n%s", err, text)
	}
	for name, f := range fams {
		if f.GetHelp() == "" || f.GetType() != dto.MetricType_GAUGE {
			t.Errorf("%s: help %q type %v, want a HELP line and TYPE gauge", name, f.GetHelp(), f.GetType())
		}
	}
	return fams
}

// sample is the value of the one sample of family name whose labels
// include want; ok false when there is none.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			match = match && got[k] == v
		}
		if match {
			return m.GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// retentionFixture is a topic with retention.ms=1h whose partition 0 the
// group has committed at a record written 50 minutes ago (CreateTime),
// 4 records behind, and partition 1 at its end. The group id needs
// escaping in a label value.
func retentionFixture(t *testing.T, e *kafkatest.Env) (topic, group string) {
	topic = kafkatest.UniqueName(t, "ledger")
	group = kafkatest.UniqueName(t, "audit") + `-"q"\b`
	e.CreateTopic(t, topic, 2, "retention.ms=3600000")
	fifty := time.Now().Add(-50 * time.Minute).Truncate(time.Millisecond)
	e.Produce(t, topic, 0, recordsAt(5, fifty)...)
	e.Produce(t, topic, 1, records(3)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1, 1: 3})
	return topic, group
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// The metrics parse with Prometheus's parser and say what the JSON says:
// kafka_exporter's families with its labels, kafka-lag-exporter's time
// lag, and the retention headroom of a 50-minute-old record under a 1 h
// retention: about ten minutes.
func TestDescribePrometheusAgreesWithJSON(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic, group := retentionFixture(t, e)

	r := kcgOn(t, e, "describe", group, "--time-lag", "-o", "json").MustCode(t, 0)
	d := parseDescribe(t, r.Stdout)
	p0, p1 := offsetOf(t, d, group, topic, 0), offsetOf(t, d, group, topic, 1)
	h0, ok := p0["retentionHeadroomMs"].(float64)
	if !ok || !near(h0, 600_000, 10_000) {
		t.Errorf("retentionHeadroomMs of the 50-minute-old record under retention.ms=1h = %v, want 600000 ± 10000", p0["retentionHeadroomMs"])
	}
	if p1["retentionHeadroomMs"] != 3_600_000.0 {
		t.Errorf("caught up: retentionHeadroomMs %v, want the whole retention 3600000", p1["retentionHeadroomMs"])
	}
	if v, ok := p0["retentionHeadroomBytes"]; !ok || v != nil {
		t.Errorf("retentionHeadroomBytes %v (present %v), want null", v, ok)
	}

	r = kcgOn(t, e, "describe", group, "--time-lag", "-o", "prometheus").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `consumergroup="`+strings.ReplaceAll(strings.ReplaceAll(group, `\`, `\\`), `"`, `\"`)+`"`) {
		t.Errorf("group id not escaped in the label value:\n%s", r.Stdout)
	}
	fams := parseMetrics(t, r.Stdout)
	for p, o := range map[string]map[string]any{"0": p0, "1": p1} {
		l := map[string]string{"consumergroup": group, "topic": topic, "partition": p}
		for name, field := range map[string]string{"kafka_consumergroup_current_offset": "committedOffset", "kafka_consumergroup_lag": "lag"} {
			if v, ok := sample(fams, name, l); !ok || v != o[field].(float64) {
				t.Errorf("%s p%s = %v (%v), JSON %s %v", name, p, v, ok, field, o[field])
			}
		}
		tl := map[string]string{"topic": topic, "partition": p}
		for name, field := range map[string]string{"kafka_topic_partition_current_offset": "logEndOffset", "kafka_topic_partition_oldest_offset": "logStartOffset"} {
			if v, ok := sample(fams, name, tl); !ok || v != o[field].(float64) {
				t.Errorf("%s p%s = %v (%v), JSON %s %v", name, p, v, ok, field, o[field])
			}
		}
		lagSec, ok := sample(fams, "kafka_consumergroup_group_lag_seconds", map[string]string{"group": group, "topic": topic, "partition": p})
		if !ok || !near(lagSec, o["timeLagMs"].(float64)/1000, 5) {
			t.Errorf("lag seconds p%s = %v (%v), JSON timeLagMs %v", p, lagSec, ok, o["timeLagMs"])
		}
		head, ok := sample(fams, "kcg_consumergroup_retention_headroom_seconds", l)
		if !ok || !near(head, o["retentionHeadroomMs"].(float64)/1000, 5) {
			t.Errorf("headroom seconds p%s = %v (%v), JSON %v", p, head, ok, o["retentionHeadroomMs"])
		}
	}
	for name, want := range map[string]float64{"kafka_consumergroup_lag_sum": float64(*d.Groups[0].TotalLag), "kafka_consumergroup_current_offset_sum": 4} {
		if v, ok := sample(fams, name, map[string]string{"consumergroup": group, "topic": topic}); !ok || v != want {
			t.Errorf("%s = %v (%v), want %v", name, v, ok, want)
		}
	}
	if v, ok := sample(fams, "kafka_consumergroup_members", map[string]string{"consumergroup": group}); !ok || v != 0 {
		t.Errorf("members %v %v", v, ok)
	}
	if v, ok := sample(fams, "kcg_consumergroup_state", map[string]string{"consumergroup": group, "state": *d.Groups[0].State}); !ok || v != 1 {
		t.Errorf("state %v %v", v, ok)
	}
	if v, _ := sample(fams, "kcg_up", nil); v != 1 {
		t.Errorf("kcg_up %v", v)
	}
	f := fams["kafka_consumergroup_group_lag_seconds"]
	if f == nil || len(f.GetMetric()) == 0 {
		t.Fatal("no kafka_consumergroup_group_lag_seconds")
	}
	var names []string
	for _, l := range f.GetMetric()[0].GetLabel() {
		names = append(names, l.GetName())
	}
	if got := strings.Join(names, ","); got != "cluster_name,group,topic,partition,member_host,consumer_id,client_id" {
		t.Errorf("kafka-lag-exporter labels %s", got)
	}

	// Without --time-lag: no time-lag or headroom families.
	r = kcgOn(t, e, "describe", group, "-o", "prometheus").MustCode(t, 0)
	fams = parseMetrics(t, r.Stdout)
	if fams["kafka_consumergroup_group_lag_seconds"] != nil || fams["kcg_consumergroup_retention_headroom_seconds"] != nil {
		t.Errorf("time-lag families without --time-lag:\n%s", r.Stdout)
	}
	// Only describe speaks prometheus.
	kcgOn(t, e, "list", "-o", "prometheus").MustCode(t, 64)
	kcgOn(t, e, "watch", group, "-o", "prometheus").MustCode(t, 64)
}

// A partition without a committed offset (assigned only) has no
// current_offset or lag sample, and a member count of one.
func TestDescribePrometheusNoCommitNoSample(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "orders")
	group := kafkatest.UniqueName(t, "fresh")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(2)...)
	m := e.ClassicMember(t, group, topic)
	defer m.Stop()
	r := kcgOn(t, e, "describe", group, "-o", "prometheus").MustCode(t, 0)
	fams := parseMetrics(t, r.Stdout)
	l := map[string]string{"consumergroup": group, "topic": topic, "partition": "0"}
	if _, ok := sample(fams, "kafka_consumergroup_current_offset", l); ok {
		t.Errorf("current_offset sample for a partition without a commit:\n%s", r.Stdout)
	}
	if _, ok := sample(fams, "kafka_consumergroup_lag", l); ok {
		t.Errorf("lag sample for a partition without a commit:\n%s", r.Stdout)
	}
	if v, ok := sample(fams, "kafka_consumergroup_members", map[string]string{"consumergroup": group}); !ok || v != 1 {
		t.Errorf("members = %v (%v), want 1", v, ok)
	}
	if v, ok := sample(fams, "kafka_topic_partition_current_offset", map[string]string{"topic": topic, "partition": "0"}); !ok || v != 2 {
		t.Errorf("topic current offset = %v (%v), want 2", v, ok)
	}
}

// The thresholds: exit 5 with one line per breaching group naming the
// limit and the value, 0 within them; the time limits turn --time-lag on.
func TestDescribeThresholds(t *testing.T) {
	e := kafkatest.Cluster(t)
	_, group := retentionFixture(t, e)
	for _, c := range []struct {
		args []string
		code int
		line string
	}{
		{[]string{"--max-lag", "3"}, 5, "lag 4 > --max-lag 3"},
		{[]string{"--max-lag", "4"}, 0, ""},
		{[]string{"--max-time-lag", "40m"}, 5, "> --max-time-lag 40m0s"},
		{[]string{"--max-time-lag", "1h"}, 0, ""},
		{[]string{"--min-retention-headroom", "15m"}, 5, "< --min-retention-headroom 15m0s"},
		{[]string{"--min-retention-headroom", "5m"}, 0, ""},
		{[]string{"--max-lag", "0", "--min-retention-headroom", "15m", "-o", "json"}, 5, "lag 4 > --max-lag 0; retention headroom"},
		{[]string{"--max-lag", "-1"}, 64, "--max-lag must be 0 or more"},
	} {
		r := kcgOn(t, e, append([]string{"describe", group}, c.args...)...)
		if r.Code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr %q", c.args, r.Code, c.code, r.Stderr)
			continue
		}
		if c.line == "" {
			if r.Stderr != "" && strings.Contains(r.Stderr, "breaches") {
				t.Errorf("%v: breach line at exit 0: %q", c.args, r.Stderr)
			}
			continue
		}
		if !strings.Contains(r.Stderr, c.line) || (c.code == 5 && (strings.Count(r.Stderr, " breaches: ") != 1 || !strings.Contains(r.Stderr, "kcg: group "+group+" breaches: "))) {
			t.Errorf("%v: stderr %q, want one line with %q", c.args, r.Stderr, c.line)
		}
	}
}

// metricsWatch runs `kcg watch GROUP ARGS... -o none --metrics-listen`
// at 300 ms until the test ends or stop is called, and returns the first
// /metrics text of a good sample (kcg_up 1) with that response's
// Content-Type. stop cancels the watch and returns its result.
func metricsWatch(t *testing.T, e *kafkatest.Env, group string, args ...string) (addr, text, contentType string, stop func() clitest.Result) {
	t.Helper()
	addr = freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan clitest.Result, 1)
	argv := append(append([]string{"watch", group}, args...), "--interval", "300ms", "-o", "none", "--metrics-listen", addr, "--bootstrap-server", e.Bootstrap)
	go func() { done <- clitest.RunContext(ctx, argv...) }()
	var err error
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var resp *http.Response
		if resp, err = http.Get("http://" + addr + "/metrics"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if text = string(b); strings.Contains(text, "\nkcg_up 1\n") {
				contentType = resp.Header.Get("Content-Type")
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no good sample at /metrics in 30s: %v\n%s", err, text)
		}
	}
	return addr, text, contentType, func() clitest.Result {
		cancel()
		return <-done
	}
}

// watch --metrics-listen serves describe's metrics from its latest sample,
// also with -o none; Ctrl-C ends it with 130 and the port is free again.
func TestWatchMetricsListen(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic, group := retentionFixture(t, e)
	addr, text, ct, stop := metricsWatch(t, e, group, "--time-lag")
	if !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q", ct)
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("/healthz: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	fams := parseMetrics(t, text)
	d := parseDescribe(t, kcgOn(t, e, "describe", group, "--time-lag", "-o", "json").MustCode(t, 0).Stdout)
	for _, p := range []int{0, 1} {
		o := offsetOf(t, d, group, topic, p)
		l := map[string]string{"consumergroup": group, "topic": topic, "partition": strconv.Itoa(p)}
		if v, ok := sample(fams, "kafka_consumergroup_lag", l); !ok || v != o["lag"].(float64) {
			t.Errorf("/metrics lag p%d = %v (%v), JSON %v", p, v, ok, o["lag"])
		}
		if v, ok := sample(fams, "kcg_consumergroup_retention_headroom_seconds", l); !ok || !near(v, o["retentionHeadroomMs"].(float64)/1000, 5) {
			t.Errorf("/metrics headroom p%d = %v (%v), JSON %v", p, v, ok, o["retentionHeadroomMs"])
		}
	}
	r := stop()
	if r.Code != 130 || r.Stdout != "" {
		t.Errorf("after Ctrl-C: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Errorf("port still bound after watch ended: %v", err)
	} else {
		ln.Close()
	}
}

// watch's /metrics also carries client_golang's go_goroutines gauge, read
// at scrape time (a soak watches it for leaks); describe -o prometheus,
// a snapshot of the cluster and not of a process, does not.
func TestWatchMetricsGoGoroutines(t *testing.T) {
	e := kafkatest.Cluster(t)
	_, group := retentionFixture(t, e)
	_, text, _, stop := metricsWatch(t, e, group)
	fams := parseMetrics(t, text)
	if v, ok := sample(fams, "go_goroutines", nil); !ok || v <= 0 {
		t.Errorf("go_goroutines = %v (%v), want a count above 0:\n%s", v, ok, text)
	}
	if h := fams["go_goroutines"].GetHelp(); h != "Number of goroutines that currently exist." {
		t.Errorf("go_goroutines HELP %q, want client_golang's", h)
	}
	stop()
	if out := kcgOn(t, e, "describe", group, "-o", "prometheus").MustCode(t, 0).Stdout; strings.Contains(out, "go_goroutines") {
		t.Errorf("describe -o prometheus has go_goroutines:\n%s", out)
	}
}

// An address in use is one line and exit 1, a malformed one 64; a limit
// without --exit-on-breach (and the reverse) is a usage error; with it,
// the first breaching sample ends the watch with 5.
func TestWatchMetricsListenErrorsAndBreach(t *testing.T) {
	e := kafkatest.Cluster(t)
	_, group := retentionFixture(t, e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := kcgOn(t, e, "watch", group, "--count", "1", "--metrics-listen", ln.Addr().String())
	if r.Code != 1 || r.Stderr != fmt.Sprintf("kcg: --metrics-listen %s: the address is already in use\n", ln.Addr()) {
		t.Errorf("address in use: exit %d, stderr %q", r.Code, r.Stderr)
	}
	for _, bad := range []string{"9308", "localhost:http-alt", "[::1:9308", "host:70000"} {
		if r := kcgOn(t, e, "watch", group, "--count", "1", "--metrics-listen", bad); r.Code != 64 || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("--metrics-listen %q: exit %d, stderr %q; want 64 and one line", bad, r.Code, r.Stderr)
		}
	}
	kcgOn(t, e, "watch", group, "--count", "1", "--max-lag", "1").MustCode(t, 64)
	kcgOn(t, e, "watch", group, "--count", "1", "--exit-on-breach").MustCode(t, 64)
	r = kcgOn(t, e, "watch", group, "--interval", "100ms", "--count", "5", "-o", "json", "--exit-on-breach", "--max-lag", "3")
	if r.Code != 5 || strings.Count(r.Stdout, "\n") != 1 || !strings.Contains(r.Stderr, "lag 4 > --max-lag 3") {
		t.Errorf("--exit-on-breach: exit %d, %d samples, stderr %q", r.Code, strings.Count(r.Stdout, "\n"), r.Stderr)
	}
	r = kcgOn(t, e, "watch", group, "--interval", "100ms", "--count", "2", "-o", "none", "--exit-on-breach", "--min-retention-headroom", "5m")
	if r.Code != 0 || r.Stdout != "" {
		t.Errorf("within the limit: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Nothing is deleted by age on a topic with retention.ms=-1 or a
// compact-only cleanup.policy: the headroom is null there (and in the
// table "-"), and --min-retention-headroom does not breach on it.
func TestRetentionHeadroomNullWhenNothingDeletes(t *testing.T) {
	e := kafkatest.Cluster(t)
	group := kafkatest.UniqueName(t, "keeper")
	old := time.Now().Add(-2 * time.Hour)
	var topics []string
	for i, cfg := range []string{"retention.ms=-1", "cleanup.policy=compact"} {
		topic := kafkatest.UniqueName(t, fmt.Sprintf("kept%d", i))
		e.CreateTopic(t, topic, 1, cfg)
		rs := recordsAt(3, old)
		for j := range rs {
			rs[j].Key = fmt.Sprint("k", j) // a compacted topic needs keys
		}
		e.Produce(t, topic, 0, rs...)
		e.Commit(t, group, topic, map[int32]int64{0: 1})
		topics = append(topics, topic)
	}
	d := parseDescribe(t, kcgOn(t, e, "describe", group, "--time-lag", "-o", "json").MustCode(t, 0).Stdout)
	for _, topic := range topics {
		if o := offsetOf(t, d, group, topic, 0); o["retentionHeadroomMs"] != nil || o["timeLagMs"] == nil {
			t.Errorf("%s: retentionHeadroomMs %v (timeLagMs %v), want null", topic, o["retentionHeadroomMs"], o["timeLagMs"])
		}
	}
	kcgOn(t, e, "describe", group, "--min-retention-headroom", "1h").MustCode(t, 0)
}

// A commit already below the log start has a headroom of 0: watch calls
// it AT-RISK from the first sample (before any rate is known), and its
// JSON line carries the headroom.
func TestWatchAtRiskBelowLogStart(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "ledger")
	group := kafkatest.UniqueName(t, "late")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(6)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	e.DeleteRecords(t, topic, map[int32]int64{0: 3})
	r := kcgOn(t, e, "watch", group, "--time-lag", "--count", "1", "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"status":"AT-RISK"`) || !strings.Contains(r.Stdout, `"retentionHeadroomMs":0`) {
		t.Errorf("below the log start, want AT-RISK and a headroom of 0:\n%s", r.Stdout)
	}
	r = kcgOn(t, e, "watch", group, "--time-lag", "--count", "1").MustCode(t, 0)
	if got := rows(r.Stdout, group); len(got) != 1 || !slices.Contains(got[0], "AT-RISK") {
		t.Errorf("table:\n%s", r.Stdout)
	}
}

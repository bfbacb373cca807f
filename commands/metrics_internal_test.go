package commands

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/output"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Before the first sample /metrics says kcg_up 0 and /healthz 503; a
// good sample is served as rendered; a failed one keeps its values with
// kcg_up 0 and /healthz 503 naming the error.
func TestMetricsServerKeepsLastGoodSample(t *testing.T) {
	m, err := listenMetrics("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	base := "http://" + m.Addr()
	if code, body := get(t, base+"/metrics"); code != 200 || !strings.Contains(body, "\nkcg_up 0\n") || strings.Contains(body, "kafka_consumergroup") {
		t.Errorf("before a sample: %d %q", code, body)
	}
	if code, body := get(t, base+"/healthz"); code != 503 || body != "no sample yet\n" {
		t.Errorf("healthz before a sample: %d %q", code, body)
	}
	doc := output.NewGroupDescriptionList([]output.GroupDescription{{Group: "billing", State: output.Ptr("Empty"),
		Offsets: []output.PartitionOffset{{Topic: "t", Partition: 0, CommittedOffset: output.Ptr(int64(3)), LogEndOffset: output.Ptr(int64(7)), Lag: output.Ptr(int64(4))}}}})
	m.sampled(output.Metrics{Doc: doc, Took: 20 * time.Millisecond, At: time.Unix(1700000000, 0)})
	_, good := get(t, base+"/metrics")
	if !strings.Contains(good, `kafka_consumergroup_lag{consumergroup="billing",topic="t",partition="0"} 4`) || !strings.Contains(good, "\nkcg_up 1\n") {
		t.Errorf("after a good sample:\n%s", good)
	}
	if code, body := get(t, base+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("healthz after a good sample: %d %q", code, body)
	}
	m.failed(errors.New("timed out waiting for Kafka"))
	_, bad := get(t, base+"/metrics")
	if strings.Replace(withoutGoroutines(bad), "\nkcg_up 0\n", "\nkcg_up 1\n", 1) != withoutGoroutines(good) {
		t.Errorf("after a failed sample, want the good one with kcg_up 0:\n%s", bad)
	}
	if code, body := get(t, base+"/healthz"); code != 503 || !strings.Contains(body, "timed out") {
		t.Errorf("healthz after a failed sample: %d %q", code, body)
	}
}

// withoutGoroutines drops the go_goroutines sample, read at each scrape
// and so free to differ between two of them.
func withoutGoroutines(text string) string {
	var keep []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(l, "go_goroutines ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// With several clusters each keeps its own last good sample and kcg_up,
// every series carries its cluster_name, and /healthz stays 200 while any
// cluster answers (naming the ones down), 503 when none does.
func TestMetricsServerFleet(t *testing.T) {
	m, err := listenFleetMetrics("127.0.0.1:0", []string{"eu", "us"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	base := "http://" + m.Addr()
	doc := output.NewGroupDescriptionList([]output.GroupDescription{{Group: "billing", State: output.Ptr("Empty"),
		Offsets: []output.PartitionOffset{{Topic: "t", Partition: 0, CommittedOffset: output.Ptr(int64(3)), LogEndOffset: output.Ptr(int64(7)), Lag: output.Ptr(int64(4))}}}})
	m.sampledAll(map[int]output.Metrics{0: {Doc: doc, At: time.Unix(1700000000, 0)}, 1: {Doc: doc, At: time.Unix(1700000000, 0)}}, nil)
	m.sampledAll(map[int]output.Metrics{0: {Doc: doc, At: time.Unix(1700000005, 0)}}, map[int]error{1: errors.New("connection refused")})
	_, body := get(t, base+"/metrics")
	for _, want := range []string{
		`kafka_consumergroup_lag{cluster_name="eu",consumergroup="billing",topic="t",partition="0"} 4`,
		`kafka_consumergroup_lag{cluster_name="us",consumergroup="billing",topic="t",partition="0"} 4`, // us: its last good sample
		`kcg_up{cluster_name="eu"} 1`, `kcg_up{cluster_name="us"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in:\n%s", want, body)
		}
	}
	if strings.Count(body, "# TYPE kafka_consumergroup_lag gauge") != 1 {
		t.Errorf("a family written twice:\n%s", body)
	}
	for _, line := range strings.Split(strings.TrimSpace(withoutGoroutines(body)), "\n") {
		if !strings.HasPrefix(line, "#") && !strings.Contains(line, `{cluster_name="`) {
			t.Errorf("series without cluster_name first: %s", line)
		}
	}
	if code, body := get(t, base+"/healthz"); code != 200 || body != "ok\ndown: profile us: connection refused\n" {
		t.Errorf("healthz with one cluster down: %d %q", code, body)
	}
	m.sampledAll(nil, map[int]error{0: errors.New("timed out"), 1: errors.New("connection refused")})
	if code, body := get(t, base+"/healthz"); code != 503 || !strings.Contains(body, "profile eu: timed out") {
		t.Errorf("healthz with every cluster down: %d %q", code, body)
	}
}

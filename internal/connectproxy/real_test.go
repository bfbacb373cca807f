package connectproxy_test

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/kcg-dev/kcg/internal/connectproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// TestOnRealWorker: the proxy in front of the real Connect worker
// (.ci/kafka/kafka.sh connect start) forwards Connect's own answers, a 409
// in Connect's words when told, and goes down right after a connector's
// stop, as a failure test needs: the stop reached the worker, the next
// request is refused.
func TestOnRealWorker(t *testing.T) {
	e := kafkatest.Cluster(t)
	c := e.Connect(t)
	topic := kafkatest.UniqueName(t, "proxy")
	e.CreateTopic(t, topic, 1)
	name := kafkatest.UniqueName(t, "sink")
	c.CreateSink(t, name, []string{topic}, kafkatest.SinkOptions{})
	p := connectproxy.Start(t, c.URL)
	client := &http.Client{}
	status := "/connectors/" + url.PathEscape(name) + "/status"
	send := func(method, path string) (int, string, error) {
		req, err := http.NewRequest(method, p.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), nil
	}

	if code, body, err := send(http.MethodGet, status); err != nil || code != 200 || !strings.Contains(body, `"state":"RUNNING"`) {
		t.Fatalf("GET status through the proxy: %d %q %v", code, body, err)
	}
	p.Rebalance(http.MethodPut, "/connectors/*/stop", 1)
	if code, body, err := send(http.MethodPut, "/connectors/"+url.PathEscape(name)+"/stop"); err != nil || code != 409 || !strings.Contains(body, connectproxy.RebalanceMessage) {
		t.Fatalf("PUT stop with a rebalance injected: %d %q %v", code, body, err)
	}
	if state, _ := c.Status(t, name); state != "RUNNING" {
		t.Fatalf("after the injected 409 the connector is %s, want RUNNING (the stop never reached the worker)", state)
	}
	p.DownAfter(http.MethodPut, "/connectors/*/stop", connectproxy.Refused)
	if code, body, err := send(http.MethodPut, "/connectors/"+url.PathEscape(name)+"/stop"); err != nil || code != http.StatusAccepted && code != http.StatusNoContent {
		t.Fatalf("PUT stop: %d %q %v", code, body, err)
	}
	c.WaitState(t, name, "STOPPED", "", 0)
	if _, _, err := send(http.MethodPut, "/connectors/"+url.PathEscape(name)+"/resume"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("PUT resume after the proxy went down: %v, want connection refused", err)
	}
}

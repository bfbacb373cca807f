package connectproxy

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
)

// worker is a stand-in for Connect's REST API: it answers every request
// with 200 and "METHOD PATH", and counts them.
func worker(t *testing.T) (*httptest.Server, *int) {
	t.Helper()
	n := 0
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		_, _ = io.WriteString(w, r.Method+" "+r.URL.Path)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

func do(t *testing.T, c *http.Client, method, url string) (int, string, error) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b), nil
}

func mustDo(t *testing.T, c *http.Client, method, url string) (int, string) {
	t.Helper()
	status, body, err := do(t, c, method, url)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return status, body
}

func TestForwards(t *testing.T) {
	w, n := worker(t)
	p := Start(t, w.URL)
	c := &http.Client{}
	if status, body := mustDo(t, c, http.MethodGet, p.URL+"/connectors/a/status?expand=info"); status != 200 || body != "GET /connectors/a/status" {
		t.Fatalf("got %d %q", status, body)
	}
	if *n != 1 {
		t.Fatalf("worker saw %d requests, want 1", *n)
	}
	want := []Request{{Method: "GET", Path: "/connectors/a/status", Status: 200}}
	if got := p.Requests(); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("requests %v, want %v", got, want)
	}
}

// TestRebalance: 409 with Connect's body, exactly N times, only for the
// method and path pattern given; then the worker answers again.
func TestRebalance(t *testing.T) {
	w, n := worker(t)
	p := Start(t, w.URL)
	c := &http.Client{}
	p.Rebalance(http.MethodPatch, "/connectors/*/offsets", 2)
	if status, _ := mustDo(t, c, http.MethodGet, p.URL+"/connectors/a/offsets"); status != 200 {
		t.Fatalf("GET: %d, want 200 (the rule is for PATCH)", status)
	}
	if status, _ := mustDo(t, c, http.MethodPatch, p.URL+"/connectors/a/status"); status != 200 {
		t.Fatalf("PATCH other path: %d, want 200", status)
	}
	for i := 0; i < 2; i++ {
		status, body := mustDo(t, c, http.MethodPatch, p.URL+"/connectors/a/offsets")
		var e struct {
			Code    int    `json:"error_code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			t.Fatalf("body %q: %v", body, err)
		}
		if status != http.StatusConflict || e.Code != 409 || e.Message != RebalanceMessage {
			t.Fatalf("try %d: %d %q", i+1, status, body)
		}
	}
	if status, body := mustDo(t, c, http.MethodPatch, p.URL+"/connectors/a/offsets"); status != 200 || body != "PATCH /connectors/a/offsets" {
		t.Fatalf("third PATCH: %d %q, want the worker's answer", status, body)
	}
	if *n != 3 {
		t.Fatalf("worker saw %d requests, want 3 (the two 409s never reach it)", *n)
	}
	injected := 0
	for _, r := range p.Requests() {
		if r.Injected {
			injected++
		}
	}
	if injected != 2 {
		t.Fatalf("requests %v: %d injected, want 2", p.Requests(), injected)
	}
}

// TestFailEveryTime: times < 0 lasts until Clear.
func TestFailEveryTime(t *testing.T) {
	w, _ := worker(t)
	p := Start(t, w.URL)
	c := &http.Client{}
	p.Fail("", "/connectors/*", http.StatusInternalServerError, "boom", -1)
	for i := 0; i < 3; i++ {
		if status, body := mustDo(t, c, http.MethodDelete, p.URL+"/connectors/x"); status != 500 || !strings.Contains(body, `"boom"`) {
			t.Fatalf("try %d: %d %q", i+1, status, body)
		}
	}
	p.Clear()
	if status, _ := mustDo(t, c, http.MethodDelete, p.URL+"/connectors/x"); status != 200 {
		t.Fatalf("after Clear: %d", status)
	}
}

// TestDownAfterRefused: the matching request is answered, every later one
// fails to connect (refused), on a client that keeps connections alive;
// Up brings it back on the same URL.
func TestDownAfterRefused(t *testing.T) {
	w, n := worker(t)
	p := Start(t, w.URL)
	c := &http.Client{}
	p.DownAfter(http.MethodPut, "/connectors/*/stop", Refused)
	mustDo(t, c, http.MethodGet, p.URL+"/connectors/a/status") // a kept-alive connection
	if status, body := mustDo(t, c, http.MethodPut, p.URL+"/connectors/a/stop"); status != 200 || body != "PUT /connectors/a/stop" {
		t.Fatalf("stop: %d %q, want the worker's answer", status, body)
	}
	// PUT: net/http does not retry it on a new connection, so a kept-alive
	// one left open would show as a reset here, not a refusal.
	for i := 0; i < 2; i++ {
		_, _, err := do(t, c, http.MethodPut, p.URL+"/connectors/a/resume")
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("after the stop, try %d: %v, want connection refused", i+1, err)
		}
	}
	if *n != 2 {
		t.Fatalf("worker saw %d requests, want 2", *n)
	}
	if err := p.Up(); err != nil {
		t.Fatal(err)
	}
	if status, _ := mustDo(t, c, http.MethodGet, p.URL+"/connectors/a/status"); status != 200 {
		t.Fatalf("after Up: %d", status)
	}
}

// TestDownAtReset: the matching request and every later one have their
// connection reset, without an answer.
func TestDownAtReset(t *testing.T) {
	w, n := worker(t)
	p := Start(t, w.URL)
	c := &http.Client{}
	p.DownAt(http.MethodPatch, "/connectors/*/offsets", Reset)
	mustDo(t, c, http.MethodGet, p.URL+"/connectors/a/offsets")
	for _, m := range []string{http.MethodPatch, http.MethodGet} {
		_, _, err := do(t, c, m, p.URL+"/connectors/a/offsets")
		if !errors.Is(err, syscall.ECONNRESET) && (err == nil || !strings.Contains(err.Error(), "EOF")) {
			t.Fatalf("%s: %v, want the connection reset", m, err)
		}
	}
	if *n != 1 {
		t.Fatalf("worker saw %d requests, want 1", *n)
	}
	// (net/http may retry the GET once on a new connection: dropped too.)
	got := p.Requests()
	if len(got) < 3 || got[0].Status != 200 {
		t.Fatalf("requests %v, want the first answered, the rest dropped", got)
	}
	for _, r := range got[1:] {
		if r.Status != 0 {
			t.Fatalf("requests %v, want the first answered, the rest dropped", got)
		}
	}
	if err := p.Up(); err != nil {
		t.Fatal(err)
	}
	if status, _ := mustDo(t, c, http.MethodGet, p.URL+"/"); status != 200 {
		t.Fatalf("after Up: %d", status)
	}
}

func TestBadTarget(t *testing.T) {
	if _, err := New("127.0.0.1:8083"); err == nil || !strings.Contains(err.Error(), "bad target URL") {
		t.Fatalf("got %v", err)
	}
}

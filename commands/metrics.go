package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/output"
)

// metricsAddr checks a --metrics-listen value: HOST:PORT or :PORT, a
// port 0-65535. A malformed one is a usage error.
func metricsAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return app.Usagef("--metrics-listen %q: want HOST:PORT or :PORT (%v)", addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return app.Usagef("--metrics-listen %q: the port must be a number from 0 to 65535", addr)
	}
	return nil
}

// metricsServer serves the latest sample of kcg watch at /metrics and its
// health at /healthz. A scrape reads what the last sample rendered and
// never a Kafka request; only go_goroutines is read at scrape time.
type metricsServer struct {
	srv *http.Server
	ln  net.Listener

	mu   sync.Mutex
	last output.Metrics // the last good sample (Up true), or nothing yet
	text []byte         // last rendered as text
	ok   bool           // the last sample succeeded
	why  string         // why it did not
}

// listenMetrics binds addr; an address in use (or any other bind
// failure) is one line and exit 1.
func listenMetrics(addr string) (*metricsServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, app.WithCode(app.ExitError, fmt.Errorf("--metrics-listen %s: the address is already in use", addr))
		}
		return nil, app.WithCode(app.ExitError, fmt.Errorf("--metrics-listen %s: %v", addr, err))
	}
	m := &metricsServer{ln: ln, why: "no sample yet"}
	m.render()
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", m.serveMetrics)
	mux.HandleFunc("/healthz", m.serveHealth)
	m.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

// Addr is the address bound (the port chosen for :0).
func (m *metricsServer) Addr() string { return m.ln.Addr().String() }

// sampled records a good sample.
func (m *metricsServer) sampled(s output.Metrics) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.Up = true
	m.last, m.ok, m.why = s, true, ""
	m.render()
}

// failed records a failed sample: the last good values stay, kcg_up 0.
func (m *metricsServer) failed(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.last.Up, m.ok, m.why = false, false, err.Error()
	m.render()
}

// render rewrites text from last; m.mu is held (or m not yet shared).
func (m *metricsServer) render() {
	var buf bytes.Buffer
	buf.Grow(len(m.text) + len(m.text)/8) // the last text's size: tens of megabytes at 100,000 partitions
	if err := m.last.WritePrometheus(&buf); err != nil {
		buf.Reset()
		fmt.Fprintf(&buf, "# kcg: %v\n", err)
	}
	m.text = buf.Bytes()
}

func (m *metricsServer) serveMetrics(w http.ResponseWriter, _ *http.Request) {
	m.mu.Lock()
	text := m.text
	m.mu.Unlock()
	w.Header().Set("Content-Type", output.PrometheusContentType)
	_, _ = w.Write(text)
	_, _ = w.Write(goGoroutines(runtime.NumGoroutine()))
}

// goGoroutines is client_golang's go_goroutines gauge (its HELP text and
// TYPE), which kafka_exporter and every client_golang exporter serve:
// dashboards and alerts on a leaking exporter know it by this name. It is
// read when scraped, not sampled, so a soak sees the process as it is.
func goGoroutines(n int) []byte {
	return fmt.Appendf(nil, "# HELP go_goroutines Number of goroutines that currently exist.\n# TYPE go_goroutines gauge\ngo_goroutines %d\n", n)
}

// serveHealth is 200 "ok" after a good sample, 503 with the reason after
// a failed one or before the first.
func (m *metricsServer) serveHealth(w http.ResponseWriter, _ *http.Request) {
	m.mu.Lock()
	ok, why := m.ok, m.why
	m.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, why)
		return
	}
	fmt.Fprintln(w, "ok")
}

// close stops serving: open scrapes get a second to finish.
func (m *metricsServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := m.srv.Shutdown(ctx); err != nil {
		_ = m.srv.Close()
	}
}

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

	mu sync.Mutex
	// One entry per cluster (one, unnamed, without --profile a,b): the
	// last good sample (Up true) or nothing yet, whether the last sample
	// succeeded and why not.
	last []output.Metrics
	ok   []bool
	why  []string
	text []byte // last rendered as text
}

// listenMetrics binds addr; an address in use (or any other bind
// failure) is one line and exit 1.
func listenMetrics(addr string) (*metricsServer, error) {
	return listenFleetMetrics(addr, []string{""})
}

// listenFleetMetrics is listenMetrics for the clusters of profiles (""
// for one cluster): each cluster's series carry its cluster_name.
func listenFleetMetrics(addr string, profiles []string) (*metricsServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, app.WithCode(app.ExitError, fmt.Errorf("--metrics-listen %s: the address is already in use", addr))
		}
		return nil, app.WithCode(app.ExitError, fmt.Errorf("--metrics-listen %s: %v", addr, err))
	}
	m := &metricsServer{ln: ln, last: make([]output.Metrics, len(profiles)), ok: make([]bool, len(profiles)), why: make([]string, len(profiles))}
	for i, p := range profiles {
		m.last[i].ClusterName, m.why[i] = p, "no sample yet"
	}
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
func (m *metricsServer) sampled(s output.Metrics) { m.sampledAll(map[int]output.Metrics{0: s}, nil) }

// failed records a failed sample: the last good values stay, kcg_up 0.
func (m *metricsServer) failed(err error) { m.sampledAll(nil, map[int]error{0: err}) }

// sampledAll records one sample of every cluster: good ones by index, and
// the errors of those that failed (their last good values stay, with
// kcg_up 0), and renders the text once.
func (m *metricsServer) sampledAll(good map[int]output.Metrics, bad map[int]error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, s := range good {
		s.Up, s.ClusterName = true, m.last[i].ClusterName
		m.last[i], m.ok[i], m.why[i] = s, true, ""
	}
	for i, err := range bad {
		m.last[i].Up, m.ok[i], m.why[i] = false, false, err.Error()
	}
	m.render()
}

// render rewrites text from last; m.mu is held (or m not yet shared).
func (m *metricsServer) render() {
	var buf bytes.Buffer
	buf.Grow(len(m.text) + len(m.text)/8) // the last text's size: tens of megabytes at 100,000 partitions
	if err := output.FleetMetrics(m.last).WritePrometheus(&buf); err != nil {
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
// a failed one or before the first. With several clusters it is 200 while
// any cluster's last sample succeeded (one cluster down must not get the
// exporter restarted), with a line naming each one down.
func (m *metricsServer) serveHealth(w http.ResponseWriter, _ *http.Request) {
	m.mu.Lock()
	var up int
	var down []string
	for i, ok := range m.ok {
		if ok {
			up++
			continue
		}
		why := m.why[i]
		if name := m.last[i].ClusterName; name != "" {
			why = "profile " + name + ": " + why
		}
		down = append(down, why)
	}
	m.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if up == 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		for _, why := range down {
			fmt.Fprintln(w, why)
		}
		return
	}
	fmt.Fprintln(w, "ok")
	for _, why := range down {
		fmt.Fprintln(w, "down: "+why)
	}
}

// close stops serving: open scrapes get a second to finish.
func (m *metricsServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := m.srv.Shutdown(ctx); err != nil {
		_ = m.srv.Close()
	}
}

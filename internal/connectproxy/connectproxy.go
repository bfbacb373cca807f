// Package connectproxy is a test kit: a fault-injecting reverse proxy in
// front of a Kafka Connect worker's REST API. A test gives the code under
// test the proxy's URL instead of the worker's, then tells the proxy to
// answer chosen requests with an error status (409 "rebalance in
// progress", as Connect words it) a number of times, or to go down
// (connections refused, or reset without an answer) from a given request
// on. Every other request goes to the worker unchanged.
//
// Requests are chosen by method ("" for any) and a path pattern in the
// syntax of [path.Match] ("/connectors/*/offsets"; "*" stops at "/"), on
// the request's path without its query.
package connectproxy

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"path"
	"sync"
	"testing"
)

// RebalanceMessage is Connect's message for a request refused because of a
// worker rebalance (HerderRequestHandler's answer to a
// RebalanceNeededException), with status 409.
const RebalanceMessage = "Cannot complete request because of a conflicting operation (e.g. worker rebalance)"

// Down is how the proxy is down.
type Down int

const (
	// Refused: the proxy stops listening, so new connections are refused;
	// the request that took it down is reset.
	Refused Down = iota + 1
	// Reset: connections are accepted, and each request's connection is
	// closed with a TCP reset and no answer.
	Reset
)

func (d Down) String() string {
	switch d {
	case Refused:
		return "refused"
	case Reset:
		return "reset"
	}
	return fmt.Sprintf("Down(%d)", int(d))
}

// Request is one request the proxy saw, and what it did with it: the
// worker's status, the injected status, or 0 when it answered nothing
// (down).
type Request struct {
	Method, Path string
	Status       int
	Injected     bool
}

func (r Request) String() string {
	how := "forwarded"
	switch {
	case r.Status == 0:
		how = "dropped"
	case r.Injected:
		how = "injected"
	}
	return fmt.Sprintf("%s %s %d (%s)", r.Method, r.Path, r.Status, how)
}

// rule is one injected fault.
type rule struct {
	method, pattern string
	status          int
	message         string
	times           int // answers left; < 0: every time
	down            Down
	after           bool // down: forward the matching request, then go down
}

func (r *rule) matches(req *http.Request) bool {
	if r.method != "" && r.method != req.Method {
		return false
	}
	ok, err := path.Match(r.pattern, req.URL.Path)
	return err == nil && ok
}

// Proxy is a running fault proxy.
type Proxy struct {
	// URL is the proxy's base URL (http://127.0.0.1:PORT), for the code
	// under test.
	URL string

	target *url.URL
	rp     *httputil.ReverseProxy
	addr   string

	mu       sync.Mutex
	rules    []*rule
	down     Down // 0: up
	ln       net.Listener
	srv      *http.Server
	servers  []*http.Server // every one served, for Close
	requests []Request
	closed   bool
}

// New starts a proxy to the worker at target (http://host:port) on a free
// loopback port.
func New(target string) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("connectproxy: bad target URL %q", target)
	}
	p := &Proxy{target: u, rp: httputil.NewSingleHostReverseProxy(u)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p.addr = ln.Addr().String()
	p.URL = "http://" + p.addr
	p.serve(ln)
	return p, nil
}

// Start is New for a test: it fails the test on error and closes the proxy
// at cleanup.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	p, err := New(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// serve serves on ln; p.mu must not be held.
func (p *Proxy) serve(ln net.Listener) {
	srv := &http.Server{Handler: http.HandlerFunc(p.handle)}
	p.mu.Lock()
	p.ln, p.srv = ln, srv
	p.servers = append(p.servers, srv)
	p.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// Fail answers the next times requests matching method and pattern with
// status and Connect's error body {"error_code":status,"message":message}
// (times < 0: every one, until Clear). Rules are tried in the order given.
func (p *Proxy) Fail(method, pattern string, status int, message string, times int) {
	p.add(&rule{method: method, pattern: pattern, status: status, message: message, times: times})
}

// Rebalance answers the next times matching requests with 409 and
// [RebalanceMessage], as a worker in a rebalance does.
func (p *Proxy) Rebalance(method, pattern string, times int) {
	p.Fail(method, pattern, http.StatusConflict, RebalanceMessage, times)
}

// DownAt takes the proxy down at the first request matching method and
// pattern: that request gets no answer, nor does any later one, until Up.
func (p *Proxy) DownAt(method, pattern string, how Down) {
	p.add(&rule{method: method, pattern: pattern, down: how, times: 1})
}

// DownAfter takes the proxy down right after the first request matching
// method and pattern: that one is forwarded and answered, every later one
// gets none, until Up.
func (p *Proxy) DownAfter(method, pattern string, how Down) {
	p.add(&rule{method: method, pattern: pattern, down: how, times: 1, after: true})
}

// GoDown takes the proxy down now.
func (p *Proxy) GoDown(how Down) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.goDownLocked(how)
}

func (p *Proxy) add(r *rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = append(p.rules, r)
}

// Clear drops every rule not used up yet (it does not bring the proxy up).
func (p *Proxy) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = nil
}

// Up brings the proxy back on the same address.
func (p *Proxy) Up() error {
	p.mu.Lock()
	was := p.down
	p.down = 0
	closed := p.closed
	p.mu.Unlock()
	if was != Refused || closed {
		return nil
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("connectproxy: listening on %s again: %w", p.addr, err)
	}
	p.serve(ln)
	return nil
}

// Requests returns the requests seen so far, in order.
func (p *Proxy) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Request(nil), p.requests...)
}

// Close stops the proxy.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	servers := p.servers
	p.mu.Unlock()
	for _, srv := range servers {
		_ = srv.Close()
	}
}

// goDownLocked: with Refused, stop listening and close the idle
// connections, so the next request's dial is refused (a request on a
// connection open now is reset by the handler; the one being answered
// gets its answer, then its connection is closed).
func (p *Proxy) goDownLocked(how Down) {
	p.down = how
	if how == Refused && p.ln != nil {
		_ = p.ln.Close()
		p.srv.SetKeepAlivesEnabled(false)
	}
}

// decide picks what to do with req: inject a rule's answer, drop it
// (down), or forward it (then maybe go down after).
func (p *Proxy) decide(req *http.Request) (inject *rule, drop bool, downAfter Down) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down != 0 {
		return nil, true, 0
	}
	for i, r := range p.rules {
		if !r.matches(req) {
			continue
		}
		if r.times > 0 {
			r.times--
			if r.times == 0 {
				p.rules = append(p.rules[:i:i], p.rules[i+1:]...)
			}
		}
		switch {
		case r.down != 0 && r.after:
			return nil, false, r.down
		case r.down != 0:
			p.goDownLocked(r.down)
			return nil, true, 0
		}
		return r, false, 0
	}
	return nil, false, 0
}

func (p *Proxy) record(r Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, r)
}

func (p *Proxy) handle(w http.ResponseWriter, req *http.Request) {
	inject, drop, downAfter := p.decide(req)
	seen := Request{Method: req.Method, Path: req.URL.Path}
	switch {
	case drop:
		p.record(seen)
		resetConn(w)
	case inject != nil:
		seen.Status, seen.Injected = inject.status, true
		p.record(seen)
		body, _ := json.Marshal(map[string]any{"error_code": inject.status, "message": inject.message})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(inject.status)
		_, _ = w.Write(body)
	default:
		sw := &statusWriter{ResponseWriter: w}
		p.rp.ServeHTTP(sw, req)
		seen.Status = sw.status
		p.record(seen)
		if downAfter != 0 {
			p.GoDown(downAfter)
		}
	}
}

// resetConn closes the request's connection with a TCP reset (SO_LINGER
// 0), without an answer.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok { // not HTTP/1: no connection of its own to reset
		http.Error(w, "connectproxy: down", http.StatusBadGateway)
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// statusWriter remembers the status the worker answered.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

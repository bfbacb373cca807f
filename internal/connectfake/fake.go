// Package connectfake is a Kafka Connect REST API of the tests' own, on
// httptest: the endpoints kcg's connect package calls, answered from a
// few connectors held in memory, with hooks for what a real worker does
// to Kafka (stop the task consumers, alter the group's offsets) and
// faults on demand (an error status for a request, a worker gone after
// one). It lets `go test ./...` without a Connect worker test the reset
// procedure's every step and failure; the real worker is cinfra's kit.
package connectfake

import (
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kcg-dev/kcg/connect"
)

// Connector is one connector of the fake.
type Connector struct {
	Name   string
	Type   string // sink or source
	Config map[string]string
	State  string
	Worker string
	Tasks  int
}

// Fake is the fake Connect cluster.
type Fake struct {
	*httptest.Server
	mu sync.Mutex
	// Version is GET /'s version (4.4.0 by default).
	Version string
	conns   map[string]*Connector
	faults  []fault
	calls   []string
	down    bool
	// user and pass, when set, are the basic auth every request must carry.
	user, pass string
	// OnStop is called when a connector is stopped (its tasks leave the
	// group); OnResume when resumed, and its error fails the connector
	// (as a task that throws on start); OnAlter on PATCH offsets, its
	// error Connect's 500 (an offset of -1 removes the partition's);
	// Offsets answers GET offsets.
	OnStop   func(name string)
	OnResume func(name string) error
	OnAlter  func(name string, offs []connect.Offset) error
	Offsets  func(name string) []connect.Offset
}

type fault struct {
	method, suffix string
	status         int
	msg            string
	times          int // 0: always
	thenDown       bool
}

// New starts a fake; it closes with the test.
func New(t testing.TB) *Fake {
	f := &Fake{Version: "4.4.0", conns: map[string]*Connector{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// NewTLS is New serving https (httptest's certificate: CAFile writes it
// as PEM).
func NewTLS(t testing.TB) *Fake {
	f := &Fake{Version: "4.4.0", conns: map[string]*Connector{}}
	f.Server = httptest.NewTLSServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// CAFile writes the https server's certificate to a PEM file in dir.
func (f *Fake) CAFile(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "connect-ca.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: f.Certificate().Raw})
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// RequireBasicAuth makes every request need this user and password
// (401 with Connect's error body otherwise).
func (f *Fake) RequireBasicAuth(user, pass string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user, f.pass = user, pass
}

// Add adds (or replaces) a connector.
func (f *Fake) Add(c Connector) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.State == "" {
		c.State = connect.StateRunning
	}
	if c.Worker == "" {
		c.Worker = "worker-1:8083"
	}
	if c.Config == nil {
		c.Config = map[string]string{}
	}
	c.Config["name"] = c.Name
	f.conns[c.Name] = &c
}

// Remove deletes a connector.
func (f *Fake) Remove(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.conns, name)
}

// Get returns a copy of a connector.
func (f *Fake) Get(name string) (Connector, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.conns[name]
	if !ok {
		return Connector{}, false
	}
	return *c, true
}

// Fail answers requests whose method is method and whose path ends with
// suffix with status and Connect's error body, times times (0: always).
func (f *Fake) Fail(method, suffix string, status int, msg string, times int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, fault{method: method, suffix: suffix, status: status, msg: msg, times: times})
}

// DownAfter takes the whole worker down (every later connection is cut)
// once a request of method ending with suffix has been answered.
func (f *Fake) DownAfter(method, suffix string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, fault{method: method, suffix: suffix, thenDown: true})
}

// Calls are the requests served, "METHOD PATH", in order.
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error_code": status, "message": msg})
}

// matchFault returns the fault for the request (status 0: none) and
// whether the worker goes down after answering.
func (f *Fake) matchFault(r *http.Request) (fault, bool) {
	for i := range f.faults {
		ft := &f.faults[i]
		if ft.method != r.Method || !strings.HasSuffix(r.URL.Path, ft.suffix) {
			continue
		}
		if ft.thenDown {
			return fault{}, true
		}
		if ft.times >= 0 {
			if ft.times == 1 {
				ft.times = -1
			} else if ft.times > 1 {
				ft.times--
			}
			return *ft, false
		}
	}
	return fault{}, false
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if f.down {
		f.mu.Unlock()
		cut(w)
		return
	}
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	if f.user != "" {
		if u, p, ok := r.BasicAuth(); !ok || u != f.user || p != f.pass {
			f.mu.Unlock()
			writeErr(w, http.StatusUnauthorized, "User cannot access the resource.")
			return
		}
	}
	ft, goDown := f.matchFault(r)
	f.mu.Unlock()
	if ft.status != 0 {
		writeErr(w, ft.status, ft.msg)
		return
	}
	f.route(w, r)
	if goDown {
		f.mu.Lock()
		f.down = true
		f.mu.Unlock()
	}
}

// cut closes the connection without an answer: a worker that is gone.
func cut(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			_ = c.Close()
			return
		}
	}
	w.WriteHeader(http.StatusServiceUnavailable)
}

package faultproxy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
)

// Mode is what a proxy does to the traffic a Fault applies to.
type Mode int

// The modes. Pass is the zero value: a healthy network.
const (
	// Pass forwards requests and responses unchanged (but for the
	// address rewriting every mode does).
	Pass Mode = iota
	// Refuse closes the listener and every open connection: new
	// connections are refused, as by a host whose broker is down. Keys
	// do not apply: a refused address refuses everything.
	Refuse
	// BlackHole accepts connections and reads requests but never
	// answers: a matching request is dropped (it never reaches the
	// broker), and so is everything after it on that connection, as on
	// a network path that stopped delivering packets.
	BlackHole
	// Delay holds every matching response for Fault.Delay before it is
	// written.
	Delay
	// Cut writes the first half of a matching response, then closes the
	// connection (both sides). The request did reach the broker.
	Cut
	// Slow writes matching responses at Fault.Rate bytes per second.
	Slow
	// Latency is a network path of Fault.Delay each way, for the
	// connections opened while it is set: every request reaches the
	// broker Fault.Delay after the client wrote it, every response the
	// client Fault.Delay after the broker wrote it, pipelined frames
	// overlapping as on a wire (Delay, by contrast, holds the responses
	// of a connection one after the other). The TCP handshake costs its
	// round trip too: no request reaches the broker before three
	// one-way delays after the connection was accepted (the handshake's
	// SYN and SYN-ACK, then the request). Keys do not apply, and the
	// other modes do not apply to those connections.
	Latency
)

func (m Mode) String() string {
	switch m {
	case Pass:
		return "pass"
	case Refuse:
		return "refuse"
	case BlackHole:
		return "black-hole"
	case Delay:
		return "delay"
	case Cut:
		return "cut"
	case Slow:
		return "slow"
	case Latency:
		return "latency"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Fault is a proxy's behaviour, switchable at any time with Proxy.Set.
type Fault struct {
	Mode Mode
	// Delay is how long Delay holds each response, and Latency's
	// one-way delay.
	Delay time.Duration
	// Rate is Slow's bytes per second (at least 1).
	Rate int
	// Keys, when not empty, limits the fault to requests (and their
	// responses) of these API keys; the rest pass. Refuse ignores it.
	Keys []int16
}

func (f Fault) String() string {
	s := f.Mode.String()
	switch f.Mode {
	case Delay, Latency:
		s += " " + f.Delay.String()
	case Slow:
		s += fmt.Sprintf(" %d B/s", f.Rate)
	}
	if len(f.Keys) > 0 && f.Mode != Refuse && f.Mode != Latency {
		s += fmt.Sprintf(" keys %v", f.Keys)
	}
	return s
}

func (f Fault) applies(key int16) bool {
	return len(f.Keys) == 0 || slices.Contains(f.Keys, key)
}

// maxFrame bounds a frame the proxy reads (Kafka's own default
// socket.request.max.bytes is 100 MiB).
const maxFrame = 256 << 20

// dialTimeout bounds the proxy's connect to its broker.
const dialTimeout = 5 * time.Second

// Proxy forwards one address (a broker) to its own listen address.
type Proxy struct {
	upstream string
	addr     string
	rewrite  func(host string, port int32) (string, int32, bool)

	mu       sync.Mutex
	fault    Fault
	ln       net.Listener
	conns    map[*pipe]struct{}
	closed   bool
	done     chan struct{}
	requests map[int16]int
	errs     []error
	wg       sync.WaitGroup
}

// Upstream is the broker address the proxy forwards to.
func (p *Proxy) Upstream() string { return p.upstream }

// Addr is the proxy's listen address (127.0.0.1:port); it stays the same
// across Refuse and back.
func (p *Proxy) Addr() string { return p.addr }

// newProxy listens on a free loopback port and forwards to upstream.
func newProxy(upstream string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{
		upstream: upstream,
		addr:     ln.Addr().String(),
		ln:       ln,
		conns:    map[*pipe]struct{}{},
		done:     make(chan struct{}),
		requests: map[int16]int{},
	}
	p.serve(ln)
	return p, nil
}

func (p *Proxy) serve(ln net.Listener) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.handle(c)
			}()
		}
	}()
}

// Set switches the proxy's fault. Refuse closes the listener and every
// connection; leaving Refuse listens again on the same address.
func (p *Proxy) Set(f Fault) error {
	if f.Mode == Slow && f.Rate < 1 {
		return fmt.Errorf("faultproxy: slow needs a rate of at least 1 B/s, got %d", f.Rate)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errors.New("faultproxy: proxy closed")
	}
	p.fault = f
	if f.Mode == Refuse {
		if p.ln != nil {
			_ = p.ln.Close()
			p.ln = nil
		}
		for c := range p.conns {
			c.close()
		}
		return nil
	}
	if p.ln == nil {
		// Go sets SO_REUSEADDR on Unix listeners, so the port is free
		// again at once, whatever its closed connections' TIME_WAIT.
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			return fmt.Errorf("faultproxy: listening again on %s: %w", p.addr, err)
		}
		p.ln = ln
		p.serve(ln)
	}
	return nil
}

// Fault returns the current fault.
func (p *Proxy) Fault() Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fault
}

// Requests returns how many requests of API key the proxy has read from
// clients (dropped ones included).
func (p *Proxy) Requests(key int16) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests[key]
}

// Errors returns what went wrong inside the proxy itself (a response it
// could not decode to rewrite, a malformed frame): a test fails on these,
// as they would make the fault matrix measure the proxy, not kcg.
func (p *Proxy) Errors() []error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.errs)
}

func (p *Proxy) fail(err error) {
	p.mu.Lock()
	p.errs = append(p.errs, err)
	p.mu.Unlock()
}

// Close stops the proxy and waits for its goroutines.
func (p *Proxy) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.done)
		if p.ln != nil {
			_ = p.ln.Close()
			p.ln = nil
		}
		for c := range p.conns {
			c.close()
		}
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// pipe is one client connection and its connection to the broker.
type pipe struct {
	client, broker net.Conn
	once           sync.Once

	mu      sync.Mutex
	pending map[int32]reqInfo // correlation id -> request
	holed   bool              // black-holed: nothing more passes

	// latency is the one-way delay of a connection accepted in
	// Latency mode (zero otherwise), from accepted on.
	latency  time.Duration
	accepted time.Time
}

type reqInfo struct{ key, version int16 }

func (c *pipe) close() {
	c.once.Do(func() {
		_ = c.client.Close()
		if c.broker != nil {
			_ = c.broker.Close()
		}
	})
}

func (p *Proxy) handle(client net.Conn) {
	p.mu.Lock()
	if p.closed || p.fault.Mode == Refuse {
		p.mu.Unlock()
		_ = client.Close()
		return
	}
	p.mu.Unlock()
	broker, err := net.DialTimeout("tcp", p.upstream, dialTimeout)
	if err != nil {
		// The broker itself is down: the client sees its connection
		// closed, as a TCP proxy in front of a dead host would do.
		_ = client.Close()
		return
	}
	c := &pipe{client: client, broker: broker, pending: map[int32]reqInfo{}, accepted: time.Now()}
	if f := p.Fault(); f.Mode == Latency {
		c.latency = f.Delay
	}
	p.mu.Lock()
	if p.closed || p.fault.Mode == Refuse {
		p.mu.Unlock()
		c.close()
		return
	}
	p.conns[c] = struct{}{}
	p.mu.Unlock()
	defer func() {
		c.close()
		p.mu.Lock()
		delete(p.conns, c)
		p.mu.Unlock()
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer c.close()
		if c.latency > 0 {
			p.forwardLate(c, c.broker, c.client, time.Time{})
			return
		}
		p.responses(c)
	}()
	if c.latency > 0 {
		p.latencyLoops(c)
	} else {
		p.requestsLoop(c)
	}
	c.close()
	wg.Wait()
}

// readFrame reads one size-prefixed frame and returns it whole (size
// included).
func readFrame(r io.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(size[:])
	if n > maxFrame {
		return nil, fmt.Errorf("frame of %d bytes", n)
	}
	frame := make([]byte, 4+int(n))
	copy(frame, size[:])
	if _, err := io.ReadFull(r, frame[4:]); err != nil {
		return nil, err
	}
	return frame, nil
}

// requestsLoop forwards the client's requests to the broker, recording
// each one's key and version for its response.
func (p *Proxy) requestsLoop(c *pipe) {
	for {
		frame, err := readFrame(c.client)
		if err != nil {
			return
		}
		if len(frame) < 12 {
			p.fail(fmt.Errorf("request frame of %d bytes", len(frame)))
			return
		}
		info := reqInfo{
			key:     int16(binary.BigEndian.Uint16(frame[4:])),
			version: int16(binary.BigEndian.Uint16(frame[6:])),
		}
		corr := int32(binary.BigEndian.Uint32(frame[8:]))
		p.mu.Lock()
		p.requests[info.key]++
		f := p.fault
		p.mu.Unlock()

		c.mu.Lock()
		if f.Mode == BlackHole && f.applies(info.key) {
			c.holed = true
		}
		holed := c.holed
		if !holed {
			c.pending[corr] = info
		}
		c.mu.Unlock()
		if holed {
			continue // read and dropped: the client waits for ever
		}
		if _, err := c.broker.Write(frame); err != nil {
			return
		}
	}
}

// responses forwards the broker's responses to the client, rewriting
// broker addresses and applying the fault.
func (p *Proxy) responses(c *pipe) {
	for {
		frame, err := readFrame(c.broker)
		if err != nil {
			return
		}
		if len(frame) < 8 {
			p.fail(fmt.Errorf("response frame of %d bytes", len(frame)))
			return
		}
		var info reqInfo
		if frame, info, err = p.rewritten(c, frame); err != nil {
			return
		}
		f := p.Fault()
		if !f.applies(info.key) {
			f = Fault{}
		}
		c.mu.Lock()
		if f.Mode == BlackHole {
			c.holed = true
		}
		holed := c.holed
		c.mu.Unlock()
		if holed {
			continue
		}
		switch f.Mode {
		case Delay:
			select {
			case <-time.After(f.Delay):
			case <-p.done:
				return
			}
			if _, err := c.client.Write(frame); err != nil {
				return
			}
		case Cut:
			_, _ = c.client.Write(frame[:len(frame)/2])
			c.close()
			return
		case Slow:
			if err := p.writeSlowly(c.client, frame, f.Rate); err != nil {
				return
			}
		default:
			if _, err := c.client.Write(frame); err != nil {
				return
			}
		}
	}
}

// latencyLoops forwards the client's requests to the broker on a
// Latency connection; handle's other goroutine forwards the responses.
func (p *Proxy) latencyLoops(c *pipe) {
	p.forwardLate(c, c.client, c.broker, c.accepted.Add(3*c.latency))
}

// timedFrame is a frame and when it is due at the other end.
type timedFrame struct {
	frame []byte
	due   time.Time
}

// forwardLate copies the frames read from src to dst, each c.latency
// after it was read and none before notBefore, counting the requests
// when src is the client and rewriting broker addresses when it is the
// broker. Reading goes on while frames wait, so that frames written
// together arrive together.
func (p *Proxy) forwardLate(c *pipe, src, dst net.Conn, notBefore time.Time) {
	line := make(chan timedFrame, 1024)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for tf := range line {
			select {
			case <-time.After(time.Until(tf.due)):
			case <-p.done:
				c.close()
				return
			}
			if _, err := dst.Write(tf.frame); err != nil {
				c.close()
				return
			}
		}
	}()
	defer func() {
		close(line)
		<-done
	}()
	for {
		frame, err := readFrame(src)
		if err != nil || len(frame) < 8 {
			return
		}
		if src == c.client && !p.noteRequest(c, frame) {
			return
		}
		if src == c.broker {
			if frame, _, err = p.rewritten(c, frame); err != nil {
				return
			}
		}
		due := time.Now().Add(c.latency)
		if due.Before(notBefore) {
			due = notBefore
		}
		line <- timedFrame{frame: frame, due: due}
	}
}

// noteRequest counts a request frame of a Latency connection and records
// its key and version for the response's rewriting.
func (p *Proxy) noteRequest(c *pipe, frame []byte) bool {
	if len(frame) < 12 {
		p.fail(fmt.Errorf("request frame of %d bytes", len(frame)))
		return false
	}
	info := reqInfo{
		key:     int16(binary.BigEndian.Uint16(frame[4:])),
		version: int16(binary.BigEndian.Uint16(frame[6:])),
	}
	p.mu.Lock()
	p.requests[info.key]++
	p.mu.Unlock()
	c.mu.Lock()
	c.pending[int32(binary.BigEndian.Uint32(frame[8:]))] = info
	c.mu.Unlock()
	return true
}

// rewritten is a response frame with the broker addresses rewritten; an
// answer to no request is an error (the proxy's, and the connection's).
func (p *Proxy) rewritten(c *pipe, frame []byte) ([]byte, reqInfo, error) {
	corr := int32(binary.BigEndian.Uint32(frame[4:]))
	c.mu.Lock()
	info, ok := c.pending[corr]
	delete(c.pending, corr)
	c.mu.Unlock()
	if !ok {
		err := fmt.Errorf("response with correlation id %d to no request", corr)
		p.fail(err)
		return nil, info, err
	}
	if p.rewrite == nil {
		return frame, info, nil
	}
	out, err := rewriteResponse(frame, info, p.rewrite)
	if err != nil {
		p.fail(err)
		return frame, info, nil
	}
	return out, info, nil
}

// writeSlowly writes b at rate bytes per second, in ten slices a second.
func (p *Proxy) writeSlowly(w io.Writer, b []byte, rate int) error {
	chunk := max(rate/10, 1)
	tick := time.Duration(float64(time.Second) * float64(chunk) / float64(rate))
	for len(b) > 0 {
		n := min(chunk, len(b))
		if _, err := w.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
		if len(b) == 0 {
			break
		}
		select {
		case <-time.After(tick):
		case <-p.done:
			return net.ErrClosed
		}
	}
	return nil
}

// Cluster is one proxy per broker of a cluster, created together so that
// each rewrites the brokers' addresses to the proxies'.
type Cluster struct {
	proxies []*Proxy
	byAddr  map[string]*Proxy // broker address -> its proxy
}

// New starts a proxy in front of each broker address (host:port, as the
// brokers advertise themselves) and returns them as a Cluster.
func New(brokers []string) (*Cluster, error) {
	if len(brokers) == 0 {
		return nil, errors.New("faultproxy: no broker addresses")
	}
	c := &Cluster{byAddr: map[string]*Proxy{}}
	for _, b := range brokers {
		b = strings.TrimSpace(b)
		if _, ok := c.byAddr[b]; ok {
			continue
		}
		p, err := newProxy(b)
		if err != nil {
			c.Close()
			return nil, err
		}
		p.rewrite = c.lookup
		c.proxies = append(c.proxies, p)
		c.byAddr[b] = p
	}
	return c, nil
}

// lookup maps a broker's advertised host and port to its proxy's.
func (c *Cluster) lookup(host string, port int32) (string, int32, bool) {
	p, ok := c.byAddr[net.JoinHostPort(host, fmt.Sprint(port))]
	if !ok {
		return "", 0, false
	}
	h, ps, err := net.SplitHostPort(p.addr)
	if err != nil {
		return "", 0, false
	}
	var pn int32
	if _, err := fmt.Sscan(ps, &pn); err != nil {
		return "", 0, false
	}
	return h, pn, true
}

// Proxies returns the proxies, in the order of the brokers given to New.
func (c *Cluster) Proxies() []*Proxy { return slices.Clone(c.proxies) }

// Proxy returns the proxy in front of broker address addr, or nil.
func (c *Cluster) Proxy(addr string) *Proxy { return c.byAddr[addr] }

// Addrs returns the proxies' addresses, in the order of the brokers.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.proxies))
	for i, p := range c.proxies {
		out[i] = p.addr
	}
	return out
}

// Bootstrap is every proxy's address, comma-joined, for --bootstrap-server.
func (c *Cluster) Bootstrap() string { return strings.Join(c.Addrs(), ",") }

// SetAll sets f on every proxy.
func (c *Cluster) SetAll(f Fault) error {
	var errs []error
	for _, p := range c.proxies {
		errs = append(errs, p.Set(f))
	}
	return errors.Join(errs...)
}

// Errors returns every proxy's Errors.
func (c *Cluster) Errors() []error {
	var out []error
	for _, p := range c.proxies {
		out = append(out, p.Errors()...)
	}
	return out
}

// Close stops every proxy.
func (c *Cluster) Close() {
	for _, p := range c.proxies {
		p.Close()
	}
}

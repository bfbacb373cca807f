package kafkaadmin

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"sync"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// bootstrapGrace is how long, after the first bootstrap address answers,
// the others still have to answer to be kept for later connections.
const bootstrapGrace = 100 * time.Millisecond

// bootstrapProbe picks, once per Client, the bootstrap addresses kafka-go
// may dial. kafka-go shuffles several addresses and dials them in turn,
// moving on from one that refuses, but an address that accepts and never
// answers (a black-holed network path, a hung host) is kept, and the
// command then waits for its whole --timeout: with one such address in
// three, one command in three failed. So with several addresses every one
// is asked for its ApiVersions at once, and only those that answer first
// (within bootstrapGrace of the first) are given to kafka-go. One address
// is used as it is, without a probe.
type bootstrapProbe struct {
	once sync.Once
	done chan struct{}
	addr net.Addr
}

// bootstrapAddr returns the address for requests to "any broker".
func (c *Client) bootstrapAddr(ctx context.Context) net.Addr {
	if len(c.cfg.Bootstrap) < 2 {
		return c.addr
	}
	p := &c.boot
	p.once.Do(func() {
		p.done = make(chan struct{})
		go func() {
			defer close(p.done)
			p.addr = c.probeBootstrap(ctx)
		}()
	})
	select {
	case <-p.done:
		return p.addr
	case <-ctx.Done():
		return c.addr
	}
}

// probeBootstrap asks every bootstrap address for its ApiVersions at once
// and returns those that answered first; all of them when none answered
// (kafka-go then fails with the error the operator should see).
func (c *Client) probeBootstrap(ctx context.Context) net.Addr {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answered := make(chan string, len(c.cfg.Bootstrap))
	failed := make(chan struct{}, len(c.cfg.Bootstrap))
	for _, a := range c.cfg.Bootstrap {
		go func() {
			if c.probe(ctx, a) == nil {
				answered <- a
			} else {
				failed <- struct{}{}
			}
		}()
	}
	var ok []string
	var grace <-chan time.Time
	for pending := len(c.cfg.Bootstrap); pending > 0; pending-- {
		select {
		case a := <-answered:
			ok = append(ok, a)
			if grace == nil {
				grace = time.After(bootstrapGrace)
			}
		case <-failed:
		case <-grace:
			return kafka.TCP(ok...)
		case <-ctx.Done():
			pending = 0
		}
	}
	if len(ok) == 0 {
		return c.addr
	}
	return kafka.TCP(ok...)
}

// probe sends an ApiVersions v0 request to addr (over TLS when the client
// uses it; brokers answer ApiVersions before SASL) and reads its answer.
// Without SASL the first flight goes behind it (firstflight.go). A probe
// that answered is not wasted: its connection, its ApiVersions and
// Metadata answers kept, waits for kafka-go's first dial to addr (warm.go),
// which then costs no round trip.
func (c *Client) probe(ctx context.Context, addr string) error {
	if len(c.expectedGroups()) > 0 {
		// A command about named groups sends its reads to their
		// coordinators, a few at once (each takes a connection of its
		// own in kafka-go), the moment the probe's first flight has
		// answered: a connection dialled then costs them its
		// handshake's round trip, one dialled now costs nothing.
		c.dialAhead(addr)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	kept := false
	defer func() {
		if !kept {
			stop()
			_ = conn.Close()
		}
	}()
	if c.cfg.TLS != nil {
		cfg := c.cfg.TLS.Clone()
		if cfg.ServerName == "" {
			host, _, _ := net.SplitHostPort(addr)
			cfg.ServerName = host
		}
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return err
		}
		conn = tc
	}
	req := kmsg.NewPtrApiVersionsRequest()
	req.Version = 0
	const corr = 1
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID(c.transport.ClientID))
	frame := f.AppendRequest(nil, req, corr)
	var extra []byte
	var ff *firstFlight
	if c.cfg.SASL == nil {
		extra, ff = c.flightRequests(c.expectedGroups())
	}
	if _, err := conn.Write(append(append([]byte(nil), frame...), extra...)); err != nil {
		return err
	}
	answer, err := readFrame(conn)
	if err != nil {
		return err
	}
	if !plausibleFirstFrame(answer[:8], corr) {
		return io.ErrUnexpectedEOF
	}
	c.keepAPIVersions(addr, answer[8:])
	kc := &kafkaConn{Conn: conn, addr: addr, cl: c, tls: c.cfg.TLS != nil, checked: true, req: frame[:12], flight: ff}
	if ff != nil && !kc.readFirstFlight() {
		return nil // answered; the connection is lost (an older broker)
	}
	if stop() {
		kept = true
		c.keepWarm(addr, kc)
	}
	return nil
}

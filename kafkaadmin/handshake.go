package kafkaadmin

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// handshakeProbeTimeout bounds the probe that explains a failed first
// exchange (see explainHandshake); the command's --timeout bounds it too.
const handshakeProbeTimeout = time.Second

// HandshakeError means a bootstrap server accepted the connection but the
// first exchange failed because the listener speaks another security
// protocol than kcg was told to use: TLS against a plaintext listener, SASL
// against one without, or the reverse. The probe that found it out sent no
// credentials.
type HandshakeError struct {
	Addr      string // the bootstrap address probed
	Handshake string // "TLS", "SASL" or "" (kcg spoke plaintext without SASL)
	Answer    string // what the listener did, e.g. "the listener answered in plaintext"
	Protocols []string
	Err       error // the error of the first exchange
}

func (e *HandshakeError) Error() string {
	h := "the handshake failed"
	if e.Handshake != "" {
		h = "the " + e.Handshake + " handshake failed"
	}
	return fmt.Sprintf("cannot talk to Kafka at %s: %s (%s: it seems to speak %s; try --security-protocol %s)",
		e.Addr, h, e.Answer, strings.Join(e.Protocols, " or "), e.Protocols[0])
}

func (e *HandshakeError) Unwrap() error { return e.Err }

// handshakeSuspect reports whether err from the first exchange may come
// from a security-protocol mismatch: the listener closed or reset the
// connection, answered bytes that are no Kafka frame or TLS record, or
// refused the SASL handshake. Refused dials and timeouts are not: those
// addresses are unreachable, whatever they speak.
func handshakeSuspect(err error) bool {
	var rh tls.RecordHeaderError
	var nk *NotKafkaError
	return errors.As(err, &nk) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.As(err, &rh) || errors.Is(err, kafka.IllegalSASLState) ||
		strings.Contains(err.Error(), "malformed response size")
}

// listener is what a probe learnt of a listener.
type listener struct {
	tls      bool
	sasl     bool
	saslSure bool // the SaslHandshake answer told whether it takes SASL
	mechs    []string
}

func (l listener) protocols() []string {
	plain, withSASL := "PLAINTEXT", "SASL_PLAINTEXT"
	if l.tls {
		plain, withSASL = "SSL", "SASL_SSL"
	}
	switch {
	case !l.saslSure:
		return []string{plain, withSASL}
	case l.sasl:
		return []string{withSASL}
	}
	return []string{plain}
}

// explainHandshake probes the bootstrap servers once, with a short deadline,
// after an exchange failed with err before any but ApiVersions succeeded, and returns a *HandshakeError
// when a listener speaks another security protocol than kcg's; otherwise
// nil (the caller keeps its own error).
func (c *Client) explainHandshake(ctx context.Context, err error) error {
	if !handshakeSuspect(err) {
		return nil
	}
	// Only while no request but ApiVersions was answered: a listener that
	// wants SASL answers ApiVersions before the handshake too (kafka-go's
	// first connection reads it), and closes the connection on the next.
	if c.answered.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, handshakeProbeTimeout)
	defer cancel()
	type verdict struct {
		l  listener
		ok bool
	}
	res := make([]chan verdict, len(c.cfg.Bootstrap))
	for i, a := range c.cfg.Bootstrap {
		res[i] = make(chan verdict, 1)
		go func() {
			l, ok := c.probeListener(ctx, a)
			res[i] <- verdict{l, ok}
		}()
	}
	for i, a := range c.cfg.Bootstrap {
		v := <-res[i]
		if !v.ok {
			continue
		}
		if he := c.mismatch(a, v.l, err); he != nil {
			return he
		}
	}
	return nil
}

// mismatch compares what the listener at addr speaks with kcg's settings.
func (c *Client) mismatch(addr string, l listener, err error) *HandshakeError {
	wantTLS, wantSASL := c.cfg.TLS != nil, c.cfg.SASL != nil
	he := &HandshakeError{Addr: addr, Protocols: l.protocols(), Err: err}
	switch {
	case wantTLS && !l.tls:
		he.Handshake, he.Answer = "TLS", "the listener answered in plaintext"
	case !wantTLS && l.tls:
		he.Answer = "the listener answered with TLS"
		if wantSASL {
			he.Handshake = "SASL"
		}
	case l.saslSure && wantSASL && !l.sasl:
		he.Handshake, he.Answer = "SASL", "the listener does not take SASL"
	case l.saslSure && !wantSASL && l.sasl:
		he.Answer = "the listener wants SASL authentication"
		if len(l.mechs) > 0 {
			he.Answer += ", mechanism " + strings.Join(l.mechs, ", ")
		}
	default:
		return nil
	}
	return he
}

// probeListener finds out whether addr speaks TLS and whether it takes
// SASL: a TLS handshake (certificates unchecked: nothing but the probe
// goes over it) and a plaintext ApiVersions run at once; over whichever
// answered, a SaslHandshake says whether the listener takes SASL. It
// never sends credentials.
func (c *Client) probeListener(ctx context.Context, addr string) (listener, bool) {
	type try struct {
		sure, sasl bool
		mechs      []string
		ok         bool
	}
	run := func(useTLS bool) try {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return try{}
		}
		defer conn.Close()
		stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
		defer stop()
		if dl, ok := ctx.Deadline(); ok {
			_ = conn.SetDeadline(dl)
		}
		if useTLS {
			host, _, _ := net.SplitHostPort(addr)
			tc := tls.Client(conn, &tls.Config{ServerName: host, InsecureSkipVerify: true}) //nolint:gosec // probe only, see above
			if err := tc.HandshakeContext(ctx); err != nil {
				return try{}
			}
			conn = tc
		}
		av := kmsg.NewPtrApiVersionsRequest()
		av.Version = 0
		if _, err := c.probeExchange(conn, av, 1); err != nil {
			if useTLS {
				// A TLS listener that does not answer Kafka inside: it
				// still speaks TLS.
				return try{ok: true}
			}
			return try{}
		}
		sh := kmsg.NewPtrSASLHandshakeRequest()
		sh.Version = 1
		sh.Mechanism = "PLAIN"
		resp, err := c.probeExchange(conn, sh, 2)
		if err != nil {
			return try{ok: true}
		}
		r := resp.(*kmsg.SASLHandshakeResponse)
		switch r.ErrorCode {
		case 0, 33: // ok, UNSUPPORTED_SASL_MECHANISM: both list the enabled ones
			return try{ok: true, sure: true, sasl: true, mechs: r.SupportedMechanisms}
		case 34: // ILLEGAL_SASL_STATE: a listener without SASL
			return try{ok: true, sure: true}
		}
		return try{ok: true}
	}
	tc, pc := make(chan try, 1), make(chan try, 1)
	go func() { tc <- run(true) }()
	go func() { pc <- run(false) }()
	t, p := <-tc, <-pc
	switch {
	case t.ok:
		return listener{tls: true, sasl: t.sasl, saslSure: t.sure, mechs: t.mechs}, true
	case p.ok:
		return listener{sasl: p.sasl, saslSure: p.sure, mechs: p.mechs}, true
	}
	return listener{}, false
}

// probeExchange writes req with correlation id corr and decodes the answer
// (non-flexible versions only: header v0).
func (c *Client) probeExchange(conn net.Conn, req kmsg.Request, corr int32) (kmsg.Response, error) {
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID(c.transport.ClientID))
	if _, err := conn.Write(f.AppendRequest(nil, req, corr)); err != nil {
		return nil, err
	}
	var hdr [8]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		return nil, err
	}
	if !plausibleFirstFrame(hdr[:], corr) {
		return nil, io.ErrUnexpectedEOF
	}
	body := make([]byte, binary.BigEndian.Uint32(hdr[:])-4)
	if _, err := io.ReadFull(conn, body); err != nil {
		return nil, err
	}
	resp := req.ResponseKind()
	resp.SetVersion(req.GetVersion())
	if err := resp.ReadFrom(body); err != nil {
		return nil, err
	}
	return resp, nil
}

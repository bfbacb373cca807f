package kafkaadmin

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxFirstResponse bounds the size field of the first response on a
// connection, the ApiVersions answer (a few kilobytes from any broker).
// A larger one is not Kafka: "HTTP" read as a size is 1.2 GB, a TLS
// record header 350 MB.
const maxFirstResponse = 1 << 20

// plausibleFirstFrame reports whether hdr, the first eight bytes answered
// on a connection, can start a Kafka answer to the request of correlation
// id corr: a size within maxFirstResponse and that correlation id.
func plausibleFirstFrame(hdr []byte, corr int32) bool {
	n := binary.BigEndian.Uint32(hdr)
	return n >= 4 && n <= maxFirstResponse && int32(binary.BigEndian.Uint32(hdr[4:])) == corr
}

// answerPeek is how much of a non-Kafka answer NotKafkaError quotes, and
// how long kcg waits for more of it than the bytes that gave it away.
const (
	answerPeek     = 40
	answerPeekWait = 100 * time.Millisecond
)

// NotKafkaError means an address accepted the connection and answered
// something that is no Kafka response: an HTTP server, another service on
// a mistyped port, a size of absurd length, a few bytes and a close. The
// first exchange fails with it at once: kafka-go would otherwise decode
// the garbage as an ApiVersions answer of a billion entries, burning a
// core until --timeout (issue 30 item 7).
type NotKafkaError struct {
	Addr   string
	Answer []byte // the first bytes answered, at most answerPeek
	Closed bool   // the peer closed the connection within the first header
	// TLS is set when the answer came inside TLS; Handshake when it was
	// the answer to kcg's TLS handshake (no TLS at all).
	TLS, Handshake bool
}

func (e *NotKafkaError) Error() string {
	answer := quoteAnswer(e.Answer)
	if e.Closed {
		answer += " and closed the connection"
	}
	switch {
	case e.Handshake:
		return fmt.Sprintf("%s speaks neither TLS nor the Kafka protocol (it answered %s to the TLS handshake; is the address right?)", e.Addr, answer)
	case e.TLS:
		return fmt.Sprintf("%s does not speak the Kafka protocol over TLS (it answered %s; is the address right?)", e.Addr, answer)
	case looksLikeTLS(e.Answer):
		return fmt.Sprintf("%s is a TLS listener: it answered a TLS record to plaintext; try --security-protocol SSL", e.Addr)
	}
	return fmt.Sprintf("%s does not speak the Kafka protocol (it answered %s; is the address right?)", e.Addr, answer)
}

// quoteAnswer quotes b up to its first line break, every byte but
// printable ASCII as \xNN; an answer that is not text, only its first
// eight bytes.
func quoteAnswer(b []byte) string {
	cut := len(b) == answerPeek
	if i := bytes.IndexAny(b, "\r\n"); i > 0 {
		b, cut = b[:i], false
	}
	text := !bytes.ContainsFunc(b, func(r rune) bool { return r < 0x20 || r >= 0x7f })
	if !text && len(b) > 8 {
		b, cut = b[:8], true
	}
	var q strings.Builder
	q.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			q.WriteByte('\\')
			q.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			q.WriteByte(c)
		default:
			fmt.Fprintf(&q, "\\x%02x", c)
		}
	}
	q.WriteByte('"')
	if cut {
		q.WriteString("…")
	}
	return q.String()
}

// looksLikeTLS reports whether b starts with a TLS record header: content
// type handshake or alert, protocol version 3.x.
func looksLikeTLS(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0x15 || b[0] == 0x16) && b[1] == 3
}

// tlsStall is how long a TLS handshake may go unanswered before kcg asks
// the address, in plaintext, whether it is a Kafka listener without TLS.
// Kafka closes the connection on a ClientHello (a 369 MB request), but a
// listener that allows larger requests waits for the rest of it, and the
// command would wait for its --timeout.
const tlsStall = time.Second

// errTLSUnanswered is the first exchange's error when a plaintext listener
// left the TLS handshake unanswered.
var errTLSUnanswered = errors.New("the TLS handshake went unanswered")

// dial is the Transport's dialer: TCP, the TLS handshake when configured
// (kafka-go's own TLS is left unset so that the check below sees the bytes
// inside it), and a kafkaConn that checks the first answer.
func (c *Client) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if kc := c.takeWarm(addr); kc != nil {
		return kc, nil
	}
	// The next connections to addr, dialled while this one is: kafka-go
	// opens one per concurrent request (warm.go).
	c.dialAhead(addr)
	d := net.Dialer{Timeout: 3 * time.Second} // kafka-go's default dialer
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	kc := &kafkaConn{Conn: conn, addr: addr, cl: c}
	if c.cfg.TLS == nil {
		return kc, nil
	}
	cfg := c.cfg.TLS
	if cfg.ServerName == "" {
		host, _, _ := net.SplitHostPort(addr)
		cfg = cfg.Clone()
		cfg.ServerName = host
	}
	rec := &recordConn{Conn: conn}
	tc := tls.Client(rec, cfg)
	if err := c.handshake(ctx, tc, addr); err != nil {
		var rh tls.RecordHeaderError
		if errors.As(err, &rh) && !looksLikeTLS(rh.RecordHeader[:]) {
			// The handshake was answered with something else.
			err = &NotKafkaError{Addr: addr, Answer: peek(conn, rec.got), Handshake: true}
		}
		_ = conn.Close()
		return nil, err
	}
	kc.Conn, kc.tls = tc, true
	return kc, nil
}

// handshake runs tc's TLS handshake with addr. When the listener has not
// answered it within tlsStall, the probe of handshake.go asks whether it
// speaks Kafka in plaintext; if so, the handshake ends there with a
// *HandshakeError.
func (c *Client) handshake(ctx context.Context, tc *tls.Conn, addr string) error {
	c.mu.Lock()
	he := c.plaintext[addr]
	delete(c.plaintext, addr)
	c.mu.Unlock()
	if he != nil {
		// kafka-go dials again for the request after its own metadata
		// request failed: the verdict is kept for that one dial (kcg
		// watch probes again next round).
		return he
	}
	done := make(chan error, 1)
	go func() { done <- tc.HandshakeContext(ctx) }()
	stall := time.NewTimer(tlsStall)
	defer stall.Stop()
	select {
	case err := <-done:
		return err
	case <-stall.C:
	}
	pctx, cancel := context.WithTimeout(ctx, handshakeProbeTimeout)
	l, ok := c.probeListener(pctx, addr)
	cancel()
	if ok && !l.tls {
		he = c.mismatch(addr, l, errTLSUnanswered)
	}
	if he == nil {
		return <-done
	}
	c.mu.Lock()
	if c.plaintext == nil {
		c.plaintext = map[string]*HandshakeError{}
	}
	c.plaintext[addr] = he
	c.mu.Unlock()
	_ = tc.Close()
	<-done
	return he
}

// kafkaConn checks the first eight bytes answered on a connection, the
// size and correlation id of the answer to the first request written
// (kafka-go's ApiVersions), before kafka-go reads them; past those it
// passes everything through. It also keeps the first ApiVersions answer
// of an address, and answers the ApiVersions of later connections to it
// from that (warm.go).
type kafkaConn struct {
	net.Conn
	addr string
	tls  bool
	cl   *Client

	req     []byte // the first 12 bytes written: size, key, version, correlation id
	checked bool
	head    []byte // the checked first bytes, not yet read by kafka-go
	// capture: the first request was an ApiVersions v0 (kafka-go's),
	// whose answer check keeps for the client.
	capture bool
	// piggy are requests written behind the last one, whose answers
	// follow its answer (piggyback.go).
	piggy []piggyback
	// flight is what the first connection wrote behind kafka-go's
	// ApiVersions, brokersMeta its Metadata answer, for kafka-go's own
	// (firstflight.go).
	flight      *firstFlight
	brokersMeta *kmsg.MetadataResponse
}

func (k *kafkaConn) Write(p []byte) (int, error) {
	if corr, ok := apiVersionsV0(p); ok && k.cl != nil && len(k.head) == 0 && (k.checked || len(k.req) == 0) {
		if frame, own := k.cl.replayAPIVersions(k.addr, corr); frame != nil {
			// Answered from the address's earlier answer, or another
			// broker's: nothing is sent. The first answer this
			// address sends is checked as a first answer is (Read),
			// unless it answered Kafka before.
			k.head, k.checked = frame, own
			return len(p), nil
		}
		k.capture = len(k.req) == 0
		if extra, ff := k.firstFlight(); ff != nil {
			k.req = append(k.req, p[:12]...)
			k.flight = ff
			return k.writeWith(p, extra)
		}
	}
	if k.brokersMeta != nil && k.checked && len(k.head) == 0 {
		if frame := answerBrokersMetadata(p, k.brokersMeta); frame != nil {
			k.brokersMeta, k.head = nil, frame
			return len(p), nil
		}
	}
	if len(k.req) < 12 {
		k.req = append(k.req, p[:min(len(p), 12-len(k.req))]...)
	}
	if k.cl != nil && k.checked && len(k.head) == 0 && k.piggy == nil {
		if extra, pb := k.cl.takePiggyback(p); pb != nil {
			k.piggy = pb
			return k.writeWith(p, extra)
		}
	}
	return k.Conn.Write(p)
}

// writeWith writes kafka-go's frame p with extra, requests of kcg's, right
// behind it: one write, one packet, so they cost no round trip of their
// own (firstflight.go, piggyback.go). It reports p's length written.
func (k *kafkaConn) writeWith(p, extra []byte) (int, error) {
	if _, err := k.Conn.Write(append(append([]byte(nil), p...), extra...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// firstFlight is the client's first flight when this connection's first
// request is the ApiVersions it captures; nil otherwise.
func (k *kafkaConn) firstFlight() ([]byte, *firstFlight) {
	if !k.capture {
		return nil, nil
	}
	return k.cl.takeFirstFlight()
}

func (k *kafkaConn) Read(p []byte) (int, error) {
	if !k.checked && len(k.head) == 0 {
		if err := k.check(); err != nil {
			return 0, err
		}
	}
	if len(k.piggy) > 0 && len(k.head) == 0 {
		if err := k.readPiggybacked(); err != nil {
			return 0, err
		}
	}
	if len(k.head) > 0 {
		n := copy(p, k.head)
		k.head = k.head[n:]
		return n, nil
	}
	return k.Conn.Read(p)
}

// check reads the first answer's size and correlation id.
func (k *kafkaConn) check() error {
	var hdr [8]byte
	got, err := io.ReadFull(k.Conn, hdr[:4])
	if err == nil {
		if n := binary.BigEndian.Uint32(hdr[:4]); n < 4 || n > maxFirstResponse {
			return k.notKafka(hdr[:4], false)
		}
		var more int
		more, err = io.ReadFull(k.Conn, hdr[4:])
		got += more
	}
	switch {
	case err == nil:
	case got > 0 && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)):
		return k.notKafka(hdr[:got], true)
	default:
		return err // nothing answered: the caller's handshake probe and messages
	}
	if len(k.req) < 12 || !plausibleFirstFrame(hdr[:], int32(binary.BigEndian.Uint32(k.req[8:12]))) {
		return k.notKafka(hdr[:], false)
	}
	k.checked, k.head = true, hdr[:]
	if k.capture {
		// The whole answer, kept for the client and then read by
		// kafka-go from head.
		body := make([]byte, binary.BigEndian.Uint32(hdr[:4])-4)
		if _, err := io.ReadFull(k.Conn, body); err != nil {
			return err
		}
		k.head = append(k.head, body...)
		k.cl.keepAPIVersions(k.addr, body)
		if k.flight != nil && !k.readFirstFlight() {
			return k.redial()
		}
	}
	return nil
}

// recordConn keeps the first answerPeek bytes read through it.
type recordConn struct {
	net.Conn
	got []byte
}

func (r *recordConn) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	if len(r.got) < answerPeek {
		r.got = append(r.got, p[:min(n, answerPeek-len(r.got))]...)
	}
	return n, err
}

func (k *kafkaConn) notKafka(got []byte, closed bool) error {
	answer := got
	if !closed {
		answer = peek(k.Conn, got)
	}
	_ = k.Conn.Close()
	return &NotKafkaError{Addr: k.addr, Answer: answer, Closed: closed, TLS: k.tls}
}

// peek returns got followed by what conn answered after it within
// answerPeekWait, at most answerPeek bytes in all: the rest of the
// answer's first line, for the message.
func peek(conn net.Conn, got []byte) []byte {
	b := make([]byte, answerPeek)
	n := copy(b, got)
	_ = conn.SetReadDeadline(time.Now().Add(answerPeekWait))
	for n < len(b) && !bytes.ContainsAny(b[:n], "\r\n") {
		m, err := conn.Read(b[n:])
		n += m
		if err != nil {
			break
		}
	}
	return b[:n]
}

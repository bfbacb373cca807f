package kafkaadmin

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl/plain"
)

// Which first-exchange errors make kcg probe the listener: only those a
// security-protocol mismatch causes, never a refused dial or a timeout
// (those keep their messages, docs/reliability.md).
func TestHandshakeSuspect(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{io.EOF, true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{&net.OpError{Op: "read", Err: syscall.ECONNRESET}, true},
		{tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, true},
		{kafka.IllegalSASLState, true},
		{errors.New("malformed response size 352518912 for Metadata"), true},
		// An answer that is no Kafka may be a listener of another
		// security protocol: the probe has its say first.
		{fmt.Errorf("connect: %w", &NotKafkaError{Addr: "h:9093", Answer: []byte{0x15, 3, 3, 0, 2}}), true},
		{&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, false},
		{context.DeadlineExceeded, false},
		{kafka.SASLAuthenticationFailed, false},
	} {
		if got := handshakeSuspect(c.err); got != c.want {
			t.Errorf("handshakeSuspect(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// Every pair of kcg's settings and a listener's: the line names the
// handshake and the protocol to try, and a match is no verdict.
func TestHandshakeMismatch(t *testing.T) {
	mech := plain.Mechanism{Username: "u", Password: "secret"}
	cfgs := map[string]connconfig.Config{
		"PLAINTEXT":      {},
		"SSL":            {TLS: &tls.Config{}},
		"SASL_PLAINTEXT": {SASL: mech},
		"SASL_SSL":       {TLS: &tls.Config{}, SASL: mech},
	}
	lst := map[string]listener{
		"PLAINTEXT":      {saslSure: true},
		"SSL":            {tls: true, saslSure: true},
		"SASL_PLAINTEXT": {sasl: true, saslSure: true, mechs: []string{"PLAIN"}},
		"SASL_SSL":       {tls: true, sasl: true, saslSure: true, mechs: []string{"PLAIN"}},
	}
	want := map[[2]string]string{
		{"PLAINTEXT", "SSL"}:                   "the handshake failed (the listener answered with TLS: it seems to speak SSL; try --security-protocol SSL)",
		{"PLAINTEXT", "SASL_PLAINTEXT"}:        "the handshake failed (the listener wants SASL authentication, mechanism PLAIN: it seems to speak SASL_PLAINTEXT; try --security-protocol SASL_PLAINTEXT)",
		{"PLAINTEXT", "SASL_SSL"}:              "the handshake failed (the listener answered with TLS: it seems to speak SASL_SSL; try --security-protocol SASL_SSL)",
		{"SSL", "PLAINTEXT"}:                   "the TLS handshake failed (the listener answered in plaintext: it seems to speak PLAINTEXT; try --security-protocol PLAINTEXT)",
		{"SSL", "SASL_PLAINTEXT"}:              "the TLS handshake failed (the listener answered in plaintext: it seems to speak SASL_PLAINTEXT; try --security-protocol SASL_PLAINTEXT)",
		{"SSL", "SASL_SSL"}:                    "the handshake failed (the listener wants SASL authentication, mechanism PLAIN: it seems to speak SASL_SSL; try --security-protocol SASL_SSL)",
		{"SASL_PLAINTEXT", "PLAINTEXT"}:        "the SASL handshake failed (the listener does not take SASL: it seems to speak PLAINTEXT; try --security-protocol PLAINTEXT)",
		{"SASL_PLAINTEXT", "SSL"}:              "the SASL handshake failed (the listener answered with TLS: it seems to speak SSL; try --security-protocol SSL)",
		{"SASL_PLAINTEXT", "SASL_SSL"}:         "the SASL handshake failed (the listener answered with TLS: it seems to speak SASL_SSL; try --security-protocol SASL_SSL)",
		{"SASL_SSL", "PLAINTEXT"}:              "the TLS handshake failed (the listener answered in plaintext: it seems to speak PLAINTEXT; try --security-protocol PLAINTEXT)",
		{"SASL_SSL", "SSL"}:                    "the SASL handshake failed (the listener does not take SASL: it seems to speak SSL; try --security-protocol SSL)",
		{"SASL_SSL", "SASL_PLAINTEXT"}:         "the TLS handshake failed (the listener answered in plaintext: it seems to speak SASL_PLAINTEXT; try --security-protocol SASL_PLAINTEXT)",
		{"PLAINTEXT", "SSL or SASL_SSL"}:       "the handshake failed (the listener answered with TLS: it seems to speak SSL or SASL_SSL; try --security-protocol SSL)",
		{"SSL", "PLAINTEXT or SASL_PLAIN"}:     "the TLS handshake failed (the listener answered in plaintext: it seems to speak PLAINTEXT or SASL_PLAINTEXT; try --security-protocol PLAINTEXT)",
		{"SASL_SSL", "SSL or SASL_SSL (?)"}:    "",
		{"PLAINTEXT", "PLAINTEXT or SASL (?)"}: "",
	}
	lst["SSL or SASL_SSL"] = listener{tls: true}
	lst["PLAINTEXT or SASL_PLAIN"] = listener{}
	lst["SSL or SASL_SSL (?)"] = listener{tls: true}
	lst["PLAINTEXT or SASL (?)"] = listener{}
	for cn, cfg := range cfgs {
		for ln, l := range lst {
			c := &Client{cfg: cfg}
			he := c.mismatch("h:9092", l, io.EOF)
			w, listed := want[[2]string{cn, ln}]
			switch {
			case he == nil && (w != "" && listed):
				t.Errorf("%s client, %s listener: no verdict, want %q", cn, ln, w)
			case he != nil && !listed:
				if cn != ln {
					continue // pairs not in the table are not pinned
				}
				t.Errorf("%s client, %s listener: %q, want no verdict", cn, ln, he.Error())
			case he != nil && he.Error() != "cannot talk to Kafka at h:9092: "+w:
				t.Errorf("%s client, %s listener:\n got %q\nwant %q", cn, ln, he.Error(), "cannot talk to Kafka at h:9092: "+w)
			}
			if he != nil && !errors.Is(he, io.EOF) {
				t.Errorf("%s client, %s listener: the first exchange's error is not wrapped", cn, ln)
			}
		}
	}
}

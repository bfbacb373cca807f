package commands_test

import (
	"crypto/tls"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// Issue 20 §2 item 10: TLS or SASL against a listener that speaks another
// security protocol, and the reverse, is one line naming the handshake
// that failed and the protocol the listener seems to speak, exit 1,
// at once (checkNotKafka: within 5 s of --timeout 20s); not "cannot reach
// Kafka: EOF".

const handshakeTimeout = 5 * time.Second

// tlsListener is a TLS server that completes handshakes and then reads
// and drops whatever comes, like an SSL listener that answers nothing kcg
// understands; it returns its address.
func tlsListener(t *testing.T) string {
	t.Helper()
	return tlsServer(t, func(c net.Conn) { _, _ = io.Copy(io.Discard, c) })
}

// tlsServer is a TLS server that hands each connection to serve after the
// handshake; it returns its address.
func tlsServer(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	cert, err := tls.LoadX509KeyPair("../connconfig/testdata/client-cert.pem", "../connconfig/testdata/client-key.pem")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, ln, serve)
}

// serveOn accepts connections on ln until the test ends and hands each
// to serve, for at most 30 s; it returns ln's address.
func serveOn(t *testing.T, ln net.Listener, serve func(c net.Conn)) string {
	t.Helper()
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(30 * time.Second))
				serve(c)
			}()
		}
	}()
	return ln.Addr().String()
}

func TestHandshakePlaintextToTLS(t *testing.T) {
	addr := tlsListener(t)
	checkNotKafka(t, []string{"--bootstrap-server", addr},
		"cannot talk to Kafka at "+addr+": the handshake failed", "answered with TLS", "try --security-protocol SSL")
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SASL_PLAINTEXT",
		"--sasl-mechanism", "PLAIN", "--sasl-username", "u", "--sasl-password", "p"},
		"the SASL handshake failed", "answered with TLS", "try --security-protocol SSL")
}

func TestHandshakeTLSToPlaintext(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "kfake takes a SaslHandshake on any listener, so the probe names SASL_PLAINTEXT (TestNotKafkaTLSToPlaintextBroker runs on kfake too)")
	addr := os.Getenv(kafkatest.EnvBootstrap)
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SSL"},
		"cannot talk to Kafka at "+addr+": the TLS handshake failed (the listener answered in plaintext: it seems to speak PLAINTEXT; try --security-protocol PLAINTEXT)")
}

func saslBootstrap(t *testing.T) (addr, user, password string) {
	t.Helper()
	addr, user, password = os.Getenv("KCG_TEST_SASL_BOOTSTRAP"), os.Getenv("KCG_TEST_SASL_USER"), os.Getenv("KCG_TEST_SASL_PASSWORD")
	if addr == "" {
		t.Skip("KCG_TEST_SASL_BOOTSTRAP is not set: these cases need a real SASL_PLAINTEXT listener (.ci/kafka/kafka.sh start adds it)")
	}
	return addr, user, password
}

func TestHandshakePlaintextToSASL(t *testing.T) {
	addr, _, _ := saslBootstrap(t)
	checkNotKafka(t, []string{"--bootstrap-server", addr},
		"cannot talk to Kafka at "+addr+": the handshake failed (the listener wants SASL authentication, mechanism ",
		"it seems to speak SASL_PLAINTEXT; try --security-protocol SASL_PLAINTEXT)")
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SSL"},
		"the TLS handshake failed (the listener answered in plaintext: it seems to speak SASL_PLAINTEXT; try --security-protocol SASL_PLAINTEXT)")
}

func TestHandshakeSASLToPlaintext(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "kfake takes a SASL handshake on any listener, where Kafka answers ILLEGAL_SASL_STATE")
	_, user, password := saslBootstrap(t)
	addr := os.Getenv(kafkatest.EnvBootstrap)
	r := kcg(t, "list", "--bootstrap-server", addr, "--security-protocol", "SASL_PLAINTEXT", "--sasl-mechanism", "PLAIN",
		"--sasl-username", user, "--sasl-password", password, "--timeout", handshakeTimeout.String()).MustCode(t, 1)
	if password != "" && strings.Contains(r.Stderr, password) {
		t.Fatalf("the password is on stderr: %q", r.Stderr)
	}
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SASL_PLAINTEXT", "--sasl-mechanism", "PLAIN",
		"--sasl-username", user, "--sasl-password", password},
		"cannot talk to Kafka at "+addr+": the SASL handshake failed (the listener does not take SASL: it seems to speak PLAINTEXT; try --security-protocol PLAINTEXT)")
}

// A refused address keeps its message (docs/reliability.md).
func TestHandshakeRefusedUnchanged(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	r := kcg(t, "list", "--bootstrap-server", addr, "--security-protocol", "SSL", "--timeout", "3s").MustCode(t, 1)
	if want := "kcg: cannot reach Kafka at " + addr + ": dial tcp " + addr + ": connect: connection refused\n"; r.Stderr != want {
		t.Fatalf("stderr %q, want %q", r.Stderr, want)
	}
}

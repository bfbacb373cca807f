package commands_test

import (
	"crypto/tls"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
)

// Issue 30 item 7: a port where something else answers — an HTTP service,
// garbage, an absurd length, TLS where kcg speaks plaintext or the
// reverse — fails at once with one line naming the address, exit 1; it
// used to spin a core for the whole --timeout and then blame a slow
// cluster.

const (
	notKafkaTimeout = 20 * time.Second // what the command is given
	notKafkaWithin  = 5 * time.Second  // what it may take
)

// checkNotKafka runs kcg list with args and --timeout 20s and checks that
// it ended within 5 s, exit 1, with one line holding each of want, and
// that no goroutine went on burning CPU after it returned.
func checkNotKafka(t *testing.T, args []string, want ...string) {
	t.Helper()
	cpu0, cpuOK := cpuTime()
	start := time.Now()
	r := kcg(t, append([]string{"list", "--timeout", notKafkaTimeout.String()}, args...)...).MustCode(t, 1)
	d := time.Since(start)
	if d > notKafkaWithin {
		t.Errorf("took %v with --timeout %v: want a failure at once", d, notKafkaTimeout)
	}
	t.Logf("failed in %v", d)
	line, err := errLine(r.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(line, w) {
			t.Errorf("stderr %q lacks %q", line, w)
		}
	}
	for _, bad := range []string{"timed out", "raise --timeout", "cannot reach"} {
		if strings.Contains(line, bad) {
			t.Errorf("stderr %q says %q", line, bad)
		}
	}
	// kafka-go decoding "HTTP" as the size of an ApiVersions answer loops
	// over a billion array entries, seconds of CPU; the command and a
	// second after it take a small part of one.
	if cpuOK {
		time.Sleep(time.Second)
		cpu1, _ := cpuTime()
		if used := cpu1 - cpu0; used > 2*time.Second {
			t.Errorf("the process used %v of CPU in %v: something spins", used, time.Since(start))
		}
	}
}

// rawServer accepts connections on a local port and hands each to serve;
// it returns the address.
func rawServer(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, ln, serve)
}

// readRequest reads (part of) what kcg sent, as a server that answers
// after the request would.
func readRequest(c net.Conn) {
	var b [64]byte
	_, _ = c.Read(b[:])
}

// badRequest is what an HTTP server such as nginx answers to bytes that
// are no HTTP request, at once (Go's net/http waits for a line end).
const badRequest = "HTTP/1.1 400 Bad Request\r\nServer: nginx\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

func httpService(c net.Conn) {
	readRequest(c)
	_, _ = io.WriteString(c, badRequest)
}

// answerAfterRequest serves a connection as a service that reads the
// request and answers b, then closes or, with open, waits for more.
func answerAfterRequest(b []byte, open bool) func(net.Conn) {
	return func(c net.Conn) {
		readRequest(c)
		_, _ = c.Write(b)
		if open {
			_, _ = io.Copy(io.Discard, c)
		}
	}
}

// Plaintext answers that are no Kafka: each line names the address and
// quotes the answer.
func TestNotKafkaAnswers(t *testing.T) {
	for _, c := range []struct {
		name  string
		serve func(net.Conn)
		want  string // after "kcg: ADDR "
	}{
		{"http", httpService, `does not speak the Kafka protocol (it answered "HTTP/1.1 400 Bad Request"`},
		// A service that greets first (SSH, SMTP), before any request.
		{"greeting", func(c net.Conn) {
			_, _ = io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n")
			_, _ = io.Copy(io.Discard, c)
		}, `does not speak the Kafka protocol (it answered "SSH-2.0-OpenSSH_9.6"`},
		{"garbage then close", answerAfterRequest([]byte{0, 0, 1}, false),
			`does not speak the Kafka protocol (it answered "\x00\x00\x01" and closed the connection`},
		// An absurd length, the connection left open: not a wait for 2 GB.
		{"absurd length", answerAfterRequest([]byte{0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1}, true),
			`does not speak the Kafka protocol (it answered "\x7f\xff\xff\xff\x00\x00\x00\x01"`},
		// A plausible size but not the correlation id kcg sent.
		{"wrong correlation id", answerAfterRequest([]byte{0, 0, 0, 8, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0}, true),
			`does not speak the Kafka protocol (it answered "\x00\x00\x00\x08\xde\xad\xbe\xef"…`},
		// A TLS listener that answers plaintext with a TLS alert (fatal
		// unexpected_message) and nothing else, and so cannot be probed
		// further.
		{"TLS alert", answerAfterRequest([]byte{0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x0a}, false),
			"is a TLS listener: it answered a TLS record to plaintext; try --security-protocol SSL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr := rawServer(t, c.serve)
			checkNotKafka(t, []string{"--bootstrap-server", addr}, "kcg: "+addr+" "+c.want)
		})
	}
}

// TLS where kcg speaks plaintext: an HTTPS server is recognised as TLS
// (the probe of docs/connecting.md), at once.
func TestNotKafkaHTTPSWithoutTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "https://")
	checkNotKafka(t, []string{"--bootstrap-server", addr},
		"kcg: cannot talk to Kafka at "+addr+": the handshake failed (the listener answered with TLS", "try --security-protocol SSL")
}

// Over TLS, HTTP inside it.
func TestNotKafkaHTTPSWithTLS(t *testing.T) {
	addr := tlsServer(t, httpService)
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SSL", "--tls-insecure-skip-verify"},
		"kcg: "+addr+` does not speak the Kafka protocol over TLS (it answered "HTTP/1.1 400 Bad Request"`)
}

// TLS against a plaintext service that answers the handshake with HTTP.
func TestNotKafkaHTTPWithTLS(t *testing.T) {
	addr := rawServer(t, httpService)
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SSL"},
		"kcg: "+addr+` speaks neither TLS nor the Kafka protocol (it answered "HTTP/1.1 400 Bad Request" to the TLS handshake`)
}

// A plaintext Kafka listener with TLS: within 5 s of a 20 s --timeout.
// Kafka closes the connection on the ClientHello (a 369 MB request);
// kfake waits for the rest of it, and kcg asks it in plaintext after 1 s.
func TestNotKafkaTLSToPlaintextBroker(t *testing.T) {
	addr := kafkatest.Cluster(t).Bootstrap
	checkNotKafka(t, []string{"--bootstrap-server", addr, "--security-protocol", "SSL"},
		"kcg: cannot talk to Kafka at "+addr+": the TLS handshake failed (the listener answered in plaintext: it seems to speak ",
		"PLAINTEXT; try --security-protocol ") // kfake: SASL_PLAINTEXT, it takes a SaslHandshake on any listener
}

// kcg does TLS in its own dialer now (under the check of the first
// answer): a TLS listener that speaks Kafka still works, the broker's
// name is still verified, and SASL still runs over TLS.
func TestNotKafkaCheckKeepsTLS(t *testing.T) {
	// httptest's certificate: self-signed, for 127.0.0.1 and example.com.
	https := httptest.NewUnstartedServer(nil)
	https.StartTLS()
	https.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: https.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	const pw = "scram-Secret-pw"
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(&tls.Config{Certificates: https.TLS.Certificates}),
		kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", pw))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]
	sasl := []string{"--sasl-mechanism", "SCRAM-SHA-512", "--sasl-username", "alice", "--sasl-password", pw}
	kcg(t, append([]string{"list", "--bootstrap-server", addr, "--security-protocol", "SASL_SSL", "--tls-ca-file", caFile, "--timeout", "10s"}, sasl...)...).MustCode(t, 0)
	kcg(t, append([]string{"list", "--bootstrap-server", addr, "--security-protocol", "SASL_SSL", "--tls-ca-file", caFile, "--tls-server-name", "example.com", "--timeout", "10s"}, sasl...)...).MustCode(t, 0)
	r := kcg(t, append([]string{"list", "--bootstrap-server", addr, "--security-protocol", "SASL_SSL", "--tls-ca-file", caFile, "--tls-server-name", "kafka.invalid", "--timeout", "10s"}, sasl...)...).MustCode(t, 1)
	if !strings.Contains(r.Stderr, "certificate is valid for") || !strings.Contains(r.Stderr, "kafka.invalid") {
		t.Errorf("a certificate for another name: stderr %q", r.Stderr)
	}
}

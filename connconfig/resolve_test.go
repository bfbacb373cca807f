package connconfig

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
)

const connTestdata = "testdata"

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantConfigError(t *testing.T, err error, kind ConfigErrorKind, key string) *ConfigError {
	t.Helper()
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want *ConfigError", err, err)
	}
	if ce.Kind != kind || ce.Key != key {
		t.Fatalf("err = %v: kind %d key %q, want kind %d key %q", err, ce.Kind, ce.Key, kind, key)
	}
	return ce
}

func TestConnNoBootstrap(t *testing.T) {
	for _, o := range []ConnOptions{{}, {Bootstrap: " , "}, {SecurityProtocol: "SSL"}} {
		_, err := o.Resolve()
		if !errors.Is(err, ErrNoBootstrap) {
			t.Errorf("%v: err = %v, want ErrNoBootstrap", o, err)
		}
	}
	if ErrNoBootstrap.Error() != "no bootstrap server: use --bootstrap-server HOST:PORT or set KCG_BOOTSTRAP_SERVER" {
		t.Errorf("message changed: %q", ErrNoBootstrap)
	}
}

func TestConnBootstrap(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "c.properties", "client.id = my-tool\nrequest.timeout.ms=1000\nbootstrap.servers = a:9092, b:9093 ,[::1]:9094\n")
	cfg, err := ConnOptions{CommandConfig: f}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cfg.Bootstrap) != "[a:9092 b:9093 [::1]:9094]" || cfg.ClientID != "my-tool" || cfg.TLS != nil || cfg.SASL != nil {
		t.Errorf("cfg = %v", cfg)
	}
	// The flag wins, as in the Java tool.
	cfg, err = ConnOptions{Bootstrap: "x:1", CommandConfig: f}.Resolve()
	if err != nil || fmt.Sprint(cfg.Bootstrap) != "[x:1]" {
		t.Errorf("cfg = %v, err = %v", cfg, err)
	}
	_, err = ConnOptions{Bootstrap: "localhost"}.Resolve()
	wantConfigError(t, err, ConfigErrorUsage, "--bootstrap-server")
	bad := writeFile(t, dir, "bad.properties", "# x\nbootstrap.servers=host:port\n")
	_, err = ConnOptions{CommandConfig: bad}.Resolve()
	if ce := wantConfigError(t, err, ConfigErrorData, "bootstrap.servers"); ce.Line != 2 || ce.File != bad {
		t.Errorf("err = %v", err)
	}
}

func TestConnConfigErrors(t *testing.T) {
	dir := t.TempDir()
	ca := writeFile(t, dir, "ca.pem", string(newTestCA(t).certPEM))
	props := func(s string) string {
		return writeFile(t, dir, fmt.Sprintf("p%d.properties", time.Now().UnixNano()), "bootstrap.servers=h:9092\n"+s)
	}
	tests := []struct {
		name string
		o    ConnOptions
		kind ConfigErrorKind
		key  string
		msg  string
	}{
		{"missing file", ConnOptions{CommandConfig: filepath.Join(dir, "nope.properties")}, ConfigErrorData, "--command-config", "cannot read"},
		{"malformed file", ConnOptions{CommandConfig: props("a=\\u00zz\n")}, ConfigErrorData, "", `\uxxxx`},
		{"bad protocol flag", ConnOptions{Bootstrap: "h:1", SecurityProtocol: "TLS"}, ConfigErrorUsage, "--security-protocol", "SASL_SSL"},
		{"bad protocol in file", ConnOptions{CommandConfig: props("security.protocol=SASL_TLS\n")}, ConfigErrorData, "security.protocol", "unknown protocol"},
		{"sasl flag with SSL", ConnOptions{Bootstrap: "h:1", SecurityProtocol: "ssl", SASLUsername: "u"}, ConfigErrorUsage, "--sasl-username", "--security-protocol SASL_SSL"},
		{"tls flag with plaintext", ConnOptions{Bootstrap: "h:1", SecurityProtocol: "PLAINTEXT", TLSCAFile: ca}, ConfigErrorUsage, "--tls-ca-file", "--security-protocol SSL"},
		{"key without cert", ConnOptions{Bootstrap: "h:1", TLSKeyFile: ca}, ConfigErrorUsage, "--tls-key-file", "--tls-cert-file"},
		{"cert without key", ConnOptions{Bootstrap: "h:1", TLSCertFile: ca}, ConfigErrorUsage, "--tls-cert-file", "--tls-key-file"},
		{"missing CA file", ConnOptions{Bootstrap: "h:1", TLSCAFile: filepath.Join(dir, "none.pem")}, ConfigErrorData, "--tls-ca-file", "cannot read"},
		{"GSSAPI with a user name", ConnOptions{Bootstrap: "h:1", SASLMechanism: "GSSAPI", SASLUsername: "u", SASLPassword: "p"}, ConfigErrorUsage, "--sasl-username", "--sasl-kerberos-principal"},
		{"GSSAPI in file without service name", ConnOptions{CommandConfig: props("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\n")}, ConfigErrorData, "sasl.kerberos.service.name", "service name"},
		{"OAUTHBEARER without a token source", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n")}, ConfigErrorData, "sasl.jaas.config", "OAUTHBEARER needs a token"},
		{"callback handler", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.login.callback.handler.class=x.Y\n")}, ConfigErrorData, "sasl.login.callback.handler.class", "not supported"},
		{"config providers", ConnOptions{CommandConfig: props("config.providers=file\n")}, ConfigErrorData, "config.providers", "not supported"},
		{"engine factory", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.engine.factory.class=x.Y\n")}, ConfigErrorData, "ssl.engine.factory.class", "not supported"},
		{"oauth module with PLAIN", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n")}, ConfigErrorData, "sasl.mechanism", "needs sasl.mechanism=OAUTHBEARER, not PLAIN"},
		{"jaas without password", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\";\n")}, ConfigErrorData, "sasl.jaas.config", "password missing"},
		{"jaas without username", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required password=\"p\";\n")}, ConfigErrorData, "sasl.jaas.config", "username missing"},
		{"scram module without mechanism", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";\n")}, ConfigErrorUsage, "--sasl-mechanism", "no SASL mechanism"},
		{"no password", ConnOptions{Bootstrap: "h:1", SASLMechanism: "PLAIN", SASLUsername: "u"}, ConfigErrorUsage, "--sasl-password", "KCG_SASL_PASSWORD"},
		{"no user", ConnOptions{Bootstrap: "h:1", SASLMechanism: "SCRAM-SHA-512", SASLPassword: "p"}, ConfigErrorUsage, "--sasl-username", "user name"},
		{"endpoint algorithm", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.endpoint.identification.algorithm=ldaps\n")}, ConfigErrorData, "ssl.endpoint.identification.algorithm", "unsupported value"},
		{"truststore both", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.truststore.location=" + ca + "\nssl.truststore.certificates=x\n")}, ConfigErrorData, "ssl.truststore.certificates", "keep one"},
		{"truststore PEM type but binary", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=" + filepath.Join(connTestdata, "truststore.jks") + "\n")}, ConfigErrorData, "ssl.truststore.location", "no PEM certificate"},
		{"inline truststore not PEM", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.truststore.certificates=garbage\n")}, ConfigErrorData, "ssl.truststore.certificates", "no PEM certificate"},
		{"keystore chain without key", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.keystore.certificate.chain=x\n")}, ConfigErrorData, "ssl.keystore.certificate.chain", "go together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.o.Resolve()
			wantConfigError(t, err, tt.kind, tt.key)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want it to mention %q", err, tt.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("err is not one line: %q", err)
			}
		})
	}
	_, err := ConnOptions{CommandConfig: filepath.Join(dir, "nope.properties")}.Resolve()
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file error does not wrap fs.ErrNotExist: %v", err)
	}
}

func TestConnIgnoresWhatTheProtocolDoesNotUse(t *testing.T) {
	// One properties file often serves several clients: with PLAINTEXT,
	// SASL and SSL keys are ignored, as Java does.
	f := writeFile(t, t.TempDir(), "c.properties", "bootstrap.servers=h:9092\nsecurity.protocol=PLAINTEXT\nsasl.mechanism=GSSAPI\n"+
		"sasl.login.callback.handler.class=x.Y\nssl.truststore.location=/nonexistent.jks\nssl.engine.factory.class=x.Y\n")
	cfg, err := ConnOptions{CommandConfig: f, SASLPassword: "from-env"}.Resolve()
	if err != nil || cfg.TLS != nil || cfg.SASL != nil {
		t.Fatalf("cfg = %v, err = %v", cfg, err)
	}
}

func TestConnProtocolInference(t *testing.T) {
	dir := t.TempDir()
	ca := writeFile(t, dir, "ca.pem", string(newTestCA(t).certPEM))
	tests := []struct {
		o         ConnOptions
		tls, sasl bool
	}{
		{ConnOptions{Bootstrap: "h:1"}, false, false},
		{ConnOptions{Bootstrap: "h:1", SASLPassword: "ambient env"}, false, false},
		{ConnOptions{Bootstrap: "h:1", TLSCAFile: ca}, true, false},
		{ConnOptions{Bootstrap: "h:1", TLSServerName: "kafka"}, true, false},
		{ConnOptions{Bootstrap: "h:1", SASLMechanism: "plain", SASLUsername: "u", SASLPassword: "p"}, false, true},
		{ConnOptions{Bootstrap: "h:1", SASLMechanism: "scram-sha-256", SASLUsername: "u", SASLPassword: "p", TLSInsecureSkipVerify: true}, true, true},
		{ConnOptions{Bootstrap: "h:1", SecurityProtocol: "sasl_ssl", SASLMechanism: "SCRAM-SHA-512", SASLUsername: "u", SASLPassword: "p"}, true, true},
	}
	for _, tt := range tests {
		cfg, err := tt.o.Resolve()
		if err != nil {
			t.Errorf("%v: %v", tt.o, err)
			continue
		}
		if (cfg.TLS != nil) != tt.tls || (cfg.SASL != nil) != tt.sasl {
			t.Errorf("%v: got %v, want tls=%t sasl=%t", tt.o, cfg, tt.tls, tt.sasl)
		}
		if cfg.TLS != nil {
			if cfg.TLS.MinVersion != tls.VersionTLS12 {
				t.Errorf("%v: MinVersion %x", tt.o, cfg.TLS.MinVersion)
			}
			if cfg.TLS.InsecureSkipVerify != tt.o.TLSInsecureSkipVerify || cfg.TLS.ServerName != tt.o.TLSServerName {
				t.Errorf("%v: TLS %v", tt.o, cfg)
			}
		}
	}
}

// TestJAASErrorThroughResolve checks a malformed sasl.jaas.config is
// reported with the file and line, and without the password.
func TestJAASErrorThroughResolve(t *testing.T) {
	const pw = "Pa55w0rdSECRET"
	dir := t.TempDir()
	f := writeFile(t, dir, "c.properties", "bootstrap.servers=h:9092\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\""+pw+"\"\n")
	_, err := ConnOptions{CommandConfig: f}.Resolve()
	ce := wantConfigError(t, err, ConfigErrorData, "sasl.jaas.config")
	if ce.Line != 4 || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "';'") {
		t.Errorf("err = %v (line %d)", err, ce.Line)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func startKfake(t *testing.T, opts ...kfake.Opt) string {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.SeedTopics(1, "t")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return strings.Join(c.ListenAddrs(), ",")
}

// metadata resolves o and sends a Metadata request the way the admin
// client does: through a kafka-go Transport with the resolved TLS and SASL.
func metadata(t *testing.T, o ConnOptions) error {
	t.Helper()
	cfg, err := o.Resolve()
	if err != nil {
		t.Fatalf("Resolve(%v): %v", o, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &kafka.Transport{TLS: cfg.TLS, SASL: cfg.SASL, ClientID: "kcg-test", Context: ctx, DialTimeout: 5 * time.Second}
	defer tr.CloseIdleConnections()
	cl := &kafka.Client{Addr: kafka.TCP(cfg.Bootstrap...), Transport: tr}
	resp, err := cl.Metadata(ctx, &kafka.MetadataRequest{})
	if err != nil {
		return err
	}
	if len(resp.Brokers) != 1 {
		return fmt.Errorf("metadata: %d brokers", len(resp.Brokers))
	}
	return nil
}

// TestConnCommandConfigTooLarge: a --command-config with a 100 MB value (a
// sparse file) is bad data naming the 1 MiB limit, read no further.
func TestConnCommandConfigTooLarge(t *testing.T) {
	p := writeFile(t, t.TempDir(), "big.properties", "bootstrap.servers=h:9092\nsasl.jaas.config=")
	if err := os.Truncate(p, 100<<20); err != nil {
		t.Fatal(err)
	}
	_, err := ConnOptions{CommandConfig: p}.Resolve()
	ce := wantConfigError(t, err, ConfigErrorData, "")
	if msg := ce.Error(); !strings.Contains(msg, "1 MiB") || !strings.Contains(msg, p) || strings.Contains(msg, "\n") {
		t.Fatalf("error %q: want one line naming the file and the 1 MiB limit", msg)
	}
}

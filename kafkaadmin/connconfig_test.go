package kafkaadmin

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
)

const connTestdata = "testdata/connconfig"

// renderJavaStyle renders parsed properties the way
// testdata/connconfig/DumpProperties.java does.
func renderJavaStyle(p *properties) string {
	esc := func(s string) string {
		var b strings.Builder
		for _, u := range utf16.Encode([]rune(s)) {
			if u >= 0x20 && u < 0x7f && u != '\\' {
				b.WriteByte(byte(u))
			} else {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		}
		return b.String()
	}
	var b strings.Builder
	for _, k := range p.keys() {
		fmt.Fprintf(&b, "[%s] = [%s]\n", esc(k), esc(p.values[k]))
	}
	return b.String()
}

// TestPropertiesMatchJava compares parseProperties with what
// java.util.Properties.load read from the same files (the .golden files,
// written by DumpProperties.java).
func TestPropertiesMatchJava(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(connTestdata, "properties", "*.properties"))
	if err != nil || len(files) < 5 {
		t.Fatalf("fixtures missing: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".properties") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			p, err := parseProperties(data)
			if strings.HasPrefix(string(want), "error:") {
				if err == nil {
					t.Fatalf("Java refused the file (%s) but kcg parsed it:\n%s", bytes.TrimSpace(want), renderJavaStyle(p))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := renderJavaStyle(p); got != string(want) {
				t.Errorf("kcg read:\n%s\njava.util.Properties read:\n%s", got, want)
			}
		})
	}
}

// TestPropertiesGoldenFromJava checks the .golden files are still what
// Java prints, when a JDK is installed.
func TestPropertiesGoldenFromJava(t *testing.T) {
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed: the .golden files cannot be re-checked against java.util.Properties")
	}
	if testing.Short() {
		t.Skip("-short: starting a JVM takes a second")
	}
	files, _ := filepath.Glob(filepath.Join(connTestdata, "properties", "*.properties"))
	// One JVM for all files: its output is the goldens, concatenated.
	out, err := exec.Command("java", append([]string{filepath.Join(connTestdata, "DumpProperties.java")}, files...)...).Output()
	if err != nil {
		t.Fatalf("java DumpProperties: %v", err)
	}
	var want []byte
	for _, f := range files {
		want = append(want, mustRead(t, strings.TrimSuffix(f, ".properties")+".golden")...)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("the .golden files differ from Java's output:\n%s", out)
	}
}

func TestPropertiesLinesAndErrors(t *testing.T) {
	p, err := parseProperties([]byte("# c\n\na = 1 \\\n  2\nb=3\r\nc=4\ra=5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]int{"a": 7, "b": 5, "c": 6} {
		if got := p.lineOf(k); got != want {
			t.Errorf("line of %q = %d, want %d", k, got, want)
		}
	}
	if v, _ := p.get("a"); v != "5" {
		t.Errorf("a = %q, want the last assignment 5", v)
	}

	const secret = "hunter2-secret"
	_, err = parseProperties([]byte("x=1\nsasl.jaas.config=password=\"" + secret + "\\u12G4\"\n"))
	var pe *propertiesError
	if !errors.As(err, &pe) || pe.line != 2 {
		t.Fatalf("err = %v, want a propertiesError on line 2", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error echoes the line: %v", err)
	}
}

func TestJAAS(t *testing.T) {
	tests := []struct {
		in      string
		module  string
		options map[string]string
	}{
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`,
			plainModule, map[string]string{"username": "u", "password": "p"}},
		{`org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="s3cr\\et\"x";`,
			scramModule, map[string]string{"username": "alice", "password": `s3cr\et"x`}},
		{"  org.apache.kafka.common.security.scram.ScramLoginModule   REQUIRED\n\tusername=bob\n password='p w' tokenauth=\"true\" ;  ",
			scramModule, map[string]string{"username": "bob", "password": "p w", "tokenauth": "true"}},
		{`/* block */ org.apache.kafka.common.security.plain.PlainLoginModule optional // line comment
			username="u" /* inside */ password="tab\there\101\7";`,
			plainModule, map[string]string{"username": "u", "password": "tab\there" + "A" + "\a"}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="ü-é" password="a;b=c";`,
			plainModule, map[string]string{"username": "ü-é", "password": "a;b=c"}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="";`,
			plainModule, map[string]string{"username": "u", "password": ""}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required;`,
			plainModule, map[string]string{}},
		{`org.apache.kafka.common.security.plain.PlainLoginModule required user-name=x$y.z-1 password=p;`,
			plainModule, map[string]string{"user-name": "x$y.z-1", "password": "p"}},
	}
	for _, tt := range tests {
		e, err := parseJAAS(tt.in)
		if err != nil {
			t.Errorf("parseJAAS(%q): %v", tt.in, err)
			continue
		}
		if e.module != tt.module || fmt.Sprint(e.options) != fmt.Sprint(tt.options) {
			t.Errorf("parseJAAS(%q) = %s %v, want %s %v", tt.in, e.module, e.options, tt.module, tt.options)
		}
	}
}

func TestJAASErrorsNeverEchoSecrets(t *testing.T) {
	const pw = "Pa55w0rdSECRET"
	bad := map[string]string{
		"no semicolon":         `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="` + pw + `"`,
		"no control flag":      `org.apache.kafka.common.security.plain.PlainLoginModule ` + pw + ` username="u";`,
		"no equals":            `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password "` + pw + `";`,
		"unquoted with space":  `org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=abc ` + pw + `;`,
		"stray quote":          `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="ab"` + pw + `";`,
		"number value":         `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password=1` + pw + `;`,
		"two modules":          `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="` + pw + `"; x.Y required;`,
		"starts with password": pw + `"`,
		"empty":                "  // only a comment " + pw,
		"slash comments out ;": `org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=` + pw + `/x;`,
	}
	for name, in := range bad {
		_, err := parseJAAS(in)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: error echoes the password: %v", name, err)
		}
	}

	// Through Resolve, with the file name and line.
	dir := t.TempDir()
	f := writeFile(t, dir, "c.properties", "bootstrap.servers=h:9092\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\""+pw+"\"\n")
	_, err := ConnOptions{CommandConfig: f}.Resolve()
	ce := wantConfigError(t, err, ConfigErrorData, "sasl.jaas.config")
	if ce.Line != 4 || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "';'") {
		t.Errorf("err = %v (line %d)", err, ce.Line)
	}
}

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
		{"GSSAPI flag", ConnOptions{Bootstrap: "h:1", SASLMechanism: "GSSAPI", SASLUsername: "u", SASLPassword: "p"}, ConfigErrorUsage, "--sasl-mechanism", "not supported"},
		{"GSSAPI in file", ConnOptions{CommandConfig: props("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\n")}, ConfigErrorData, "sasl.mechanism", "GSSAPI"},
		{"OAUTHBEARER in file", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n")}, ConfigErrorData, "sasl.mechanism", "OAUTHBEARER"},
		{"callback handler", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.login.callback.handler.class=x.Y\n")}, ConfigErrorData, "sasl.login.callback.handler.class", "not supported"},
		{"config providers", ConnOptions{CommandConfig: props("config.providers=file\n")}, ConfigErrorData, "config.providers", "not supported"},
		{"engine factory", ConnOptions{CommandConfig: props("security.protocol=SSL\nssl.engine.factory.class=x.Y\n")}, ConfigErrorData, "ssl.engine.factory.class", "not supported"},
		{"oauth module", ConnOptions{CommandConfig: props("security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n")}, ConfigErrorData, "sasl.jaas.config", "OAuthBearerLoginModule is not supported"},
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

func TestSASLSettings(t *testing.T) {
	dir := t.TempDir()
	plainFile := writeFile(t, dir, "plain.properties", "bootstrap.servers=h:9092\nsecurity.protocol=SASL_PLAINTEXT\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"filer\" password=\"file-pw\";\n")
	// PlainLoginModule implies PLAIN; flags override the JAAS user.
	for _, tt := range []struct {
		o    ConnOptions
		want string
	}{
		{ConnOptions{CommandConfig: plainFile}, `{Mechanism: PLAIN, Username: "filer", Password: [redacted]}`},
		{ConnOptions{CommandConfig: plainFile, SASLUsername: "flagger", SASLPassword: "flag-pw"}, `{Mechanism: PLAIN, Username: "flagger", Password: [redacted]}`},
		{ConnOptions{CommandConfig: plainFile, SASLMechanism: "SCRAM-SHA-512"}, `{Mechanism: SCRAM-SHA-512, Username: "filer", Password: [redacted]}`},
	} {
		cfg, err := tt.o.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(cfg.SASL); got != tt.want {
			t.Errorf("SASL = %s, want %s", got, tt.want)
		}
	}
	p, err := parseProperties(mustRead(t, filepath.Join(connTestdata, "properties", "kafka.properties")))
	if err != nil {
		t.Fatal(err)
	}
	r := &resolver{p: p, file: "kafka.properties"}
	m, err := r.saslMechanism()
	if err != nil {
		t.Fatal(err)
	}
	sm := m.(*saslMech)
	if sm.name != mechSCRAM512 || sm.user != "alice" {
		t.Errorf("mechanism = %v", sm)
	}
	e, _ := parseJAAS(p.values["sasl.jaas.config"])
	if e.options["password"] != `s3cr\et"x` {
		t.Errorf("password through both escape layers = %q", e.options["password"])
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

func TestConnRedacted(t *testing.T) {
	const pw = "TopSecret-Pa55"
	o := ConnOptions{Bootstrap: "h:9092", SecurityProtocol: "SASL_SSL", SASLMechanism: "SCRAM-SHA-512", SASLUsername: "alice", SASLPassword: pw, TLSInsecureSkipVerify: true, Timeout: time.Second}
	cfg, err := o.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	plainCfg, err := ConnOptions{Bootstrap: "h:9092", SASLMechanism: "PLAIN", SASLUsername: "alice", SASLPassword: pw}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	log.Info("dial", "opts", o, "cfg", cfg, "plain", plainCfg)
	var out []string
	for _, v := range []any{o, &o, cfg, &cfg, cfg.SASL, plainCfg, plainCfg.SASL} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			out = append(out, fmt.Sprintf(verb, v))
		}
		out = append(out, fmt.Sprint(v), fmt.Sprintf("%v", []any{v}), fmt.Sprintf("%+v", struct{ X any }{v}))
	}
	out = append(out, o.Redacted(), cfg.Redacted(), o.String(), cfg.String(), logs.String())
	for _, s := range out {
		if strings.Contains(s, pw) || strings.Contains(s, fmt.Sprintf("%x", pw)) {
			t.Fatalf("password leaked: %s", s)
		}
	}
	if s := fmt.Sprintf("%+v", cfg); !strings.Contains(s, "[redacted]") || !strings.Contains(s, `"alice"`) || !strings.Contains(s, "SCRAM-SHA-512") || !strings.Contains(s, "NONE") {
		t.Errorf("%%+v of Config = %s", s)
	}
	if s := fmt.Sprintf("%v", o); !strings.Contains(s, "SASLPassword: [redacted]") || !strings.Contains(s, `SASLUsername: "alice"`) {
		t.Errorf("%%v of ConnOptions = %s", s)
	}
	if s := fmt.Sprintf("%v", ConnOptions{}); !strings.Contains(s, "SASLPassword: ,") {
		t.Errorf("an empty password should print empty: %s", s)
	}
}

func TestTLSTruststoreFormats(t *testing.T) {
	dir := t.TempDir()
	jks, p12 := filepath.Join(connTestdata, "truststore.jks"), filepath.Join(connTestdata, "truststore.p12")
	caPEM := filepath.Join(connTestdata, "client-cert.pem")
	tests := []struct {
		props string
		o     ConnOptions
		key   string
		msg   []string
	}{
		{props: "ssl.truststore.location=" + jks + "\nssl.truststore.password=changeit\n", key: "ssl.truststore.location",
			msg: []string{"JKS trust store", "keytool -exportcert -rfc -keystore " + jks, "ssl.truststore.type=PEM", "--tls-ca-file"}},
		{props: "ssl.truststore.location=" + jks + "\nssl.truststore.type=JKS\n", key: "ssl.truststore.location", msg: []string{"JKS trust store", "keytool"}},
		{props: "ssl.truststore.location=" + p12 + "\n", key: "ssl.truststore.location", msg: []string{"PKCS12 trust store", "openssl pkcs12 -in " + p12 + " -nokeys -out ca.pem"}},
		{props: "ssl.truststore.location=" + p12 + "\nssl.truststore.type=pkcs12\n", key: "ssl.truststore.location", msg: []string{"PKCS12 trust store", "openssl pkcs12"}},
		{o: ConnOptions{TLSCAFile: jks}, key: "--tls-ca-file", msg: []string{"JKS store, not PEM", "keytool -exportcert"}},
		{props: "ssl.keystore.location=" + jks + "\n", key: "ssl.keystore.location", msg: []string{"JKS key store", "keytool -importkeystore", "openssl pkcs12 -in client.p12 -out client.pem -nodes", "ssl.keystore.type=PEM"}},
		{props: "ssl.keystore.location=" + p12 + "\nssl.keystore.type=PKCS12\n", key: "ssl.keystore.location", msg: []string{"PKCS12 key store", "openssl pkcs12 -in " + p12}},
		// PEM trust stores work with or without ssl.truststore.type.
		{props: "ssl.truststore.location=" + caPEM + "\n"},
		{props: "ssl.truststore.location=" + caPEM + "\nssl.truststore.type=PEM\n"},
		{props: "ssl.truststore.type=PEM\nssl.truststore.certificates=" + strings.ReplaceAll(string(mustRead(t, caPEM)), "\n", "\\n\\\n") + "\n"},
	}
	for i, tt := range tests {
		o := tt.o
		o.SecurityProtocol = "SSL"
		o.Bootstrap = "h:1"
		if tt.props != "" {
			o.CommandConfig = writeFile(t, dir, fmt.Sprintf("%d.properties", i), tt.props)
		}
		cfg, err := o.Resolve()
		if tt.key == "" {
			if err != nil || cfg.TLS == nil || cfg.TLS.RootCAs == nil {
				t.Errorf("%d: cfg = %v, err = %v", i, cfg, err)
			}
			continue
		}
		wantConfigError(t, err, ConfigErrorData, tt.key)
		for _, m := range tt.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%d: err = %v\nwant it to mention %q", i, err, m)
			}
		}
	}
}

func TestTLSClientKeys(t *testing.T) {
	dir := t.TempDir()
	cert := filepath.Join(connTestdata, "client-cert.pem")
	certPEM := string(mustRead(t, cert))
	const keyPass = "keypass"
	tests := []struct {
		key, pass string
		err       string // "" = ok
	}{
		{"client-key.pem", "", ""},
		{"client-key.pem", "unused", ""},
		{"client-key-pbes2-aes256.pem", keyPass, ""},
		{"client-key-pbes2-des3-sha1.pem", keyPass, ""},
		{"client-key-legacy.pem", keyPass, ""},
		{"client-key-pbes2-aes256.pem", "", "ssl.key.password"},
		{"client-key-pbes2-aes256.pem", "wrong-Secret-1", "wrong ssl.key.password"},
		{"client-key-pbes2-des3-sha1.pem", "wrong-Secret-1", "wrong ssl.key.password"},
		{"client-key-legacy.pem", "wrong-Secret-1", "wrong ssl.key.password"},
		{"client-key-pbes1.pem", keyPass, "openssl pkcs8 -topk8 -v2 aes-256-cbc"},
	}
	for i, tt := range tests {
		keyFile := filepath.Join(connTestdata, tt.key)
		keyPEM := string(mustRead(t, keyFile))
		pw := ""
		if tt.pass != "" {
			pw = "ssl.key.password=" + tt.pass + "\n"
		}
		// Three ways: a PEM key store (cert + key in one file), inline
		// PEM, and flags (with ssl.key.password from the file).
		variants := map[string]ConnOptions{
			"keystore": {CommandConfig: writeFile(t, dir, fmt.Sprintf("ks%d.properties", i), pw+"ssl.keystore.type=PEM\nssl.keystore.location="+
				writeFile(t, dir, fmt.Sprintf("ks%d.pem", i), certPEM+keyPEM)+"\n")},
			"inline": {CommandConfig: writeFile(t, dir, fmt.Sprintf("in%d.properties", i), pw+"ssl.keystore.type=PEM\n"+
				"ssl.keystore.certificate.chain="+strings.ReplaceAll(certPEM, "\n", "\\n")+"\n"+
				"ssl.keystore.key="+strings.ReplaceAll(keyPEM, "\n", "\\n")+"\n")},
			"flags": {TLSCertFile: cert, TLSKeyFile: keyFile, CommandConfig: writeFile(t, dir, fmt.Sprintf("fl%d.properties", i), pw)},
		}
		for name, o := range variants {
			o.Bootstrap, o.SecurityProtocol = "h:1", "SSL"
			cfg, err := o.Resolve()
			if tt.err == "" {
				if err != nil || cfg.TLS == nil || len(cfg.TLS.Certificates) != 1 || cfg.TLS.Certificates[0].PrivateKey == nil {
					t.Errorf("%s %s: cfg = %v, err = %v", tt.key, name, cfg, err)
				}
				continue
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %s: err = %v, want a data error mentioning %q", tt.key, name, err, tt.err)
			} else if strings.Contains(err.Error(), "Secret") || strings.Contains(err.Error(), "PRIVATE") {
				t.Errorf("%s %s: err leaks: %v", tt.key, name, err)
			}
		}
	}
	// A key that does not belong to the certificate.
	other := newTestCA(t)
	o := ConnOptions{Bootstrap: "h:1", TLSCertFile: cert, TLSKeyFile: writeFile(t, dir, "other-key.pem", string(other.keyPEM))}
	_, err := o.Resolve()
	if ce := wantConfigError(t, err, ConfigErrorData, "--tls-key-file"); !strings.Contains(ce.Msg, "do not form a pair") {
		t.Errorf("err = %v", err)
	}
}

// ---------------------------------------------------------------------
// Against in-process kfake clusters.

type testCA struct {
	cert            *x509.Certificate
	key             *ecdsa.PrivateKey
	certPEM, keyPEM []byte
}

var testSerial int64

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	testSerial++
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(testSerial),
		Subject:               pkix.Name{CommonName: "kcg test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	return &testCA{cert: cert, key: key,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})}
}

// issue returns a leaf certificate signed by ca, as a tls.Certificate and
// as PEM.
func (ca *testCA) issue(t *testing.T, cn string, dns []string, ips []net.IP, usage x509.ExtKeyUsage) (tls.Certificate, []byte, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	testSerial++
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(testSerial),
		Subject:      pkix.Name{CommonName: cn},
		DNSNames:     dns,
		IPAddresses:  ips,
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return pair, certPEM, keyPEM
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

func TestSASLAgainstKfake(t *testing.T) {
	const pw = "kfake-Secret-pw"
	addr := startKfake(t, kfake.EnableSASL(),
		kfake.Superuser("PLAIN", "plainuser", pw),
		kfake.Superuser("SCRAM-SHA-256", "scram256", pw),
		kfake.Superuser("SCRAM-SHA-512", "scram512", pw))
	dir := t.TempDir()
	for _, tt := range []struct{ mech, user, module string }{
		{"PLAIN", "plainuser", plainModule},
		{"SCRAM-SHA-256", "scram256", scramModule},
		{"SCRAM-SHA-512", "scram512", scramModule},
	} {
		t.Run(tt.mech, func(t *testing.T) {
			file := func(pass string) string {
				return writeFile(t, dir, tt.mech+pass+".properties", fmt.Sprintf(
					"bootstrap.servers=%s\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=%s\n"+
						"sasl.jaas.config=%s required \\\n    username=\"%s\" \\\n    password=\"%s\";\nclient.id=ignored-by-test\n",
					addr, tt.mech, tt.module, tt.user, pass))
			}
			if err := metadata(t, ConnOptions{CommandConfig: file(pw)}); err != nil {
				t.Errorf("via --command-config: %v", err)
			}
			if err := metadata(t, ConnOptions{Bootstrap: addr, SecurityProtocol: "SASL_PLAINTEXT", SASLMechanism: tt.mech, SASLUsername: tt.user, SASLPassword: pw}); err != nil {
				t.Errorf("via flags: %v", err)
			}
			// Flags override the file's credentials.
			if err := metadata(t, ConnOptions{CommandConfig: file("wrong"), SASLPassword: pw}); err != nil {
				t.Errorf("flag password over file: %v", err)
			}
			const bad = "wrong-Secret-pw"
			for name, o := range map[string]ConnOptions{
				"file":  {CommandConfig: file(bad)},
				"flags": {Bootstrap: addr, SASLMechanism: tt.mech, SASLUsername: tt.user, SASLPassword: bad},
			} {
				err := metadata(t, o)
				if err == nil {
					t.Errorf("wrong password via %s: no error", name)
				} else if strings.Contains(err.Error(), bad) {
					t.Errorf("wrong password via %s: error echoes it: %v", name, err)
				}
			}
		})
	}
}

func TestTLSAgainstKfake(t *testing.T) {
	ca := newTestCA(t)
	srv, _, _ := ca.issue(t, "broker", []string{"localhost"}, []net.IP{net.ParseIP("127.0.0.1")}, x509.ExtKeyUsageServerAuth)
	addr := startKfake(t, kfake.TLS(&tls.Config{Certificates: []tls.Certificate{srv}}))
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", string(ca.certPEM))
	other := newTestCA(t)
	otherFile := writeFile(t, dir, "other-ca.pem", string(other.certPEM))
	props := func(name, s string) string {
		return writeFile(t, dir, name, "bootstrap.servers="+addr+"\nsecurity.protocol=SSL\n"+s)
	}

	for name, o := range map[string]ConnOptions{
		"flag":              {Bootstrap: addr, TLSCAFile: caFile},
		"truststore PEM":    {CommandConfig: props("ts.properties", "ssl.truststore.type=PEM\nssl.truststore.location="+caFile+"\n")},
		"truststore inline": {CommandConfig: props("inline.properties", "ssl.truststore.type=PEM\nssl.truststore.certificates="+strings.ReplaceAll(string(ca.certPEM), "\n", "\\n")+"\n")},
		"flag over file":    {CommandConfig: props("over.properties", "ssl.truststore.location="+otherFile+"\n"), TLSCAFile: caFile},
		"server name":       {Bootstrap: addr, TLSCAFile: caFile, TLSServerName: "localhost"},
		"insecure":          {Bootstrap: addr, TLSInsecureSkipVerify: true},
	} {
		if err := metadata(t, o); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, o := range map[string]ConnOptions{
		"untrusted CA flag":    {Bootstrap: addr, TLSCAFile: otherFile},
		"untrusted CA file":    {CommandConfig: props("bad.properties", "ssl.truststore.location="+otherFile+"\n")},
		"system roots":         {Bootstrap: addr, SecurityProtocol: "SSL"},
		"server name mismatch": {Bootstrap: addr, TLSCAFile: caFile, TLSServerName: "kafka.example"},
		// An empty endpoint identification algorithm turns hostname
		// checks off, never chain checks.
		"untrusted CA, no hostname check": {CommandConfig: props("bad2.properties", "ssl.endpoint.identification.algorithm=\nssl.truststore.location="+otherFile+"\n")},
	} {
		err := metadata(t, o)
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Errorf("%s: err = %v, want a certificate error", name, err)
		}
	}
}

func TestTLSEndpointIdentificationAgainstKfake(t *testing.T) {
	ca := newTestCA(t)
	// The broker's certificate names a host that is not the address
	// dialled.
	srv, _, _ := ca.issue(t, "broker", []string{"broker.invalid"}, nil, x509.ExtKeyUsageServerAuth)
	addr := startKfake(t, kfake.TLS(&tls.Config{Certificates: []tls.Certificate{srv}}))
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", string(ca.certPEM))
	base := "bootstrap.servers=" + addr + "\nsecurity.protocol=SSL\nssl.truststore.location=" + caFile + "\n"

	err := metadata(t, ConnOptions{CommandConfig: writeFile(t, dir, "https.properties", base+"ssl.endpoint.identification.algorithm=https\n")})
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("hostname verification on: err = %v, want a certificate error", err)
	}
	f := writeFile(t, dir, "off.properties", base+"ssl.endpoint.identification.algorithm=\n")
	if err := metadata(t, ConnOptions{CommandConfig: f}); err != nil {
		t.Errorf("hostname verification off: %v", err)
	}
	cfg, _ := ConnOptions{CommandConfig: f}.Resolve()
	if !strings.Contains(cfg.Redacted(), "chain only") {
		t.Errorf("Redacted = %s", cfg.Redacted())
	}
	if err := metadata(t, ConnOptions{Bootstrap: addr, TLSCAFile: caFile, TLSServerName: "broker.invalid"}); err != nil {
		t.Errorf("--tls-server-name: %v", err)
	}
}

func TestTLSMutualAndSASLSSLAgainstKfake(t *testing.T) {
	ca := newTestCA(t)
	srv, _, _ := ca.issue(t, "broker", nil, []net.IP{net.ParseIP("127.0.0.1")}, x509.ExtKeyUsageServerAuth)
	_, clientCert, clientKey := ca.issue(t, "kcg-client", nil, nil, x509.ExtKeyUsageClientAuth)
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	const pw = "scram-Secret-pw"
	addr := startKfake(t,
		kfake.TLS(&tls.Config{Certificates: []tls.Certificate{srv}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert}),
		kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", pw))
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", string(ca.certPEM))
	certFile := writeFile(t, dir, "client.pem", string(clientCert))
	keyFile := writeFile(t, dir, "client-key.pem", string(clientKey))
	both := writeFile(t, dir, "client-both.pem", string(clientCert)+string(clientKey))
	jaas := "sasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"" + pw + "\";\n"
	head := "bootstrap.servers=" + addr + "\nsecurity.protocol=SASL_SSL\nssl.truststore.type=PEM\nssl.truststore.location=" + caFile + "\n" + jaas

	for name, o := range map[string]ConnOptions{
		"PEM key store": {CommandConfig: writeFile(t, dir, "ks.properties", head+"ssl.keystore.type=PEM\nssl.keystore.location="+both+"\n")},
		"inline PEM": {CommandConfig: writeFile(t, dir, "inline.properties", head+"ssl.keystore.type=PEM\n"+
			"ssl.keystore.certificate.chain="+strings.ReplaceAll(string(clientCert), "\n", "\\n")+"\n"+
			"ssl.keystore.key="+strings.ReplaceAll(string(clientKey), "\n", "\\n")+"\n")},
		"flags": {Bootstrap: addr, SecurityProtocol: "SASL_SSL", TLSCAFile: caFile, TLSCertFile: certFile, TLSKeyFile: keyFile,
			SASLMechanism: "SCRAM-SHA-512", SASLUsername: "alice", SASLPassword: pw},
		"cert file holding the key": {Bootstrap: addr, TLSCAFile: caFile, TLSCertFile: both, SASLMechanism: "SCRAM-SHA-512", SASLUsername: "alice", SASLPassword: pw},
	} {
		if err := metadata(t, o); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := metadata(t, ConnOptions{CommandConfig: writeFile(t, dir, "nocert.properties", head)}); err == nil {
		t.Error("no client certificate: no error")
	}
}

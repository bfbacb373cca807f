package kafkaadmin

// Connection configuration: what the user gave on the command line, in the
// environment and in a Java client properties file (--command-config),
// resolved into what kafka-go's Transport dials with. docs/connecting.md is
// the user's side of this file.

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"log/slog"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/segmentio/kafka-go/sasl"
	"github.com/segmentio/kafka-go/sasl/plain"
	fsasl "github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// ErrNoBootstrap means no bootstrap server was given anywhere: not by
// --bootstrap-server, KCG_BOOTSTRAP_SERVER, nor bootstrap.servers in the
// --command-config file. The commands layer reports it as a usage error.
var ErrNoBootstrap = errors.New("no bootstrap server: use --bootstrap-server HOST:PORT or set KCG_BOOTSTRAP_SERVER")

// ConnOptions holds what the user gave: flags, env, --command-config.
// A flag (or its environment variable, which the commands layer folds into
// the flag) wins over the same setting in the --command-config file, as in
// the Java tool. Format it with %v or call Redacted: the password is never
// printed.
type ConnOptions struct {
	// Bootstrap is --bootstrap-server / env KCG_BOOTSTRAP_SERVER:
	// comma-separated HOST:PORT addresses.
	Bootstrap string
	// CommandConfig is --command-config FILE, a Java client properties
	// file. Empty: none.
	CommandConfig string
	// SecurityProtocol is --security-protocol: PLAINTEXT, SSL,
	// SASL_PLAINTEXT or SASL_SSL (any case). It overrides security.protocol
	// of the file.
	SecurityProtocol string
	// SASLMechanism is --sasl-mechanism: PLAIN, SCRAM-SHA-256 or
	// SCRAM-SHA-512.
	SASLMechanism string
	// SASLUsername is --sasl-username; it overrides the username of
	// sasl.jaas.config.
	SASLUsername string
	// SASLPassword is --sasl-password / env KCG_SASL_PASSWORD; it overrides
	// the password of sasl.jaas.config. Never printed.
	SASLPassword string
	// TLSCAFile is --tls-ca-file, a PEM file of CA certificates to trust
	// instead of the system roots; it overrides ssl.truststore.*.
	TLSCAFile string
	// TLSCertFile is --tls-cert-file, the PEM client certificate chain for
	// mutual TLS (it may also hold the key); it overrides ssl.keystore.*.
	TLSCertFile string
	// TLSKeyFile is --tls-key-file, the PEM private key of TLSCertFile.
	TLSKeyFile string
	// TLSServerName is --tls-server-name: the name every broker certificate
	// is verified against (and sent as SNI) instead of the broker's host.
	TLSServerName string
	// TLSInsecureSkipVerify is --tls-insecure-skip-verify: no certificate
	// verification at all. Only when explicitly asked.
	TLSInsecureSkipVerify bool
	// Timeout is --timeout, the whole-command deadline the commands layer
	// applies; Resolve does not use it.
	Timeout time.Duration
}

// Config is the resolved connection the admin client dials with. Format it
// with %v or call Redacted: the SASL password never appears. (Printing the
// TLS field on its own is not safe: a tls.Config holds the client key.)
type Config struct {
	// Bootstrap is the list of HOST:PORT bootstrap addresses.
	Bootstrap []string
	// TLS is the TLS configuration; nil means plaintext.
	TLS *tls.Config
	// SASL is the SASL mechanism; nil means no SASL.
	SASL sasl.Mechanism
	// ClientID is client.id from the --command-config file; empty means the
	// client's default.
	ClientID string
}

// ConfigErrorKind says whether a ConfigError is flag misuse or bad
// configuration data; the commands layer maps it to an exit code.
type ConfigErrorKind int

const (
	// ConfigErrorUsage is misuse of the connection flags: an unknown value,
	// a missing or conflicting option (exit 64).
	ConfigErrorUsage ConfigErrorKind = iota + 1
	// ConfigErrorData is configuration data that cannot be used: an
	// unreadable or malformed --command-config file, a bad or unsupported
	// value in it, an unreadable or malformed certificate or key file
	// (exit 65).
	ConfigErrorData
)

// ConfigError is a connection setting that cannot be used. Its message
// names the flag or property key (and the file and line) and says what to
// do; it never contains a password, a sasl.jaas.config value or key
// material.
type ConfigError struct {
	Kind ConfigErrorKind
	File string // the --command-config file, when the setting came from it
	Line int    // the line of File the key was set on (0: unknown)
	Key  string // the flag ("--tls-ca-file") or property key ("sasl.jaas.config")
	Msg  string // what is wrong and what to do
	Err  error  // the underlying error (e.g. *fs.PathError), if any
}

// Error returns one line: where, which setting, what is wrong.
func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString("--command-config ")
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ", line %d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

// Security protocols (Java's security.protocol values).
const (
	protoPlaintext     = "PLAINTEXT"
	protoSSL           = "SSL"
	protoSASLPlaintext = "SASL_PLAINTEXT"
	protoSASLSSL       = "SASL_SSL"
)

// SASL mechanisms kcg implements.
const (
	mechPlain     = "PLAIN"
	mechSCRAM256  = "SCRAM-SHA-256"
	mechSCRAM512  = "SCRAM-SHA-512"
	plainModule   = "org.apache.kafka.common.security.plain.PlainLoginModule"
	scramModule   = "org.apache.kafka.common.security.scram.ScramLoginModule"
	redactedValue = "[redacted]"
)

// unsupportedKeys are Java client keys that change how the client
// authenticates or where its settings come from, which kcg cannot honour.
// Ignoring them would connect differently from what the file says, so
// they are errors. needs says when they matter: "sasl" with a SASL
// protocol, "ssl" with a TLS protocol, "" always.
var unsupportedKeys = []struct{ key, needs, why string }{
	{"config.providers", "", "config providers (${provider:...} values) are not supported; put the values in the file"},
	{"sasl.login.class", "sasl", "custom login classes are not supported"},
	{"sasl.login.callback.handler.class", "sasl", "custom login callback handlers are not supported"},
	{"sasl.client.callback.handler.class", "sasl", "custom client callback handlers are not supported"},
	{"ssl.engine.factory.class", "ssl", "custom SSL engine factories are not supported"},
}

// Resolve checks the options, reads the --command-config file and any
// certificate files, and returns the connection to dial. Errors are
// ErrNoBootstrap or a *ConfigError.
func (o ConnOptions) Resolve() (Config, error) {
	r := &resolver{o: o, p: &properties{}}
	if o.CommandConfig != "" {
		data, err := os.ReadFile(o.CommandConfig)
		if err != nil {
			return Config{}, &ConfigError{Kind: ConfigErrorData, Key: "--command-config", Msg: "cannot read the client properties file", Err: err}
		}
		p, err := parseProperties(data)
		if err != nil {
			ce := &ConfigError{Kind: ConfigErrorData, File: o.CommandConfig, Msg: err.Error()}
			var pe *propertiesError
			if errors.As(err, &pe) {
				ce.Line, ce.Msg = pe.line, pe.msg
			}
			return Config{}, ce
		}
		r.p = p
		r.file = o.CommandConfig
	}
	return r.resolve()
}

// resolver carries the inputs of one Resolve.
type resolver struct {
	o    ConnOptions
	p    *properties
	file string
}

// get returns a file value trimmed of surrounding whitespace, as Java's
// ConfigDef does for string, password and list values.
func (r *resolver) get(key string) string {
	v, _ := r.p.get(key)
	return strings.TrimSpace(v)
}

func (r *resolver) has(key string) bool { return r.get(key) != "" }

func (r *resolver) dataErr(key, msg string, err error) *ConfigError {
	e := &ConfigError{Kind: ConfigErrorData, Key: key, Msg: msg, Err: err}
	if r.file != "" && !strings.HasPrefix(key, "--") {
		e.File = r.file
		e.Line = r.p.lineOf(key)
	}
	return e
}

func usageErr(flag, msg string) *ConfigError {
	return &ConfigError{Kind: ConfigErrorUsage, Key: flag, Msg: msg}
}

func (r *resolver) resolve() (Config, error) {
	var cfg Config
	var err error
	if cfg.Bootstrap, err = r.bootstrap(); err != nil {
		return Config{}, err
	}
	proto, err := r.protocol()
	if err != nil {
		return Config{}, err
	}
	useTLS := proto == protoSSL || proto == protoSASLSSL
	useSASL := proto == protoSASLPlaintext || proto == protoSASLSSL
	for _, u := range unsupportedKeys {
		if !r.has(u.key) {
			continue
		}
		if u.needs == "" || (u.needs == "sasl" && useSASL) || (u.needs == "ssl" && useTLS) {
			return Config{}, r.dataErr(u.key, u.why, nil)
		}
	}
	if err := r.checkConflicts(proto, useTLS, useSASL); err != nil {
		return Config{}, err
	}
	if useTLS {
		if cfg.TLS, err = r.tlsConfig(); err != nil {
			return Config{}, err
		}
	}
	if useSASL {
		if cfg.SASL, err = r.saslMechanism(); err != nil {
			return Config{}, err
		}
	}
	cfg.ClientID = r.get("client.id")
	return cfg, nil
}

// bootstrap returns the bootstrap addresses: the flag, else
// bootstrap.servers of the file.
func (r *resolver) bootstrap() ([]string, error) {
	raw, key := r.o.Bootstrap, "--bootstrap-server"
	if strings.TrimSpace(raw) == "" {
		raw, key = r.get("bootstrap.servers"), "bootstrap.servers"
	}
	var out []string
	for _, a := range strings.Split(raw, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		n, perr := strconv.Atoi(port)
		if err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			msg := fmt.Sprintf("%q is not HOST:PORT", a)
			if key == "bootstrap.servers" {
				return nil, r.dataErr(key, msg, nil)
			}
			return nil, usageErr(key, msg)
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, ErrNoBootstrap
	}
	return out, nil
}

// tlsFlagGiven reports whether any TLS flag was given.
func (r *resolver) tlsFlagGiven() string {
	o := r.o
	switch {
	case o.TLSCAFile != "":
		return "--tls-ca-file"
	case o.TLSCertFile != "":
		return "--tls-cert-file"
	case o.TLSKeyFile != "":
		return "--tls-key-file"
	case o.TLSServerName != "":
		return "--tls-server-name"
	case o.TLSInsecureSkipVerify:
		return "--tls-insecure-skip-verify"
	}
	return ""
}

// saslFlagGiven reports whether a SASL flag was given. The password alone
// does not count: KCG_SASL_PASSWORD may be exported for other clusters.
func (r *resolver) saslFlagGiven() string {
	switch {
	case r.o.SASLMechanism != "":
		return "--sasl-mechanism"
	case r.o.SASLUsername != "":
		return "--sasl-username"
	}
	return ""
}

// protocol returns the security protocol: the flag, else
// security.protocol of the file, else inferred from what else was given
// (Java would default to PLAINTEXT and ignore the rest).
func (r *resolver) protocol() (string, error) {
	if p := strings.TrimSpace(r.o.SecurityProtocol); p != "" {
		p = strings.ToUpper(p)
		if !validProtocol(p) {
			return "", usageErr("--security-protocol", fmt.Sprintf("unknown protocol %q: use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL", r.o.SecurityProtocol))
		}
		return p, nil
	}
	if p := r.get("security.protocol"); p != "" {
		up := strings.ToUpper(p)
		if !validProtocol(up) {
			return "", r.dataErr("security.protocol", fmt.Sprintf("unknown protocol %q: use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL", p), nil)
		}
		return up, nil
	}
	useTLS := r.tlsFlagGiven() != "" || r.has("ssl.truststore.location") || r.has("ssl.truststore.certificates") ||
		r.has("ssl.keystore.location") || r.has("ssl.keystore.certificate.chain")
	useSASL := r.saslFlagGiven() != "" || r.has("sasl.mechanism") || r.has("sasl.jaas.config")
	switch {
	case useTLS && useSASL:
		return protoSASLSSL, nil
	case useTLS:
		return protoSSL, nil
	case useSASL:
		return protoSASLPlaintext, nil
	}
	return protoPlaintext, nil
}

func validProtocol(p string) bool {
	switch p {
	case protoPlaintext, protoSSL, protoSASLPlaintext, protoSASLSSL:
		return true
	}
	return false
}

// checkConflicts refuses TLS or SASL flags the chosen protocol would
// ignore. Settings in the file that the protocol does not use are ignored,
// as Java does: one properties file often serves several clients.
func (r *resolver) checkConflicts(proto string, useTLS, useSASL bool) error {
	if f := r.tlsFlagGiven(); f != "" && !useTLS {
		return usageErr(f, fmt.Sprintf("given, but the security protocol is %s (no TLS); use --security-protocol %s", proto, withTLS(proto)))
	}
	if f := r.saslFlagGiven(); f != "" && !useSASL {
		return usageErr(f, fmt.Sprintf("given, but the security protocol is %s (no SASL); use --security-protocol %s", proto, withSASL(proto)))
	}
	if r.o.TLSKeyFile != "" && r.o.TLSCertFile == "" {
		return usageErr("--tls-key-file", "needs --tls-cert-file")
	}
	return nil
}

func withTLS(p string) string {
	if p == protoSASLPlaintext {
		return protoSASLSSL
	}
	return protoSSL
}

func withSASL(p string) string {
	if p == protoSSL {
		return protoSASLSSL
	}
	return protoSASLPlaintext
}

// ---------------------------------------------------------------------
// SASL

// saslMechanism builds the mechanism from flags and sasl.mechanism /
// sasl.jaas.config.
func (r *resolver) saslMechanism() (sasl.Mechanism, error) {
	mech, fromFlag := strings.ToUpper(strings.TrimSpace(r.o.SASLMechanism)), true
	if mech == "" {
		mech, fromFlag = strings.ToUpper(r.get("sasl.mechanism")), false
	}
	var jaas *jaasEntry
	if v, ok := r.p.get("sasl.jaas.config"); ok && strings.TrimSpace(v) != "" {
		e, err := parseJAAS(v)
		if err != nil {
			return nil, r.dataErr("sasl.jaas.config", err.Error(), nil)
		}
		switch e.module {
		case plainModule, scramModule:
		default:
			return nil, r.dataErr("sasl.jaas.config", fmt.Sprintf("login module %s is not supported: kcg supports %s (PLAIN) and %s (SCRAM-SHA-256, SCRAM-SHA-512)", e.module, plainModule, scramModule), nil)
		}
		jaas = e
	}
	if mech == "" {
		if jaas != nil && jaas.module == plainModule {
			mech = mechPlain
		} else {
			return nil, usageErr("--sasl-mechanism", "no SASL mechanism given: use --sasl-mechanism PLAIN|SCRAM-SHA-256|SCRAM-SHA-512 or set sasl.mechanism in --command-config")
		}
	}
	switch mech {
	case mechPlain, mechSCRAM256, mechSCRAM512:
	default:
		msg := fmt.Sprintf("mechanism %q is not supported: kcg supports PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512", mech)
		if fromFlag {
			return nil, usageErr("--sasl-mechanism", msg)
		}
		return nil, r.dataErr("sasl.mechanism", msg, nil)
	}

	user, pass, token := r.o.SASLUsername, r.o.SASLPassword, false
	if jaas != nil {
		if user == "" {
			u, ok := jaas.options["username"]
			if !ok {
				return nil, r.dataErr("sasl.jaas.config", fmt.Sprintf("username missing: write %s required username=\"...\" password=\"...\"; (or give --sasl-username)", jaas.shortModule()), nil)
			}
			user = u
		}
		if pass == "" {
			p, ok := jaas.options["password"]
			if !ok {
				return nil, r.dataErr("sasl.jaas.config", fmt.Sprintf("password missing: write %s required username=\"...\" password=\"...\"; (or set KCG_SASL_PASSWORD)", jaas.shortModule()), nil)
			}
			pass = p
		}
		token = strings.EqualFold(jaas.options["tokenauth"], "true")
	}
	if user == "" {
		return nil, usageErr("--sasl-username", fmt.Sprintf("SASL %s needs a user name: give --sasl-username or sasl.jaas.config in --command-config", mech))
	}
	if pass == "" {
		return nil, usageErr("--sasl-password", fmt.Sprintf("SASL %s needs a password: set KCG_SASL_PASSWORD (keeps it out of shell history), give --sasl-password, or put it in sasl.jaas.config", mech))
	}
	m := &saslMech{name: mech, user: user, token: token}
	switch mech {
	case mechPlain:
		m.inner = plain.Mechanism{Username: user, Password: pass}
	case mechSCRAM256:
		m.inner = franzMechanism{scram.Auth{User: user, Pass: pass, IsToken: token}.AsSha256Mechanism()}
	case mechSCRAM512:
		m.inner = franzMechanism{scram.Auth{User: user, Pass: pass, IsToken: token}.AsSha512Mechanism()}
	}
	return m, nil
}

// saslMech is the sasl.Mechanism kcg hands kafka-go. It wraps the real
// mechanism so that printing it (or a Config holding it) never shows the
// password.
type saslMech struct {
	name  string
	user  string
	token bool
	inner sasl.Mechanism
}

// Name is the mechanism's name for the SaslHandshake.
func (m *saslMech) Name() string { return m.name }

// Start begins an authentication with the wrapped mechanism.
func (m *saslMech) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	return m.inner.Start(ctx)
}

// String describes the mechanism without its password.
func (m *saslMech) String() string {
	s := fmt.Sprintf("{Mechanism: %s, Username: %q, Password: %s", m.name, m.user, redactedValue)
	if m.token {
		s += ", TokenAuth: true"
	}
	return s + "}"
}

// Format makes every fmt verb print String.
func (m *saslMech) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(m.String())) }

// franzMechanism adapts franz-go's SCRAM implementation (RFC 5802 over the
// standard library's crypto/pbkdf2, no SASLprep, the same as the Java
// client) to kafka-go's sasl.Mechanism. kafka-go's own sasl/scram needs
// github.com/xdg-go/scram, which this module does not otherwise require.
type franzMechanism struct{ m fsasl.Mechanism }

func (f franzMechanism) Name() string { return f.m.Name() }

func (f franzMechanism) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	host := ""
	if md := sasl.MetadataFromContext(ctx); md != nil {
		host = net.JoinHostPort(md.Host, strconv.Itoa(md.Port))
	}
	s, first, err := f.m.Authenticate(ctx, host)
	if err != nil {
		return nil, nil, err
	}
	return franzSession{s}, first, nil
}

func (f franzMechanism) Format(fs fmt.State, _ rune) { _, _ = fs.Write([]byte("{" + f.m.Name() + "}")) }

type franzSession struct{ s fsasl.Session }

func (s franzSession) Next(_ context.Context, challenge []byte) (bool, []byte, error) {
	return s.s.Challenge(challenge)
}

// ---------------------------------------------------------------------
// TLS

// tlsConfig builds the TLS configuration: trust, client certificate,
// hostname verification.
func (r *resolver) tlsConfig() (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: r.o.TLSServerName}

	roots, err := r.rootCAs()
	if err != nil {
		return nil, err
	}
	tc.RootCAs = roots

	cert, err := r.clientCert()
	if err != nil {
		return nil, err
	}
	if cert != nil {
		tc.Certificates = []tls.Certificate{*cert}
	}

	algo, set := r.p.get("ssl.endpoint.identification.algorithm")
	algo = strings.TrimSpace(algo)
	switch {
	case r.o.TLSInsecureSkipVerify:
		tc.InsecureSkipVerify = true
	case set && algo == "":
		// Java semantics: an empty algorithm turns hostname verification
		// off but the chain is still verified. crypto/tls can only skip
		// both, so skip them and verify the chain here.
		tc.InsecureSkipVerify = true
		tc.VerifyConnection = verifyChainOnly(roots)
	case !set || strings.EqualFold(algo, "https"):
	default:
		return nil, r.dataErr("ssl.endpoint.identification.algorithm", fmt.Sprintf("unsupported value %q: use https (verify the broker's host name, the default) or an empty value (do not)", algo), nil)
	}
	return tc, nil
}

// verifyChainOnly verifies the broker's certificate chain against roots
// (nil: the system roots) without checking its host name.
func verifyChainOnly(roots *x509.CertPool) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("tls: the broker sent no certificate")
		}
		opts := x509.VerifyOptions{
			Roots:         roots,
			Intermediates: x509.NewCertPool(),
			KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		}
		for _, c := range cs.PeerCertificates[1:] {
			opts.Intermediates.AddCert(c)
		}
		if _, err := cs.PeerCertificates[0].Verify(opts); err != nil {
			return fmt.Errorf("tls: failed to verify certificate: %w", err)
		}
		return nil
	}
}

// rootCAs returns the CAs to trust: --tls-ca-file, else
// ssl.truststore.location or ssl.truststore.certificates, else nil (the
// system roots).
func (r *resolver) rootCAs() (*x509.CertPool, error) {
	var data []byte
	var key string
	switch {
	case r.o.TLSCAFile != "":
		key = "--tls-ca-file"
		b, err := os.ReadFile(r.o.TLSCAFile)
		if err != nil {
			return nil, r.dataErr(key, "cannot read the CA file", err)
		}
		if f := sniffStore(b); f != "PEM" && f != "" {
			return nil, r.dataErr(key, fmt.Sprintf("%s is a %s store, not PEM; %s", r.o.TLSCAFile, f, truststoreHint(f, r.o.TLSCAFile)), nil)
		}
		data = b
	case r.has("ssl.truststore.location") && r.has("ssl.truststore.certificates"):
		return nil, r.dataErr("ssl.truststore.certificates", "cannot be combined with ssl.truststore.location: keep one", nil)
	case r.has("ssl.truststore.certificates"):
		key = "ssl.truststore.certificates"
		data = []byte(r.get(key))
	case r.has("ssl.truststore.location"):
		key = "ssl.truststore.location"
		loc := r.get(key)
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, r.dataErr(key, "cannot read the trust store", err)
		}
		typ := strings.ToUpper(r.get("ssl.truststore.type"))
		sniffed := sniffStore(b)
		if typ == "" {
			typ = sniffed
		}
		if typ != "PEM" {
			if typ == "" {
				typ = "JKS" // Java's default ssl.truststore.type
			}
			return nil, r.dataErr(key, fmt.Sprintf("%s is a %s trust store; kcg reads PEM only. %s", loc, typ, truststoreHint(typ, loc)), nil)
		}
		data = b
	default:
		return nil, nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		msg := "no PEM certificate found (expected -----BEGIN CERTIFICATE-----)"
		switch key {
		case "ssl.truststore.certificates":
			msg += "; in a properties file write the line breaks as \\n or end each line with \\"
		case "ssl.truststore.location":
			msg += "; if it is a JKS store, " + truststoreHint("JKS", r.get(key))
		default:
			msg += "; if it is a JKS store, " + truststoreHint("JKS", r.o.TLSCAFile)
		}
		return nil, r.dataErr(key, msg, nil)
	}
	return pool, nil
}

// truststoreHint says how to turn a Java trust store into PEM.
func truststoreHint(format, path string) string {
	conv := fmt.Sprintf("convert it with: keytool -exportcert -rfc -keystore %s -alias CARoot -file ca.pem (keytool -list -keystore %s shows the aliases)", path, path)
	if format == "PKCS12" {
		conv = fmt.Sprintf("convert it with: openssl pkcs12 -in %s -nokeys -out ca.pem", path)
	}
	return conv + ", then set ssl.truststore.location=ca.pem and ssl.truststore.type=PEM, or pass --tls-ca-file ca.pem"
}

// keystoreHint says how to turn a Java key store into PEM.
func keystoreHint(format, path string) string {
	p12 := path
	pre := ""
	if format != "PKCS12" {
		p12 = "client.p12"
		pre = fmt.Sprintf("keytool -importkeystore -srckeystore %s -destkeystore client.p12 -deststoretype PKCS12, then ", path)
	}
	return fmt.Sprintf("convert it with: %sopenssl pkcs12 -in %s -out client.pem -nodes, then set ssl.keystore.location=client.pem and ssl.keystore.type=PEM, or pass --tls-cert-file client.pem --tls-key-file client.pem", pre, p12)
}

// sniffStore names the format of a certificate store file by its first
// bytes: "PEM", "JKS", "JCEKS", "PKCS12", or "" when unknown.
func sniffStore(b []byte) string {
	switch {
	case bytes.Contains(b, []byte("-----BEGIN ")):
		return "PEM"
	case len(b) >= 4 && binary.BigEndian.Uint32(b) == 0xFEEDFEED:
		return "JKS"
	case len(b) >= 4 && binary.BigEndian.Uint32(b) == 0xCECECECE:
		return "JCEKS"
	case len(b) >= 2 && b[0] == 0x30:
		return "PKCS12" // a DER SEQUENCE: PKCS#12 is the store that looks like this
	}
	return ""
}

// clientCert returns the client certificate for mutual TLS:
// --tls-cert-file/--tls-key-file, else ssl.keystore.location (PEM) or
// ssl.keystore.certificate.chain + ssl.keystore.key; nil when none.
func (r *resolver) clientCert() (*tls.Certificate, error) {
	keyPass := r.get("ssl.key.password")
	if r.o.TLSCertFile != "" {
		certData, err := os.ReadFile(r.o.TLSCertFile)
		if err != nil {
			return nil, r.dataErr("--tls-cert-file", "cannot read the client certificate", err)
		}
		keyData, keyFlag := certData, "--tls-cert-file"
		if r.o.TLSKeyFile != "" {
			if keyData, err = os.ReadFile(r.o.TLSKeyFile); err != nil {
				return nil, r.dataErr("--tls-key-file", "cannot read the client key", err)
			}
			keyFlag = "--tls-key-file"
		} else if !hasPEMKey(certData) {
			return nil, usageErr("--tls-cert-file", "the file holds no private key: give --tls-key-file too")
		}
		return r.keyPair(certData, keyData, keyPass, "--tls-cert-file", keyFlag)
	}
	loc, chain, key := r.get("ssl.keystore.location"), r.get("ssl.keystore.certificate.chain"), r.get("ssl.keystore.key")
	switch {
	case loc != "" && (chain != "" || key != ""):
		return nil, r.dataErr("ssl.keystore.location", "cannot be combined with ssl.keystore.certificate.chain/ssl.keystore.key: keep one", nil)
	case loc != "":
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, r.dataErr("ssl.keystore.location", "cannot read the key store", err)
		}
		typ := strings.ToUpper(r.get("ssl.keystore.type"))
		if typ == "" {
			typ = sniffStore(b)
		}
		if typ != "PEM" {
			if typ == "" {
				typ = "JKS"
			}
			return nil, r.dataErr("ssl.keystore.location", fmt.Sprintf("%s is a %s key store; kcg reads PEM only. %s", loc, typ, keystoreHint(typ, loc)), nil)
		}
		if !hasPEMKey(b) {
			return nil, r.dataErr("ssl.keystore.location", "the PEM key store must hold the certificate chain and the private key", nil)
		}
		return r.keyPair(b, b, keyPass, "ssl.keystore.location", "ssl.keystore.location")
	case chain != "" || key != "":
		if chain == "" || key == "" {
			return nil, r.dataErr("ssl.keystore.certificate.chain", "ssl.keystore.certificate.chain and ssl.keystore.key go together", nil)
		}
		return r.keyPair([]byte(chain), []byte(key), keyPass, "ssl.keystore.certificate.chain", "ssl.keystore.key")
	}
	return nil, nil
}

func hasPEMKey(b []byte) bool {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return false
		}
		if strings.HasSuffix(blk.Type, "PRIVATE KEY") {
			return true
		}
	}
}

// keyPair pairs the certificates of certData with the private key of
// keyData, decrypting the key with password when it is encrypted.
func (r *resolver) keyPair(certData, keyData []byte, password, certKey, keyKey string) (*tls.Certificate, error) {
	var certPEM []byte
	for rest := certData; ; {
		var blk *pem.Block
		if blk, rest = pem.Decode(rest); blk == nil {
			break
		}
		if blk.Type == "CERTIFICATE" {
			certPEM = append(certPEM, pem.EncodeToMemory(blk)...)
		}
	}
	if len(certPEM) == 0 {
		return nil, r.dataErr(certKey, "no PEM certificate found (expected -----BEGIN CERTIFICATE-----)", nil)
	}
	var keyBlk *pem.Block
	for rest := keyData; ; {
		var blk *pem.Block
		if blk, rest = pem.Decode(rest); blk == nil {
			break
		}
		if strings.HasSuffix(blk.Type, "PRIVATE KEY") {
			keyBlk = blk
			break
		}
	}
	if keyBlk == nil {
		return nil, r.dataErr(keyKey, "no PEM private key found (expected -----BEGIN PRIVATE KEY-----)", nil)
	}
	plainKey, err := decryptKeyBlock(keyBlk, password)
	if err != nil {
		return nil, r.dataErr(keyKey, err.Error(), nil)
	}
	cert, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(plainKey))
	if err != nil {
		return nil, r.dataErr(keyKey, "the certificate and the private key do not form a pair", err)
	}
	return &cert, nil
}

var errKeyPassword = errors.New("cannot decrypt the private key: wrong ssl.key.password, or the key is damaged")

// decryptKeyBlock returns an unencrypted PEM block for blk: PKCS#8
// "ENCRYPTED PRIVATE KEY" (PBES2 with PBKDF2 and AES or 3DES, what Java and
// OpenSSL write) or a legacy OpenSSL "Proc-Type: 4,ENCRYPTED" key.
func decryptKeyBlock(blk *pem.Block, password string) (*pem.Block, error) {
	encrypted := blk.Type == "ENCRYPTED PRIVATE KEY" || blk.Headers["Proc-Type"] == "4,ENCRYPTED"
	if !encrypted {
		return blk, nil
	}
	if password == "" {
		return nil, errors.New("the private key is encrypted: set ssl.key.password in --command-config, or decrypt it with: openssl pkey -in key.pem -out key-plain.pem")
	}
	if blk.Type == "ENCRYPTED PRIVATE KEY" {
		der, err := decryptPKCS8(blk.Bytes, password)
		if err != nil {
			return nil, err
		}
		if _, err := x509.ParsePKCS8PrivateKey(der); err != nil {
			return nil, errKeyPassword
		}
		return &pem.Block{Type: "PRIVATE KEY", Bytes: der}, nil
	}
	// Legacy OpenSSL encryption: insecure key derivation (MD5, one round),
	// but it is what "openssl rsa -aes256" wrote for years, so read it.
	der, err := x509.DecryptPEMBlock(blk, []byte(password)) //nolint:staticcheck // reading legacy keys only
	if err != nil {
		return nil, errKeyPassword
	}
	return &pem.Block{Type: blk.Type, Bytes: der}, nil
}

var (
	oidPBES2      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidHMACSHA1   = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 7}
	oidHMACSHA224 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 8}
	oidHMACSHA256 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 9}
	oidHMACSHA384 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 10}
	oidHMACSHA512 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 11}
	oidAES128CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
	oidDESEDE3CBC = asn1.ObjectIdentifier{1, 2, 840, 113549, 3, 7}
)

var errKeyEncryption = errors.New("the private key's encryption is not supported (kcg reads PKCS#8 PBES2 with PBKDF2 and AES-CBC or 3DES-CBC); re-encrypt it with: openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-enc.pem")

// decryptPKCS8 decrypts a PKCS#8 EncryptedPrivateKeyInfo (RFC 5958, PBES2
// of RFC 8018) and returns the PrivateKeyInfo DER.
func decryptPKCS8(der []byte, password string) ([]byte, error) {
	var info struct {
		Algo pkix.AlgorithmIdentifier
		Data []byte
	}
	if rest, err := asn1.Unmarshal(der, &info); err != nil || len(rest) != 0 {
		return nil, errors.New("malformed encrypted private key")
	}
	if !info.Algo.Algorithm.Equal(oidPBES2) {
		return nil, errKeyEncryption
	}
	var params struct {
		KDF pkix.AlgorithmIdentifier
		Enc pkix.AlgorithmIdentifier
	}
	if _, err := asn1.Unmarshal(info.Algo.Parameters.FullBytes, &params); err != nil {
		return nil, errors.New("malformed encrypted private key parameters")
	}
	if !params.KDF.Algorithm.Equal(oidPBKDF2) {
		return nil, errKeyEncryption
	}
	var kdf struct {
		Salt   []byte
		Iter   int
		KeyLen int                      `asn1:"optional"`
		PRF    pkix.AlgorithmIdentifier `asn1:"optional"`
	}
	if _, err := asn1.Unmarshal(params.KDF.Parameters.FullBytes, &kdf); err != nil {
		return nil, errors.New("malformed PBKDF2 parameters in the private key")
	}
	if kdf.Iter < 1 || kdf.Iter > 10_000_000 {
		return nil, errors.New("implausible PBKDF2 iteration count in the private key")
	}
	var prf func() hash.Hash
	switch a := kdf.PRF.Algorithm; {
	case len(a) == 0 || a.Equal(oidHMACSHA1):
		prf = sha1.New
	case a.Equal(oidHMACSHA224):
		prf = sha256.New224
	case a.Equal(oidHMACSHA256):
		prf = sha256.New
	case a.Equal(oidHMACSHA384):
		prf = sha512.New384
	case a.Equal(oidHMACSHA512):
		prf = sha512.New
	default:
		return nil, errKeyEncryption
	}
	var keyLen int
	var newCipher func([]byte) (cipher.Block, error)
	switch a := params.Enc.Algorithm; {
	case a.Equal(oidAES128CBC):
		keyLen, newCipher = 16, aes.NewCipher
	case a.Equal(oidAES192CBC):
		keyLen, newCipher = 24, aes.NewCipher
	case a.Equal(oidAES256CBC):
		keyLen, newCipher = 32, aes.NewCipher
	case a.Equal(oidDESEDE3CBC):
		keyLen, newCipher = 24, des.NewTripleDESCipher
	default:
		return nil, errKeyEncryption
	}
	if kdf.KeyLen != 0 && kdf.KeyLen != keyLen {
		return nil, errors.New("malformed encrypted private key: key length does not match the cipher")
	}
	var iv []byte
	if _, err := asn1.Unmarshal(params.Enc.Parameters.FullBytes, &iv); err != nil {
		return nil, errors.New("malformed cipher parameters in the private key")
	}
	key, err := pbkdf2.Key(prf, password, kdf.Salt, kdf.Iter, keyLen)
	if err != nil {
		return nil, errKeyEncryption
	}
	block, err := newCipher(key)
	if err != nil {
		return nil, errKeyEncryption
	}
	bs := block.BlockSize()
	if len(iv) != bs || len(info.Data) == 0 || len(info.Data)%bs != 0 {
		return nil, errors.New("malformed encrypted private key")
	}
	out := make([]byte, len(info.Data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, info.Data)
	pad := int(out[len(out)-1])
	if pad == 0 || pad > bs {
		return nil, errKeyPassword
	}
	for _, b := range out[len(out)-pad:] {
		if int(b) != pad {
			return nil, errKeyPassword
		}
	}
	return out[:len(out)-pad], nil
}

// ---------------------------------------------------------------------
// Redaction

// Redacted describes the options with the password replaced by
// "[redacted]" (or "" when none was given).
func (o ConnOptions) Redacted() string {
	pw := ""
	if o.SASLPassword != "" {
		pw = redactedValue
	}
	return fmt.Sprintf("ConnOptions{Bootstrap: %q, CommandConfig: %q, SecurityProtocol: %q, SASLMechanism: %q, SASLUsername: %q, SASLPassword: %s, TLSCAFile: %q, TLSCertFile: %q, TLSKeyFile: %q, TLSServerName: %q, TLSInsecureSkipVerify: %t, Timeout: %s}",
		o.Bootstrap, o.CommandConfig, o.SecurityProtocol, o.SASLMechanism, o.SASLUsername, pw,
		o.TLSCAFile, o.TLSCertFile, o.TLSKeyFile, o.TLSServerName, o.TLSInsecureSkipVerify, o.Timeout)
}

// String is Redacted.
func (o ConnOptions) String() string { return o.Redacted() }

// GoString is Redacted, so %#v is safe too.
func (o ConnOptions) GoString() string { return o.Redacted() }

// Format makes every fmt verb (%v, %+v, %#v, %s, %q, ...) print Redacted.
func (o ConnOptions) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(o.Redacted())) }

// LogValue makes log/slog record Redacted.
func (o ConnOptions) LogValue() slog.Value { return slog.StringValue(o.Redacted()) }

// Redacted describes the configuration without secrets: the SASL password
// and the TLS private key are never shown.
func (c Config) Redacted() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Config{Bootstrap: %v, TLS: ", c.Bootstrap)
	if c.TLS == nil {
		b.WriteString("off")
	} else {
		t := c.TLS
		roots := "system"
		if t.RootCAs != nil {
			roots = "custom"
		}
		verify := "chain+hostname"
		switch {
		case t.InsecureSkipVerify && t.VerifyConnection != nil:
			verify = "chain only (ssl.endpoint.identification.algorithm is empty)"
		case t.InsecureSkipVerify:
			verify = "NONE (--tls-insecure-skip-verify)"
		}
		fmt.Fprintf(&b, "{MinVersion: %s, RootCAs: %s, ClientCertificate: %t, ServerName: %q, Verify: %s}",
			tls.VersionName(t.MinVersion), roots, len(t.Certificates) > 0, t.ServerName, verify)
	}
	b.WriteString(", SASL: ")
	switch m := c.SASL.(type) {
	case nil:
		b.WriteString("off")
	case *saslMech:
		b.WriteString(m.String())
	default:
		fmt.Fprintf(&b, "{Mechanism: %s}", m.Name())
	}
	fmt.Fprintf(&b, ", ClientID: %q}", c.ClientID)
	return b.String()
}

// String is Redacted.
func (c Config) String() string { return c.Redacted() }

// GoString is Redacted, so %#v is safe too.
func (c Config) GoString() string { return c.Redacted() }

// Format makes every fmt verb (%v, %+v, %#v, %s, %q, ...) print Redacted.
func (c Config) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.Redacted())) }

// LogValue makes log/slog record Redacted.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.Redacted()) }

// ---------------------------------------------------------------------
// Java properties (java.util.Properties.load(InputStream))

// properties is a parsed Java properties file.
type properties struct {
	values map[string]string
	lines  map[string]int // line of the logical line that last set the key
}

func (p *properties) get(key string) (string, bool) {
	v, ok := p.values[key]
	return v, ok
}

func (p *properties) lineOf(key string) int { return p.lines[key] }

// keys returns the keys, sorted.
func (p *properties) keys() []string {
	ks := make([]string, 0, len(p.values))
	for k := range p.values {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// propertiesError is a malformed properties file. Its message never quotes
// the line: it may hold a password.
type propertiesError struct {
	line int
	msg  string
}

func (e *propertiesError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// parseProperties reads data exactly as java.util.Properties.load of an
// InputStream does: bytes are ISO-8859-1; lines end with \n, \r or \r\n;
// leading whitespace is skipped; lines whose first non-blank character is
// # or ! are comments; an odd number of trailing backslashes continues the
// logical line (the next line's leading whitespace is dropped); the key
// ends at the first unescaped '=', ':' or whitespace, and whitespace and
// one separator after it are skipped; \t \n \r \f \uXXXX are escapes and a
// backslash before any other character stands for that character. The
// last assignment of a key wins.
func parseProperties(data []byte) (*properties, error) {
	p := &properties{values: map[string]string{}, lines: map[string]int{}}
	for _, ln := range readLogicalLines(data) {
		k, v, err := splitKeyValue(ln.text)
		if err != nil {
			return nil, &propertiesError{line: ln.line, msg: err.Error()}
		}
		p.values[k] = v
		p.lines[k] = ln.line
	}
	return p, nil
}

type logicalLine struct {
	text []uint16 // ISO-8859-1 bytes as UTF-16 code units, escapes still in
	line int      // 1-based line number where it starts
}

func isPropSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

// readLogicalLines is Java's Properties.LineReader.
func readLogicalLines(data []byte) []logicalLine {
	var out []logicalLine
	i, n, lineNo := 0, len(data), 1
	eol := func() {
		if data[i] == '\r' && i+1 < n && data[i+1] == '\n' {
			i++
		}
		i++
		lineNo++
	}
	for i < n {
		c := data[i]
		switch {
		case isPropSpace(c):
			i++
			continue
		case c == '\r' || c == '\n':
			eol()
			continue
		}
		start := lineNo
		if c == '#' || c == '!' {
			for i < n && data[i] != '\r' && data[i] != '\n' {
				i++
			}
			continue
		}
		var buf []uint16
		for {
			backslash := false
			for i < n && data[i] != '\r' && data[i] != '\n' {
				buf = append(buf, uint16(data[i]))
				backslash = data[i] == '\\' && !backslash
				i++
			}
			if !backslash {
				if i < n {
					eol()
				}
				break
			}
			buf = buf[:len(buf)-1] // the continuation backslash
			if i >= n {
				break
			}
			eol()
			for i < n && isPropSpace(data[i]) {
				i++
			}
		}
		if len(buf) > 0 {
			out = append(out, logicalLine{text: buf, line: start})
		}
	}
	return out
}

// splitKeyValue is Java's Properties.load0 for one logical line.
func splitKeyValue(line []uint16) (string, string, error) {
	keyLen, valueStart, hasSep, backslash := 0, len(line), false, false
	for keyLen < len(line) {
		c := line[keyLen]
		if (c == '=' || c == ':') && !backslash {
			valueStart, hasSep = keyLen+1, true
			break
		}
		if (c == ' ' || c == '\t' || c == '\f') && !backslash {
			valueStart = keyLen + 1
			break
		}
		backslash = c == '\\' && !backslash
		keyLen++
	}
	for valueStart < len(line) {
		c := line[valueStart]
		if c != ' ' && c != '\t' && c != '\f' {
			if !hasSep && (c == '=' || c == ':') {
				hasSep = true
			} else {
				break
			}
		}
		valueStart++
	}
	k, err := unescapeProperty(line[:keyLen])
	if err != nil {
		return "", "", err
	}
	v, err := unescapeProperty(line[valueStart:])
	if err != nil {
		return "", "", err
	}
	return k, v, nil
}

// unescapeProperty is Java's Properties.loadConvert.
func unescapeProperty(in []uint16) (string, error) {
	out := make([]uint16, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		i++
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i >= len(in) {
			break // unreachable: a trailing backslash continues the line
		}
		c = in[i]
		i++
		switch c {
		case 'u':
			if i+4 > len(in) {
				return "", errors.New(`malformed \uxxxx escape`)
			}
			var v uint16
			for _, d := range in[i : i+4] {
				switch {
				case d >= '0' && d <= '9':
					v = v<<4 + d - '0'
				case d >= 'a' && d <= 'f':
					v = v<<4 + d - 'a' + 10
				case d >= 'A' && d <= 'F':
					v = v<<4 + d - 'A' + 10
				default:
					return "", errors.New(`malformed \uxxxx escape`)
				}
			}
			i += 4
			out = append(out, v)
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'n':
			out = append(out, '\n')
		case 'f':
			out = append(out, '\f')
		default:
			out = append(out, c)
		}
	}
	return string(utf16.Decode(out)), nil
}

// ---------------------------------------------------------------------
// JAAS (sasl.jaas.config)

// jaasEntry is the one login module entry of a sasl.jaas.config value.
type jaasEntry struct {
	module  string
	flag    string
	options map[string]string
}

func (e *jaasEntry) shortModule() string {
	if i := strings.LastIndexByte(e.module, '.'); i >= 0 {
		return e.module[i+1:]
	}
	return e.module
}

// knownJAASOptions may be named in error messages; any other token of a
// sasl.jaas.config value might be a piece of a password.
var knownJAASOptions = map[string]bool{"username": true, "password": true, "tokenauth": true, "serviceName": true}

// parseJAAS parses a sasl.jaas.config value as Kafka's JaasConfig does
// (java.io.StreamTokenizer with // and /* */ comments, '-', '_' and '$'
// as word characters, and "..." or '...' strings with Java escapes):
//
//	LoginModuleClass ControlFlag (key=value)* ;
//
// Kafka accepts exactly one entry. Errors never quote the value.
func parseJAAS(s string) (*jaasEntry, error) {
	tz := &jaasTokenizer{in: []rune(s)}
	var entries []*jaasEntry
	for {
		t := tz.next()
		if t.kind == tokEOF {
			break
		}
		if t.kind != tokWord {
			return nil, errors.New("malformed value: expected a login module class name, e.g. " + scramModule + " required username=\"...\" password=\"...\";")
		}
		e := &jaasEntry{module: t.text, options: map[string]string{}}
		f := tz.next()
		if f.kind != tokWord {
			return nil, errors.New("malformed value: login module control flag (required) missing after the class name")
		}
		switch strings.ToLower(f.text) {
		case "required", "requisite", "sufficient", "optional":
			e.flag = strings.ToLower(f.text)
		default:
			return nil, errors.New("malformed value: the control flag after the class name must be required, requisite, sufficient or optional")
		}
		for {
			k := tz.next()
			if k.kind == tokEOF {
				return nil, errors.New("malformed value: the entry must end with ';'")
			}
			if k.kind == tokChar && k.char == ';' {
				break
			}
			name := "an option"
			if (k.kind == tokWord || k.kind == tokQuoted) && knownJAASOptions[k.text] {
				name = "option " + k.text
			}
			if k.kind != tokWord && k.kind != tokQuoted {
				return nil, errors.New("malformed value: expected key=\"value\" options or ';'")
			}
			if eq := tz.next(); eq.kind != tokChar || eq.char != '=' {
				return nil, fmt.Errorf("malformed value: %s has no '=' after its name", name)
			}
			v := tz.next()
			if v.kind != tokWord && v.kind != tokQuoted {
				return nil, fmt.Errorf("malformed value: %s has no value (quote values: key=\"value\")", name)
			}
			e.options[k.text] = v.text
		}
		entries = append(entries, e)
	}
	switch len(entries) {
	case 0:
		return nil, errors.New("no login module given: write " + scramModule + " required username=\"...\" password=\"...\";")
	case 1:
		return entries[0], nil
	}
	return nil, fmt.Errorf("holds %d login modules; Kafka clients take exactly one", len(entries))
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokWord
	tokQuoted
	tokChar // an ordinary character (=, ;), or a number, which JAAS rejects
)

type jaasToken struct {
	kind tokKind
	text string
	char rune
}

type jaasTokenizer struct {
	in  []rune
	pos int
}

func jaasWordStart(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0xA0 || c == '_' || c == '$'
}

func jaasWordPart(c rune) bool {
	return jaasWordStart(c) || c >= '0' && c <= '9' || c == '.' || c == '-'
}

func (t *jaasTokenizer) next() jaasToken {
	for t.pos < len(t.in) {
		c := t.in[t.pos]
		switch {
		case c <= ' ':
			t.pos++
		case c == '/':
			// StreamTokenizer: "/*" opens a block comment; any other '/'
			// (including "//") comments out the rest of the line.
			if t.pos+1 < len(t.in) && t.in[t.pos+1] == '*' {
				t.pos += 2
				for t.pos < len(t.in) && !(t.in[t.pos] == '*' && t.pos+1 < len(t.in) && t.in[t.pos+1] == '/') {
					t.pos++
				}
				t.pos = min(t.pos+2, len(t.in))
				continue
			}
			for t.pos < len(t.in) && t.in[t.pos] != '\n' && t.in[t.pos] != '\r' {
				t.pos++
			}
		case jaasWordStart(c):
			start := t.pos
			for t.pos < len(t.in) && jaasWordPart(t.in[t.pos]) {
				t.pos++
			}
			return jaasToken{kind: tokWord, text: string(t.in[start:t.pos])}
		case c == '"' || c == '\'':
			return t.quoted(c)
		default:
			t.pos++
			if c >= '0' && c <= '9' || c == '.' || c == '-' {
				for t.pos < len(t.in) && (t.in[t.pos] >= '0' && t.in[t.pos] <= '9' || t.in[t.pos] == '.') {
					t.pos++
				}
				return jaasToken{kind: tokChar, char: '0'}
			}
			return jaasToken{kind: tokChar, char: c}
		}
	}
	return jaasToken{kind: tokEOF}
}

// quoted reads a StreamTokenizer string: it ends at the matching quote or
// at a line end; \a \b \f \n \r \t \v and octal \ooo are escapes, and a
// backslash before any other character stands for that character.
func (t *jaasTokenizer) quoted(q rune) jaasToken {
	t.pos++
	var b []rune
	for t.pos < len(t.in) {
		c := t.in[t.pos]
		if c == q {
			t.pos++
			break
		}
		if c == '\n' || c == '\r' {
			break
		}
		t.pos++
		if c != '\\' || t.pos >= len(t.in) {
			b = append(b, c)
			continue
		}
		c = t.in[t.pos]
		t.pos++
		switch {
		case c >= '0' && c <= '7':
			v, first := c-'0', c
			if t.pos < len(t.in) && t.in[t.pos] >= '0' && t.in[t.pos] <= '7' {
				v = v<<3 + t.in[t.pos] - '0'
				t.pos++
				if first <= '3' && t.pos < len(t.in) && t.in[t.pos] >= '0' && t.in[t.pos] <= '7' {
					v = v<<3 + t.in[t.pos] - '0'
					t.pos++
				}
			}
			c = v
		case c == 'a':
			c = 0x7
		case c == 'b':
			c = '\b'
		case c == 'f':
			c = '\f'
		case c == 'n':
			c = '\n'
		case c == 'r':
			c = '\r'
		case c == 't':
			c = '\t'
		case c == 'v':
			c = '\v'
		}
		b = append(b, c)
	}
	return jaasToken{kind: tokQuoted, text: string(b)}
}

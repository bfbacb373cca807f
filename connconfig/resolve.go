package connconfig

// Connection configuration: what the user gave on the command line, in the
// environment and in a Java client properties file (--command-config),
// resolved into what kafka-go's Transport dials with. This file decides the
// bootstrap servers and the security protocol; tls.go, pkcs8.go and sasl.go
// build what the protocol needs, redact.go keeps secrets out of output.
// docs/connecting.md is the user's side of these files.

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go/sasl"
)

// ErrNoBootstrap means no bootstrap server was given anywhere: not by
// --bootstrap-server, KCG_BOOTSTRAP_SERVER, nor bootstrap.servers in the
// --command-config file. It is a usage error (its vocab.Kind).
var ErrNoBootstrap = vocab.WithKind(vocab.KindUsage, errors.New("no bootstrap server: use --bootstrap-server HOST:PORT or set KCG_BOOTSTRAP_SERVER"))

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
	// SASLOAuthTokenEndpoint is --sasl-oauth-token-endpoint: the OIDC
	// token endpoint (https://, http://) or a token file (file://) for
	// OAUTHBEARER; it overrides sasl.oauthbearer.token.endpoint.url.
	SASLOAuthTokenEndpoint string
	// SASLOAuthTokenFile is --sasl-oauth-token-file: a file holding the
	// OAUTHBEARER token, re-read when it changes.
	SASLOAuthTokenFile string
	// SASLOAuthScope is --sasl-oauth-scope: the scope asked of the token
	// endpoint; it overrides scope= of the login module.
	SASLOAuthScope string
	// Kerberos holds the GSSAPI flags (gssapi.go).
	Kerberos KerberosOptions
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

	// Connect is where Kafka Connect is (--connect and its flags); only
	// ResolveConnect reads it.
	Connect ConnectOptions

	// UseProfiles lets Resolve apply a profile of the config file
	// (profile.go, docs/profiles.md) under the settings above. kcg's own
	// commands set it; drop-in mode never does.
	UseProfiles bool
	// Profile is --profile / KCG_PROFILE: the profile to use. Empty: the
	// file's current: profile, when the settings above name no other
	// cluster.
	Profile string
	// ProfileFrom names where Profile came from ("--profile" or
	// "KCG_PROFILE"), for messages.
	ProfileFrom string
	// BootstrapFrom names where Bootstrap came from
	// ("--bootstrap-server" or "KCG_BOOTSTRAP_SERVER"), for messages.
	BootstrapFrom string
	// SASLPasswordFromEnv is true when SASLPassword is KCG_SASL_PASSWORD's
	// value, not a typed --sasl-password. A profile that references its
	// own password wins over the variable (profile_resolve.go).
	SASLPasswordFromEnv bool
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
	cfg, _, err := o.ResolveProfile()
	return cfg, err
}

// ResolveProfile is Resolve, and also returns the name of the profile
// that was applied ("" for none).
func (o ConnOptions) ResolveProfile() (Config, string, error) {
	merged, prof, err := o.withProfile()
	if err != nil {
		return Config{}, "", err
	}
	cfg, err := merged.resolveSettings(prof)
	if err != nil && prof != nil {
		return Config{}, "", fmt.Errorf("profile %q: %w", prof.Name, err)
	}
	if prof != nil {
		return cfg, prof.Name, err
	}
	return cfg, "", err
}

func (o ConnOptions) resolveSettings(prof *Profile) (Config, error) {
	r := &resolver{o: o, p: &javaprops.Properties{}, prof: prof}
	if o.CommandConfig != "" {
		data, err := javaprops.ReadFile(o.CommandConfig)
		var tl *javaprops.TooLargeError
		if errors.As(err, &tl) {
			return Config{}, &ConfigError{Kind: ConfigErrorData, File: o.CommandConfig, Msg: tl.Error()}
		}
		if err != nil {
			return Config{}, &ConfigError{Kind: ConfigErrorData, Key: "--command-config", Msg: "cannot read the client properties file", Err: err}
		}
		p, err := javaprops.Parse(data)
		if err != nil {
			ce := &ConfigError{Kind: ConfigErrorData, File: o.CommandConfig, Msg: err.Error()}
			var se *javaprops.SyntaxError
			if errors.As(err, &se) {
				ce.Line, ce.Msg = se.Line, se.Msg
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
	p    *javaprops.Properties
	file string
	// prof is the profile applied, if any: its password reference is
	// read only when SASL needs a password (sasl.go).
	prof *Profile
}

// get returns a file value trimmed of surrounding whitespace, as Java's
// ConfigDef does for string, password and list values.
func (r *resolver) get(key string) string {
	v, _ := r.p.Get(key)
	return strings.TrimSpace(v)
}

func (r *resolver) has(key string) bool { return r.get(key) != "" }

func (r *resolver) dataErr(key, msg string, err error) *ConfigError {
	e := &ConfigError{Kind: ConfigErrorData, Key: key, Msg: msg, Err: err}
	if r.file != "" && !strings.HasPrefix(key, "--") {
		e.File = r.file
		e.Line = r.p.Line(key)
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
		if r.standardHandler(u.key) { // oauth.go
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
		if !validHostPort(a) {
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

// validHostPort reports whether a is HOST:PORT with a port in 1-65535.
func validHostPort(a string) bool {
	host, port, err := net.SplitHostPort(a)
	n, perr := strconv.Atoi(port)
	return err == nil && host != "" && perr == nil && n >= 1 && n <= 65535
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
	case r.o.SASLOAuthTokenEndpoint != "" || r.o.SASLOAuthTokenFile != "" || r.o.SASLOAuthScope != "":
		return oauthFlagGiven(r.o)
	case r.o.Kerberos.given() != "":
		return r.o.Kerberos.given()
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

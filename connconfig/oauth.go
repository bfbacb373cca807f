package connconfig

// SASL OAUTHBEARER (RFC 7628, KIP-255, KIP-768), as the Java client does
// it: a token from an OIDC token endpoint (client credentials grant), a
// token from a file (sasl.oauthbearer.token.endpoint.url=file:///path), or
// the unsecured JWS the Java client builds for development
// (unsecuredLoginStringClaim_sub=...). The token is cached and fetched
// again before it expires: kafka-go authenticates every new connection
// with Start, so a long kcg watch dials its new connections with a fresh
// token. docs/connecting.md is the user's side.

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"github.com/segmentio/kafka-go/sasl"
)

const (
	mechOAuth   = "OAUTHBEARER"
	oauthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	// The standard login callback handlers of KIP-768: Kafka 3.x's class
	// and its 4.x name.
	oauthHandler3 = "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler"
	oauthHandler4 = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
	// keyTokenEndpoint is the KIP-768 token endpoint: https://, http:// or
	// file://.
	keyTokenEndpoint = "sasl.oauthbearer.token.endpoint.url"
)

// MechanismError is a SASL mechanism's own failure while authenticating:
// the token endpoint unreachable or refusing the client, a token file that
// went bad, the broker rejecting the token. Its message names the
// mechanism and what to check; it never holds a secret or a token.
type MechanismError struct {
	Mechanism string // "OAUTHBEARER", "AWS_MSK_IAM"
	Msg       string
	Err       error
}

func (e *MechanismError) Error() string {
	s := "SASL " + e.Mechanism + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *MechanismError) Unwrap() error { return e.Err }

// BrokerRejection is the mechanism's own line for the broker refusing its
// authentication with an error code (SaslAuthenticate's
// SASL_AUTHENTICATION_FAILED, or the connection closed mid-exchange);
// brokerMsg is the broker's error message, if any. It is nil when the
// mechanism has nothing to add: PLAIN and SCRAM (the generic line names
// user and password), OAUTHBEARER and GSSAPI (their exchanges report the
// broker's refusal themselves). kafka-go ends the exchange on an error
// code without showing it to the mechanism, so for AWS_MSK_IAM, whose
// broker answers nothing but the code, this is the only place to name
// what to check.
func BrokerRejection(m sasl.Mechanism, brokerMsg string) *MechanismError {
	if r, ok := m.(interface{ rejection(string) *MechanismError }); ok {
		return r.rejection(brokerMsg)
	}
	return nil
}

// standardHandler reports whether key=value (one of unsupportedKeys) names
// a callback handler kcg implements itself, for the mechanism the settings
// choose: the KIP-768 login handler for OAUTHBEARER, MSK's client handler
// for AWS_MSK_IAM.
func (r *resolver) standardHandler(key string) bool {
	mech, _ := r.requestedMechanism()
	v := r.get(key)
	switch {
	case key == "sasl.login.callback.handler.class" && mech == mechOAuth:
		return v == oauthHandler3 || v == oauthHandler4
	case key == "sasl.client.callback.handler.class" && mech == mechMSKIAM:
		return v == mskIAMHandler
	}
	return false
}

// tokenMechanism builds OAUTHBEARER or AWS_MSK_IAM when the settings ask
// for one of them (handled true); the caller builds the others.
func (r *resolver) tokenMechanism() (m sasl.Mechanism, handled bool, err error) {
	mech, fromFlag := r.requestedMechanism()
	jaas, err := r.jaasConfig()
	if err != nil {
		return nil, true, err
	}
	if mech == "" {
		mech = r.impliedTokenMechanism(jaas)
	}
	switch mech {
	case mechOAuth:
		if jaas != nil && jaas.Module != oauthModule {
			return nil, true, r.dataErr("sasl.jaas.config", fmt.Sprintf("sasl.mechanism is OAUTHBEARER but the login module is %s: write %s required ...;", jaas.Module, oauthModule), nil)
		}
		m, err := r.oauthMechanism(jaas)
		return m, true, err
	case mechMSKIAM:
		if jaas != nil && jaas.Module != mskIAMModule {
			return nil, true, r.dataErr("sasl.jaas.config", fmt.Sprintf("sasl.mechanism is AWS_MSK_IAM but the login module is %s: write %s required;", jaas.Module, mskIAMModule), nil)
		}
		m, err := r.mskMechanism(jaas)
		return m, true, err
	}
	if err := r.strayTokenSettings(mech, fromFlag, jaas); err != nil {
		return nil, true, err
	}
	return nil, false, nil
}

// impliedTokenMechanism is the mechanism that no setting names but the
// others imply: the login module of sasl.jaas.config (jaas), or an
// OAuth token endpoint or file; "" when none does.
func (r *resolver) impliedTokenMechanism(jaas *javaprops.JAASEntry) string {
	if jaas != nil {
		switch jaas.Module {
		case oauthModule:
			return mechOAuth
		case mskIAMModule:
			return mechMSKIAM
		}
	}
	if r.o.SASLOAuthTokenEndpoint != "" || r.o.SASLOAuthTokenFile != "" {
		return mechOAuth
	}
	return ""
}

// strayTokenSettings refuses an OAUTHBEARER or AWS_MSK_IAM login module,
// or an OAuth flag, beside another mechanism (mech, from the flag when
// fromFlag).
func (r *resolver) strayTokenSettings(mech string, fromFlag bool, jaas *javaprops.JAASEntry) error {
	if jaas != nil && (jaas.Module == oauthModule || jaas.Module == mskIAMModule) {
		msg := fmt.Sprintf("the login module %s needs sasl.mechanism=%s, not %s", jaas.ShortModule(), map[string]string{oauthModule: mechOAuth, mskIAMModule: mechMSKIAM}[jaas.Module], mech)
		if fromFlag {
			return usageErr("--sasl-mechanism", msg)
		}
		return r.dataErr("sasl.mechanism", msg, nil)
	}
	if r.o.SASLOAuthTokenEndpoint != "" || r.o.SASLOAuthTokenFile != "" || r.o.SASLOAuthScope != "" {
		return usageErr(oauthFlagGiven(r.o), fmt.Sprintf("is for --sasl-mechanism OAUTHBEARER, but the mechanism is %s", mech))
	}
	return nil
}

func oauthFlagGiven(o ConnOptions) string {
	switch {
	case o.SASLOAuthTokenEndpoint != "":
		return "--sasl-oauth-token-endpoint"
	case o.SASLOAuthTokenFile != "":
		return "--sasl-oauth-token-file"
	}
	return "--sasl-oauth-scope"
}

// oauthMechanism chooses the token source, as the Java client does:
// a token endpoint (flag, profile or sasl.oauthbearer.token.endpoint.url)
// is used with client credentials, a file:// endpoint or --sasl-oauth-
// token-file is read; without either, the unsecuredLogin* options of the
// login module build an unsecured JWS.
func (r *resolver) oauthMechanism(jaas *javaprops.JAASEntry) (sasl.Mechanism, error) {
	opts := map[string]string{}
	if jaas != nil {
		opts = jaas.Options
	}
	ext, err := r.oauthExtensions(opts)
	if err != nil {
		return nil, err
	}
	endpoint, key := r.o.SASLOAuthTokenEndpoint, "--sasl-oauth-token-endpoint"
	if r.o.SASLOAuthTokenFile != "" {
		if endpoint != "" {
			return nil, usageErr("--sasl-oauth-token-file", "give --sasl-oauth-token-file or --sasl-oauth-token-endpoint, not both")
		}
		endpoint, key = (&url.URL{Scheme: "file", Path: r.o.SASLOAuthTokenFile}).String(), "--sasl-oauth-token-file"
	}
	if endpoint == "" {
		endpoint, key = r.get(keyTokenEndpoint), keyTokenEndpoint
	}
	m := &oauthMech{ext: ext}
	if endpoint == "" {
		src, err := r.unsecuredSource(opts)
		if err != nil {
			return nil, err
		}
		m.src, m.desc = src, "unsecured JWS"
		return m, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "file" && u.Scheme != "https" && u.Scheme != "http") {
		return nil, r.keyErr(key, "must be an https://, http:// or file:// URL", nil)
	}
	if u.Scheme == "file" {
		path := u.Path
		if path == "" {
			path = u.Opaque
		}
		src := &fileToken{path: path}
		if _, _, err := src.read(); err != nil {
			// Unreadable or not a token at all: bad input (65), before
			// any connection, whether a flag or the file named it.
			e := r.keyErr(key, err.Error(), nil)
			e.Kind = ConfigErrorData
			return nil, e
		}
		m.src, m.desc = src, "token file "+path
		return m, nil
	}
	src, err := r.clientCredentials(u, opts)
	if err != nil {
		return nil, err
	}
	m.src, m.desc = src, "token endpoint "+redactURL(u)
	return m, nil
}

// keyErr is a ConfigError for a flag (usage) or a file key (data).
func (r *resolver) keyErr(key, msg string, err error) *ConfigError {
	if strings.HasPrefix(key, "--") {
		e := usageErr(key, msg)
		e.Err = err
		return e
	}
	return r.dataErr(key, msg, err)
}

// oauthExtensions are the login module's extension_NAME=VALUE options,
// sent with the token (RFC 7628 key=value pairs).
func (r *resolver) oauthExtensions(opts map[string]string) ([][2]string, error) {
	var out [][2]string
	for k, v := range opts {
		name, ok := strings.CutPrefix(k, "extension_")
		if !ok {
			if name, ok = strings.CutPrefix(k, "unsecuredLoginExtension_"); !ok {
				continue
			}
		}
		if name == "" || name == "auth" || strings.ContainsAny(name+v, "\x01") || !isAlpha(name) {
			return nil, r.dataErr("sasl.jaas.config", fmt.Sprintf("option %s: an extension name is letters only and not \"auth\", and values hold no control characters", k), nil)
		}
		out = append(out, [2]string{name, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}

func isAlpha(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// tokenSource returns a token to send; it caches and refreshes.
type tokenSource interface {
	token(ctx context.Context) (string, error)
}

// oauthMech is kafka-go's sasl.Mechanism for OAUTHBEARER.
type oauthMech struct {
	src  tokenSource
	desc string // where tokens come from, for String
	ext  [][2]string
}

func (m *oauthMech) Name() string { return mechOAuth }

// Start sends the RFC 7628 client first message:
// n,,\x01auth=Bearer TOKEN\x01[key=value\x01...]\x01.
func (m *oauthMech) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	tok, err := m.src.token(ctx)
	if err != nil {
		return nil, nil, err
	}
	return m, oauthMessage(tok, m.ext), nil
}

func oauthMessage(tok string, ext [][2]string) []byte {
	var b strings.Builder
	b.WriteString("n,,\x01auth=Bearer ")
	b.WriteString(tok)
	b.WriteByte(1)
	for _, kv := range ext {
		b.WriteString(kv[0] + "=" + kv[1] + "\x01")
	}
	b.WriteByte(1)
	return []byte(b.String())
}

// Next: an empty answer is success; anything else is the broker's error
// JSON (RFC 7628 §3.2.2), reported instead of sent on.
func (m *oauthMech) Next(_ context.Context, challenge []byte) (bool, []byte, error) {
	if len(challenge) == 0 {
		return true, nil, nil
	}
	return false, nil, &MechanismError{Mechanism: mechOAuth, Msg: brokerRejection(challenge, m.desc)}
}

// brokerRejection describes the broker's error JSON, e.g.
// {"status":"invalid_token"}.
func brokerRejection(challenge []byte, desc string) string {
	var e struct {
		Status string `json:"status"`
		Scope  string `json:"scope"`
	}
	status := "unknown"
	if json.Unmarshal(challenge, &e) == nil && e.Status != "" {
		status = printable(e.Status)
	}
	s := fmt.Sprintf("the broker rejected the token from the %s (status %s): check that the token has not expired and that its issuer, audience, subject and scope are what the listener's sasl.oauthbearer.* settings expect", desc, status)
	if e.Scope != "" {
		s += " (required scope: " + printable(e.Scope) + ")"
	}
	return s
}

// printable keeps a broker- or server-supplied string to one safe line.
func printable(s string) string {
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

func (m *oauthMech) String() string {
	return fmt.Sprintf("{Mechanism: %s, Token: %s, From: %s}", mechOAuth, redactedValue, m.desc)
}

// Format makes every fmt verb print String.
func (m *oauthMech) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(m.String())) }

// jwtTimes reads exp (and iat, when present) of a JWT, in seconds since
// the epoch; the token is not verified: the broker does that.
func jwtTimes(tok string) (exp, iat time.Time, err error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return exp, iat, errors.New("is not a JWT (three base64url parts separated by '.')")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return exp, iat, errors.New("is not a JWT: its payload is not base64url")
	}
	var c struct {
		Exp *json.Number `json:"exp"`
		Iat *json.Number `json:"iat"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return exp, iat, errors.New("is not a JWT: its payload is not a JSON object")
	}
	if c.Exp == nil {
		return exp, iat, errors.New("is a JWT without an exp claim; Kafka needs one")
	}
	sec := func(n *json.Number) (time.Time, error) {
		f, err := strconv.ParseFloat(n.String(), 64)
		if err != nil {
			return time.Time{}, errors.New("is a JWT whose exp or iat is not a number")
		}
		return time.Unix(0, int64(f*1e9)), nil
	}
	if exp, err = sec(c.Exp); err != nil {
		return exp, iat, err
	}
	if c.Iat != nil {
		if iat, err = sec(c.Iat); err != nil {
			return exp, iat, err
		}
	}
	return exp, iat, nil
}

// fileToken reads a token from a file, KIP-768's file:// endpoint, every
// time the file has changed (something outside kcg renews it). It reads
// the file at every dial and compares its bytes' SHA-256 with the last
// ones, rather than trusting mtime and size: a renewal written in place
// with a token of the same length (JWTs of one issuer usually are) within
// the filesystem's timestamp granularity, or copied with its mtime kept,
// changes neither. A token is a few KB and kcg dials a handful of
// connections per command (a watch: per round), so the read costs nothing
// that matters; the token is parsed again only when the bytes changed.
type fileToken struct {
	path string

	mu  sync.Mutex
	sum [sha256.Size]byte // of the bytes tok was read from
	tok string
	exp time.Time
}

// read reads and checks the file.
func (f *fileToken) read() (string, time.Time, error) {
	st, err := os.Stat(f.path)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("cannot read the token file: %v", err)
	}
	if st.Size() > 1<<20 {
		return "", time.Time{}, fmt.Errorf("token file %s is %d bytes, too big for a token", f.path, st.Size())
	}
	data, err := os.ReadFile(f.path)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("cannot read the token file: %v", err)
	}
	sum := sha256.Sum256(data)
	if f.tok != "" && sum == f.sum {
		return f.tok, f.exp, nil
	}
	tok := strings.TrimSpace(string(data))
	exp, _, err := jwtTimes(tok)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("token file %s %v", f.path, err)
	}
	f.sum, f.tok, f.exp = sum, tok, exp
	return tok, exp, nil
}

func (f *fileToken) token(context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, _, err := f.read(); err != nil {
		return "", &MechanismError{Mechanism: mechOAuth, Msg: err.Error()}
	}
	if time.Now().After(f.exp) {
		return "", &MechanismError{Mechanism: mechOAuth, Msg: fmt.Sprintf("the token in %s expired at %s: renew the file", f.path, f.exp.UTC().Format(time.RFC3339))}
	}
	return f.tok, nil
}

// redactURL prints an endpoint without user info or query (either may
// hold a secret).
func redactURL(u *url.URL) string {
	c := *u
	c.User, c.RawQuery, c.Fragment = nil, "", ""
	return c.String()
}

// readLimited reads at most n bytes of r.
func readLimited(r io.Reader, n int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, n))
}

// httpClient is the token endpoint's client; a test may replace it.
var httpClient = &http.Client{Timeout: 10 * time.Second}

// setOAuthKey sets a profile's sasl.tokenEndpoint, sasl.tokenFile or
// sasl.scope (profile.go); a token file path is relative to the config
// file, as the other paths.
func setOAuthKey(p *Profile, key, v string, rel func(string) string) {
	switch key {
	case "tokenEndpoint":
		p.OAuthTokenEndpoint = v
	case "tokenFile":
		p.OAuthTokenFile = rel(v)
	case "scope":
		p.OAuthScope = v
	}
}

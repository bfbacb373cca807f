package connconfig

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/testoidc"
	"github.com/segmentio/kafka-go/sasl"
)

const (
	testOAuthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	testClient      = "kcg-unit"
	testSecret      = "unit-secret-7f3a"
)

func oauthProps(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "oauth.properties")
	if err := os.WriteFile(p, []byte("bootstrap.servers=h:9092\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func startOIDC(t *testing.T, lifetime time.Duration) *testoidc.Server {
	t.Helper()
	s, err := testoidc.Start("127.0.0.1:0", testoidc.Config{Clients: map[string]string{testClient: testSecret}, Lifetime: lifetime, Audience: "kafka"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// first returns the mechanism's client first message.
func first(t *testing.T, m sasl.Mechanism) ([]byte, error) {
	t.Helper()
	ctx := sasl.WithMetadata(context.Background(), &sasl.Metadata{Host: "127.0.0.1", Port: 9092})
	_, b, err := m.Start(ctx)
	return b, err
}

// bearer splits an RFC 7628 client first message into token and
// extensions, failing on any other shape.
func bearer(t *testing.T, msg []byte) (string, string) {
	t.Helper()
	s := string(msg)
	rest, ok := strings.CutPrefix(s, "n,,\x01auth=Bearer ")
	if !ok || !strings.HasSuffix(rest, "\x01\x01") {
		t.Fatalf("not a GS2 OAUTHBEARER message: %q", s)
	}
	tok, ext, _ := strings.Cut(strings.TrimSuffix(rest, "\x01\x01"), "\x01")
	return tok, ext
}

func claims(t *testing.T, tok string) (map[string]string, map[string]any) {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q is not a JWS", tok)
	}
	var h map[string]string
	var c map[string]any
	for i, dst := range []any{&h, &c} {
		raw, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			t.Fatal(err)
		}
	}
	return h, c
}

func TestOAuthMessageBytes(t *testing.T) {
	got := oauthMessage("abc.def.ghi", [][2]string{{"logicalCluster", "lkc-1"}, {"traceId", "x"}})
	want := "n,,\x01auth=Bearer abc.def.ghi\x01logicalCluster=lkc-1\x01traceId=x\x01\x01"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := oauthMessage("t", nil); string(got) != "n,,\x01auth=Bearer t\x01\x01" {
		t.Fatalf("got %q", got)
	}
}

// The Java dev config (unsecured JWS) resolves unchanged and builds the
// token Kafka's OAuthBearerUnsecuredLoginCallbackHandler would.
func TestOAuthUnsecured(t *testing.T) {
	f := oauthProps(t, `sasl.jaas.config=`+testOAuthModule+` required unsecuredLoginStringClaim_sub="alice" unsecuredLoginListClaim_scope=",read,write" unsecuredLoginNumberClaim_n="3" unsecuredLoginLifetimeSeconds="60" unsecuredLoginExtension_traceId="t1";`+"\n")
	cfg, err := ConnOptions{CommandConfig: f}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	msg, err := first(t, cfg.SASL)
	if err != nil {
		t.Fatal(err)
	}
	tok, ext := bearer(t, msg)
	if ext != "traceId=t1" {
		t.Fatalf("extensions %q", ext)
	}
	if !strings.HasSuffix(tok, ".") {
		t.Fatalf("an unsecured JWS has an empty signature: %q", tok)
	}
	h, c := claims(t, tok)
	if h["alg"] != "none" || c["sub"] != "alice" || c["n"] != 3.0 {
		t.Fatalf("header %v claims %v", h, c)
	}
	if sc, _ := c["scope"].([]any); len(sc) != 2 || sc[0] != "read" || sc[1] != "write" {
		t.Fatalf("scope %v", c["scope"])
	}
	if life := c["exp"].(float64) - c["iat"].(float64); life < 59.9 || life > 60.1 {
		t.Fatalf("lifetime %v", life)
	}
	if s := fmt.Sprintf("%v %+v %s", cfg, cfg.SASL, cfg.SASL); strings.Contains(s, tok) || strings.Contains(s, "alice") && strings.Contains(s, "Token: ey") {
		t.Fatalf("printing the config shows the token: %s", s)
	}
}

// KIP-768 client credentials: the Java properties file (both names of the
// standard login callback handler), the token cached and fetched again once
// 80% of its lifetime has passed, and each failure one line naming the
// mechanism.
func TestOAuthClientCredentials(t *testing.T) {
	s := startOIDC(t, 20*time.Second)
	for name, handler := range map[string]string{"Kafka 3.x handler": oauthHandler3, "Kafka 4.x handler": oauthHandler4} {
		t.Run(name, func(t *testing.T) {
			f := oauthProps(t, "sasl.oauthbearer.token.endpoint.url="+s.TokenURL()+"\nsasl.login.callback.handler.class="+handler+"\n"+
				`sasl.jaas.config=`+testOAuthModule+` required clientId="`+testClient+`" clientSecret="`+testSecret+`" scope="kafka.read";`+"\n")
			cfg, err := ConnOptions{CommandConfig: f}.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprintf("%v|%+v", cfg, cfg.SASL); strings.Contains(s, testSecret) {
				t.Fatalf("printing shows the client secret: %s", s)
			}
			before := s.Issued(testClient)
			msg, err := first(t, cfg.SASL)
			if err != nil {
				t.Fatal(err)
			}
			tok, _ := bearer(t, msg)
			h, c := claims(t, tok)
			if h["alg"] != "RS256" || c["sub"] != testClient || c["scope"] != "kafka.read" {
				t.Fatalf("token header %v claims %v", h, c)
			}
			if _, err := first(t, cfg.SASL); err != nil {
				t.Fatal(err)
			}
			if n := s.Issued(testClient) - before; n != 1 {
				t.Fatalf("two connections fetched %d tokens, want 1 (cached)", n)
			}
			// 17 s later (past 80% of 20 s) the next connection gets a new one.
			src := cfg.SASL.(*oauthMech).src.(*oidcToken)
			src.now = func() time.Time { return time.Now().Add(17 * time.Second) }
			if _, err := first(t, cfg.SASL); err != nil {
				t.Fatal(err)
			}
			if n := s.Issued(testClient) - before; n != 2 {
				t.Fatalf("after 80%% of the lifetime: %d tokens fetched, want 2", n)
			}
		})
	}

	t.Run("Kafka 4.1 keys instead of the login module's options", func(t *testing.T) {
		f := oauthProps(t, "sasl.oauthbearer.token.endpoint.url="+s.TokenURL()+"\nsasl.login.callback.handler.class="+oauthHandler4+"\n"+
			"sasl.oauthbearer.client.credentials.client.id="+testClient+"\nsasl.oauthbearer.client.credentials.client.secret="+testSecret+"\nsasl.oauthbearer.scope=kafka.write\n"+
			`sasl.jaas.config=`+testOAuthModule+` required clientId="other" clientSecret="other" scope="other";`+"\n")
		cfg, err := ConnOptions{CommandConfig: f}.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		msg, err := first(t, cfg.SASL)
		if err != nil {
			t.Fatal(err)
		}
		tok, _ := bearer(t, msg)
		if _, c := claims(t, tok); c["sub"] != testClient || c["scope"] != "kafka.write" {
			t.Fatalf("claims %v", c)
		}
	})
	t.Run("a failing provider is asked again", func(t *testing.T) {
		calls := 0
		flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			calls++
			if calls < 3 {
				http.Error(w, `{"error":"temporarily_unavailable"}`, http.StatusServiceUnavailable)
				return
			}
			httputil.NewSingleHostReverseProxy(mustURL(t, s.URL())).ServeHTTP(w, req)
		}))
		defer flaky.Close()
		cfg, err := ConnOptions{Bootstrap: "h:1", SASLMechanism: "OAUTHBEARER", SASLOAuthTokenEndpoint: flaky.URL + "/token", SASLUsername: testClient, SASLPassword: testSecret}.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := first(t, cfg.SASL); err != nil || calls != 3 {
			t.Fatalf("after two 503s: %v (%d calls)", err, calls)
		}
		calls = -10 // always 503 from now on
		src := cfg.SASL.(*oauthMech).src.(*oidcToken)
		src.tok = ""
		_, err = first(t, cfg.SASL)
		if err == nil || !strings.Contains(err.Error(), "/token failed (HTTP 503: temporarily_unavailable): the identity provider is failing; try again later") || calls != -7 {
			t.Fatalf("always 503: %v (%d calls)", err, calls)
		}
	})
	t.Run("wrong secret", func(t *testing.T) {
		f := oauthProps(t, "sasl.oauthbearer.token.endpoint.url="+s.TokenURL()+"\nsasl.login.callback.handler.class="+oauthHandler4+"\n"+
			`sasl.jaas.config=`+testOAuthModule+` required clientId="`+testClient+`" clientSecret="not-it";`+"\n")
		cfg, err := ConnOptions{CommandConfig: f}.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		_, err = first(t, cfg.SASL)
		var me *MechanismError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), "SASL OAUTHBEARER: the token endpoint "+s.TokenURL()+" refused the client (HTTP 401: invalid_client") ||
			!strings.Contains(err.Error(), "check clientId, clientSecret") || strings.Contains(err.Error(), "not-it") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("endpoint down", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		down := "http://" + ln.Addr().String() + "/token"
		ln.Close()
		cfg, err := ConnOptions{Bootstrap: "h:1", SASLMechanism: "oauthbearer", SASLOAuthTokenEndpoint: down, SASLUsername: testClient, SASLPassword: testSecret}.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		_, err = first(t, cfg.SASL)
		if err == nil || !strings.HasPrefix(err.Error(), "SASL OAUTHBEARER: cannot reach the token endpoint "+down+" (check sasl.oauthbearer.token.endpoint.url") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("secret from the profile reference, not printed", func(t *testing.T) {
		t.Setenv("KCG_UNIT_SECRET", testSecret)
		dir := t.TempDir()
		conf := filepath.Join(dir, "config.yaml")
		body := "profiles:\n  idp:\n    bootstrap: h:9092\n    securityProtocol: SASL_PLAINTEXT\n    sasl:\n      mechanism: OAUTHBEARER\n      username: " + testClient +
			"\n      passwordEnv: KCG_UNIT_SECRET\n      tokenEndpoint: " + s.TokenURL() + "\n      scope: kafka.read\n"
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv(EnvConfig, conf)
		cfg, name, err := ConnOptions{UseProfiles: true, Profile: "idp"}.ResolveProfile()
		if err != nil || name != "idp" {
			t.Fatal(name, err)
		}
		msg, err := first(t, cfg.SASL)
		if err != nil {
			t.Fatal(err)
		}
		tok, _ := bearer(t, msg)
		if _, c := claims(t, tok); c["scope"] != "kafka.read" {
			t.Fatalf("claims %v", c)
		}
	})
}

// A token from a file (KIP-768 file:// endpoint, --sasl-oauth-token-file):
// checked at resolve (unreadable: bad input), re-read when it changes.
func TestOAuthTokenFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "token.jwt")
	mk := func(sub string, exp time.Time) string {
		enc := base64.RawURLEncoding
		return enc.EncodeToString([]byte(`{"alg":"RS256"}`)) + "." + enc.EncodeToString([]byte(fmt.Sprintf(`{"sub":%q,"exp":%d}`, sub, exp.Unix()))) + ".c2ln"
	}
	write := func(s string) {
		if err := os.WriteFile(p, []byte(s+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, err := ConnOptions{Bootstrap: "h:1", SASLMechanism: "OAUTHBEARER", SASLOAuthTokenFile: p}.Resolve()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), "cannot read the token file") {
		t.Fatalf("missing file: %v", err)
	}
	_, err = ConnOptions{Bootstrap: "h:1", SASLMechanism: "OAUTHBEARER", SASLOAuthTokenEndpoint: "file://" + p}.Resolve()
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || ce.Key != "--sasl-oauth-token-endpoint" {
		t.Fatalf("missing file through the endpoint flag: %v", err)
	}
	write("not a token")
	f := oauthProps(t, "sasl.oauthbearer.token.endpoint.url=file://"+p+"\nsasl.jaas.config="+testOAuthModule+" required;\n")
	if _, err := (ConnOptions{CommandConfig: f}).Resolve(); !errors.As(err, &ce) || ce.Kind != ConfigErrorData || ce.Key != keyTokenEndpoint || !strings.Contains(err.Error(), "is not a JWT") {
		t.Fatalf("garbage file: %v", err)
	}
	one := mk("one", time.Now().Add(time.Hour))
	write(one)
	cfg, err := ConnOptions{CommandConfig: f}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	msg, err := first(t, cfg.SASL)
	if err != nil {
		t.Fatal(err)
	}
	if tok, _ := bearer(t, msg); tok != one {
		t.Fatalf("token %q, want the file's", tok)
	}
	two := mk("two-renewed", time.Now().Add(2*time.Hour))
	write(two)
	msg, err = first(t, cfg.SASL)
	if err != nil {
		t.Fatal(err)
	}
	if tok, _ := bearer(t, msg); tok != two {
		t.Fatalf("after the file changed: token %q, want the new one", tok)
	}
	write(mk("old", time.Now().Add(-time.Minute)))
	if _, err := first(t, cfg.SASL); err == nil || !strings.Contains(err.Error(), "SASL OAUTHBEARER: the token in "+p+" expired at") {
		t.Fatalf("expired token: %v", err)
	}
}

// fileJWT is an unsigned JWT with sub and exp, as a token file holds one.
func fileJWT(sub string, exp time.Time) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"RS256"}`)) + "." + enc.EncodeToString([]byte(fmt.Sprintf(`{"sub":%q,"exp":%d}`, sub, exp.Unix()))) + ".c2ln"
}

// A profile's sasl.tokenFile (relative to the config file) resolves to the
// token file mechanism, with or without sasl.mechanism, and the file is
// read again when it changes, as --sasl-oauth-token-file; a flag naming
// another token source replaces it; a missing file is bad input naming
// the profile.
func TestOAuthProfileTokenFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	tokPath := filepath.Join(dir, "secrets", "kafka.jwt")
	write := func(tok string) {
		t.Helper()
		if err := os.WriteFile(tokPath, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvConfig, writeFile(t, dir, "config.yaml", `profiles:
  minted:
    bootstrap: broker-1:9093
    securityProtocol: SASL_SSL
    sasl:
      mechanism: OAUTHBEARER
      tokenFile: secrets/kafka.jwt
  implied:
    bootstrap: broker-1:9093
    sasl:
      tokenFile: secrets/kafka.jwt
  gone:
    bootstrap: broker-1:9093
    sasl:
      tokenFile: secrets/none.jwt
`))
	one := fileJWT("one", time.Now().Add(time.Hour))
	write(one)
	for _, name := range []string{"minted", "implied"} {
		t.Run(name, func(t *testing.T) {
			write(one)
			cfg, got, err := ConnOptions{UseProfiles: true, Profile: name}.ResolveProfile()
			if err != nil || got != name {
				t.Fatalf("profile %q: %v", got, err)
			}
			m, ok := cfg.SASL.(*oauthMech)
			if !ok {
				t.Fatalf("mechanism %v, want OAUTHBEARER", cfg.SASL)
			}
			if src, ok := m.src.(*fileToken); !ok || src.path != tokPath || m.desc != "token file "+tokPath {
				t.Fatalf("token source %#v (%s), want the file %s", m.src, m.desc, tokPath)
			}
			if s := fmt.Sprintf("%v %+v %s", cfg, cfg.SASL, m); strings.Contains(s, one) {
				t.Fatalf("printing the connection shows the token: %s", s)
			}
			msg, err := first(t, cfg.SASL)
			if err != nil {
				t.Fatal(err)
			}
			if tok, _ := bearer(t, msg); tok != one {
				t.Fatalf("token %q, want the file's", tok)
			}
			two := fileJWT("two-renewed-"+name, time.Now().Add(2*time.Hour))
			write(two)
			if msg, err = first(t, cfg.SASL); err != nil {
				t.Fatal(err)
			}
			if tok, _ := bearer(t, msg); tok != two {
				t.Fatalf("after the file changed: token %q, want the new one", tok)
			}
		})
	}
	// A flag naming another source wins over the profile's file.
	cfg, _, err := ConnOptions{UseProfiles: true, Profile: "minted", SASLOAuthTokenFile: writeFile(t, dir, "flag.jwt", one)}.ResolveProfile()
	if err != nil {
		t.Fatal(err)
	}
	if src := cfg.SASL.(*oauthMech).src.(*fileToken); src.path != filepath.Join(dir, "flag.jwt") {
		t.Fatalf("the flag's file lost to the profile's: %s", src.path)
	}
	_, _, err = ConnOptions{UseProfiles: true, Profile: "gone"}.ResolveProfile()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), `profile "gone"`) || !strings.Contains(err.Error(), "cannot read the token file") {
		t.Fatalf("missing token file: %v", err)
	}
}

// A token file renewed in place by a token of the same length, with its
// mtime unchanged (within the filesystem's granularity, or copied with
// its times kept): the content changed, so the next dial sends the new
// token; an unchanged file keeps its token without parsing it again.
func TestOAuthTokenFileSameSizeSameMtime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "token.jwt")
	exp := time.Now().Add(time.Hour)
	one, two := fileJWT("aaaa", exp), fileJWT("bbbb", exp)
	if len(one) != len(two) {
		t.Fatalf("the tokens differ in length: %d, %d", len(one), len(two))
	}
	mtime := time.Now().Add(-time.Minute).Truncate(time.Second)
	write := func(tok string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write(one)
	cfg, err := ConnOptions{Bootstrap: "h:1", SASLMechanism: "OAUTHBEARER", SASLOAuthTokenFile: p}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sent := func() string {
		t.Helper()
		msg, err := first(t, cfg.SASL)
		if err != nil {
			t.Fatal(err)
		}
		tok, _ := bearer(t, msg)
		return tok
	}
	if tok := sent(); tok != one {
		t.Fatalf("token %q, want the file's", tok)
	}
	write(two)
	if st, err := os.Stat(p); err != nil || !st.ModTime().Equal(mtime) || st.Size() != int64(len(two)+1) {
		t.Fatalf("the rewrite changed mtime or size: %v %v", st, err)
	}
	if tok := sent(); tok != two {
		t.Fatalf("after a same-size, same-mtime rewrite: token %q, want the new one", tok)
	}
	// Unchanged bytes: the cached token, not parsed again (the cache is
	// what is sent, even when it is made to differ from the file).
	src := cfg.SASL.(*oauthMech).src.(*fileToken)
	src.tok = two + "-cached"
	if tok := sent(); tok != two+"-cached" {
		t.Fatalf("an unchanged file was parsed again: %q", tok)
	}
}

func TestOAuthBrokerRejection(t *testing.T) {
	m := &oauthMech{desc: "token endpoint https://idp/token"}
	done, resp, err := m.Next(context.Background(), []byte(`{"status":"invalid_token","scope":"kafka"}`))
	var me *MechanismError
	if done || resp != nil || !errors.As(err, &me) || !strings.Contains(err.Error(), "SASL OAUTHBEARER: the broker rejected the token from the token endpoint https://idp/token (status invalid_token)") || !strings.Contains(err.Error(), "required scope: kafka") {
		t.Fatalf("done %v resp %q err %v", done, resp, err)
	}
	if done, _, err := m.Next(context.Background(), nil); !done || err != nil {
		t.Fatalf("an empty final answer is success: %v %v", done, err)
	}
}

func TestOAuthConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    ConnOptions
		kind ConfigErrorKind
		key  string
		msg  string
	}{
		{"other login handler", ConnOptions{CommandConfig: oauthProps(t, "sasl.login.callback.handler.class=com.example.MyHandler\n")}, ConfigErrorData, "sasl.login.callback.handler.class", "not supported"},
		{"oauth handler with PLAIN", ConnOptions{CommandConfig: oauthProps(t, "sasl.mechanism=PLAIN\nsasl.login.callback.handler.class="+oauthHandler4+"\n")}, ConfigErrorData, "sasl.login.callback.handler.class", "not supported"},
		{"no client id", ConnOptions{CommandConfig: oauthProps(t, "sasl.oauthbearer.token.endpoint.url=https://idp/token\nsasl.jaas.config="+testOAuthModule+" required clientSecret=\"s\";\n")}, ConfigErrorUsage, "--sasl-username", "client id"},
		{"no client secret", ConnOptions{CommandConfig: oauthProps(t, "sasl.oauthbearer.token.endpoint.url=https://idp/token\nsasl.jaas.config="+testOAuthModule+" required clientId=\"c\";\n")}, ConfigErrorUsage, "--sasl-password", "client secret"},
		{"bad endpoint", ConnOptions{CommandConfig: oauthProps(t, "sasl.oauthbearer.token.endpoint.url=ftp://idp/token\n")}, ConfigErrorData, keyTokenEndpoint, "https://"},
		{"client id without endpoint", ConnOptions{CommandConfig: oauthProps(t, "sasl.jaas.config="+testOAuthModule+" required clientId=\"c\" clientSecret=\"s\";\n")}, ConfigErrorData, "sasl.jaas.config", "needs a token endpoint"},
		{"scram module with OAUTHBEARER", ConnOptions{CommandConfig: oauthProps(t, "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";\n")}, ConfigErrorData, "sasl.jaas.config", "login module is org.apache.kafka.common.security.scram.ScramLoginModule"},
		{"token flag with PLAIN", ConnOptions{Bootstrap: "h:1", SASLMechanism: "PLAIN", SASLUsername: "u", SASLPassword: "p", SASLOAuthTokenEndpoint: "https://idp/token"}, ConfigErrorUsage, "--sasl-oauth-token-endpoint", "OAUTHBEARER"},
		{"both token flags", ConnOptions{Bootstrap: "h:1", SASLOAuthTokenEndpoint: "https://idp/token", SASLOAuthTokenFile: "/t"}, ConfigErrorUsage, "--sasl-oauth-token-file", "not both"},
		{"token flag with PLAINTEXT", ConnOptions{Bootstrap: "h:1", SecurityProtocol: "PLAINTEXT", SASLOAuthTokenFile: "/t"}, ConfigErrorUsage, "--sasl-oauth-token-file", "no SASL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.o.Resolve()
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Kind != tc.kind || ce.Key != tc.key || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v (%#v), want kind %d key %q containing %q", err, ce, tc.kind, tc.key, tc.msg)
			}
		})
	}
}

// FuzzOAuthUntrusted feeds what a token endpoint, a token file or a broker
// may send (a token, an error JSON challenge) to the code that reads it:
// never a panic, and what ends up in an error line stays one line.
func FuzzOAuthUntrusted(f *testing.F) {
	f.Add("eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjE3MDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMH0.c2ln")
	f.Add(`{"status":"invalid_token","scope":"kafka\nx"}`)
	f.Add("a.b.c")
	f.Add("..")
	f.Fuzz(func(t *testing.T, s string) {
		_, _, err := jwtTimes(s)
		if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("multi-line error %q", err)
		}
		if msg := brokerRejection([]byte(s), "unsecured JWS"); strings.ContainsAny(msg, "\n\r\x00") {
			t.Fatalf("multi-line message %q", msg)
		}
	})
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

package commands_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// The OAUTHBEARER tests run against the real broker's OIDC and unsecured
// listeners and internal/testoidc's token endpoint, all started by
// .ci/auth-oauth (kafka.sh with KCG_KAFKA_OAUTH_JWKS_URL). Elsewhere they
// skip.

const (
	oauthModule  = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	oauthHandler = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
)

type oauthRig struct {
	e                  *kafkatest.Env
	oidc, unsecured    string // bootstrap addresses of the two listeners
	tokenURL, statsURL string
	client, secret     string
	dir                string
}

func newOAuthRig(t *testing.T) *oauthRig {
	t.Helper()
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "needs the real broker's OAUTHBEARER listeners")
	r := &oauthRig{
		e: e, oidc: os.Getenv("KCG_TEST_OAUTH_BOOTSTRAP"), unsecured: os.Getenv("KCG_TEST_OAUTH_UNSECURED_BOOTSTRAP"),
		tokenURL: os.Getenv("KCG_TEST_OAUTH_TOKEN_URL"), statsURL: os.Getenv("KCG_TEST_OAUTH_STATS_URL"),
		client: os.Getenv("KCG_TEST_OAUTH_CLIENT_ID"), secret: os.Getenv("KCG_TEST_OAUTH_CLIENT_SECRET"), dir: t.TempDir(),
	}
	if r.oidc == "" || r.unsecured == "" || r.tokenURL == "" || r.client == "" || r.secret == "" {
		t.Skip("KCG_TEST_OAUTH_* is not set: run .ci/auth-oauth (an OIDC provider and a broker with OAUTHBEARER listeners)")
	}
	// Kafka 4.x's clients contact only the URLs this property allows.
	if urls := os.Getenv("KCG_TEST_OAUTH_ALLOWED_URLS"); urls != "" {
		t.Setenv("JAVA_TOOL_OPTIONS", "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls="+urls)
	}
	return r
}

// file writes a Java client properties file.
func (r *oauthRig) file(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.WriteFile(p, []byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// oidcConfig is the KIP-768 client credentials file a Java user has.
func (r *oauthRig) oidcConfig(t *testing.T, secret string) string {
	return r.file(t, "oidc-"+secret+".properties", "sasl.oauthbearer.token.endpoint.url="+r.tokenURL+"\nsasl.login.callback.handler.class="+oauthHandler+"\n"+
		fmt.Sprintf("sasl.jaas.config=%s required clientId=\"%s\" clientSecret=\"%s\";\n", oauthModule, r.client, secret))
}

// unsecuredConfig is the Java client's development file.
func (r *oauthRig) unsecuredConfig(t *testing.T) string {
	return r.file(t, "unsecured.properties", "sasl.jaas.config="+oauthModule+" required unsecuredLoginStringClaim_sub=\"alice\";\n")
}

// issued is how many tokens the provider has given the test client.
func (r *oauthRig) issued(t *testing.T) int {
	t.Helper()
	resp, err := http.Get(r.statsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s struct {
		Issued map[string]int `json:"issued"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s.Issued[r.client]
}

// fixture makes a topic with 10 records and a group committed at 7.
func (r *oauthRig) fixture(t *testing.T) (topic, group string) {
	t.Helper()
	topic, group = kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	r.e.CreateTopic(t, topic, 1)
	r.e.Produce(t, topic, 0, records(10)...)
	r.e.Commit(t, group, topic, map[int32]int64{0: 7})
	return topic, group
}

// describe, plan and apply over each listener, with a Java properties
// file, native flags and a profile.
func TestOAuthDescribePlanApply(t *testing.T) {
	r := newOAuthRig(t)
	profile := filepath.Join(r.dir, "config.yaml")
	t.Setenv("KCG_OAUTH_TEST_SECRET", r.secret)
	body := fmt.Sprintf("profiles:\n  idp:\n    bootstrap: %s\n    securityProtocol: SASL_PLAINTEXT\n    sasl:\n      mechanism: OAUTHBEARER\n      username: %s\n      passwordEnv: KCG_OAUTH_TEST_SECRET\n      tokenEndpoint: %s\n", r.oidc, r.client, r.tokenURL)
	if err := os.WriteFile(profile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KCG_CONFIG", profile)
	t.Setenv("KCG_SASL_PASSWORD", "")
	for _, c := range []struct {
		name string
		conn []string
	}{
		{"OIDC command-config", []string{"-b", r.oidc, "--command-config", r.oidcConfig(t, r.secret)}},
		{"unsecured command-config", []string{"-b", r.unsecured, "--command-config", r.unsecuredConfig(t)}},
		{"OIDC native flags", []string{"-b", r.oidc, "--security-protocol", "SASL_PLAINTEXT", "--sasl-mechanism", "OAUTHBEARER", "--sasl-oauth-token-endpoint", r.tokenURL, "--sasl-username", r.client, "--sasl-password", r.secret}},
		{"OIDC profile", []string{"--profile", "idp"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			topic, group := r.fixture(t)
			res := kcg(t, append([]string{"describe", group}, c.conn...)...).MustCode(t, 0)
			if rw := rows(res.Stdout, group); len(rw) != 2 || len(rw[0]) < 5 || rw[0][1] != topic || rw[0][3] != "7" {
				t.Fatalf("describe over %s:\n%s\n%s", c.name, res.Stdout, res.Stderr)
			}
			plan := filepath.Join(t.TempDir(), "p.yaml")
			kcg(t, append([]string{"plan", group, "--topic", topic, "--to-earliest", "--out", plan}, c.conn...)...).MustCode(t, 0)
			kcg(t, append([]string{"apply", plan, "--rollback-out", filepath.Join(t.TempDir(), "rb.yaml")}, c.conn...)...).MustCode(t, 0)
			if got := r.e.Committed(t, group)[topic][0]; got != 0 {
				t.Fatalf("after apply over %s: committed %d, want 0", c.name, got)
			}
			if strings.Contains(res.Stdout+res.Stderr, r.secret) {
				t.Fatal("the client secret was printed")
			}
		})
	}
}

// Drop-in mode with the very --command-config file the Java tool is run
// with, side by side: the same output.
func TestOAuthDropInSideBySide(t *testing.T) {
	r := newOAuthRig(t)
	for _, c := range []struct{ name, addr, file string }{
		{"OIDC", r.oidc, r.oidcConfig(t, r.secret)},
		{"unsecured", r.unsecured, r.unsecuredConfig(t)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, group := r.fixture(t)
			args := []string{"--bootstrap-server", c.addr, "--command-config", c.file, "--describe", "--group", group}
			jout, jerr, jcode := r.e.JavaTool(t, args...)
			if jcode != 0 || !strings.Contains(jout, group) {
				t.Fatalf("Java tool over %s: exit %d\n%s\n%s", c.name, jcode, jout, jerr)
			}
			res := kcg(t, args...).MustCode(t, 0)
			if res.Stdout != jout {
				t.Fatalf("drop-in differs from the Java tool over %s\nkcg:\n%s\njava:\n%s", c.name, res.Stdout, jout)
			}
			list := []string{"--bootstrap-server", c.addr, "--command-config", c.file, "--list"}
			if res := kcg(t, list...).MustCode(t, 0); !strings.Contains(res.Stdout, group+"\n") {
				t.Fatalf("drop-in --list over %s misses %s", c.name, group)
			}
		})
	}
}

// A watch that outlives several tokens: the provider issues 20 s tokens
// and the OIDC listener closes a connection when its token expires
// (connections.max.reauth.ms; kafka-go does not re-authenticate), so the
// watch keeps going only if kcg dials its new connections with fresh
// tokens.
func TestOAuthWatchOutlivesToken(t *testing.T) {
	r := newOAuthRig(t)
	_, group := r.fixture(t)
	before := r.issued(t)
	start := time.Now()
	res := kcg(t, "watch", group, "-b", r.oidc, "--command-config", r.oidcConfig(t, r.secret), "--interval", "3s", "--count", "16", "-o", "json").MustCode(t, 0)
	if d := time.Since(start); d < 45*time.Second {
		t.Fatalf("the watch took %v, not long enough to outlive a 20 s token", d)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) != 16 {
		t.Fatalf("%d samples, want 16:\n%s\n%s", len(lines), res.Stdout, res.Stderr)
	}
	for i, l := range lines {
		if !strings.Contains(l, `"group":"`+group+`"`) || strings.Contains(l, `"error":"`) {
			t.Fatalf("sample %d: %s", i+1, l)
		}
	}
	if n := r.issued(t) - before; n < 3 {
		t.Fatalf("a 45 s watch fetched %d tokens of 20 s; want at least 3 (refreshed before expiry)", n)
	}
}

// Each failure: one line naming the mechanism and what to check, exit 1.
func TestOAuthFailureLines(t *testing.T) {
	r := newOAuthRig(t)
	_, group := r.fixture(t)
	one := func(t *testing.T, args []string, want ...string) {
		t.Helper()
		start := time.Now()
		res := kcg(t, append(args, "--timeout", "20s")...).MustCode(t, 1)
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("took %v to fail", d)
		}
		line := strings.TrimSpace(res.Stderr)
		if strings.Count(line, "\n") != 0 || strings.Contains(line, "not-the-secret") || strings.Contains(line, r.secret) {
			t.Fatalf("stderr %q", res.Stderr)
		}
		for _, w := range want {
			if !strings.Contains(line, w) {
				t.Fatalf("stderr %q lacks %q", line, w)
			}
		}
	}
	t.Run("wrong client secret", func(t *testing.T) {
		one(t, []string{"describe", group, "-b", r.oidc, "--command-config", r.oidcConfig(t, "not-the-secret")},
			"kcg: authentication to Kafka at "+r.oidc+" failed: SASL OAUTHBEARER: the token endpoint "+r.tokenURL+" refused the client (HTTP 401", "check clientId, clientSecret")
	})
	t.Run("token endpoint down", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		down := "http://" + ln.Addr().String() + "/token"
		ln.Close()
		one(t, []string{"describe", group, "-b", r.oidc, "--sasl-mechanism", "OAUTHBEARER", "--sasl-oauth-token-endpoint", down, "--sasl-username", r.client, "--sasl-password", r.secret},
			"SASL OAUTHBEARER: cannot reach the token endpoint "+down, "that the identity provider is up")
	})
	t.Run("unsecured token on the OIDC listener", func(t *testing.T) {
		one(t, []string{"describe", group, "-b", r.oidc, "--command-config", r.unsecuredConfig(t)},
			"SASL OAUTHBEARER: the broker rejected the token from the unsecured JWS (status invalid_token)")
	})
	t.Run("unreadable token file", func(t *testing.T) {
		res := kcg(t, "describe", group, "-b", r.oidc, "--sasl-mechanism", "OAUTHBEARER", "--sasl-oauth-token-file", filepath.Join(r.dir, "none.jwt")).MustCode(t, 65)
		if !strings.Contains(res.Stderr, "--sasl-oauth-token-file: cannot read the token file") {
			t.Fatalf("stderr %q", res.Stderr)
		}
	})
}

// A token minted outside kcg, in a file: the provider's token written to a
// file works over the OIDC listener, read through the KIP-768 file://
// endpoint exactly as the Java client reads it.
func TestOAuthTokenFile(t *testing.T) {
	r := newOAuthRig(t)
	_, group := r.fixture(t)
	req, err := http.NewRequest(http.MethodPost, r.tokenURL, strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(r.client, r.secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("token: %v", err)
	}
	p := filepath.Join(r.dir, "token.jwt")
	if err := os.WriteFile(p, []byte(tok.AccessToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The Java client needs the file's URL allowed too.
	t.Setenv("JAVA_TOOL_OPTIONS", os.Getenv("JAVA_TOOL_OPTIONS")+",file://"+p)
	f := r.file(t, "file.properties", "sasl.oauthbearer.token.endpoint.url=file://"+p+"\nsasl.login.callback.handler.class="+oauthHandler+"\nsasl.jaas.config="+oauthModule+" required;\n")
	args := []string{"--bootstrap-server", r.oidc, "--command-config", f, "--describe", "--group", group}
	jout, jerr, jcode := r.e.JavaTool(t, args...)
	if jcode != 0 {
		t.Fatalf("Java tool with the token file: exit %d\n%s", jcode, jerr)
	}
	if res := kcg(t, args...).MustCode(t, 0); res.Stdout != jout {
		t.Fatalf("drop-in with the token file differs\nkcg:\n%s\njava:\n%s", res.Stdout, jout)
	}
	kcg(t, "describe", group, "-b", r.oidc, "--sasl-mechanism", "OAUTHBEARER", "--sasl-oauth-token-file", p).MustCode(t, 0)
}

// docExample returns the properties block of docs/connecting.md marked
// <!-- tested: NAME ... -->.
func docExample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "connecting.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- tested: "+name+" ")
	if !ok {
		t.Fatalf("docs/connecting.md has no example marked %q", name)
	}
	_, rest, _ = strings.Cut(rest, "```properties\n")
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatalf("example %q has no properties block", name)
	}
	return block
}

// The examples of docs/connecting.md work as written, with the test's
// endpoint, client and (no-TLS) protocol in place of the placeholders.
func TestOAuthDocExamples(t *testing.T) {
	r := newOAuthRig(t)
	_, group := r.fixture(t)
	oidc := strings.NewReplacer("security.protocol=SASL_SSL", "security.protocol=SASL_PLAINTEXT",
		"https://idp.example.com/oauth2/token", r.tokenURL, `"kcg-ops"`, `"`+r.client+`"`, `clientSecret="..."`, `clientSecret="`+r.secret+`"`).Replace(docExample(t, "oauth-oidc"))
	for _, c := range []struct{ name, addr, body string }{
		{"oauth-oidc", r.oidc, oidc},
		{"oauth-unsecured", r.unsecured, docExample(t, "oauth-unsecured")},
	} {
		p := filepath.Join(r.dir, c.name+".properties")
		if err := os.WriteFile(p, []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		res := kcg(t, "describe", group, "-b", c.addr, "--command-config", p).MustCode(t, 0)
		if len(rows(res.Stdout, group)) != 2 {
			t.Fatalf("%s: %s", c.name, res.Stdout)
		}
	}
}

// kcg profile show of an OAUTHBEARER profile: the token endpoint, file and
// scope as written, the secret as its reference, and a document its schema
// accepts.
func TestOAuthProfileShow(t *testing.T) {
	writeConfig(t, "profiles:\n  cloud:\n    bootstrap: pkc-1:9092\n    securityProtocol: SASL_SSL\n    sasl:\n      mechanism: OAUTHBEARER\n      username: kcg-ops\n"+
		"      passwordEnv: CLOUD_SECRET\n      tokenEndpoint: https://idp.example.com/oauth2/token\n      scope: kafka\n")
	for _, o := range []string{"json", "yaml"} {
		schematest.MustMatch(t, "Profile", kcg(t, "profile", "show", "cloud", "-o", o).MustCode(t, 0).Stdout, o == "yaml")
	}
	out := kcg(t, "profile", "show", "cloud").MustCode(t, 0).Stdout
	for _, want := range []string{"sasl mechanism:     OAUTHBEARER\n", "sasl password:      from $CLOUD_SECRET\n", "oauth token url:    https://idp.example.com/oauth2/token\n", "oauth scope:        kafka\n"} {
		if !strings.Contains(out, want) {
			t.Fatalf("profile show lacks %q:\n%s", want, out)
		}
	}
}

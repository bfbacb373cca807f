package commands_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The broker side of the token mechanisms kfake does not speak
// (AWS_MSK_IAM, OAUTHBEARER), without a real broker: there is no MSK to
// test against, and these failures happen before a token reaches a real
// validator. The real OAUTHBEARER and GSSAPI listeners are in
// oauth_test.go and gssapi_test.go.

// saslFake is a kfake cluster whose SaslHandshake accepts mech and whose
// SaslAuthenticate answers what answer returns for the client's bytes; the
// bytes of every SaslAuthenticate are kept. After a successful exchange
// the cluster serves requests as any kfake cluster.
type saslFake struct {
	addr string
	mu   sync.Mutex
	auth [][]byte
}

func newSASLFake(t *testing.T, mech string, answer func(auth []byte) (code int16, msg string)) *saslFake {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	f := &saslFake{addr: c.ListenAddrs()[0]}
	c.ControlKey(int16(kmsg.SASLHandshake), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.SASLHandshakeRequest)
		resp := r.ResponseKind().(*kmsg.SASLHandshakeResponse)
		resp.SupportedMechanisms = []string{mech}
		if r.Mechanism != mech {
			resp.ErrorCode = kerr.UnsupportedSaslMechanism.Code
		}
		return resp, nil, true
	})
	c.ControlKey(int16(kmsg.SASLAuthenticate), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.SASLAuthenticateRequest)
		f.mu.Lock()
		f.auth = append(f.auth, append([]byte(nil), r.SASLAuthBytes...))
		f.mu.Unlock()
		resp := r.ResponseKind().(*kmsg.SASLAuthenticateResponse)
		code, msg := answer(r.SASLAuthBytes)
		resp.ErrorCode = code
		if msg != "" {
			resp.ErrorMessage = &msg
		}
		return resp, nil, true
	})
	return f
}

// authenticated returns the client messages of the SaslAuthenticate
// requests so far.
func (f *saslFake) authenticated() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.auth...)
}

// isolateAWS points the AWS SDK's credential chain at nothing of this
// machine's (empty config and credentials files, no variables, no
// instance metadata: no network), with the region given.
func isolateAWS(t *testing.T, region string) {
	t.Helper()
	dir := t.TempDir()
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	for _, f := range []string{"config", "credentials"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	if region != "" {
		t.Setenv("AWS_REGION", region)
	}
}

// errorLine is the error a run printed: kcg's on stderr after "kcg: ";
// drop-in mode's on stdout after the Java tool's "Error: Executing
// consumer group command failed due to ", with nothing on stderr. Each is
// checked to be the only thing printed.
func errorLine(t *testing.T, r clitest.Result, dropIn bool) string {
	t.Helper()
	out, other, prefix := r.Stderr, r.Stdout, "kcg: "
	if dropIn {
		out, other, prefix = strings.TrimPrefix(r.Stdout, "\n"), r.Stderr, "Error: Executing consumer group command failed due to "
	}
	if other != "" || !strings.HasPrefix(out, prefix) || strings.Count(out, "\n") != 1 {
		t.Fatalf("want one line starting %q\nstdout %q\nstderr %q", prefix, r.Stdout, r.Stderr)
	}
	return strings.TrimPrefix(out, prefix)
}

// A broker refusing the signed AWS_MSK_IAM request (MSK answers
// SaslAuthenticate with SASL_AUTHENTICATION_FAILED and "Access denied"):
// one line naming the mechanism, the broker's reason and what to check —
// not the user-and-password line of PLAIN and SCRAM — exit 1, with
// native flags and in drop-in mode with the Java tool's MSK file (which
// prints it on stdout, after "Error: ", as the Java tool does).
func TestMSKIAMRejectedByBroker(t *testing.T) {
	isolateAWS(t, "eu-west-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDKCGTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "kcg-test-secret-key")
	f := newSASLFake(t, "AWS_MSK_IAM", func([]byte) (int16, string) {
		return kerr.SaslAuthenticationFailed.Code, "[3f9a2c] Access denied"
	})
	props := filepath.Join(t.TempDir(), "msk.properties")
	body := "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=AWS_MSK_IAM\nsasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required;\n" +
		"sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler\n"
	if err := os.WriteFile(props, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		dropIn bool
	}{
		{"native flags", []string{"list", "-b", f.addr, "--sasl-mechanism", "AWS_MSK_IAM", "--timeout", "20s"}, false},
		{"drop-in", []string{"--bootstrap-server", f.addr, "--command-config", props, "--list", "--timeout", "20000"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			r := kcg(t, c.args...).MustCode(t, 1)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v to fail", d)
			}
			oneLine(t, errorLine(t, r, c.dropIn), "authentication to Kafka at "+f.addr+" failed: SASL AWS_MSK_IAM: the broker refused the signed request ([3f9a2c] Access denied): check the AWS credentials chain",
				"(signed for eu-west-1)", "kafka-cluster:Connect")
			if strings.Contains(r.Stderr, "user and password") || strings.Contains(r.Stdout+r.Stderr, "kcg-test-secret-key") {
				t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
			}
		})
	}
	// The broker was sent the signed request: the failure is its answer,
	// not kcg's.
	auth := f.authenticated()
	if len(auth) == 0 {
		t.Fatal("no SaslAuthenticate reached the broker")
	}
	var signed map[string]string
	if err := json.Unmarshal(auth[0], &signed); err != nil || signed["action"] != "kafka-cluster:Connect" || !strings.HasPrefix(signed["x-amz-credential"], "AKIDKCGTEST/") || !strings.Contains(signed["x-amz-credential"], "/eu-west-1/kafka-cluster/") {
		t.Fatalf("signed request %s (%v)", auth[0], err)
	}
}

// AWS_MSK_IAM with no credentials in the chain, or no region: one line
// naming the mechanism and what to set, exit 1, and nothing sent to the
// broker.
func TestMSKIAMNoCredentials(t *testing.T) {
	f := newSASLFake(t, "AWS_MSK_IAM", func([]byte) (int16, string) { return 0, "" })
	for _, c := range []struct{ name, region, want string }{
		{"no credentials", "eu-west-1", "SASL AWS_MSK_IAM: cannot sign the authentication request (check the AWS credentials: AWS_PROFILE, AWS_ACCESS_KEY_ID, ~/.aws, the instance or task role)"},
		{"no region", "", "SASL AWS_MSK_IAM: no AWS region"},
	} {
		t.Run(c.name, func(t *testing.T) {
			isolateAWS(t, c.region)
			if c.region == "" {
				t.Setenv("AWS_ACCESS_KEY_ID", "AKIDKCGTEST")
				t.Setenv("AWS_SECRET_ACCESS_KEY", "kcg-test-secret-key")
			}
			start := time.Now()
			r := kcg(t, "list", "-b", f.addr, "--sasl-mechanism", "AWS_MSK_IAM", "--timeout", "20s").MustCode(t, 1)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v to fail", d)
			}
			oneLine(t, r.Stderr, "kcg: authentication to Kafka at "+f.addr+" failed: "+c.want)
		})
	}
	if n := len(f.authenticated()); n != 0 {
		t.Fatalf("%d SaslAuthenticate requests reached the broker without a signed request", n)
	}
}

// testJWT is an unsigned JWT with sub and exp (kcg reads exp; the broker
// would check the signature).
func testJWT(sub string, exp time.Time) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." +
		enc.EncodeToString([]byte(fmt.Sprintf(`{"sub":%q,"exp":%d}`, sub, exp.Unix()))) + ".c2lnbmF0dXJl"
}

// An expired token in a token file: one line naming OAUTHBEARER, the file
// and that it must be renewed, exit 1, and the token never sent.
func TestOAuthExpiredTokenFile(t *testing.T) {
	f := newSASLFake(t, "OAUTHBEARER", func([]byte) (int16, string) { return 0, "" })
	p := filepath.Join(t.TempDir(), "kafka.jwt")
	tok := testJWT("kcg-ops", time.Now().Add(-10*time.Minute))
	if err := os.WriteFile(p, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(t.TempDir(), "file.properties")
	if err := os.WriteFile(props, []byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=file://"+p+"\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		dropIn bool
	}{
		{"flag", []string{"list", "-b", f.addr, "--sasl-mechanism", "OAUTHBEARER", "--sasl-oauth-token-file", p, "--timeout", "20s"}, false},
		{"drop-in file:// endpoint", []string{"--bootstrap-server", f.addr, "--command-config", props, "--list", "--timeout", "20000"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := kcg(t, c.args...).MustCode(t, 1)
			oneLine(t, errorLine(t, r, c.dropIn), "authentication to Kafka at "+f.addr+" failed: SASL OAUTHBEARER: the token in "+p+" expired at ", ": renew the file")
			if strings.Contains(r.Stdout+r.Stderr, tok) {
				t.Error("the token was printed")
			}
		})
	}
	if n := len(f.authenticated()); n != 0 {
		t.Fatalf("the expired token was sent (%d SaslAuthenticate requests)", n)
	}
}

// A profile's sasl.tokenFile, end to end: the file's token is what the
// broker receives, a renewed file is read by the next command, and
// kcg profile show names the file but never prints the token.
func TestOAuthProfileTokenFileSent(t *testing.T) {
	f := newSASLFake(t, "OAUTHBEARER", func([]byte) (int16, string) { return 0, "" })
	cfg := writeConfig(t, "profiles:\n  minted:\n    bootstrap: "+f.addr+"\n    sasl:\n      mechanism: OAUTHBEARER\n      tokenFile: kafka.jwt\n")
	p := filepath.Join(filepath.Dir(cfg), "kafka.jwt")
	sent := func(t *testing.T, tok string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		before := len(f.authenticated())
		r := kcg(t, "--profile", "minted", "list", "-o", "json").MustCode(t, 0)
		if !strings.Contains(r.Stdout, `"kind": "GroupList"`) {
			t.Fatalf("list over the profile's token file:\n%s\n%s", r.Stdout, r.Stderr)
		}
		auth := f.authenticated()[before:]
		if len(auth) == 0 {
			t.Fatal("no SaslAuthenticate reached the broker")
		}
		for _, a := range auth {
			if string(a) != "n,,\x01auth=Bearer "+tok+"\x01\x01" {
				t.Fatalf("the broker got %q, want the file's token", a)
			}
		}
	}
	one, two := testJWT("kcg-ops", time.Now().Add(time.Hour)), testJWT("kcg-ops-renewed", time.Now().Add(2*time.Hour))
	sent(t, one)
	sent(t, two)
	for _, o := range []string{"table", "json", "yaml"} {
		out := kcg(t, "profile", "show", "minted", "-o", o).MustCode(t, 0).Stdout
		if !strings.Contains(out, p) {
			t.Errorf("profile show -o %s does not name the token file %s:\n%s", o, p, out)
		}
		for _, tok := range []string{one, two} {
			for _, part := range strings.Split(tok, ".") {
				if strings.Contains(out, part) {
					t.Errorf("profile show -o %s prints the token:\n%s", o, out)
				}
			}
		}
	}
}

package connconfig

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/segmentio/kafka-go/sasl"
)

func mskProps(t *testing.T, jaas string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "msk.properties")
	body := "bootstrap.servers=b-1.demo.abc123.c2.kafka.eu-west-1.amazonaws.com:9098\nsecurity.protocol=SASL_SSL\nsasl.mechanism=AWS_MSK_IAM\n" +
		"sasl.jaas.config=" + jaas + "\nsasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler\n"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// isolateAWS points the AWS SDK's credential chain at nothing of this
// machine's.
func isolateAWS(t *testing.T) string {
	dir := t.TempDir()
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	return dir
}

// The handshake bytes against the fixed credentials and time of the
// signer's documented vector (kafka-go's sasl/aws_msk_iam_v2 test:
// ACCESS_KEY/SECRET_KEY, us-east-1, host localhost, 2021-10-14T13:05:00Z),
// through kcg's wrapper with the aws-sdk-go-v2 version kcg pins.
func TestMSKIAMSignatureVector(t *testing.T) {
	m := &mskMech{
		creds:  credentials.NewStaticCredentialsProvider("ACCESS_KEY", "SECRET_KEY", ""),
		region: "us-east-1",
		now:    func() time.Time { return time.Date(2021, 10, 14, 13, 5, 0, 0, time.UTC) },
	}
	m.signer = newSigner()
	ctx := sasl.WithMetadata(context.Background(), &sasl.Metadata{Host: "localhost", Port: 9092})
	_, got, err := m.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(map[string]string{
		"version":             "2020_10_22",
		"action":              "kafka-cluster:Connect",
		"host":                "localhost",
		"user-agent":          "kafka-go/sasl/aws_msk_iam_v2/" + runtime.Version(),
		"x-amz-algorithm":     "AWS4-HMAC-SHA256",
		"x-amz-credential":    "ACCESS_KEY/20211014/us-east-1/kafka-cluster/aws4_request",
		"x-amz-date":          "20211014T130500Z",
		"x-amz-expires":       "300",
		"x-amz-signedheaders": "host",
		"x-amz-signature":     "6b8d25f9b45b9c7db9da855a49112d80379224153a27fd279c305a5b7940d1a7",
	})
	if string(got) != string(want) {
		t.Fatalf("handshake payload\n got %s\nwant %s", got, want)
	}
	if s := fmt.Sprintf("%v", m); strings.Contains(s, "SECRET_KEY") || strings.Contains(s, "ACCESS_KEY") {
		t.Fatalf("printing shows credentials: %s", s)
	}
}

// The Java tool's MSK properties file resolves unchanged; the region comes
// from the MSK broker's host name; credentials from the standard chain.
func TestMSKIAMCommandConfig(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
	cfg, err := ConnOptions{CommandConfig: mskProps(t, "software.amazon.msk.auth.iam.IAMLoginModule required;")}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TLS == nil || cfg.SASL.Name() != "AWS_MSK_IAM" {
		t.Fatalf("cfg %v", cfg)
	}
	ctx := sasl.WithMetadata(context.Background(), &sasl.Metadata{Host: "b-1.demo.abc123.c2.kafka.eu-west-1.amazonaws.com", Port: 9098})
	_, payload, err := cfg.SASL.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(payload, &got); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got["x-amz-credential"], "AKIDEXAMPLE/") || !strings.HasSuffix(got["x-amz-credential"], "/eu-west-1/kafka-cluster/aws4_request") || len(got["x-amz-signature"]) != 64 {
		t.Fatalf("payload %v", got)
	}
	if s := fmt.Sprintf("%v", cfg); strings.Contains(s, "wJalrX") {
		t.Fatalf("printing shows the secret key: %s", s)
	}

	// No region anywhere: the line says what to set.
	ctx = sasl.WithMetadata(context.Background(), &sasl.Metadata{Host: "10.0.0.7", Port: 9098})
	_, _, err = cfg.SASL.Start(ctx)
	var me *MechanismError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "SASL AWS_MSK_IAM: no AWS region") {
		t.Fatalf("err = %v", err)
	}
}

func TestMSKIAMErrors(t *testing.T) {
	dir := isolateAWS(t)
	_, err := ConnOptions{CommandConfig: mskProps(t, `software.amazon.msk.auth.iam.IAMLoginModule required awsMaxRetries="3";`)}.Resolve()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), "option awsMaxRetries is not supported") {
		t.Fatalf("unsupported option: %v", err)
	}
	_, err = ConnOptions{CommandConfig: mskProps(t, `software.amazon.msk.auth.iam.IAMLoginModule required awsProfileName="nope";`)}.Resolve()
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), "cannot load the AWS configuration") {
		t.Fatalf("unknown profile: %v", err)
	}
	// A named profile's credentials, no network: a static profile.
	if err := os.WriteFile(filepath.Join(dir, "credentials"), []byte("[team]\naws_access_key_id = AKIDTEAM\naws_secret_access_key = team-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := ConnOptions{CommandConfig: mskProps(t, `software.amazon.msk.auth.iam.IAMLoginModule required awsProfileName="team";`)}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	ctx := sasl.WithMetadata(context.Background(), &sasl.Metadata{Host: "b-2.x.y.c3.kafka.us-west-2.amazonaws.com", Port: 9098})
	_, payload, err := cfg.SASL.Start(ctx)
	if err != nil || !strings.Contains(string(payload), `"x-amz-credential":"AKIDTEAM/`) || !strings.Contains(string(payload), "/us-west-2/kafka-cluster/") {
		t.Fatalf("profile credentials: %v %s", err, payload)
	}
	_, err = ConnOptions{Bootstrap: "h:1", SecurityProtocol: "SASL_SSL", SASLMechanism: "aws_msk_iam", SASLUsername: "u"}.Resolve()
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorUsage || !strings.Contains(err.Error(), "takes no user name") {
		t.Fatalf("user name: %v", err)
	}
	// No credentials in the chain: the first connection says so.
	cfg, err = ConnOptions{Bootstrap: "h:1", SecurityProtocol: "SASL_SSL", SASLMechanism: "AWS_MSK_IAM"}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, _, err = cfg.SASL.Start(ctx)
	if err == nil || !strings.HasPrefix(err.Error(), "SASL AWS_MSK_IAM: cannot sign the authentication request (check the AWS credentials") {
		t.Fatalf("no credentials: %v", err)
	}
}

// The MSK example of docs/connecting.md resolves as written.
func TestMSKIAMDocExample(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDDOC")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "doc-secret")
	data, err := os.ReadFile(filepath.Join("..", "docs", "connecting.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- tested: msk-iam ")
	_, rest, _ = strings.Cut(rest, "```properties\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/connecting.md has no msk-iam example")
	}
	p := filepath.Join(t.TempDir(), "msk.properties")
	if err := os.WriteFile(p, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := ConnOptions{Bootstrap: "b-1.demo.abc.c2.kafka.eu-west-1.amazonaws.com:9098", CommandConfig: p}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TLS == nil || cfg.SASL == nil || cfg.SASL.Name() != "AWS_MSK_IAM" {
		t.Fatalf("cfg %v", cfg)
	}
}

// The broker's refusal of a signed request (SaslAuthenticate's
// SASL_AUTHENTICATION_FAILED, which kafka-go never shows the mechanism):
// one line naming AWS_MSK_IAM, the broker's reason, the region signed for
// and what to check. Mechanisms that report refusals themselves, or whose
// generic line fits, add nothing.
func TestMSKIAMBrokerRejection(t *testing.T) {
	m := &mskMech{creds: credentials.NewStaticCredentialsProvider("AKIDREJ", "rej-secret", ""), region: "eu-central-1", signer: newSigner(), now: time.Now}
	if me := BrokerRejection(m, ""); me == nil || !strings.Contains(me.Error(), "(signed for eu-central-1)") {
		t.Fatalf("before any request, the configured region: %v", me)
	}
	ctx := sasl.WithMetadata(context.Background(), &sasl.Metadata{Host: "b-1.demo.abc.c2.kafka.us-west-2.amazonaws.com", Port: 9098})
	if _, _, err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	me := BrokerRejection(m, "[4f1c] Access denied\nsecond line")
	if me == nil {
		t.Fatal("no line for AWS_MSK_IAM")
	}
	got := me.Error()
	for _, want := range []string{"SASL AWS_MSK_IAM: the broker refused the signed request ([4f1c] Access denied?second line): check the AWS credentials chain (AWS_PROFILE, AWS_ACCESS_KEY_ID", "(signed for us-west-2)", "kafka-cluster:Connect"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "rej-secret") || strings.Contains(got, "\n") {
		t.Errorf("not one safe line: %q", got)
	}
	for _, other := range []sasl.Mechanism{&saslMech{name: "PLAIN"}, &oauthMech{desc: "unsecured JWS"}, &gssapiMech{}} {
		if me := BrokerRejection(other, "x"); me != nil {
			t.Errorf("%s: %v, want nil", other.Name(), me)
		}
	}
}

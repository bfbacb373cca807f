package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// saslConfig writes a Java client properties file for the test broker's
// SASL listener.
func saslConfig(t *testing.T, mechanism, user, password string) string {
	t.Helper()
	module := "org.apache.kafka.common.security.scram.ScramLoginModule"
	if mechanism == "PLAIN" {
		module = "org.apache.kafka.common.security.plain.PlainLoginModule"
	}
	p := filepath.Join(t.TempDir(), "client.properties")
	body := fmt.Sprintf("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=%s\nsasl.jaas.config=%s required username=\"%s\" password=\"%s\";\n", mechanism, module, user, password)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// SASL PLAIN and SCRAM against the real broker's SASL listener, through the
// Java tool's --command-config file, side by side with the Java tool
// (drop-in scenario 63): good credentials list the group, bad ones
// fail fast — and kcg never prints the password.
func TestSASLCommandConfig(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "needs the real broker's SASL listener")
	addr, user, password := os.Getenv("KCG_TEST_SASL_BOOTSTRAP"), os.Getenv("KCG_TEST_SASL_USER"), os.Getenv("KCG_TEST_SASL_PASSWORD")
	if addr == "" {
		t.Skip("KCG_TEST_SASL_BOOTSTRAP is not set: the broker was started without the SASL listener (.ci/kafka/kafka.sh start adds it)")
	}
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 1)
	e.Commit(t, group, topic, map[int32]int64{0: 0})
	for _, mech := range []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"} {
		t.Run(mech, func(t *testing.T) {
			good := saslConfig(t, mech, user, password)
			r := kcg(t, "list", "--bootstrap-server", addr, "--command-config", good).MustCode(t, 0)
			if len(rows(r.Stdout, group)) != 1 {
				t.Fatalf("kcg list over SASL misses %s:\n%s", group, r.Stdout)
			}
			stdout, stderr, code := e.JavaTool(t, "--bootstrap-server", addr, "--command-config", good, "--list")
			if code != 0 || !strings.Contains(stdout, group) {
				t.Fatalf("Java over SASL: exit %d\n%s\n%s", code, stdout, stderr)
			}
			// Drop-in mode takes the same command line.
			r = kcg(t, "--bootstrap-server", addr, "--command-config", good, "--list").MustCode(t, 0)
			if !strings.Contains(r.Stdout, group) {
				t.Fatalf("drop-in list over SASL:\n%s", r.Stdout)
			}

			bad := saslConfig(t, mech, user, "not-the-password")
			start := time.Now()
			r = kcg(t, "list", "--bootstrap-server", addr, "--command-config", bad, "--timeout", "20s").MustCode(t, 1)
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("bad credentials took %v to fail", d)
			}
			if !strings.Contains(r.Stderr, "authentication") || strings.Contains(r.Stderr, "not-the-password") || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
				t.Fatalf("stderr %q", r.Stderr)
			}
			stdout, stderr, _ = e.JavaTool(t, "--bootstrap-server", addr, "--command-config", bad, "--list", "--timeout", "5000")
			if !strings.Contains(stdout+stderr, "uthentication") {
				t.Fatalf("Java with bad credentials did not report an authentication failure:\n%s", stderr)
			}
		})
	}
}

package connconfig

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"github.com/twmb/franz-go/pkg/kfake"
)

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
	// javaprops owns the fixture: it is a typical client file, and
	// javaprops' tests check it parses as Java parses it.
	p, err := javaprops.Parse(mustRead(t, filepath.Join("javaprops", "testdata", "properties", "kafka.properties")))
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

package connconfig

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

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

package commands_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// saslMechanisms are the SASL mechanisms kcg supports (docs/connecting.md),
// each with the profile settings it takes.
var saslMechanisms = map[string]string{
	"PLAIN":         "{mechanism: %s, username: ops, passwordEnv: PW}",
	"SCRAM-SHA-256": "{mechanism: %s, username: ops, passwordFile: pw.txt}",
	"SCRAM-SHA-512": "{mechanism: %s, username: ops, passwordEnv: PW}",
	"OAUTHBEARER":   "{mechanism: %s, username: client, passwordEnv: SECRET, tokenEndpoint: 'https://idp.example/token', scope: kafka}",
	"AWS_MSK_IAM":   "{mechanism: %s}",
	"GSSAPI":        "{mechanism: %s, keytab: kcg.keytab, principal: kcg@EXAMPLE.COM, kerberosServiceName: kafka, krb5Config: krb5.conf}",
}

// The profile documents match their schemas for a profile of every SASL
// mechanism, each under every security protocol and spelt as written in
// upper and lower case (the file takes any case; the documents name the
// mechanism and protocol as the Java client does). The mechanisms are
// those both schemas list, so a mechanism added to one is tested here.
func TestProfileDocumentsMatchSchemasForEveryMechanism(t *testing.T) {
	for _, kind := range []string{"Profile", "ProfileList"} {
		got := schemaMechanisms(t, kind)
		want := make([]string, 0, len(saslMechanisms))
		for m := range saslMechanisms {
			want = append(want, m)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s.schema.json lists the SASL mechanisms %q, kcg supports %q", kind, got, want)
		}
	}
	var body strings.Builder
	body.WriteString("current: plain-0\nprofiles:\n")
	var names []string
	protocols := []string{"SASL_SSL", "sasl_plaintext"}
	for mech, sasl := range saslMechanisms {
		for i, spelt := range []string{mech, strings.ToLower(mech)} {
			name := fmt.Sprintf("%s-%d", strings.ToLower(mech), i)
			names = append(names, name)
			fmt.Fprintf(&body, "  %s:\n    bootstrap: b-1:9096\n    securityProtocol: %s\n    sasl: %s\n", name, protocols[i], fmt.Sprintf(sasl, spelt))
		}
	}
	writeConfig(t, body.String())
	for _, o := range []string{"json", "yaml"} {
		r := kcg(t, "profile", "list", "-o", o).MustCode(t, 0)
		schematest.MustMatch(t, "ProfileList", r.Stdout, o == "yaml")
		for _, name := range names {
			r := kcg(t, "profile", "show", name, "-o", o).MustCode(t, 0)
			schematest.MustMatch(t, "Profile", r.Stdout, o == "yaml")
		}
	}
	r := kcg(t, "profile", "list", "-o", "json").MustCode(t, 0)
	for mech := range saslMechanisms {
		if n := strings.Count(r.Stdout, `"saslMechanism": "`+mech+`"`); n != 2 {
			t.Errorf("%s: %d profiles name it, want 2 (as written and lower case)\n%s", mech, n, r.Stdout)
		}
	}
}

// schemaMechanisms is the enum of SASL mechanisms in kind's schema.
func schemaMechanisms(t *testing.T, kind string) []string {
	t.Helper()
	data, _, ok := schema.Get(kind)
	if !ok {
		t.Fatalf("no schema %s", kind)
	}
	var s struct {
		Properties struct {
			SASL struct {
				Properties struct {
					Mechanism struct{ Enum []any } `json:"mechanism"`
				} `json:"properties"`
			} `json:"sasl"`
			Profiles struct {
				Items struct {
					Properties struct {
						Mechanism struct{ Enum []any } `json:"saslMechanism"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"profiles"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	enum := append(s.Properties.SASL.Properties.Mechanism.Enum, s.Properties.Profiles.Items.Properties.Mechanism.Enum...)
	var out []string
	for _, v := range enum {
		if m, ok := v.(string); ok {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out
}

package connconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// profileEnv writes a config file with two profiles, points KCG_CONFIG at
// it and returns its directory.
func profileEnv(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ca, err := filepath.Abs(filepath.Join(connTestdata, "client-cert.pem"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "prod.pw", "prod-secret\n")
	cfg := `current: prod
profiles:
  prod:
    bootstrap: broker-1:9093,broker-2:9093
    tls:
      caFile: ` + ca + `
      serverName: kafka.internal
    sasl:
      mechanism: SCRAM-SHA-512
      username: alice
      passwordFile: prod.pw
  dev:
    bootstrap: localhost:9092
    sasl:
      mechanism: PLAIN
      username: dev
      passwordEnv: DEV_PW
`
	t.Setenv(EnvConfig, writeFile(t, dir, "config.yaml", cfg))
	t.Setenv("DEV_PW", "dev-secret")
	return dir
}

type resolved struct {
	bootstrap string
	tls       bool
	serverSNI string
	user      string
	mech      string
	profile   string
}

func resolveForTest(t *testing.T, o ConnOptions) (resolved, error) {
	t.Helper()
	cfg, name, err := o.ResolveProfile()
	if err != nil {
		return resolved{}, err
	}
	r := resolved{bootstrap: strings.Join(cfg.Bootstrap, ","), tls: cfg.TLS != nil, profile: name}
	if cfg.TLS != nil {
		r.serverSNI = cfg.TLS.ServerName
	}
	if m, ok := cfg.SASL.(*saslMech); ok {
		r.user, r.mech = m.user, m.name
	}
	return r, nil
}

// TestProfilePrecedence: flag > env (folded into the options by the
// commands layer) > profile > defaults, per setting; a profile's settings
// go only to its own brokers.
func TestProfilePrecedence(t *testing.T) {
	profileEnv(t)
	prod := resolved{bootstrap: "broker-1:9093,broker-2:9093", tls: true, serverSNI: "kafka.internal", user: "alice", mech: "SCRAM-SHA-512", profile: "prod"}
	for _, tc := range []struct {
		name string
		o    ConnOptions
		want resolved
	}{
		{"current profile, nothing else", ConnOptions{}, prod},
		{"named profile", ConnOptions{Profile: "dev"}, resolved{bootstrap: "localhost:9092", user: "dev", mech: "PLAIN", profile: "dev"}},
		{"-b one of the profile's brokers keeps its TLS and SASL", ConnOptions{Bootstrap: "BROKER-2:9093"},
			resolved{bootstrap: "BROKER-2:9093", tls: true, serverSNI: "kafka.internal", user: "alice", mech: "SCRAM-SHA-512", profile: "prod"}},
		{"-b another cluster: the current profile is not used", ConnOptions{Bootstrap: "other:9092"}, resolved{bootstrap: "other:9092"}},
		{"--command-config: the current profile is not used", ConnOptions{CommandConfig: "/dev/null"}, resolved{bootstrap: "x:1"}},
		{"flag user over the profile's", ConnOptions{SASLUsername: "bob"}, func() resolved { r := prod; r.user = "bob"; return r }()},
		{"flag mechanism over the profile's", ConnOptions{Profile: "dev", SASLMechanism: "SCRAM-SHA-256"}, resolved{bootstrap: "localhost:9092", user: "dev", mech: "SCRAM-SHA-256", profile: "dev"}},
		{"flag server name over the profile's", ConnOptions{TLSServerName: "b1.internal"}, func() resolved { r := prod; r.serverSNI = "b1.internal"; return r }()},
		{"flag protocol over the inferred one", ConnOptions{SecurityProtocol: "SASL_PLAINTEXT", TLSServerName: ""}, resolved{}},
		{"no profiles (drop-in mode)", ConnOptions{Bootstrap: "broker-1:9093"}, resolved{bootstrap: "broker-1:9093"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.UseProfiles = tc.name != "no profiles (drop-in mode)"
			if o.CommandConfig != "" {
				o.CommandConfig = writeFile(t, t.TempDir(), "c.properties", "bootstrap.servers=x:1\n")
			}
			got, err := resolveForTest(t, o)
			if tc.name == "flag protocol over the inferred one" {
				// The profile's TLS settings conflict with an explicit
				// protocol without TLS: refused, naming the profile.
				var ce *ConfigError
				if !errors.As(err, &ce) || ce.Kind != ConfigErrorUsage || !strings.HasPrefix(err.Error(), `profile "prod": --tls-ca-file`) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestProfilePasswordReferences(t *testing.T) {
	dir := profileEnv(t)
	// The password file's one trailing newline is not part of the password.
	cfg, err := ConnOptions{UseProfiles: true}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SASL.(*saslMech).inner == nil || strings.Contains(cfg.Redacted(), "prod-secret") {
		t.Fatalf("config %v", cfg)
	}
	// Which password reached the mechanism is not exported; check the
	// reference itself.
	f, _ := ReadProfileFile(filepath.Join(dir, "config.yaml"))
	p, _ := f.Lookup("prod")
	if pw, err := p.password(); err != nil || pw != "prod-secret" {
		t.Errorf("passwordFile: %q %v", pw, err)
	}
	d, _ := f.Lookup("dev")
	if pw, err := d.password(); err != nil || pw != "dev-secret" {
		t.Errorf("passwordEnv: %q %v", pw, err)
	}

	// The variable named is unset: a usage error naming the variable,
	// unless a password flag (or KCG_SASL_PASSWORD) is given.
	t.Setenv("DEV_PW", "")
	_, err = ConnOptions{UseProfiles: true, Profile: "dev"}.Resolve()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorUsage || !strings.Contains(err.Error(), "names DEV_PW, which is not set") {
		t.Errorf("unset variable: %v", err)
	}
	if _, err := (ConnOptions{UseProfiles: true, Profile: "dev", SASLPassword: "from-flag"}).Resolve(); err != nil {
		t.Errorf("flag password over the reference: %v", err)
	}

	// An unreadable password file is bad data (65).
	os.Remove(filepath.Join(dir, "prod.pw"))
	_, err = ConnOptions{UseProfiles: true}.Resolve()
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || ce.Key != "sasl.passwordFile" {
		t.Errorf("missing password file: %v", err)
	}
}

func TestProfileRefusals(t *testing.T) {
	profileEnv(t)
	// An explicit profile and a bootstrap server of another cluster: the
	// profile's credentials would go there. Refused, naming both.
	_, err := ConnOptions{UseProfiles: true, Profile: "prod", ProfileFrom: "KCG_PROFILE", Bootstrap: "broker-1:9093,evil:9093", BootstrapFrom: "--bootstrap-server"}.Resolve()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorUsage {
		t.Fatalf("err = %v", err)
	}
	want := `--bootstrap-server: evil:9093 is not a bootstrap server of profile "prod" (broker-1:9093,broker-2:9093): kcg sends a profile's credentials only to its own cluster; drop --bootstrap-server, or unset KCG_PROFILE`
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}

	_, err = ConnOptions{UseProfiles: true, Profile: "nosuch", ProfileFrom: "--profile"}.Resolve()
	var ue *UnknownProfileError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `--profile: no profile "nosuch" in `) || !strings.HasSuffix(err.Error(), "(known: dev, prod)") {
		t.Errorf("unknown: %v", err)
	}

	t.Setenv(EnvConfig, filepath.Join(t.TempDir(), "none.yaml"))
	_, err = ConnOptions{UseProfiles: true, Profile: "prod"}.Resolve()
	if !errors.As(err, &ce) || ce.Kind != ConfigErrorUsage || !strings.Contains(err.Error(), "there is no config file at") {
		t.Errorf("no file: %v", err)
	}
	// No file and no profile asked for: as before profiles.
	if _, err := (ConnOptions{UseProfiles: true}).Resolve(); !errors.Is(err, ErrNoBootstrap) {
		t.Errorf("no file, no profile: %v", err)
	}
}

// KCG_SASL_PASSWORD may be exported for another cluster: a profile that
// references its own password wins over it; a typed --sasl-password wins
// over the profile; a profile without a reference takes the variable.
func TestProfilePasswordVariableVsReference(t *testing.T) {
	profileEnv(t)
	for _, tc := range []struct {
		name    string
		o       ConnOptions
		wantPwd string
	}{
		{"variable vs reference: the reference", ConnOptions{Profile: "dev", SASLPassword: "exported", SASLPasswordFromEnv: true}, ""},
		{"typed flag vs reference: the flag", ConnOptions{Profile: "dev", SASLPassword: "typed"}, "typed"},
		{"no profile: the variable", ConnOptions{Bootstrap: "other:1", SASLPassword: "exported", SASLPasswordFromEnv: true}, "exported"},
	} {
		tc.o.UseProfiles = true
		merged, _, err := tc.o.withProfile()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if merged.SASLPassword != tc.wantPwd {
			t.Errorf("%s: password %q, want %q", tc.name, merged.SASLPassword, tc.wantPwd)
		}
	}
	// And the reference is what is read: dev's DEV_PW.
	t.Setenv("DEV_PW", "")
	_, err := ConnOptions{UseProfiles: true, Profile: "dev", SASLPassword: "exported", SASLPasswordFromEnv: true}.Resolve()
	if err == nil || !strings.Contains(err.Error(), "names DEV_PW, which is not set") {
		t.Errorf("err = %v", err)
	}
	// A profile with no reference takes KCG_SASL_PASSWORD.
	dir := t.TempDir()
	t.Setenv(EnvConfig, writeFile(t, dir, "c.yaml", "profiles:\n  p:\n    bootstrap: h:1\n    sasl: {mechanism: PLAIN, username: u}\n"))
	merged, _, err := ConnOptions{UseProfiles: true, Profile: "p", SASLPassword: "exported", SASLPasswordFromEnv: true}.withProfile()
	if err != nil || merged.SASLPassword != "exported" {
		t.Errorf("no reference: %q %v", merged.SASLPassword, err)
	}
}

package connconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleConfig = `# kcg profiles
current: staging   # what plain kcg talks to
profiles:
  prod:
    bootstrap: [broker-1:9093, broker-2:9093]
    securityProtocol: SASL_SSL
    tls:
      caFile: ca.pem
    sasl:
      mechanism: SCRAM-SHA-512
      username: alice
      passwordEnv: PROD_KAFKA_PASSWORD
  staging:
    bootstrap: stage-1:9092,stage-2:9092
`

func TestParseProfileFile(t *testing.T) {
	f, err := ParseProfileFile("/etc/kcg/config.yaml", []byte(sampleConfig))
	if err != nil {
		t.Fatal(err)
	}
	if f.Current != "staging" || strings.Join(f.Names(), ",") != "prod,staging" {
		t.Fatalf("current %q names %v", f.Current, f.Names())
	}
	p, _ := f.Lookup("prod")
	if strings.Join(p.Bootstrap, ",") != "broker-1:9093,broker-2:9093" || p.SecurityProtocol != "SASL_SSL" ||
		p.SASLMechanism != "SCRAM-SHA-512" || p.SASLUsername != "alice" || p.PasswordEnv != "PROD_KAFKA_PASSWORD" {
		t.Errorf("prod = %+v", p)
	}
	if p.TLSCAFile != "/etc/kcg/ca.pem" {
		t.Errorf("caFile %q: a relative path is relative to the config file", p.TLSCAFile)
	}
	s, _ := f.Lookup("staging")
	if strings.Join(s.Bootstrap, ",") != "stage-1:9092,stage-2:9092" {
		t.Errorf("staging bootstrap %v", s.Bootstrap)
	}
	if f, err := ParseProfileFile("x", nil); err != nil || len(f.Profiles) != 0 {
		t.Errorf("empty file: %v %v", f, err)
	}
}

// TestParseProfileFileRefusals: every refusal names the file, the line and
// what to do, and is bad input data (exit 65).
func TestParseProfileFileRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"unknown top key", "curent: a\n", `config file c.yaml, line 1: unknown key "curent" (known keys: current, profiles)`},
		{"unknown profile key", "profiles:\n  a:\n    bootstrap: h:1\n    bootstrp: h:2\n", `line 4: unknown key "bootstrp" in profile a (known keys: bootstrap,`},
		{"unknown tls key", "profiles:\n  a:\n    bootstrap: h:1\n    tls:\n      ca: x\n", `line 5: unknown key "ca" in profile a.tls (known keys: caFile,`},
		{"unknown sasl key", "profiles:\n  a:\n    bootstrap: h:1\n    sasl:\n      user: x\n", `line 5: unknown key "user" in profile a.sasl`},
		{"inline sasl password", "profiles:\n  a:\n    bootstrap: h:1\n    sasl:\n      password: hunter2\n", "line 5: profile a.sasl: an inline password is not allowed; reference it with sasl.passwordEnv: VARIABLE or sasl.passwordFile: PATH"},
		{"inline profile password", "profiles:\n  a:\n    bootstrap: h:1\n    password: hunter2\n", "line 4: profile a: an inline password is not allowed"},
		{"both references", "profiles:\n  a:\n    bootstrap: h:1\n    sasl: {passwordEnv: X, passwordFile: y}\n", "line 2: profile a.sasl: give passwordEnv or passwordFile, not both"},
		{"no bootstrap", "profiles:\n  a:\n    securityProtocol: SSL\n", "line 2: profile a: bootstrap is required"},
		{"bad bootstrap", "profiles:\n  a:\n    bootstrap: broker\n", `line 3: bootstrap: "broker" is not HOST:PORT`},
		{"duplicate profile", "profiles:\n  a:\n    bootstrap: h:1\n  a:\n    bootstrap: h:2\n", "line 4: profiles.a: given twice (first on line 2)"},
		{"duplicate key", "profiles:\n  a:\n    bootstrap: h:1\n    bootstrap: h:2\n", "line 4: profile a.bootstrap: given twice"},
		{"bad name", "profiles:\n  'a b':\n    bootstrap: h:1\n", `line 2: profile name "a b"`},
		{"current unknown", "current: b\nprofiles:\n  a:\n    bootstrap: h:1\n", `line 1: current: "b" is not one of the profiles (a)`},
		{"current not scalar", "current: [a]\n", "line 1: current: must be a single value"},
		{"profiles a list", "profiles:\n  - a\n", "line 2: profiles: must be a mapping"},
		{"profile a string", "profiles:\n  a: h:1\n", "line 2: profile a: must be a mapping of settings"},
		{"insecure not bool", "profiles:\n  a:\n    bootstrap: h:1\n    tls: {insecureSkipVerify: yes}\n", "insecureSkipVerify: must be true or false"},
		{"bad protocol", "profiles:\n  a:\n    bootstrap: h:1\n    securityProtocol: TLS\n", `line 2: profile a: securityProtocol "TLS": use PLAINTEXT`},
		{"bad mechanism", "profiles:\n  a:\n    bootstrap: h:1\n    sasl: {mechanism: NTLM}\n", `line 2: profile a.sasl: mechanism "NTLM" is not supported`},
		{"key without cert", "profiles:\n  a:\n    bootstrap: h:1\n    tls: {keyFile: k.pem}\n", "line 2: profile a.tls: keyFile needs certFile"},
		{"not a mapping", "- a\n", "line 1: must be a mapping with the keys current and profiles"},
		{"not YAML", "profiles: [\n", "is not valid YAML: line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseProfileFile("c.yaml", []byte(tc.data))
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Kind != ConfigErrorData {
				t.Fatalf("err = %v (%T), want a data ConfigError", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q\nwant it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the message shows the password: %q", err)
			}
		})
	}
}

func TestConfigPath(t *testing.T) {
	t.Setenv("HOME", "/home/op")
	t.Setenv(EnvConfig, "")
	t.Setenv("XDG_CONFIG_HOME", "")
	for _, tc := range []struct{ kcg, xdg, want string }{
		{"", "", "/home/op/.config/kcg/config.yaml"},
		{"", "/xdg", "/xdg/kcg/config.yaml"},
		{"", "relative", "/home/op/.config/kcg/config.yaml"}, // the XDG spec: relative values are ignored
		{"/my/kcg.yaml", "/xdg", "/my/kcg.yaml"},
	} {
		t.Setenv(EnvConfig, tc.kcg)
		t.Setenv("XDG_CONFIG_HOME", tc.xdg)
		if got, err := ConfigPath(); err != nil || got != tc.want {
			t.Errorf("KCG_CONFIG=%q XDG=%q: %q %v, want %q", tc.kcg, tc.xdg, got, err, tc.want)
		}
	}
}

func TestUseProfileRewritesCurrentOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(p, []byte(sampleConfig), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := UseProfile(p, "prod"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	// Only the value changes: the three blanks before the comment stay
	// (docs/profiles.md: every other byte is kept).
	want := strings.Replace(sampleConfig, "current: staging   # what plain kcg talks to", "current: prod   # what plain kcg talks to", 1)
	if string(got) != want {
		t.Errorf("after use prod:\n%s\nwant:\n%s", got, want)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left in the directory: %v", ents)
	}

	// Unknown: refused with the known names, the file unchanged.
	err := UseProfile(p, "nosuch")
	var ue *UnknownProfileError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `no profile "nosuch"`) || !strings.Contains(err.Error(), "known: prod, staging") {
		t.Errorf("unknown: %v", err)
	}
	if again, _ := os.ReadFile(p); string(again) != want {
		t.Errorf("a refused use changed the file")
	}
}

func TestUseProfileAddsCurrentAndFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles.yaml")
	body := "profiles:\n  a:\n    bootstrap: h:1\n  b:\n    bootstrap: h:2" // no final newline
	if err := os.WriteFile(real, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "config.yaml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := UseProfile(link, "b"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	got, _ := os.ReadFile(real)
	if string(got) != body+"\ncurrent: b\n" {
		t.Errorf("got %q", got)
	}
	f, err := ReadProfileFile(link)
	if err != nil || f.Current != "b" {
		t.Errorf("re-read: %v %v", f, err)
	}
	if err := UseProfile(filepath.Join(dir, "none.yaml"), "a"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// Byte for byte: whatever surrounds the value of current: (blanks, tabs,
// the comment and its own spacing, quotes style of the rest, the line
// ending, the lines around it) is in the new file exactly; only the value
// as written (with its quotes) becomes the new name.
func TestUseProfileKeepsEveryOtherByte(t *testing.T) {
	rest := "# top\nprofiles:   # the clusters\n  a:  {bootstrap: 'h:1'}\n  a.b-c_d: {bootstrap: h:3}\n  b:\n    bootstrap: \"h:2\"    # two\n\n# end  \n"
	for _, tc := range []struct{ line, want string }{
		{"current: a   # what plain kcg talks to", "current: b   # what plain kcg talks to"},
		{"current: a\t\t#\ttabs", "current: b\t\t#\ttabs"},
		{"current: a #", "current: b #"},
		{"current: a.b-c_d # dots", "current: b # dots"},
		{"current:      a", "current:      b"},
		{"current: a   ", "current: b   "},
		{"current:\ta # c", "current:\tb # c"},
		{`current: "a"    # quoted`, "current: b    # quoted"},
		{`current: 'a'  # single`, "current: b  # single"},
	} {
		for _, eol := range []string{"\n", "\r\n"} {
			body := strings.ReplaceAll(rest, "\n", eol)
			old := body[:strings.Index(body, "profiles:")] + tc.line + eol + body[strings.Index(body, "profiles:"):]
			p := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(p, []byte(old), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := UseProfile(p, "b"); err != nil {
				t.Errorf("%q: %v", tc.line, err)
				continue
			}
			got, _ := os.ReadFile(p)
			if want := strings.Replace(old, tc.line+eol, tc.want+eol, 1); string(got) != want {
				t.Errorf("%q (eol %q):\ngot  %q\nwant %q", tc.line, eol, got, want)
			}
			if f, err := ReadProfileFile(p); err != nil || f.Current != "b" {
				t.Errorf("%q: re-read current %v, %v", tc.line, f, err)
			}
		}
	}
}

func TestUseProfileKeepsCRLF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(p, []byte("current: \"a\"\r\nprofiles:\r\n  a: {bootstrap: h:1}\r\n  b: {bootstrap: h:2}\r\n"), 0o600)
	if err := UseProfile(p, "b"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "current: b\r\nprofiles:\r\n  a: {bootstrap: h:1}\r\n  b: {bootstrap: h:2}\r\n" {
		t.Errorf("got %q", got)
	}
}

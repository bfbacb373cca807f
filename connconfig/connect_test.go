package connconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The connect: section of a profile: read strictly (an unknown key, an
// inline password refused with their line), paths relative to the file,
// and ResolveConnect: the profile's URLs and credentials under no flag,
// only the flags' URLs (and the profile's CA) when --connect is given.
func TestProfileConnectSection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	good := "profiles:\n  prod:\n    bootstrap: b:9092\n    connect:\n      urls: [http://c1:8083, http://c2:8083]\n      username: ops\n      passwordFile: pw\n"
	f, err := ParseProfileFile(path, []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Lookup("prod")
	if strings.Join(p.Connect.URLs, ",") != "http://c1:8083,http://c2:8083" || p.Connect.PasswordFile != filepath.Join(dir, "pw") {
		t.Fatalf("connect: %+v", p.Connect)
	}
	for bad, want := range map[string]string{
		"profiles:\n  prod:\n    bootstrap: b:9092\n    connect:\n      url: http://c1:8083\n":   `line 5: unknown key "url" in profile prod.connect`,
		"profiles:\n  prod:\n    bootstrap: b:9092\n    connect:\n      password: x\n":           "line 5: profile prod.connect: an inline password is not allowed",
		"profiles:\n  prod:\n    bootstrap: b:9092\n    connect:\n      insecureSkipVerify: 1\n": "connect.insecureSkipVerify: must be true or false",
	} {
		if _, err := ParseProfileFile(path, []byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}

	if err := os.WriteFile(filepath.Join(dir, "pw"), []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvConfig, path)
	o := ConnOptions{UseProfiles: true, Profile: "prod"}
	cc, err := o.ResolveConnect()
	if err != nil || len(cc.URLs) != 2 || cc.Username != "ops" || cc.Password != "s3cret" || cc.TLS != nil {
		t.Fatalf("profile: %+v %v", cc, err)
	}
	o.Connect.URLs = []string{"https://other:8083/"}
	cc, err = o.ResolveConnect()
	if err != nil || strings.Join(cc.URLs, ",") != "https://other:8083" || cc.Username != "" || cc.Password != "" || cc.TLS == nil {
		t.Fatalf("--connect beside the profile: %+v %v", cc, err)
	}
}

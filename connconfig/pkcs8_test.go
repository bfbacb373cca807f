package connconfig

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestTLSClientKeys(t *testing.T) {
	dir := t.TempDir()
	cert := filepath.Join(connTestdata, "client-cert.pem")
	certPEM := string(mustRead(t, cert))
	const keyPass = "keypass"
	tests := []struct {
		key, pass string
		err       string // "" = ok
	}{
		{"client-key.pem", "", ""},
		{"client-key.pem", "unused", ""},
		{"client-key-pbes2-aes256.pem", keyPass, ""},
		{"client-key-pbes2-des3-sha1.pem", keyPass, ""},
		{"client-key-legacy.pem", keyPass, ""},
		{"client-key-pbes2-aes256.pem", "", "ssl.key.password"},
		{"client-key-pbes2-aes256.pem", "wrong-Secret-1", "wrong ssl.key.password"},
		{"client-key-pbes2-des3-sha1.pem", "wrong-Secret-1", "wrong ssl.key.password"},
		{"client-key-legacy.pem", "wrong-Secret-1", "wrong ssl.key.password"},
		{"client-key-pbes1.pem", keyPass, "openssl pkcs8 -topk8 -v2 aes-256-cbc"},
	}
	for i, tt := range tests {
		keyFile := filepath.Join(connTestdata, tt.key)
		keyPEM := string(mustRead(t, keyFile))
		pw := ""
		if tt.pass != "" {
			pw = "ssl.key.password=" + tt.pass + "\n"
		}
		// Three ways: a PEM key store (cert + key in one file), inline
		// PEM, and flags (with ssl.key.password from the file).
		variants := map[string]ConnOptions{
			"keystore": {CommandConfig: writeFile(t, dir, fmt.Sprintf("ks%d.properties", i), pw+"ssl.keystore.type=PEM\nssl.keystore.location="+
				writeFile(t, dir, fmt.Sprintf("ks%d.pem", i), certPEM+keyPEM)+"\n")},
			"inline": {CommandConfig: writeFile(t, dir, fmt.Sprintf("in%d.properties", i), pw+"ssl.keystore.type=PEM\n"+
				"ssl.keystore.certificate.chain="+strings.ReplaceAll(certPEM, "\n", "\\n")+"\n"+
				"ssl.keystore.key="+strings.ReplaceAll(keyPEM, "\n", "\\n")+"\n")},
			"flags": {TLSCertFile: cert, TLSKeyFile: keyFile, CommandConfig: writeFile(t, dir, fmt.Sprintf("fl%d.properties", i), pw)},
		}
		for name, o := range variants {
			o.Bootstrap, o.SecurityProtocol = "h:1", "SSL"
			cfg, err := o.Resolve()
			if tt.err == "" {
				if err != nil || cfg.TLS == nil || len(cfg.TLS.Certificates) != 1 || cfg.TLS.Certificates[0].PrivateKey == nil {
					t.Errorf("%s %s: cfg = %v, err = %v", tt.key, name, cfg, err)
				}
				continue
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %s: err = %v, want a data error mentioning %q", tt.key, name, err, tt.err)
			} else if strings.Contains(err.Error(), "Secret") || strings.Contains(err.Error(), "PRIVATE") {
				t.Errorf("%s %s: err leaks: %v", tt.key, name, err)
			}
		}
	}
	// A key that does not belong to the certificate.
	other := newTestCA(t)
	o := ConnOptions{Bootstrap: "h:1", TLSCertFile: cert, TLSKeyFile: writeFile(t, dir, "other-key.pem", string(other.keyPEM))}
	_, err := o.Resolve()
	if ce := wantConfigError(t, err, ConfigErrorData, "--tls-key-file"); !strings.Contains(ce.Msg, "do not form a pair") {
		t.Errorf("err = %v", err)
	}
}

package connconfig

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

func TestTLSTruststoreFormats(t *testing.T) {
	dir := t.TempDir()
	jks, p12 := filepath.Join(connTestdata, "truststore.jks"), filepath.Join(connTestdata, "truststore.p12")
	caPEM := filepath.Join(connTestdata, "client-cert.pem")
	tests := []struct {
		props string
		o     ConnOptions
		key   string
		msg   []string
	}{
		{props: "ssl.truststore.location=" + jks + "\nssl.truststore.password=changeit\n", key: "ssl.truststore.location",
			msg: []string{"JKS trust store", "keytool -exportcert -rfc -keystore " + jks, "ssl.truststore.type=PEM", "--tls-ca-file"}},
		{props: "ssl.truststore.location=" + jks + "\nssl.truststore.type=JKS\n", key: "ssl.truststore.location", msg: []string{"JKS trust store", "keytool"}},
		{props: "ssl.truststore.location=" + p12 + "\n", key: "ssl.truststore.location", msg: []string{"PKCS12 trust store", "openssl pkcs12 -in " + p12 + " -nokeys -out ca.pem"}},
		{props: "ssl.truststore.location=" + p12 + "\nssl.truststore.type=pkcs12\n", key: "ssl.truststore.location", msg: []string{"PKCS12 trust store", "openssl pkcs12"}},
		{o: ConnOptions{TLSCAFile: jks}, key: "--tls-ca-file", msg: []string{"JKS store, not PEM", "keytool -exportcert"}},
		{props: "ssl.keystore.location=" + jks + "\n", key: "ssl.keystore.location", msg: []string{"JKS key store", "keytool -importkeystore", "openssl pkcs12 -in client.p12 -out client.pem -nodes", "ssl.keystore.type=PEM"}},
		{props: "ssl.keystore.location=" + p12 + "\nssl.keystore.type=PKCS12\n", key: "ssl.keystore.location", msg: []string{"PKCS12 key store", "openssl pkcs12 -in " + p12}},
		// PEM trust stores work with or without ssl.truststore.type.
		{props: "ssl.truststore.location=" + caPEM + "\n"},
		{props: "ssl.truststore.location=" + caPEM + "\nssl.truststore.type=PEM\n"},
		{props: "ssl.truststore.type=PEM\nssl.truststore.certificates=" + strings.ReplaceAll(string(mustRead(t, caPEM)), "\n", "\\n\\\n") + "\n"},
	}
	for i, tt := range tests {
		o := tt.o
		o.SecurityProtocol = "SSL"
		o.Bootstrap = "h:1"
		if tt.props != "" {
			o.CommandConfig = writeFile(t, dir, fmt.Sprintf("%d.properties", i), tt.props)
		}
		cfg, err := o.Resolve()
		if tt.key == "" {
			if err != nil || cfg.TLS == nil || cfg.TLS.RootCAs == nil {
				t.Errorf("%d: cfg = %v, err = %v", i, cfg, err)
			}
			continue
		}
		wantConfigError(t, err, ConfigErrorData, tt.key)
		for _, m := range tt.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%d: err = %v\nwant it to mention %q", i, err, m)
			}
		}
	}
}

// testCA issues the certificates of the TLS tests, so that no test
// depends on a certificate that expires.
type testCA struct {
	cert            *x509.Certificate
	key             *ecdsa.PrivateKey
	certPEM, keyPEM []byte
}

var testSerial int64

// newTestKey returns a fresh key and the next serial number for a
// certificate of it: certificates of one test never share a serial.
func newTestKey(t *testing.T) (*ecdsa.PrivateKey, *big.Int) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	testSerial++
	return key, big.NewInt(testSerial)
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, serial := newTestKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "kcg test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	return &testCA{cert: cert, key: key,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})}
}

// issue returns a leaf certificate signed by ca, as a tls.Certificate and
// as PEM.
func (ca *testCA) issue(t *testing.T, cn string, dns []string, ips []net.IP, usage x509.ExtKeyUsage) (tls.Certificate, []byte, []byte) {
	t.Helper()
	key, serial := newTestKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		DNSNames:     dns,
		IPAddresses:  ips,
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return pair, certPEM, keyPEM
}

func TestTLSAgainstKfake(t *testing.T) {
	ca := newTestCA(t)
	srv, _, _ := ca.issue(t, "broker", []string{"localhost"}, []net.IP{net.ParseIP("127.0.0.1")}, x509.ExtKeyUsageServerAuth)
	addr := startKfake(t, kfake.TLS(&tls.Config{Certificates: []tls.Certificate{srv}}))
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", string(ca.certPEM))
	other := newTestCA(t)
	otherFile := writeFile(t, dir, "other-ca.pem", string(other.certPEM))
	props := func(name, s string) string {
		return writeFile(t, dir, name, "bootstrap.servers="+addr+"\nsecurity.protocol=SSL\n"+s)
	}

	for name, o := range map[string]ConnOptions{
		"flag":              {Bootstrap: addr, TLSCAFile: caFile},
		"truststore PEM":    {CommandConfig: props("ts.properties", "ssl.truststore.type=PEM\nssl.truststore.location="+caFile+"\n")},
		"truststore inline": {CommandConfig: props("inline.properties", "ssl.truststore.type=PEM\nssl.truststore.certificates="+strings.ReplaceAll(string(ca.certPEM), "\n", "\\n")+"\n")},
		"flag over file":    {CommandConfig: props("over.properties", "ssl.truststore.location="+otherFile+"\n"), TLSCAFile: caFile},
		"server name":       {Bootstrap: addr, TLSCAFile: caFile, TLSServerName: "localhost"},
		"insecure":          {Bootstrap: addr, TLSInsecureSkipVerify: true},
	} {
		if err := metadata(t, o); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, o := range map[string]ConnOptions{
		"untrusted CA flag":    {Bootstrap: addr, TLSCAFile: otherFile},
		"untrusted CA file":    {CommandConfig: props("bad.properties", "ssl.truststore.location="+otherFile+"\n")},
		"system roots":         {Bootstrap: addr, SecurityProtocol: "SSL"},
		"server name mismatch": {Bootstrap: addr, TLSCAFile: caFile, TLSServerName: "kafka.example"},
		// An empty endpoint identification algorithm turns hostname
		// checks off, never chain checks.
		"untrusted CA, no hostname check": {CommandConfig: props("bad2.properties", "ssl.endpoint.identification.algorithm=\nssl.truststore.location="+otherFile+"\n")},
	} {
		err := metadata(t, o)
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Errorf("%s: err = %v, want a certificate error", name, err)
		}
	}
}

func TestTLSEndpointIdentificationAgainstKfake(t *testing.T) {
	ca := newTestCA(t)
	// The broker's certificate names a host that is not the address
	// dialled.
	srv, _, _ := ca.issue(t, "broker", []string{"broker.invalid"}, nil, x509.ExtKeyUsageServerAuth)
	addr := startKfake(t, kfake.TLS(&tls.Config{Certificates: []tls.Certificate{srv}}))
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", string(ca.certPEM))
	base := "bootstrap.servers=" + addr + "\nsecurity.protocol=SSL\nssl.truststore.location=" + caFile + "\n"

	err := metadata(t, ConnOptions{CommandConfig: writeFile(t, dir, "https.properties", base+"ssl.endpoint.identification.algorithm=https\n")})
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("hostname verification on: err = %v, want a certificate error", err)
	}
	f := writeFile(t, dir, "off.properties", base+"ssl.endpoint.identification.algorithm=\n")
	if err := metadata(t, ConnOptions{CommandConfig: f}); err != nil {
		t.Errorf("hostname verification off: %v", err)
	}
	cfg, _ := ConnOptions{CommandConfig: f}.Resolve()
	if !strings.Contains(cfg.Redacted(), "chain only") {
		t.Errorf("Redacted = %s", cfg.Redacted())
	}
	if err := metadata(t, ConnOptions{Bootstrap: addr, TLSCAFile: caFile, TLSServerName: "broker.invalid"}); err != nil {
		t.Errorf("--tls-server-name: %v", err)
	}
}

func TestTLSMutualAndSASLSSLAgainstKfake(t *testing.T) {
	ca := newTestCA(t)
	srv, _, _ := ca.issue(t, "broker", nil, []net.IP{net.ParseIP("127.0.0.1")}, x509.ExtKeyUsageServerAuth)
	_, clientCert, clientKey := ca.issue(t, "kcg-client", nil, nil, x509.ExtKeyUsageClientAuth)
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	const pw = "scram-Secret-pw"
	addr := startKfake(t,
		kfake.TLS(&tls.Config{Certificates: []tls.Certificate{srv}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert}),
		kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", pw))
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.pem", string(ca.certPEM))
	certFile := writeFile(t, dir, "client.pem", string(clientCert))
	keyFile := writeFile(t, dir, "client-key.pem", string(clientKey))
	both := writeFile(t, dir, "client-both.pem", string(clientCert)+string(clientKey))
	jaas := "sasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"" + pw + "\";\n"
	head := "bootstrap.servers=" + addr + "\nsecurity.protocol=SASL_SSL\nssl.truststore.type=PEM\nssl.truststore.location=" + caFile + "\n" + jaas

	for name, o := range map[string]ConnOptions{
		"PEM key store": {CommandConfig: writeFile(t, dir, "ks.properties", head+"ssl.keystore.type=PEM\nssl.keystore.location="+both+"\n")},
		"inline PEM": {CommandConfig: writeFile(t, dir, "inline.properties", head+"ssl.keystore.type=PEM\n"+
			"ssl.keystore.certificate.chain="+strings.ReplaceAll(string(clientCert), "\n", "\\n")+"\n"+
			"ssl.keystore.key="+strings.ReplaceAll(string(clientKey), "\n", "\\n")+"\n")},
		"flags": {Bootstrap: addr, SecurityProtocol: "SASL_SSL", TLSCAFile: caFile, TLSCertFile: certFile, TLSKeyFile: keyFile,
			SASLMechanism: "SCRAM-SHA-512", SASLUsername: "alice", SASLPassword: pw},
		"cert file holding the key": {Bootstrap: addr, TLSCAFile: caFile, TLSCertFile: both, SASLMechanism: "SCRAM-SHA-512", SASLUsername: "alice", SASLPassword: pw},
	} {
		if err := metadata(t, o); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := metadata(t, ConnOptions{CommandConfig: writeFile(t, dir, "nocert.properties", head)}); err == nil {
		t.Error("no client certificate: no error")
	}
}

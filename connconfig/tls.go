package connconfig

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"
)

// hostname verification.
func (r *resolver) tlsConfig() (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: r.o.TLSServerName}

	roots, err := r.rootCAs()
	if err != nil {
		return nil, err
	}
	tc.RootCAs = roots

	cert, err := r.clientCert()
	if err != nil {
		return nil, err
	}
	if cert != nil {
		tc.Certificates = []tls.Certificate{*cert}
	}

	algo, set := r.p.Get("ssl.endpoint.identification.algorithm")
	algo = strings.TrimSpace(algo)
	switch {
	case r.o.TLSInsecureSkipVerify:
		tc.InsecureSkipVerify = true
	case set && algo == "":
		// Java semantics: an empty algorithm turns hostname verification
		// off but the chain is still verified. crypto/tls can only skip
		// both, so skip them and verify the chain here.
		tc.InsecureSkipVerify = true
		tc.VerifyConnection = verifyChainOnly(roots)
	case !set || strings.EqualFold(algo, "https"):
	default:
		return nil, r.dataErr("ssl.endpoint.identification.algorithm", fmt.Sprintf("unsupported value %q: use https (verify the broker's host name, the default) or an empty value (do not)", algo), nil)
	}
	return tc, nil
}

// verifyChainOnly verifies the broker's certificate chain against roots
// (nil: the system roots) without checking its host name.
func verifyChainOnly(roots *x509.CertPool) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("tls: the broker sent no certificate")
		}
		opts := x509.VerifyOptions{
			Roots:         roots,
			Intermediates: x509.NewCertPool(),
			KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		}
		for _, c := range cs.PeerCertificates[1:] {
			opts.Intermediates.AddCert(c)
		}
		if _, err := cs.PeerCertificates[0].Verify(opts); err != nil {
			return fmt.Errorf("tls: failed to verify certificate: %w", err)
		}
		return nil
	}
}

// rootCAs returns the CAs to trust: --tls-ca-file, else
// ssl.truststore.location or ssl.truststore.certificates, else nil (the
// system roots).
func (r *resolver) rootCAs() (*x509.CertPool, error) {
	var data []byte
	var key string
	switch {
	case r.o.TLSCAFile != "":
		key = "--tls-ca-file"
		b, err := os.ReadFile(r.o.TLSCAFile)
		if err != nil {
			return nil, r.dataErr(key, "cannot read the CA file", err)
		}
		if f := sniffStore(b); f != "PEM" && f != "" {
			return nil, r.dataErr(key, fmt.Sprintf("%s is a %s store, not PEM; %s", r.o.TLSCAFile, f, truststoreHint(f, r.o.TLSCAFile)), nil)
		}
		data = b
	case r.has("ssl.truststore.location") && r.has("ssl.truststore.certificates"):
		return nil, r.dataErr("ssl.truststore.certificates", "cannot be combined with ssl.truststore.location: keep one", nil)
	case r.has("ssl.truststore.certificates"):
		key = "ssl.truststore.certificates"
		data = []byte(r.get(key))
	case r.has("ssl.truststore.location"):
		key = "ssl.truststore.location"
		loc := r.get(key)
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, r.dataErr(key, "cannot read the trust store", err)
		}
		typ := strings.ToUpper(r.get("ssl.truststore.type"))
		sniffed := sniffStore(b)
		if typ == "" {
			typ = sniffed
		}
		if typ != "PEM" {
			if typ == "" {
				typ = "JKS" // Java's default ssl.truststore.type
			}
			return nil, r.dataErr(key, fmt.Sprintf("%s is a %s trust store; kcg reads PEM only. %s", loc, typ, truststoreHint(typ, loc)), nil)
		}
		data = b
	default:
		return nil, nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		msg := "no PEM certificate found (expected -----BEGIN CERTIFICATE-----)"
		switch key {
		case "ssl.truststore.certificates":
			msg += "; in a properties file write the line breaks as \\n or end each line with \\"
		case "ssl.truststore.location":
			msg += "; if it is a JKS store, " + truststoreHint("JKS", r.get(key))
		default:
			msg += "; if it is a JKS store, " + truststoreHint("JKS", r.o.TLSCAFile)
		}
		return nil, r.dataErr(key, msg, nil)
	}
	return pool, nil
}

// truststoreHint says how to turn a Java trust store into PEM.
func truststoreHint(format, path string) string {
	conv := fmt.Sprintf("convert it with: keytool -exportcert -rfc -keystore %s -alias CARoot -file ca.pem (keytool -list -keystore %s shows the aliases)", path, path)
	if format == "PKCS12" {
		conv = fmt.Sprintf("convert it with: openssl pkcs12 -in %s -nokeys -out ca.pem", path)
	}
	return conv + ", then set ssl.truststore.location=ca.pem and ssl.truststore.type=PEM, or pass --tls-ca-file ca.pem"
}

// keystoreHint says how to turn a Java key store into PEM.
func keystoreHint(format, path string) string {
	p12 := path
	pre := ""
	if format != "PKCS12" {
		p12 = "client.p12"
		pre = fmt.Sprintf("keytool -importkeystore -srckeystore %s -destkeystore client.p12 -deststoretype PKCS12, then ", path)
	}
	return fmt.Sprintf("convert it with: %sopenssl pkcs12 -in %s -out client.pem -nodes, then set ssl.keystore.location=client.pem and ssl.keystore.type=PEM, or pass --tls-cert-file client.pem --tls-key-file client.pem", pre, p12)
}

// sniffStore names the format of a certificate store file by its first
// bytes: "PEM", "JKS", "JCEKS", "PKCS12", or "" when unknown.
func sniffStore(b []byte) string {
	switch {
	case bytes.Contains(b, []byte("-----BEGIN ")):
		return "PEM"
	case len(b) >= 4 && binary.BigEndian.Uint32(b) == 0xFEEDFEED:
		return "JKS"
	case len(b) >= 4 && binary.BigEndian.Uint32(b) == 0xCECECECE:
		return "JCEKS"
	case len(b) >= 2 && b[0] == 0x30:
		return "PKCS12" // a DER SEQUENCE: PKCS#12 is the store that looks like this
	}
	return ""
}

// clientCert returns the client certificate for mutual TLS:
// --tls-cert-file/--tls-key-file, else ssl.keystore.location (PEM) or
// ssl.keystore.certificate.chain + ssl.keystore.key; nil when none.
func (r *resolver) clientCert() (*tls.Certificate, error) {
	keyPass := r.get("ssl.key.password")
	if r.o.TLSCertFile != "" {
		certData, err := os.ReadFile(r.o.TLSCertFile)
		if err != nil {
			return nil, r.dataErr("--tls-cert-file", "cannot read the client certificate", err)
		}
		keyData, keyFlag := certData, "--tls-cert-file"
		if r.o.TLSKeyFile != "" {
			if keyData, err = os.ReadFile(r.o.TLSKeyFile); err != nil {
				return nil, r.dataErr("--tls-key-file", "cannot read the client key", err)
			}
			keyFlag = "--tls-key-file"
		} else if !hasPEMKey(certData) {
			return nil, usageErr("--tls-cert-file", "the file holds no private key: give --tls-key-file too")
		}
		return r.keyPair(certData, keyData, keyPass, "--tls-cert-file", keyFlag)
	}
	loc, chain, key := r.get("ssl.keystore.location"), r.get("ssl.keystore.certificate.chain"), r.get("ssl.keystore.key")
	switch {
	case loc != "" && (chain != "" || key != ""):
		return nil, r.dataErr("ssl.keystore.location", "cannot be combined with ssl.keystore.certificate.chain/ssl.keystore.key: keep one", nil)
	case loc != "":
		b, err := os.ReadFile(loc)
		if err != nil {
			return nil, r.dataErr("ssl.keystore.location", "cannot read the key store", err)
		}
		typ := strings.ToUpper(r.get("ssl.keystore.type"))
		if typ == "" {
			typ = sniffStore(b)
		}
		if typ != "PEM" {
			if typ == "" {
				typ = "JKS"
			}
			return nil, r.dataErr("ssl.keystore.location", fmt.Sprintf("%s is a %s key store; kcg reads PEM only. %s", loc, typ, keystoreHint(typ, loc)), nil)
		}
		if !hasPEMKey(b) {
			return nil, r.dataErr("ssl.keystore.location", "the PEM key store must hold the certificate chain and the private key", nil)
		}
		return r.keyPair(b, b, keyPass, "ssl.keystore.location", "ssl.keystore.location")
	case chain != "" || key != "":
		if chain == "" || key == "" {
			return nil, r.dataErr("ssl.keystore.certificate.chain", "ssl.keystore.certificate.chain and ssl.keystore.key go together", nil)
		}
		return r.keyPair([]byte(chain), []byte(key), keyPass, "ssl.keystore.certificate.chain", "ssl.keystore.key")
	}
	return nil, nil
}

func hasPEMKey(b []byte) bool {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return false
		}
		if strings.HasSuffix(blk.Type, "PRIVATE KEY") {
			return true
		}
	}
}

// keyPair pairs the certificates of certData with the private key of
// keyData, decrypting the key with password when it is encrypted.
func (r *resolver) keyPair(certData, keyData []byte, password, certKey, keyKey string) (*tls.Certificate, error) {
	var certPEM []byte
	for rest := certData; ; {
		var blk *pem.Block
		if blk, rest = pem.Decode(rest); blk == nil {
			break
		}
		if blk.Type == "CERTIFICATE" {
			certPEM = append(certPEM, pem.EncodeToMemory(blk)...)
		}
	}
	if len(certPEM) == 0 {
		return nil, r.dataErr(certKey, "no PEM certificate found (expected -----BEGIN CERTIFICATE-----)", nil)
	}
	var keyBlk *pem.Block
	for rest := keyData; ; {
		var blk *pem.Block
		if blk, rest = pem.Decode(rest); blk == nil {
			break
		}
		if strings.HasSuffix(blk.Type, "PRIVATE KEY") {
			keyBlk = blk
			break
		}
	}
	if keyBlk == nil {
		return nil, r.dataErr(keyKey, "no PEM private key found (expected -----BEGIN PRIVATE KEY-----)", nil)
	}
	plainKey, err := decryptKeyBlock(keyBlk, password)
	if err != nil {
		return nil, r.dataErr(keyKey, err.Error(), nil)
	}
	cert, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(plainKey))
	if err != nil {
		return nil, r.dataErr(keyKey, "the certificate and the private key do not form a pair", err)
	}
	return &cert, nil
}

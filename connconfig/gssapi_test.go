package connconfig

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// krbFixture is a krb5.conf and a keytab on disk, no KDC.
type krbFixture struct {
	dir, conf, keytab string
}

func newKrbFixture(t *testing.T) krbFixture {
	t.Helper()
	// No ambient configuration may leak into the tests.
	t.Setenv("KRB5_CONFIG", "")
	t.Setenv("KAFKA_OPTS", "")
	t.Setenv("KRB5CCNAME", "")
	dir := t.TempDir()
	f := krbFixture{dir: dir, conf: filepath.Join(dir, "krb5.conf"), keytab: filepath.Join(dir, "client.keytab")}
	conf := "[libdefaults]\n default_realm = EXAMPLE.TEST\n[realms]\n EXAMPLE.TEST = {\n  kdc = 127.0.0.1:1\n }\n"
	if err := os.WriteFile(f.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	kt := keytab.New()
	if err := kt.AddEntry("app", "EXAMPLE.TEST", "keytab-secret-pw", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	b, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.keytab, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f krbFixture) props(t *testing.T, body string) string {
	t.Helper()
	return writeFile(t, f.dir, fmt.Sprintf("p%d.properties", time.Now().UnixNano()), "bootstrap.servers=kafka1:9092\n"+body)
}

func jaasKrb5(opts string) string {
	return "sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required " + opts + ";\n"
}

func TestGSSAPIResolve(t *testing.T) {
	f := newKrbFixture(t)
	flags := KerberosOptions{Keytab: f.keytab, Principal: "app", ServiceName: "kafka", Krb5Config: f.conf}
	tests := []struct {
		name                          string
		o                             ConnOptions
		principal, service, conf, src string
	}{
		{"flags", ConnOptions{Bootstrap: "h:1", SASLMechanism: "gssapi", Kerberos: flags}, "app@EXAMPLE.TEST", "kafka", f.conf, "keytab " + f.keytab},
		{"kerberos flags alone imply GSSAPI and SASL", ConnOptions{Bootstrap: "h:1", Kerberos: flags}, "app@EXAMPLE.TEST", "kafka", f.conf, "keytab " + f.keytab},
		{"Java file", ConnOptions{Kerberos: KerberosOptions{Krb5Config: f.conf}, CommandConfig: f.props(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n"+
			jaasKrb5(`useKeyTab=true storeKey=true keyTab="`+f.keytab+`" principal="app/host1@OTHER.TEST"`))}, "app/host1@OTHER.TEST", "kafka", f.conf, "keytab " + f.keytab},
		{"Krb5LoginModule without sasl.mechanism is GSSAPI", ConnOptions{Kerberos: KerberosOptions{Krb5Config: f.conf}, CommandConfig: f.props(t, "security.protocol=SASL_PLAINTEXT\n"+
			jaasKrb5(`useKeyTab=true keyTab="`+f.keytab+`" principal="app" serviceName="kafka-svc" debug=true`))}, "app@EXAMPLE.TEST", "kafka-svc", f.conf, "keytab " + f.keytab},
		{"flags win over the file", ConnOptions{Kerberos: KerberosOptions{Krb5Config: f.conf, Principal: "other", ServiceName: "k2"}, CommandConfig: f.props(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n"+
			jaasKrb5(`useKeyTab=true keyTab="`+f.keytab+`" principal="app"`))}, "other@EXAMPLE.TEST", "k2", f.conf, "keytab " + f.keytab},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.o.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			m, ok := cfg.SASL.(*gssapiMech)
			if !ok {
				t.Fatalf("SASL = %T", cfg.SASL)
			}
			if m.Name() != "GSSAPI" || m.principal != tt.principal || m.service != tt.service || m.krb5conf != tt.conf || m.source != tt.src {
				t.Errorf("got %s %q %q %q %q", m.Name(), m.principal, m.service, m.krb5conf, m.source)
			}
			s := fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg.SASL, cfg.Redacted())
			if strings.Contains(s, "keytab-secret-pw") {
				t.Errorf("printing the config shows key material: %s", s)
			}
		})
	}
}

// Without sasl.jaas.config, the KafkaClient entry of the JAAS file the
// Java tool's JVM is given in KAFKA_OPTS, as Kafka's clients read it.
func TestGSSAPIJAASFile(t *testing.T) {
	f := newKrbFixture(t)
	jaas := writeFile(t, f.dir, "jaas.conf", `Client {
  org.apache.zookeeper.server.auth.DigestLoginModule required username="zk" password="zk-secret";
};
// kcg and the Java tool
KafkaClient {
  com.sun.security.auth.module.Krb5LoginModule required
  useKeyTab=true storeKey=true keyTab="`+f.keytab+`" principal="app@EXAMPLE.TEST";
};
`)
	t.Setenv("KAFKA_OPTS", "-Djava.security.auth.login.config="+jaas+" -Djava.security.krb5.conf="+f.conf)
	props := f.props(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n")
	cfg, err := ConnOptions{CommandConfig: props}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.SASL.(*gssapiMech)
	if m.principal != "app@EXAMPLE.TEST" || m.source != "keytab "+f.keytab || m.krb5conf != f.conf {
		t.Errorf("got %q %q %q", m.principal, m.source, m.krb5conf)
	}

	noClient := writeFile(t, f.dir, "zk-only.conf", "Client {\n  x.Y required;\n};\n")
	for name, tc := range map[string]struct{ file, want string }{
		"missing":        {filepath.Join(f.dir, "absent.conf"), "cannot read the JAAS file"},
		"no KafkaClient": {noClient, "no KafkaClient"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("KAFKA_OPTS", "-Djava.security.auth.login.config="+tc.file+" -Djava.security.krb5.conf="+f.conf)
			_, err := ConnOptions{CommandConfig: props}.Resolve()
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Kind != ConfigErrorData || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "java.security.auth.login.config") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestGSSAPIKrb5ConfLookup(t *testing.T) {
	f := newKrbFixture(t)
	other := writeFile(t, f.dir, "other.conf", "[libdefaults]\n default_realm = OTHER.TEST\n")
	base := ConnOptions{Bootstrap: "h:1", SASLMechanism: "GSSAPI", Kerberos: KerberosOptions{Keytab: f.keytab, Principal: "app", ServiceName: "kafka"}}
	conf := func() string {
		t.Helper()
		cfg, err := base.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		return cfg.SASL.(*gssapiMech).krb5conf
	}
	t.Setenv("KRB5_CONFIG", other+":/nonexistent")
	if got := conf(); got != other {
		t.Errorf("KRB5_CONFIG: %s", got)
	}
	t.Setenv("KAFKA_OPTS", "-Xmx1g -Djava.security.krb5.conf="+f.conf+" -Dx=y")
	if got := conf(); got != f.conf {
		t.Errorf("KAFKA_OPTS over KRB5_CONFIG: %s", got)
	}
	base.Kerberos.Krb5Config = other
	if got := conf(); got != other {
		t.Errorf("--krb5-config over KAFKA_OPTS: %s", got)
	}
	t.Setenv("KAFKA_OPTS", "")
	t.Setenv("KRB5_CONFIG", "")
	if p, from, _ := krb5ConfPath(""); p != "/etc/krb5.conf" || from != "krb5.conf" {
		t.Errorf("default: %s %s", p, from)
	}
}

func TestGSSAPIResolveErrors(t *testing.T) {
	f := newKrbFixture(t)
	notKeytab := writeFile(t, f.dir, "bad.keytab", "not a keytab")
	noRealm := writeFile(t, f.dir, "norealm.conf", "[libdefaults]\n dns_lookup_kdc = false\n")
	ok := KerberosOptions{Keytab: f.keytab, Principal: "app", ServiceName: "kafka", Krb5Config: f.conf}
	with := func(mod func(*KerberosOptions)) ConnOptions {
		k := ok
		mod(&k)
		return ConnOptions{Bootstrap: "h:1", SASLMechanism: "GSSAPI", Kerberos: k}
	}
	file := func(body string) ConnOptions {
		return ConnOptions{Kerberos: KerberosOptions{Krb5Config: f.conf}, CommandConfig: f.props(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n"+body)}
	}
	tests := []struct {
		name string
		o    ConnOptions
		kind ConfigErrorKind
		key  string
		msg  string
	}{
		{"no service name", with(func(k *KerberosOptions) { k.ServiceName = "" }), ConfigErrorUsage, "--sasl-kerberos-service-name", "service name"},
		{"no principal", with(func(k *KerberosOptions) { k.Principal = "" }), ConfigErrorUsage, "--sasl-kerberos-principal", "client principal"},
		{"user name", ConnOptions{Bootstrap: "h:1", SASLMechanism: "GSSAPI", SASLUsername: "app", Kerberos: ok}, ConfigErrorUsage, "--sasl-username", "--sasl-kerberos-principal"},
		{"kerberos flag with plaintext", ConnOptions{Bootstrap: "h:1", SecurityProtocol: "PLAINTEXT", Kerberos: ok}, ConfigErrorUsage, "--sasl-kerberos-keytab", "SASL_PLAINTEXT"},
		{"keytab missing", with(func(k *KerberosOptions) { k.Keytab = filepath.Join(f.dir, "absent") }), ConfigErrorData, "--sasl-kerberos-keytab", "cannot read the keytab"},
		{"not a keytab", with(func(k *KerberosOptions) { k.Keytab = notKeytab }), ConfigErrorData, "--sasl-kerberos-keytab", "not a Kerberos keytab"},
		{"krb5.conf missing", with(func(k *KerberosOptions) { k.Krb5Config = filepath.Join(f.dir, "absent.conf") }), ConfigErrorData, "--krb5-config", "cannot read krb5.conf"},
		{"no realm anywhere", with(func(k *KerberosOptions) { k.Krb5Config = noRealm }), ConfigErrorData, "--sasl-kerberos-principal", "default_realm"},
		{"jaas other module", file(`sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";` + "\n"), ConfigErrorData, "sasl.jaas.config", "does not go with GSSAPI"},
		{"jaas unknown option", file(jaasKrb5(`useKeyTab=true keyTab="` + f.keytab + `" principal="app" useFirstPass=true`)), ConfigErrorData, "sasl.jaas.config", "useFirstPass is not supported"},
		{"jaas keytab without path", file(jaasKrb5(`useKeyTab=true principal="app"`)), ConfigErrorData, "sasl.jaas.config", "needs keyTab"},
		{"jaas keytab without principal", file(jaasKrb5(`useKeyTab=true keyTab="` + f.keytab + `"`)), ConfigErrorData, "sasl.jaas.config", "needs principal"},
		{"jaas would prompt", file(jaasKrb5(`principal="app"`)), ConfigErrorData, "sasl.jaas.config", "prompt for a password"},
		{"jaas acceptor", file(jaasKrb5(`useKeyTab=true keyTab="` + f.keytab + `" principal="app" isInitiator=false`)), ConfigErrorData, "sasl.jaas.config", "isInitiator=false"},
		{"jaas keytab unreadable", file(jaasKrb5(`useKeyTab=true keyTab="` + filepath.Join(f.dir, "gone") + `" principal="app"`)), ConfigErrorData, "sasl.jaas.config", "cannot read the keytab"},
		{"no service name in file", ConnOptions{Kerberos: KerberosOptions{Krb5Config: f.conf}, CommandConfig: f.props(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\n"+jaasKrb5(`useKeyTab=true keyTab="`+f.keytab+`" principal="app"`))}, ConfigErrorData, "sasl.kerberos.service.name", "as the Java client requires"},
		{"ticket cache missing", file(jaasKrb5(`useTicketCache=true ticketCache="` + filepath.Join(f.dir, "no-cc") + `"`)), ConfigErrorData, "sasl.jaas.config", "run kinit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.o.Resolve()
			wantConfigError(t, err, tt.kind, tt.key)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want it to mention %q", err, tt.msg)
			}
			if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "keytab-secret-pw") {
				t.Errorf("err is not one clean line: %q", err)
			}
		})
	}
	t.Run("KRB5CCNAME of a kind kcg cannot read", func(t *testing.T) {
		t.Setenv("KRB5CCNAME", "KEYRING:persistent:0")
		_, err := ConnOptions{Bootstrap: "h:1", SASLMechanism: "GSSAPI", Kerberos: KerberosOptions{ServiceName: "kafka", Krb5Config: f.conf}}.Resolve()
		wantConfigError(t, err, ConfigErrorData, "KRB5CCNAME")
		if !strings.Contains(err.Error(), "FILE: ticket caches only") {
			t.Errorf("err = %v", err)
		}
	})
}

// testKey is an AES256 session key for the token tests.
func testKey(t *testing.T) types.EncryptionKey {
	t.Helper()
	et, err := crypto.GetEtype(etypeID.AES256_CTS_HMAC_SHA1_96)
	if err != nil {
		t.Fatal(err)
	}
	k, err := et.StringToKey("session", "EXAMPLE.TESTsalt", et.GetDefaultStringToKeyParams())
	if err != nil {
		t.Fatal(err)
	}
	return types.EncryptionKey{KeyType: etypeID.AES256_CTS_HMAC_SHA1_96, KeyValue: k}
}

// acceptorWrap builds the broker's wrap token of payload, as the JDK's
// GssKrb5Server sends its security layer offer (integrity only).
func acceptorWrap(t *testing.T, key types.EncryptionKey, flags byte, payload []byte) []byte {
	t.Helper()
	wt := gssapi.WrapToken{Flags: flags, EC: 12, SndSeqNum: 0x0102030405, Payload: payload}
	if err := wt.SetCheckSum(key, keyusage.GSSAPI_ACCEPTOR_SEAL); err != nil {
		t.Fatal(err)
	}
	b, err := wt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGSSAPISecurityLayer(t *testing.T) {
	key := testKey(t)
	offer := []byte{0x07, 0x00, 0x10, 0x00} // auth, auth-int, auth-conf; 4096
	s := &gssapiSession{spn: "kafka/h", key: key, seq: 0x1234abcd, authzid: "app@EXAMPLE.TEST"}
	done, resp, err := s.Next(context.Background(), acceptorWrap(t, key, wrapSentByAcceptor, offer))
	if err != nil || done {
		t.Fatalf("Next(offer) = %v, %v", done, err)
	}
	// The exact bytes: RFC 4121 wrap token header (05 04, flags 0: sent by
	// the initiator, no subkey, not sealed; filler FF; EC 12; RRC 0; the
	// sequence number), then 01 00 00 00 (no security layer, max size 0)
	// and the authorization id, the client principal (as the JDK's
	// GssKrb5Client sends what Kafka's client passes it), then the 12-byte
	// HMAC-SHA1-96 checksum.
	wantHdr := []byte{0x05, 0x04, 0x00, 0xff, 0x00, 0x0c, 0x00, 0x00, 0, 0, 0, 0, 0x12, 0x34, 0xab, 0xcd}
	wantBody := append([]byte{1, 0, 0, 0}, "app@EXAMPLE.TEST"...)
	if len(resp) != 16+len(wantBody)+12 || !bytes.Equal(resp[:16], wantHdr) || !bytes.Equal(resp[16:16+len(wantBody)], wantBody) {
		t.Fatalf("answer % x", resp)
	}
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(resp, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := wt.Verify(key, keyusage.GSSAPI_INITIATOR_SEAL); !ok || err != nil {
		t.Fatalf("the answer's checksum does not verify as the acceptor checks it: %v", err)
	}
	done, resp, err = s.Next(context.Background(), nil)
	if !done || err != nil || resp != nil {
		t.Fatalf("final Next = %v, %v, %v", done, resp, err)
	}
}

func TestGSSAPISecurityLayerRotatedAndSubkey(t *testing.T) {
	key := testKey(t)
	// RRC: the body after the header rotated right by 12 (RFC 4121
	// §4.2.5, as Windows acceptors send).
	tok := acceptorWrap(t, key, wrapSentByAcceptor, []byte{0x01, 0, 0, 0})
	body := tok[16:]
	rot := append(append([]byte{}, body[len(body)-12:]...), body[:len(body)-12]...)
	copy(tok[16:], rot)
	binary.BigEndian.PutUint16(tok[6:8], 12)
	s := &gssapiSession{key: key, step: 1}
	if _, _, err := s.Next(context.Background(), tok); err != nil {
		t.Fatalf("rotated token refused: %v", err)
	}
	// With the acceptor's subkey both tokens carry flag 04.
	s = &gssapiSession{key: key, subkey: true, step: 1}
	_, resp, err := s.Next(context.Background(), acceptorWrap(t, key, wrapSentByAcceptor|wrapAcceptorSubkey, []byte{0x01, 0, 0, 0}))
	if err != nil || resp[2] != wrapAcceptorSubkey {
		t.Fatalf("subkey: % x, %v", resp, err)
	}
}

func TestGSSAPISecurityLayerRefusals(t *testing.T) {
	key := testKey(t)
	good := acceptorWrap(t, key, wrapSentByAcceptor, []byte{0x01, 0, 0, 0})
	tampered := bytes.Clone(good)
	tampered[17] ^= 1
	other := testKey(t)
	other.KeyValue = bytes.Clone(other.KeyValue)
	other.KeyValue[0] ^= 0xff
	tests := []struct {
		name   string
		tok    []byte
		key    types.EncryptionKey
		subkey bool
		want   string
	}{
		{"short", good[:10], key, false, "shorter than its header"},
		{"not a wrap token", append([]byte{0x04, 0x04}, good[2:]...), key, false, "not a valid wrap token"},
		{"from the initiator", acceptorWrap(t, key, 0, []byte{1, 0, 0, 0}), key, false, "not a valid wrap token"},
		{"tampered", tampered, key, false, "does not verify"},
		{"another key", good, other, false, "does not verify"},
		{"sealed", acceptorWrap(t, key, wrapSentByAcceptor|wrapSealed, []byte{1, 0, 0, 0}), key, false, "sealed"},
		{"subkey mismatch", good, key, true, "different key"},
		{"layer required", acceptorWrap(t, key, wrapSentByAcceptor, []byte{0x06, 0, 0x10, 0}), key, false, "requires a SASL security layer"},
		{"offer length", acceptorWrap(t, key, wrapSentByAcceptor, []byte{1, 0, 0}), key, false, "3 bytes, not 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &gssapiSession{key: tt.key, subkey: tt.subkey}
			_, _, err := s.Next(context.Background(), tt.tok)
			var ge *GSSAPIError
			if !errors.As(err, &ge) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "SASL GSSAPI (Kerberos): ") {
				t.Fatalf("err = %v, want a GSSAPIError with %q", err, tt.want)
			}
		})
	}
	s := &gssapiSession{key: key, step: 2}
	if _, _, err := s.Next(context.Background(), []byte{1}); err == nil {
		t.Error("bytes after the handshake accepted")
	}
}

// The initial token, byte for byte where it is fixed: GSS-API framing
// (RFC 2743 §3.1: 60, length, the Kerberos OID), token id 01 00, an
// AP-REQ with MUTUAL-REQUIRED whose authenticator checksum (RFC 4121
// §4.1.1, type 0x8003) asks for mutual, integrity and confidentiality.
func TestGSSAPIInitialToken(t *testing.T) {
	key := testKey(t)
	cl := client.NewWithKeytab("app", "EXAMPLE.TEST", keytab.New(), config.New())
	tkt := messages.Ticket{TktVNO: 5, Realm: "EXAMPLE.TEST",
		SName:   types.PrincipalName{NameType: nametype.KRB_NT_SRV_INST, NameString: []string{"kafka", "broker1"}},
		EncPart: types.EncryptedData{EType: etypeID.AES256_CTS_HMAC_SHA1_96, KVNO: 1, Cipher: []byte("opaque")}}
	s, tok, err := initialToken(cl, "kafka/broker1", tkt, key)
	if err != nil {
		t.Fatal(err)
	}
	oid := []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02}
	if tok[0] != 0x60 {
		t.Fatalf("token starts % x", tok[:4])
	}
	var raw asn1.RawValue
	if _, err := asn1.Unmarshal(tok, &raw); err != nil || raw.Class != asn1.ClassApplication || raw.Tag != 0 {
		t.Fatalf("not an [APPLICATION 0] token: %v", err)
	}
	inner := raw.Bytes
	if !bytes.HasPrefix(inner, oid) || !bytes.Equal(inner[len(oid):len(oid)+2], []byte{0x01, 0x00}) || inner[len(oid)+2] != 0x6e {
		t.Fatalf("inner token % x", inner[:16])
	}
	var req messages.APReq
	if err := req.Unmarshal(inner[len(oid)+2:]); err != nil {
		t.Fatal(err)
	}
	if !types.IsFlagSet(&req.APOptions, 2) { // MUTUAL-REQUIRED
		t.Errorf("AP options %v lack MUTUAL-REQUIRED", req.APOptions)
	}
	if err := req.DecryptAuthenticator(key); err != nil {
		t.Fatal(err)
	}
	ck := req.Authenticator.Cksum
	if ck.CksumType != 0x8003 || len(ck.Checksum) != 24 || binary.LittleEndian.Uint32(ck.Checksum[:4]) != 16 {
		t.Fatalf("authenticator checksum %#x % x", ck.CksumType, ck.Checksum)
	}
	const mutual, conf, integ = 2, 16, 32
	if got := binary.LittleEndian.Uint32(ck.Checksum[20:24]); got != mutual|conf|integ {
		t.Errorf("GSS flags %#x, want mutual|conf|integ", got)
	}
	if s.seq != uint64(req.Authenticator.SeqNumber)&0xffffffff || !s.ctime.Equal(req.Authenticator.CTime) {
		t.Errorf("session does not keep the authenticator's sequence number and time")
	}
}

func TestGSSAPIErrorLines(t *testing.T) {
	m := &gssapiMech{service: "kafka", principal: "app@EXAMPLE.TEST", realm: "EXAMPLE.TEST", source: "keytab /k", krb5conf: "/etc/krb5.conf"}
	for _, tt := range []struct {
		lib, want string
		ticket    bool
	}{
		{"[Root cause: Networking_Error] Networking_Error: AS Exchange Error: failed sending AS_REQ to KDC: failed to communicate with KDC 127.0.0.1:1", "cannot reach a KDC for realm EXAMPLE.TEST", false},
		{"KRB Error: (6) KDC_ERR_C_PRINCIPAL_UNKNOWN Client not found in Kerberos database", "does not know the client principal app@EXAMPLE.TEST", false},
		{"KRB Error: (24) KDC_ERR_PREAUTH_FAILED Pre-authentication information was invalid", "not the principal's current key", false},
		{"KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great", "allowed skew", false},
		{"matching key not found in keytab. Looking for \"x\"", "keytab /k has no key for app@EXAMPLE.TEST", false},
		{"KRB Error: (7) KDC_ERR_S_PRINCIPAL_UNKNOWN Server not found in Kerberos database", "does not know the service principal kafka/h@EXAMPLE.TEST", true},
		{"KRB Error: (37) KRB_AP_ERR_SKEW Clock skew too great", "allowed skew", true},
		{"something\nelse", "cannot get a service ticket for kafka/h as app@EXAMPLE.TEST: something else", true},
	} {
		var err error
		if tt.ticket {
			err = m.ticketErr("kafka/h", errors.New(tt.lib))
		} else {
			err = m.loginErr(errors.New(tt.lib))
		}
		if !strings.HasPrefix(err.Error(), "SASL GSSAPI (Kerberos): ") || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %q, want %q", tt.lib, err, tt.want)
		}
	}
}

// FuzzGSSAPIUnwrap: whatever a broker sends as its security layer offer,
// kcg answers or refuses with an error, never panics.
func FuzzGSSAPIUnwrap(f *testing.F) {
	key := types.EncryptionKey{KeyType: etypeID.AES128_CTS_HMAC_SHA1_96, KeyValue: bytes.Repeat([]byte{7}, 16)}
	wt := gssapi.WrapToken{Flags: wrapSentByAcceptor, EC: 12, Payload: []byte{1, 0, 0, 0}}
	_ = wt.SetCheckSum(key, keyusage.GSSAPI_ACCEPTOR_SEAL)
	good, _ := wt.Marshal()
	f.Add(good)
	f.Add([]byte{0x05, 0x04, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0x60, 0x03, 0x06, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &gssapiSession{key: key}
		_, _, _ = s.Next(context.Background(), b)
	})
}

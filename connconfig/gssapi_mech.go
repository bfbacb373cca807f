package connconfig

// The SASL/GSSAPI mechanism (Kerberos V5, RFC 4752) as Kafka's Java client
// speaks it, on github.com/jcmturner/gokrb5/v8 (pure Go: the binary stays
// static). gssapi.go resolves the settings; this file is the handshake:
//
//  1. kcg sends a GSS-API initial context token: the Kerberos OID
//     1.2.840.113554.1.2.2, token id 01 00 and a KRB_AP_REQ for
//     <service>/<broker host>, asking for mutual authentication (GSS flags
//     mutual, integrity, confidentiality; AP option MUTUAL-REQUIRED), as
//     the JDK's GssKrb5Client does.
//  2. The broker answers a GSS token with the KRB_AP_REP (token id 02 00),
//     which proves it holds the service key; kcg checks it and answers an
//     empty token. (A broker that skips mutual authentication goes to 3
//     directly; a KRB_ERROR token is reported.)
//  3. The broker sends an RFC 4121 wrap token (id 05 04, integrity only)
//     with 4 bytes: the security layers it offers and its maximum buffer
//     size. kcg verifies the checksum and answers a wrap token of its own
//     with 01 00 00 00: no security layer, maximum size 0 (the JDK's
//     GssKrb5Client writes its buffer size only with a security layer),
//     then the authorization id: the client principal, name@REALM, as
//     Kafka's SaslClientAuthenticator passes it to Sasl.createSaslClient.
//  4. The broker answers empty: authenticated.

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"github.com/jcmturner/gokrb5/v8/types"
	"github.com/segmentio/kafka-go/sasl"
)

const mechGSSAPI = "GSSAPI"

// Wrap token flags (RFC 4121 §4.2.2).
const (
	wrapSentByAcceptor = 0x01
	wrapSealed         = 0x02
	wrapAcceptorSubkey = 0x04
)

// SASL GSSAPI security layers (RFC 4752 §3.3).
const layerNone = 0x01

// gssapiMech is the sasl.Mechanism for GSSAPI. It logs in to the KDC once
// (lazily, on the first connection) and gets a service ticket per broker
// host; gokrb5 caches both and renews the TGT.
type gssapiMech struct {
	service   string // sasl.kerberos.service.name
	principal string // the client principal, for messages
	source    string // "keytab F" or "ticket cache F", for messages
	krb5conf  string // the krb5.conf path, for messages
	realm     string
	newClient func() (*client.Client, error)

	mu sync.Mutex
	cl *client.Client // logged in; nil until a login succeeds
}

// Name is the mechanism's name for the SaslHandshake.
func (m *gssapiMech) Name() string { return mechGSSAPI }

// String describes the mechanism; it holds no secret, but the keytab's keys
// live in the client, which is never printed.
func (m *gssapiMech) String() string {
	return fmt.Sprintf("{Mechanism: GSSAPI, Principal: %q, ServiceName: %q, Credentials: %s, Krb5Conf: %q}", m.principal, m.service, m.source, m.krb5conf)
}

// Format makes every fmt verb print String.
func (m *gssapiMech) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(m.String())) }

// login logs in once; a failed login is tried again by the next
// connection (a KDC that was down for a moment must not end a long watch).
// gokrb5 renews the TGT of a keytab login in the background.
func (m *gssapiMech) login() (*client.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cl != nil {
		return m.cl, nil
	}
	cl, err := m.newClient()
	if err == nil {
		err = cl.Login()
	}
	if err != nil {
		return nil, m.loginErr(err)
	}
	m.cl = cl
	return cl, nil
}

// Start gets a ticket for <service>/<host> (host: the broker's host as
// kcg dialled it) and returns the initial context token.
func (m *gssapiMech) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	md := sasl.MetadataFromContext(ctx)
	if md == nil || md.Host == "" {
		return nil, nil, &GSSAPIError{Msg: "no broker host to build the service principal from"}
	}
	cl, err := m.login()
	if err != nil {
		return nil, nil, err
	}
	spn := m.service + "/" + md.Host
	tkt, key, err := cl.GetServiceTicket(spn)
	if err != nil {
		return nil, nil, m.ticketErr(spn, err)
	}
	if !wrapEtype(key.KeyType) {
		return nil, nil, &GSSAPIError{Msg: fmt.Sprintf("the session key for %s@%s has encryption type %d: kcg speaks GSSAPI with AES keys only (check permitted_enctypes in %s and the principal's keys)", spn, m.realm, key.KeyType, m.krb5conf)}
	}
	sess, first, err := initialToken(cl, spn, tkt, key)
	if err != nil {
		return nil, nil, err
	}
	sess.authzid = m.principal
	return sess, first, nil
}

// initialToken builds the GSS-API initial context token holding the
// AP-REQ for tkt, and the session that reads the broker's answers.
func initialToken(cl *client.Client, spn string, tkt messages.Ticket, key types.EncryptionKey) (*gssapiSession, []byte, error) {
	tok, err := spnego.NewKRB5TokenAPREQ(cl, tkt, key,
		[]int{gssapi.ContextFlagMutual, gssapi.ContextFlagInteg, gssapi.ContextFlagConf},
		[]int{flags.APOptionMutualRequired})
	if err != nil {
		return nil, nil, &GSSAPIError{Msg: "cannot build the AP-REQ for " + spn, Err: err}
	}
	// The authenticator's time and sequence number: the AP-REP must echo
	// the time, the wrap token carries the sequence number.
	if err := tok.APReq.DecryptAuthenticator(key); err != nil {
		return nil, nil, &GSSAPIError{Msg: "cannot read back the AP-REQ authenticator", Err: err}
	}
	first, err := tok.Marshal()
	if err != nil {
		return nil, nil, &GSSAPIError{Msg: "cannot encode the AP-REQ for " + spn, Err: err}
	}
	a := tok.APReq.Authenticator
	return &gssapiSession{spn: spn, key: key, ctime: a.CTime, cusec: a.Cusec, seq: uint64(a.SeqNumber) & 0xffffffff}, first, nil
}

// wrapEtype reports whether etype has RFC 4121 (CFX) wrap tokens in
// gokrb5: the AES encryption types.
func wrapEtype(etype int32) bool {
	switch etype {
	case etypeID.AES128_CTS_HMAC_SHA1_96, etypeID.AES256_CTS_HMAC_SHA1_96,
		etypeID.AES128_CTS_HMAC_SHA256_128, etypeID.AES256_CTS_HMAC_SHA384_192:
		return true
	}
	return false
}

// gssapiSession is one connection's handshake after the AP-REQ.
type gssapiSession struct {
	spn    string
	key    types.EncryptionKey // session key, or the acceptor's subkey
	subkey bool                // key is the acceptor's subkey
	ctime  time.Time
	cusec  int
	seq    uint64
	// authzid is the authorization id of the last message: the client
	// principal, as the Java client sends.
	authzid string
	step    int // 0: expect AP-REP (or the wrap token), 1: wrap token, 2: done
}

// Next handles the broker's challenges.
func (s *gssapiSession) Next(_ context.Context, challenge []byte) (bool, []byte, error) {
	switch s.step {
	case 0:
		if len(challenge) > 0 && challenge[0] == 0x60 {
			if err := s.apRep(challenge); err != nil {
				return false, nil, err
			}
			s.step = 1
			return false, []byte{}, nil
		}
		fallthrough
	case 1:
		resp, err := s.securityLayer(challenge)
		if err != nil {
			return false, nil, err
		}
		s.step = 2
		return false, resp, nil
	default:
		if len(challenge) != 0 {
			return false, nil, &GSSAPIError{Msg: fmt.Sprintf("the broker sent %d bytes after the handshake ended", len(challenge))}
		}
		return true, nil, nil
	}
}

// apRep checks the broker's KRB_AP_REP (mutual authentication) and keeps
// the acceptor's subkey if it chose one.
func (s *gssapiSession) apRep(b []byte) error {
	var tok spnego.KRB5Token
	if err := tok.Unmarshal(b); err != nil {
		return &GSSAPIError{Msg: "the broker's answer to the AP-REQ is not a Kerberos GSS-API token", Err: err}
	}
	if tok.IsKRBError() {
		return &GSSAPIError{Msg: fmt.Sprintf("the broker refused the ticket for %s (%s): check that the broker's keytab holds the current key of %s", s.spn, tok.KRBError.Error(), s.spn)}
	}
	if !tok.IsAPRep() {
		return &GSSAPIError{Msg: "the broker's answer to the AP-REQ is not an AP-REP"}
	}
	plain, err := crypto.DecryptEncPart(tok.APRep.EncPart, s.key, keyusage.AP_REP_ENCPART)
	if err != nil {
		return &GSSAPIError{Msg: fmt.Sprintf("the broker's AP-REP does not decrypt with the session key for %s: the broker did not prove it is %s", s.spn, s.spn), Err: err}
	}
	var part messages.EncAPRepPart
	if err := part.Unmarshal(plain); err != nil {
		return &GSSAPIError{Msg: "cannot decode the broker's AP-REP", Err: err}
	}
	if !part.CTime.Equal(s.ctime) || part.Cusec != s.cusec {
		return &GSSAPIError{Msg: "the broker's AP-REP does not answer kcg's authenticator (mutual authentication failed)"}
	}
	if part.Subkey.KeyType != 0 && len(part.Subkey.KeyValue) > 0 {
		if !wrapEtype(part.Subkey.KeyType) {
			return &GSSAPIError{Msg: fmt.Sprintf("the broker chose a subkey of encryption type %d: kcg speaks GSSAPI with AES keys only", part.Subkey.KeyType)}
		}
		s.key, s.subkey = part.Subkey, true
	}
	return nil
}

// securityLayer unwraps the broker's offer of security layers and answers
// "no security layer, maximum size 0", and the authorization id.
func (s *gssapiSession) securityLayer(b []byte) ([]byte, error) {
	offer, err := unwrapAcceptor(b, s.key, s.subkey)
	if err != nil {
		return nil, err
	}
	if len(offer) != 4 {
		return nil, &GSSAPIError{Msg: fmt.Sprintf("the broker's security layer offer is %d bytes, not 4", len(offer))}
	}
	if offer[0]&layerNone == 0 {
		return nil, &GSSAPIError{Msg: fmt.Sprintf("the broker requires a SASL security layer (offer %#02x): kcg supports only authentication (qop auth), as Kafka's brokers offer by default", offer[0])}
	}
	return wrapInitiator(append([]byte{layerNone, 0, 0, 0}, s.authzid...), s.key, s.subkey, s.seq)
}

// unwrapAcceptor checks an RFC 4121 wrap token from the acceptor and
// returns its payload. Only integrity-protected tokens are accepted: the
// SASL negotiation is never sealed by Kafka's brokers.
func unwrapAcceptor(b []byte, key types.EncryptionKey, subkey bool) ([]byte, error) {
	if len(b) < gssapi.HdrLen {
		return nil, &GSSAPIError{Msg: fmt.Sprintf("the broker's wrap token is %d bytes, shorter than its header", len(b))}
	}
	b = bytes.Clone(b)
	if rrc := int(binary.BigEndian.Uint16(b[6:8])); rrc != 0 {
		// RFC 4121 §4.2.5: the data after the header is rotated right
		// by RRC bytes; rotate it back.
		body := b[gssapi.HdrLen:]
		if n := len(body); n > 0 {
			r := rrc % n
			rot := append(bytes.Clone(body[r:]), body[:r]...)
			copy(body, rot)
		}
		b[6], b[7] = 0, 0
	}
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(b, true); err != nil {
		return nil, &GSSAPIError{Msg: "the broker's security layer offer is not a valid wrap token", Err: err}
	}
	if wt.Flags&wrapSealed != 0 {
		return nil, &GSSAPIError{Msg: "the broker sealed its security layer offer: kcg accepts only integrity-protected negotiation"}
	}
	if (wt.Flags&wrapAcceptorSubkey != 0) != subkey {
		return nil, &GSSAPIError{Msg: "the broker's wrap token names a different key than its AP-REP chose"}
	}
	ok, err := wt.Verify(key, keyusage.GSSAPI_ACCEPTOR_SEAL)
	if err != nil || !ok {
		return nil, &GSSAPIError{Msg: "the checksum of the broker's wrap token does not verify with the session key", Err: err}
	}
	return wt.Payload, nil
}

// wrapInitiator builds the initiator's integrity-only wrap token of
// payload.
func wrapInitiator(payload []byte, key types.EncryptionKey, subkey bool, seq uint64) ([]byte, error) {
	et, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, &GSSAPIError{Msg: "unsupported session key", Err: err}
	}
	wt := gssapi.WrapToken{EC: uint16(et.GetHMACBitLength() / 8), SndSeqNum: seq, Payload: payload}
	if subkey {
		wt.Flags = wrapAcceptorSubkey
	}
	if err := wt.SetCheckSum(key, keyusage.GSSAPI_INITIATOR_SEAL); err != nil {
		return nil, &GSSAPIError{Msg: "cannot checksum the wrap token", Err: err}
	}
	out, err := wt.Marshal()
	if err != nil {
		return nil, &GSSAPIError{Msg: "cannot encode the wrap token", Err: err}
	}
	return out, nil
}

// GSSAPIError is a Kerberos failure while authenticating: one line that
// names GSSAPI, what failed and what to check. It never holds key material.
type GSSAPIError struct {
	Msg string
	Err error
}

func (e *GSSAPIError) Error() string {
	s := "SASL GSSAPI (Kerberos): " + e.Msg
	if e.Err != nil {
		s += ": " + oneLine(e.Err.Error())
	}
	return s
}

func (e *GSSAPIError) Unwrap() error { return e.Err }

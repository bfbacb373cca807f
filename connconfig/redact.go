package connconfig

// Redaction: ConnOptions and Config hold a SASL password and a client key,
// and both end up in logs and error reports, so every way of printing them
// goes through Redacted.

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"strings"
)

// redactedValue stands in for a secret wherever one would be printed.
const redactedValue = "[redacted]"

// "[redacted]" (or "" when none was given).
func (o ConnOptions) Redacted() string {
	pw := ""
	if o.SASLPassword != "" {
		pw = redactedValue
	}
	return fmt.Sprintf("ConnOptions{Bootstrap: %q, CommandConfig: %q, SecurityProtocol: %q, SASLMechanism: %q, SASLUsername: %q, SASLPassword: %s, TLSCAFile: %q, TLSCertFile: %q, TLSKeyFile: %q, TLSServerName: %q, TLSInsecureSkipVerify: %t, Timeout: %s}",
		o.Bootstrap, o.CommandConfig, o.SecurityProtocol, o.SASLMechanism, o.SASLUsername, pw,
		o.TLSCAFile, o.TLSCertFile, o.TLSKeyFile, o.TLSServerName, o.TLSInsecureSkipVerify, o.Timeout)
}

// String is Redacted.
func (o ConnOptions) String() string { return o.Redacted() }

// GoString is Redacted, so %#v is safe too.
func (o ConnOptions) GoString() string { return o.Redacted() }

// Format makes every fmt verb (%v, %+v, %#v, %s, %q, ...) print Redacted.
func (o ConnOptions) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(o.Redacted())) }

// LogValue makes log/slog record Redacted.
func (o ConnOptions) LogValue() slog.Value { return slog.StringValue(o.Redacted()) }

// Redacted describes the configuration without secrets: the SASL password
// and the TLS private key are never shown.
func (c Config) Redacted() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Config{Bootstrap: %v, TLS: ", c.Bootstrap)
	if c.TLS == nil {
		b.WriteString("off")
	} else {
		t := c.TLS
		roots := "system"
		if t.RootCAs != nil {
			roots = "custom"
		}
		verify := "chain+hostname"
		switch {
		case t.InsecureSkipVerify && t.VerifyConnection != nil:
			verify = "chain only (ssl.endpoint.identification.algorithm is empty)"
		case t.InsecureSkipVerify:
			verify = "NONE (--tls-insecure-skip-verify)"
		}
		fmt.Fprintf(&b, "{MinVersion: %s, RootCAs: %s, ClientCertificate: %t, ServerName: %q, Verify: %s}",
			tls.VersionName(t.MinVersion), roots, len(t.Certificates) > 0, t.ServerName, verify)
	}
	b.WriteString(", SASL: ")
	switch m := c.SASL.(type) {
	case nil:
		b.WriteString("off")
	case *saslMech:
		b.WriteString(m.String())
	default:
		fmt.Fprintf(&b, "{Mechanism: %s}", m.Name())
	}
	fmt.Fprintf(&b, ", ClientID: %q}", c.ClientID)
	return b.String()
}

// String is Redacted.
func (c Config) String() string { return c.Redacted() }

// GoString is Redacted, so %#v is safe too.
func (c Config) GoString() string { return c.Redacted() }

// Format makes every fmt verb (%v, %+v, %#v, %s, %q, ...) print Redacted.
func (c Config) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.Redacted())) }

// LogValue makes log/slog record Redacted.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.Redacted()) }

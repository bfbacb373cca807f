// Package connconfig is kcg's connection configuration: it turns what the
// user gave into the Config that kafkaadmin.New dials with, and reads and
// writes kcg's own config file. It knows nothing of the wire: it never
// dials and imports no other kcg package but connconfig/javaprops.
//
// Resolution (resolve.go): ConnOptions holds the connection flags, their
// environment variables and the path of a Java client properties file
// (--command-config, read by connconfig/javaprops). A flag wins over the same
// setting in the file, as in the Java tool. Resolve decides the bootstrap
// servers and the security protocol, refuses settings it cannot honour, and
// builds what the protocol needs:
//
//   - tls.go: the tls.Config, from PEM files given by flag or from the
//     file's ssl.truststore.* and ssl.keystore.* settings (PEM only: a JKS
//     or PKCS#12 store is recognised and refused with the command that
//     converts it);
//   - pkcs8.go: encrypted private keys (PKCS#8 PBES2 with PBKDF2 and
//     AES-CBC or 3DES-CBC, and legacy PEM encryption), which the standard
//     library does not decrypt;
//   - sasl.go: the SASL mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512),
//     from flags or sasl.mechanism and sasl.jaas.config;
//   - gssapi.go, gssapi_mech.go: SASL GSSAPI (Kerberos) on gokrb5: the
//     keytab or ticket cache, service name and krb5.conf (Krb5LoginModule
//     in sasl.jaas.config, flags, profile keys), and the RFC 4752
//     handshake. The mechanism is the one part that talks to a network
//     service, the KDC, and only when kafka-go authenticates a connection
//     (Start); Resolve itself reads files only.
//
// Profiles (profile.go, profile_resolve.go, profile_use.go): named clusters
// in kcg's YAML config file (docs/profiles.md). profile.go reads the file
// strictly, naming the key and line of every refusal; profile_resolve.go
// merges the chosen profile under the flags and keeps its credentials to
// its own brokers; profile_use.go rewrites the file's current: line.
//
// Redaction (redact.go): ConnOptions and Config hold a SASL password and a
// client key, so every way of printing them (fmt verbs, slog) goes through
// Redacted. Errors are ErrNoBootstrap, *ConfigError (whose Kind the
// commands layer maps to an exit code) or *UnknownProfileError; none
// carries a password or key material. docs/connecting.md is the user's side
// of this package.
package connconfig

package connconfig

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"github.com/segmentio/kafka-go/sasl"
	"github.com/segmentio/kafka-go/sasl/plain"
	fsasl "github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// SASL mechanisms kcg implements, and the login modules of
// sasl.jaas.config that name them.
const (
	mechPlain    = "PLAIN"
	mechSCRAM256 = "SCRAM-SHA-256"
	mechSCRAM512 = "SCRAM-SHA-512"
	plainModule  = javaprops.PlainLoginModule
	scramModule  = javaprops.ScramLoginModule
)

// sasl.jaas.config.
func (r *resolver) saslMechanism() (sasl.Mechanism, error) {
	if m, handled, err := r.tokenMechanism(); handled { // oauth.go, mskiam.go
		return m, err
	}
	mech, fromFlag := r.requestedMechanism()
	jaas, err := r.jaasConfig()
	if err != nil {
		return nil, err
	}
	if jaas != nil {
		if mech == mechGSSAPI || (mech == "" && jaas.Module == krb5Module) {
			return r.gssapiMechanism(jaas) // gssapi.go
		}
		switch jaas.Module {
		case plainModule, scramModule:
		default:
			return nil, r.dataErr("sasl.jaas.config", fmt.Sprintf("login module %s is not supported: kcg supports %s (PLAIN), %s (SCRAM-SHA-256, SCRAM-SHA-512), %s (OAUTHBEARER), %s (AWS_MSK_IAM) and %s (GSSAPI)", jaas.Module, plainModule, scramModule, oauthModule, mskIAMModule, krb5Module), nil)
		}
	}
	if mech == mechGSSAPI || (mech == "" && jaas == nil && r.o.Kerberos.given() != "") {
		return r.gssapiMechanism(nil) // gssapi.go
	}
	if mech == "" {
		if jaas != nil && jaas.Module == plainModule {
			mech = mechPlain
		} else {
			return nil, usageErr("--sasl-mechanism", "no SASL mechanism given: use --sasl-mechanism PLAIN|SCRAM-SHA-256|SCRAM-SHA-512|OAUTHBEARER|AWS_MSK_IAM|GSSAPI or set sasl.mechanism in --command-config")
		}
	}
	switch mech {
	case mechPlain, mechSCRAM256, mechSCRAM512:
	default:
		msg := fmt.Sprintf("mechanism %q is not supported: kcg supports PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM and GSSAPI", mech)
		if fromFlag {
			return nil, usageErr("--sasl-mechanism", msg)
		}
		return nil, r.dataErr("sasl.mechanism", msg, nil)
	}
	return r.passwordMechanism(mech, jaas)
}

// requestedMechanism is the SASL mechanism asked for, in upper case:
// --sasl-mechanism (fromFlag), else sasl.mechanism of --command-config;
// "" when neither names one.
func (r *resolver) requestedMechanism() (mech string, fromFlag bool) {
	if mech = strings.ToUpper(strings.TrimSpace(r.o.SASLMechanism)); mech != "" {
		return mech, true
	}
	return strings.ToUpper(r.get("sasl.mechanism")), false
}

// jaasConfig is sasl.jaas.config of --command-config, parsed; nil when it
// is not set or blank.
func (r *resolver) jaasConfig() (*javaprops.JAASEntry, error) {
	v, ok := r.p.Get("sasl.jaas.config")
	if !ok || strings.TrimSpace(v) == "" {
		return nil, nil
	}
	e, err := javaprops.ParseJAAS(v)
	if err != nil {
		return nil, r.dataErr("sasl.jaas.config", err.Error(), nil)
	}
	return e, nil
}

// passwordMechanism is PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (mech) with
// the credentials of saslCredentials, both required.
func (r *resolver) passwordMechanism(mech string, jaas *javaprops.JAASEntry) (sasl.Mechanism, error) {
	user, pass, token, err := r.saslCredentials(jaas)
	if err != nil {
		return nil, err
	}
	if user == "" {
		return nil, usageErr("--sasl-username", fmt.Sprintf("SASL %s needs a user name: give --sasl-username or sasl.jaas.config in --command-config", mech))
	}
	if pass == "" {
		return nil, usageErr("--sasl-password", fmt.Sprintf("SASL %s needs a password: set KCG_SASL_PASSWORD (keeps it out of shell history), give --sasl-password, or put it in sasl.jaas.config", mech))
	}
	m := &saslMech{name: mech, user: user, token: token}
	switch mech {
	case mechPlain:
		m.inner = plain.Mechanism{Username: user, Password: pass}
	case mechSCRAM256:
		m.inner = franzMechanism{scram.Auth{User: user, Pass: pass, IsToken: token}.AsSha256Mechanism()}
	case mechSCRAM512:
		m.inner = franzMechanism{scram.Auth{User: user, Pass: pass, IsToken: token}.AsSha512Mechanism()}
	}
	return m, nil
}

// saslCredentials reads the user name and password: the flags first, then
// the profile's password reference, then the options of sasl.jaas.config
// (jaas, when given; it must hold what the others left out); token is its
// tokenauth option.
func (r *resolver) saslCredentials(jaas *javaprops.JAASEntry) (user, pass string, token bool, err error) {
	user, pass = r.o.SASLUsername, r.o.SASLPassword
	if pass == "" && r.prof != nil {
		// The profile's reference ranks above the --command-config file.
		p, err := r.prof.password()
		if err != nil {
			return "", "", false, err
		}
		pass = p
	}
	if jaas == nil {
		return user, pass, false, nil
	}
	if user == "" {
		u, ok := jaas.Options["username"]
		if !ok {
			return "", "", false, r.dataErr("sasl.jaas.config", fmt.Sprintf("username missing: write %s required username=\"...\" password=\"...\"; (or give --sasl-username)", jaas.ShortModule()), nil)
		}
		user = u
	}
	if pass == "" {
		p, ok := jaas.Options["password"]
		if !ok {
			return "", "", false, r.dataErr("sasl.jaas.config", fmt.Sprintf("password missing: write %s required username=\"...\" password=\"...\"; (or set KCG_SASL_PASSWORD)", jaas.ShortModule()), nil)
		}
		pass = p
	}
	return user, pass, strings.EqualFold(jaas.Options["tokenauth"], "true"), nil
}

// saslMech is the sasl.Mechanism kcg hands kafka-go. It wraps the real
// mechanism so that printing it (or a Config holding it) never shows the
// password.
type saslMech struct {
	name  string
	user  string
	token bool
	inner sasl.Mechanism
}

// Name is the mechanism's name for the SaslHandshake.
func (m *saslMech) Name() string { return m.name }

// Start begins an authentication with the wrapped mechanism.
func (m *saslMech) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	return m.inner.Start(ctx)
}

// String describes the mechanism without its password.
func (m *saslMech) String() string {
	s := fmt.Sprintf("{Mechanism: %s, Username: %q, Password: %s", m.name, m.user, redactedValue)
	if m.token {
		s += ", TokenAuth: true"
	}
	return s + "}"
}

// Format makes every fmt verb print String.
func (m *saslMech) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(m.String())) }

// franzMechanism adapts franz-go's SCRAM implementation (RFC 5802 over the
// standard library's crypto/pbkdf2, no SASLprep, the same as the Java
// client) to kafka-go's sasl.Mechanism. kafka-go's own sasl/scram needs
// github.com/xdg-go/scram, which this module does not otherwise require.
type franzMechanism struct{ m fsasl.Mechanism }

func (f franzMechanism) Name() string { return f.m.Name() }

func (f franzMechanism) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	host := ""
	if md := sasl.MetadataFromContext(ctx); md != nil {
		host = net.JoinHostPort(md.Host, strconv.Itoa(md.Port))
	}
	s, first, err := f.m.Authenticate(ctx, host)
	if err != nil {
		return nil, nil, err
	}
	return franzSession{s}, first, nil
}

func (f franzMechanism) Format(fs fmt.State, _ rune) { _, _ = fs.Write([]byte("{" + f.m.Name() + "}")) }

type franzSession struct{ s fsasl.Session }

func (s franzSession) Next(_ context.Context, challenge []byte) (bool, []byte, error) {
	return s.s.Challenge(challenge)
}

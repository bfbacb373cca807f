package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/kcg-dev/kcg/connconfig"
)

// The document kinds of `kcg profile list` and `kcg profile show`.
const (
	KindProfileList = "ProfileList"
	KindProfile     = "Profile"
)

// ProfileList is the document of `kcg profile list`: every profile of
// the config file, sorted by name, the current one marked.
type ProfileList struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// ConfigFile is the file read (whether or not it exists).
	ConfigFile string `json:"configFile" yaml:"configFile"`
	// Current is the current: profile; null when none is set.
	Current  *string          `json:"current" yaml:"current"`
	Profiles []ProfileSummary `json:"profiles" yaml:"profiles"`
}

// ProfileSummary is one row of ProfileList.
type ProfileSummary struct {
	Name      string   `json:"name" yaml:"name"`
	Current   bool     `json:"current" yaml:"current"`
	Bootstrap []string `json:"bootstrap" yaml:"bootstrap"`
	// SecurityProtocol is the profile's securityProtocol; null when it
	// leaves it to be inferred (docs/connecting.md).
	SecurityProtocol *string `json:"securityProtocol" yaml:"securityProtocol"`
	SASLMechanism    *string `json:"saslMechanism" yaml:"saslMechanism"`
	SASLUsername     *string `json:"saslUsername" yaml:"saslUsername"`
}

// ProfileDocument is the document of `kcg profile show`: one profile's
// settings as written, secrets as their references (never their values).
type ProfileDocument struct {
	APIVersion       string      `json:"apiVersion" yaml:"apiVersion"`
	Kind             string      `json:"kind" yaml:"kind"`
	ConfigFile       string      `json:"configFile" yaml:"configFile"`
	Name             string      `json:"name" yaml:"name"`
	Current          bool        `json:"current" yaml:"current"`
	Bootstrap        []string    `json:"bootstrap" yaml:"bootstrap"`
	CommandConfig    *string     `json:"commandConfig" yaml:"commandConfig"`
	SecurityProtocol *string     `json:"securityProtocol" yaml:"securityProtocol"`
	TLS              ProfileTLS  `json:"tls" yaml:"tls"`
	SASL             ProfileSASL `json:"sasl" yaml:"sasl"`
	// Policy and AllowedSigners are the profile's policy: and
	// allowedSigners: (absolute paths); absent when not set.
	Policy         []string `json:"policy,omitempty" yaml:"policy,omitempty"`
	AllowedSigners *string  `json:"allowedSigners,omitempty" yaml:"allowedSigners,omitempty"`
}

// ProfileTLS is a profile's tls section; paths are absolute (relative ones
// are resolved against the config file's directory).
type ProfileTLS struct {
	CAFile             *string `json:"caFile" yaml:"caFile"`
	CertFile           *string `json:"certFile" yaml:"certFile"`
	KeyFile            *string `json:"keyFile" yaml:"keyFile"`
	ServerName         *string `json:"serverName" yaml:"serverName"`
	InsecureSkipVerify bool    `json:"insecureSkipVerify" yaml:"insecureSkipVerify"`
}

// ProfileSASL is a profile's sasl section. The password appears only as
// the name of its variable or file.
type ProfileSASL struct {
	Mechanism    *string `json:"mechanism" yaml:"mechanism"`
	Username     *string `json:"username" yaml:"username"`
	PasswordEnv  *string `json:"passwordEnv" yaml:"passwordEnv"`
	PasswordFile *string `json:"passwordFile" yaml:"passwordFile"`
	// TokenEndpoint, TokenFile and Scope are OAUTHBEARER's
	// sasl.tokenEndpoint, sasl.tokenFile and sasl.scope.
	TokenEndpoint *string `json:"tokenEndpoint" yaml:"tokenEndpoint"`
	TokenFile     *string `json:"tokenFile" yaml:"tokenFile"`
	Scope         *string `json:"scope" yaml:"scope"`
	// GSSAPI (Kerberos): file references and names, no key material.
	Keytab              *string `json:"keytab" yaml:"keytab"`
	Principal           *string `json:"principal" yaml:"principal"`
	KerberosServiceName *string `json:"kerberosServiceName" yaml:"kerberosServiceName"`
	Krb5Config          *string `json:"krb5Config" yaml:"krb5Config"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// upper is optional(s) upper-cased: the profile file takes a security
// protocol or SASL mechanism in any case, the documents name it as the
// Java client does (their schemas' enums).
func upper(s string) *string { return optional(strings.ToUpper(s)) }

// NewProfileList returns the list of f's profiles.
func NewProfileList(f *connconfig.ProfileFile) ProfileList {
	l := ProfileList{APIVersion: APIVersion, Kind: KindProfileList, ConfigFile: f.Path, Current: optional(f.Current)}
	for _, p := range f.Profiles {
		l.Profiles = append(l.Profiles, ProfileSummary{
			Name: p.Name, Current: p.Name == f.Current, Bootstrap: p.Bootstrap,
			SecurityProtocol: upper(p.SecurityProtocol),
			SASLMechanism:    upper(p.SASLMechanism), SASLUsername: optional(p.SASLUsername),
		})
	}
	return l
}

func (l ProfileList) normalized() any {
	l.Profiles = nonNil(l.Profiles)
	return l
}

// WriteTable writes CURRENT (a "*"), NAME, BOOTSTRAP, PROTOCOL and SASL
// (mechanism and user); "-" where the profile sets none.
func (l ProfileList) WriteTable(w io.Writer) error {
	rows := make([][]string, 0, len(l.Profiles))
	for _, p := range l.Profiles {
		mark := ""
		if p.Current {
			mark = "*"
		}
		sasl := "-"
		if p.SASLMechanism != nil || p.SASLUsername != nil {
			sasl = strings.TrimSpace(dashIfNil(p.SASLMechanism) + " " + dashIfNil(p.SASLUsername))
		}
		rows = append(rows, []string{mark, p.Name, strings.Join(p.Bootstrap, ","), StringCell(p.SecurityProtocol), sasl})
	}
	return renderTable(w, []string{"CURRENT", "NAME", "BOOTSTRAP", "PROTOCOL", "SASL"}, rows)
}

func dashIfNil(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

// NewProfileDocument returns p of f as a document.
func NewProfileDocument(f *connconfig.ProfileFile, p connconfig.Profile) ProfileDocument {
	return ProfileDocument{
		APIVersion: APIVersion, Kind: KindProfile, ConfigFile: f.Path,
		Name: p.Name, Current: p.Name == f.Current, Bootstrap: p.Bootstrap,
		CommandConfig:    optional(p.CommandConfig),
		SecurityProtocol: upper(p.SecurityProtocol),
		TLS: ProfileTLS{
			CAFile: optional(p.TLSCAFile), CertFile: optional(p.TLSCertFile), KeyFile: optional(p.TLSKeyFile),
			ServerName: optional(p.TLSServerName), InsecureSkipVerify: p.TLSInsecureSkipVerify,
		},
		SASL: ProfileSASL{
			Mechanism: upper(p.SASLMechanism), Username: optional(p.SASLUsername),
			PasswordEnv: optional(p.PasswordEnv), PasswordFile: optional(p.PasswordFile),
			TokenEndpoint: optional(p.OAuthTokenEndpoint), TokenFile: optional(p.OAuthTokenFile), Scope: optional(p.OAuthScope),
			Keytab: optional(p.Kerberos.Keytab), Principal: optional(p.Kerberos.Principal),
			KerberosServiceName: optional(p.Kerberos.ServiceName), Krb5Config: optional(p.Kerberos.Krb5Config),
		},
		Policy: p.Policy, AllowedSigners: optional(p.AllowedSigners),
	}
}

// WriteTable writes one "key: value" line per setting that is set.
func (d ProfileDocument) WriteTable(w io.Writer) error {
	var b strings.Builder
	line := func(k string, v *string) {
		if v != nil {
			fmt.Fprintf(&b, "%-19s %s\n", k+":", *v)
		}
	}
	name := d.Name
	if d.Current {
		name += " (current)"
	}
	line("profile", &name)
	line("config file", &d.ConfigFile)
	bs := strings.Join(d.Bootstrap, ",")
	line("bootstrap", &bs)
	line("command config", d.CommandConfig)
	line("security protocol", d.SecurityProtocol)
	line("tls ca file", d.TLS.CAFile)
	line("tls cert file", d.TLS.CertFile)
	line("tls key file", d.TLS.KeyFile)
	line("tls server name", d.TLS.ServerName)
	if d.TLS.InsecureSkipVerify {
		v := "true (certificates are not verified)"
		line("tls insecure", &v)
	}
	line("sasl mechanism", d.SASL.Mechanism)
	line("sasl username", d.SASL.Username)
	if d.SASL.PasswordEnv != nil {
		v := "from $" + *d.SASL.PasswordEnv
		line("sasl password", &v)
	}
	if d.SASL.PasswordFile != nil {
		v := "from file " + *d.SASL.PasswordFile
		line("sasl password", &v)
	}
	for _, pol := range d.Policy {
		line("policy", &pol)
	}
	line("allowed signers", d.AllowedSigners)
	line("oauth token url", d.SASL.TokenEndpoint)
	line("oauth token file", d.SASL.TokenFile)
	line("oauth scope", d.SASL.Scope)
	line("kerberos keytab", d.SASL.Keytab)
	line("kerberos principal", d.SASL.Principal)
	line("kerberos service", d.SASL.KerberosServiceName)
	line("krb5.conf", d.SASL.Krb5Config)
	_, err := io.WriteString(w, b.String())
	return err
}

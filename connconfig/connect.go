package connconfig

// Kafka Connect: where its REST API is (--connect URL, repeatable, or a
// profile's connect: section beside bootstrap) and how kcg reaches it
// (TLS for https URLs, basic auth with the password by reference, as for
// SASL). docs/connect.md, docs/profiles.md.

import (
	"crypto/tls"
	"fmt"
	"net/url"
	"strings"

	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"gopkg.in/yaml.v3"
)

// EnvConnectPassword holds the Connect basic-auth password (never a flag).
const EnvConnectPassword = "KCG_CONNECT_PASSWORD"

// ConnectOptions is how to reach Kafka Connect: from the flags, or a
// profile's connect: section where the flags leave a setting empty.
type ConnectOptions struct {
	// URLs are the REST URLs of the Connect clusters (http:// or https://).
	URLs        []string
	CAFile      string
	CertFile    string
	KeyFile     string
	ServerName  string
	InsecureTLS bool
	Username    string
	// Password is KCG_CONNECT_PASSWORD; PasswordEnv and PasswordFile the
	// profile's references (one at most).
	Password     string
	PasswordEnv  string
	PasswordFile string
}

// ConnectConfig is ConnectOptions resolved: the URLs checked, the TLS
// config built, the password read.
type ConnectConfig struct {
	URLs     []string
	TLS      *tls.Config
	Username string
	Password string
}

// Configured reports whether any Connect URL is given.
func (c ConnectConfig) Configured() bool { return len(c.URLs) > 0 }

// ResolveConnect resolves the Connect settings of o, with its profile's
// connect: section under the flags. No URL anywhere is no error: an
// empty ConnectConfig (Configured false).
func (o ConnOptions) ResolveConnect() (ConnectConfig, error) {
	o, _, err := o.withProfile()
	if err != nil {
		return ConnectConfig{}, err
	}
	c := o.Connect
	if len(c.URLs) == 0 {
		return ConnectConfig{}, nil
	}
	out := ConnectConfig{Username: c.Username}
	https := false
	for _, u := range c.URLs {
		pu, perr := url.Parse(strings.TrimSpace(u))
		if perr != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return ConnectConfig{}, usageErr("--connect", fmt.Sprintf("%q is not a Connect REST URL: use http://HOST:PORT or https://HOST:PORT", u))
		}
		https = https || pu.Scheme == "https"
		out.URLs = append(out.URLs, strings.TrimRight(pu.String(), "/"))
	}
	if https || c.CAFile != "" || c.CertFile != "" {
		r := &resolver{o: ConnOptions{TLSCAFile: c.CAFile, TLSCertFile: c.CertFile, TLSKeyFile: c.KeyFile,
			TLSServerName: c.ServerName, TLSInsecureSkipVerify: c.InsecureTLS}, p: &javaprops.Properties{}}
		tc, terr := r.tlsConfig()
		if terr != nil {
			return ConnectConfig{}, fmt.Errorf("Kafka Connect TLS: %w", terr)
		}
		out.TLS = tc
	}
	out.Password, err = c.password()
	return out, err
}

func (c ConnectOptions) password() (string, error) {
	if c.Password != "" {
		return c.Password, nil
	}
	return passwordRef("connect", c.PasswordEnv, c.PasswordFile, "export "+EnvConnectPassword)
}

// mergeConnect fills the Connect settings the flags leave empty from the
// profile's connect: section. The profile's credentials go with its own
// URLs only: with --connect given, only the profile's TLS trust is kept.
func (c ConnectOptions) mergeConnect(p ConnectOptions) ConnectOptions {
	if len(c.URLs) > 0 {
		if c.CAFile == "" {
			c.CAFile = p.CAFile
		}
		return c
	}
	pw := c.Password
	p.Password = pw
	if c.Username != "" {
		p.Username = c.Username
	}
	return p
}

var connectKeys = []string{"urls", "caFile", "certFile", "keyFile", "serverName", "insecureSkipVerify", "username", "passwordEnv", "passwordFile"}

// connectKey reads one setting of the profile's connect section.
func (pp profileParser) connectKey(k, v *yaml.Node) error {
	c := &pp.p.Connect
	switch k.Value {
	case "urls":
		list, err := pathList(pp.path, k, v)
		c.URLs = list
		return err
	case "insecureSkipVerify":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return profileErr(pp.path, v.Line, "%s.connect.insecureSkipVerify: must be true or false", pp.where)
		}
		c.InsecureTLS = strings.EqualFold(v.Value, "true")
		return nil
	}
	s, err := scalar(pp.path, k, v)
	switch k.Value {
	case "caFile":
		c.CAFile = pp.rel(s)
	case "certFile":
		c.CertFile = pp.rel(s)
	case "keyFile":
		c.KeyFile = pp.rel(s)
	case "serverName":
		c.ServerName = s
	case "username":
		c.Username = s
	case "passwordEnv":
		c.PasswordEnv = s
	case "passwordFile":
		c.PasswordFile = pp.rel(s)
	}
	return err
}

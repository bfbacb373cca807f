package connconfig

// How a profile joins the flags: per setting, flag > environment variable
// > profile > the --command-config file > defaults. The one exception is
// the cluster itself: a profile's settings (its TLS client key, its SASL
// user and password) are only ever sent to the profile's own brokers. See
// docs/profiles.md, "Precedence" and "A profile and -b".

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// withProfile returns o with the chosen profile's settings filled in
// where o has none, and the profile (nil: none applies).
func (o ConnOptions) withProfile() (ConnOptions, *Profile, error) {
	if !o.UseProfiles {
		return o, nil, nil
	}
	explicit := o.Profile != ""
	from := o.ProfileFrom
	if from == "" {
		from = "--profile"
	}
	if !explicit && o.CommandConfig != "" {
		// --command-config names its own cluster and security: the
		// current: profile is a default for when nothing else is named.
		return o, nil, nil
	}
	path, err := ConfigPath()
	if err != nil {
		if explicit {
			return o, nil, err
		}
		return o, nil, nil
	}
	f, err := ReadProfileFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if explicit {
			return o, nil, &ConfigError{Kind: ConfigErrorUsage, Key: from, Msg: fmt.Sprintf("profile %q asked for, but there is no config file at %s (see docs/profiles.md; %s names another file)", o.Profile, path, EnvConfig), Err: nil}
		}
		return o, nil, nil
	}
	if err != nil {
		return o, nil, err
	}
	name := o.Profile
	if !explicit {
		name = f.Current
		if name == "" {
			return o, nil, nil
		}
	}
	p, ok := f.Lookup(name)
	if !ok {
		return o, nil, &UnknownProfileError{Name: name, From: from, Path: path, Known: f.Names()}
	}
	if strings.TrimSpace(o.Bootstrap) != "" {
		if stray := outside(o.Bootstrap, p.Bootstrap); stray != "" {
			if !explicit {
				// The operator named another cluster; the current:
				// profile is not for it.
				return o, nil, nil
			}
			bfrom := o.BootstrapFrom
			if bfrom == "" {
				bfrom = "--bootstrap-server"
			}
			return o, nil, &ConfigError{Kind: ConfigErrorUsage, Key: bfrom,
				Msg: fmt.Sprintf("%s is not a bootstrap server of profile %q (%s): kcg sends a profile's credentials only to its own cluster; drop %s, or %s", stray, p.Name, strings.Join(p.Bootstrap, ","), bfrom, dropProfile(from))}
		}
	}
	return o.merge(p), &p, nil
}

// SelectedProfile is the profile these options use, as Resolve would
// apply it (nil: none), for the settings that are not the connection's
// (policy:, allowedSigners:).
func (o ConnOptions) SelectedProfile() (*Profile, error) {
	_, p, err := o.withProfile()
	return p, err
}

func dropProfile(from string) string {
	if from == "KCG_PROFILE" {
		return "unset KCG_PROFILE"
	}
	return "drop " + from
}

// outside returns the first address of list (comma-separated) that is not
// one of cluster's, compared without case; "" when all are.
func outside(list string, cluster []string) string {
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		found := false
		for _, c := range cluster {
			if strings.EqualFold(a, c) {
				found = true
				break
			}
		}
		if !found {
			return a
		}
	}
	return ""
}

// merge fills the settings o leaves empty from p.
func (o ConnOptions) merge(p Profile) ConnOptions {
	set := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	if strings.TrimSpace(o.Bootstrap) == "" {
		o.Bootstrap = strings.Join(p.Bootstrap, ",")
	}
	set(&o.CommandConfig, p.CommandConfig)
	set(&o.SecurityProtocol, p.SecurityProtocol)
	set(&o.TLSCAFile, p.TLSCAFile)
	set(&o.TLSCertFile, p.TLSCertFile)
	if o.TLSCertFile == p.TLSCertFile {
		// A key belongs to its certificate: the profile's key only with
		// the profile's certificate.
		set(&o.TLSKeyFile, p.TLSKeyFile)
	}
	set(&o.TLSServerName, p.TLSServerName)
	o.TLSInsecureSkipVerify = o.TLSInsecureSkipVerify || p.TLSInsecureSkipVerify
	set(&o.SASLMechanism, p.SASLMechanism)
	set(&o.SASLUsername, p.SASLUsername)
	if o.SASLOAuthTokenEndpoint == "" && o.SASLOAuthTokenFile == "" {
		set(&o.SASLOAuthTokenEndpoint, p.OAuthTokenEndpoint)
		set(&o.SASLOAuthTokenFile, p.OAuthTokenFile)
	}
	set(&o.SASLOAuthScope, p.OAuthScope)
	set(&o.Kerberos.Keytab, p.Kerberos.Keytab)
	set(&o.Kerberos.Principal, p.Kerberos.Principal)
	set(&o.Kerberos.ServiceName, p.Kerberos.ServiceName)
	set(&o.Kerberos.Krb5Config, p.Kerberos.Krb5Config)
	o.Connect = o.Connect.mergeConnect(p.Connect)
	if o.SASLPasswordFromEnv && (p.PasswordEnv != "" || p.PasswordFile != "") {
		// The one exception to "variable over profile": KCG_SASL_PASSWORD
		// may be exported for another cluster, and the profile says where
		// its own cluster's password is. Only a typed --sasl-password
		// replaces the profile's reference.
		o.SASLPassword = ""
	}
	return o
}

// profilePassword reads the profile's password reference. It is called
// only when SASL needs a password that no flag or variable gave.
func (p *Profile) password() (string, error) {
	return passwordRef("sasl", p.PasswordEnv, p.PasswordFile, "give --sasl-password")
}

// passwordRef reads a password by reference: the variable named env, or
// the file (one trailing newline dropped); "" when neither is set.
// section names the keys in messages (sasl.passwordEnv), alt the other
// way to give it.
func passwordRef(section, env, file, alt string) (string, error) {
	switch {
	case env != "":
		v, ok := os.LookupEnv(env)
		if !ok || v == "" {
			return "", &ConfigError{Kind: ConfigErrorUsage, Key: section + ".passwordEnv", Msg: fmt.Sprintf("names %s, which is not set: export %s=... or %s", env, env, alt)}
		}
		return v, nil
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return "", &ConfigError{Kind: ConfigErrorData, Key: section + ".passwordFile", Msg: "cannot read the password file", Err: err}
		}
		// One trailing newline is the editor's, not the password's.
		v := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
		if v == "" {
			return "", &ConfigError{Kind: ConfigErrorData, Key: section + ".passwordFile", Msg: fmt.Sprintf("%s is empty", file)}
		}
		return v, nil
	}
	return "", nil
}

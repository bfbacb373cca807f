package connconfig

// Profiles: named clusters in kcg's config file (docs/profiles.md). This
// file reads and checks the file, strictly, from a yaml.v3 node tree so
// every refusal names its key and line; profile_use.go rewrites its
// current: line; profile_resolve.go merges the chosen profile under the
// flags.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Environment variables of the config file.
const (
	// EnvConfig names the config file, overriding the XDG location.
	EnvConfig = "KCG_CONFIG"
	// EnvProfile names the profile, as --profile does.
	EnvProfile = "KCG_PROFILE"
)

// maxConfigSize bounds the config file: a profile list is a few KiB; a
// bigger file is a mistake (a wrong KCG_CONFIG), not a configuration.
const maxConfigSize = 1 << 20

// ConfigPath returns the config file's path: $KCG_CONFIG, else
// $XDG_CONFIG_HOME/kcg/config.yaml, else ~/.config/kcg/config.yaml. It
// does not check that the file exists.
func ConfigPath() (string, error) {
	if p := os.Getenv(EnvConfig); p != "" {
		return p, nil
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "kcg", "config.yaml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", &ConfigError{Kind: ConfigErrorUsage, Key: "--profile", Msg: "cannot find the config file: no home directory; set " + EnvConfig}
	}
	return filepath.Join(home, ".config", "kcg", "config.yaml"), nil
}

// ProfileFile is the parsed config file.
type ProfileFile struct {
	// Path is the file it was read from.
	Path string
	// Current is the current: profile name; empty when unset.
	Current string
	// Profiles are sorted by name.
	Profiles []Profile
}

// Profile is one named cluster. Secrets are held only as references
// (PasswordEnv, PasswordFile), never as values.
type Profile struct {
	Name string
	// Bootstrap is the cluster's HOST:PORT addresses (required).
	Bootstrap []string
	// CommandConfig is a Java client properties file; relative paths are
	// resolved against the config file's directory, as are the TLS files
	// and PasswordFile.
	CommandConfig    string
	SecurityProtocol string
	TLSCAFile        string
	TLSCertFile      string
	TLSKeyFile       string
	TLSServerName    string
	// TLSInsecureSkipVerify is tls.insecureSkipVerify.
	TLSInsecureSkipVerify bool
	SASLMechanism         string
	SASLUsername          string
	// PasswordEnv names the environment variable holding the SASL
	// password; PasswordFile a file holding it. At most one is set.
	PasswordEnv  string
	PasswordFile string
	// Policy is the profile's policy: list (Rego files or directories,
	// relative to the config file), always evaluated by plan and apply
	// besides any --policy.
	Policy []string
	// AllowedSigners is the allowedSigners: file (OpenSSH
	// allowed_signers) apply checks approvals against unless
	// --allowed-signers is given.
	AllowedSigners string
	// OAuthTokenEndpoint, OAuthTokenFile and OAuthScope are
	// sasl.tokenEndpoint, sasl.tokenFile and sasl.scope, for OAUTHBEARER
	// (the client secret is the password reference above).
	OAuthTokenEndpoint string
	OAuthTokenFile     string
	OAuthScope         string
	// Kerberos is sasl.keytab, sasl.principal, sasl.kerberosServiceName
	// and sasl.krb5Config (GSSAPI; paths relative to the config file).
	Kerberos KerberosOptions
	// Connect is the connect: section: the Kafka Connect REST URLs of
	// this cluster and how to reach them (connect.go).
	Connect ConnectOptions
	// Line is the line of the profile's name in the file.
	Line int
}

// Lookup returns the profile called name.
func (f *ProfileFile) Lookup(name string) (Profile, bool) {
	for _, p := range f.Profiles {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// Names returns the profile names, sorted.
func (f *ProfileFile) Names() []string {
	out := make([]string, 0, len(f.Profiles))
	for _, p := range f.Profiles {
		out = append(out, p.Name)
	}
	return out
}

// UnknownProfileError is a profile name (from --profile, KCG_PROFILE or
// kcg profile use) that the config file does not define: a usage error.
type UnknownProfileError struct {
	Name, From, Path string
	Known            []string
}

func (e *UnknownProfileError) Error() string {
	known := "it defines none"
	if len(e.Known) > 0 {
		known = "known: " + strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("%s: no profile %q in %s (%s)", e.From, e.Name, e.Path, known)
}

// profileNameRE keeps names safe to type, to print in a table and to write
// back as a plain YAML scalar.
var profileNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidProfileName reports whether name may name a profile.
func ValidProfileName(name string) bool { return profileNameRE.MatchString(name) }

// ReadProfileFile reads and checks the config file at path. A missing file
// is an error wrapping fs.ErrNotExist; everything else wrong with the file
// is a *ConfigError of kind ConfigErrorData naming the file and line.
func ReadProfileFile(path string) (*ProfileFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxConfigSize {
		return nil, &ConfigError{Kind: ConfigErrorData, Key: "config file " + path, Msg: fmt.Sprintf("is %d bytes, more than a config file can be (1 MiB); check %s", st.Size(), EnvConfig)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{Kind: ConfigErrorData, Key: "config file " + path, Msg: "cannot be read", Err: err}
	}
	return ParseProfileFile(path, data)
}

// profileErr is a refusal in the config file, with its line.
func profileErr(path string, line int, format string, a ...any) *ConfigError {
	key := "config file " + path
	if line > 0 {
		key += fmt.Sprintf(", line %d", line)
	}
	return &ConfigError{Kind: ConfigErrorData, Key: key, Msg: fmt.Sprintf(format, a...)}
}

// ParseProfileFile parses data, the contents of the config file at path
// (used in messages and to resolve relative paths).
func ParseProfileFile(path string, data []byte) (*ProfileFile, error) {
	f := &ProfileFile{Path: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// yaml.v3's messages are "yaml: line N: ..."; keep the line, drop
		// the prefix.
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		return nil, profileErr(path, 0, "is not valid YAML: %s", msg)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return f, nil // an empty file: no profiles
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, profileErr(path, root.Line, "must be a mapping with the keys current and profiles")
	}
	err := eachKey(path, root, "", func(k, v *yaml.Node) error {
		switch k.Value {
		case "current":
			s, err := scalar(path, k, v)
			if err != nil {
				return err
			}
			f.Current = s
			return nil
		case "profiles":
			if v.Kind != yaml.MappingNode {
				return profileErr(path, v.Line, "profiles: must be a mapping of profile names to settings")
			}
			return eachKey(path, v, "profiles", func(nk, nv *yaml.Node) error {
				p, err := parseProfile(path, nk, nv)
				if err != nil {
					return err
				}
				f.Profiles = append(f.Profiles, p)
				return nil
			})
		}
		return unknownKey(path, k, "", []string{"current", "profiles"})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(f.Profiles, func(a, b Profile) int { return strings.Compare(a.Name, b.Name) })
	if f.Current != "" {
		if _, ok := f.Lookup(f.Current); !ok {
			return nil, profileErr(path, currentLine(root), "current: %q is not one of the profiles (%s)", f.Current, knownList(f.Names()))
		}
	}
	return f, nil
}

func knownList(names []string) string {
	if len(names) == 0 {
		return "none defined"
	}
	return strings.Join(names, ", ")
}

func currentLine(root *yaml.Node) int {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "current" {
			return root.Content[i].Line
		}
	}
	return 0
}

// eachKey calls fn for each key of the mapping m, refusing duplicate and
// non-scalar keys. where is the path of m, for messages.
func eachKey(path string, m *yaml.Node, where string, fn func(k, v *yaml.Node) error) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return profileErr(path, k.Line, "%skeys must be plain names", prefix(where))
		}
		if first, ok := seen[k.Value]; ok {
			return profileErr(path, k.Line, "%s%s: given twice (first on line %d)", prefix(where), k.Value, first)
		}
		seen[k.Value] = k.Line
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

func prefix(where string) string {
	if where == "" {
		return ""
	}
	return where + "."
}

func unknownKey(path string, k *yaml.Node, where string, known []string) error {
	return profileErr(path, k.Line, "unknown key %q%s (known keys: %s)", k.Value, inWhere(where), strings.Join(known, ", "))
}

func inWhere(where string) string {
	if where == "" {
		return ""
	}
	return " in " + where
}

// scalar returns v as a string; anything but a scalar is refused.
func scalar(path string, k, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", profileErr(path, v.Line, "%s: must be a single value", k.Value)
	}
	return v.Value, nil
}

var (
	profileKeys = []string{"bootstrap", "commandConfig", "securityProtocol", "tls", "sasl", "policy", "allowedSigners", "connect"}
	tlsKeys     = []string{"caFile", "certFile", "keyFile", "serverName", "insecureSkipVerify"}
	saslKeys    = []string{"mechanism", "username", "passwordEnv", "passwordFile", "tokenEndpoint", "tokenFile", "scope", "keytab", "principal", "kerberosServiceName", "krb5Config"}
)

func parseProfile(path string, nk, nv *yaml.Node) (Profile, error) {
	p := Profile{Name: nk.Value, Line: nk.Line}
	if !ValidProfileName(p.Name) {
		return p, profileErr(path, nk.Line, "profile name %q: use letters, digits, '.', '_' and '-', starting with a letter or digit", p.Name)
	}
	where := "profile " + p.Name
	if nv.Kind != yaml.MappingNode {
		return p, profileErr(path, nv.Line, "%s: must be a mapping of settings (%s)", where, strings.Join(profileKeys, ", "))
	}
	pp := profileParser{path: path, where: where, p: &p}
	if err := eachKey(path, nv, where, pp.key); err != nil {
		return p, err
	}
	return p, pp.check(nk.Line)
}

// profileParser fills one Profile from its mapping, key by key; where
// ("profile NAME") starts every message.
type profileParser struct {
	path, where string
	p           *Profile
}

// rel resolves a file setting against the config file's folder.
func (pp profileParser) rel(s string) string { return relativeTo(pp.path, s) }

// key reads one setting of the profile's mapping.
func (pp profileParser) key(k, v *yaml.Node) error {
	path, p := pp.path, pp.p
	var err error
	switch k.Value {
	case "bootstrap":
		p.Bootstrap, err = bootstrapList(path, k, v)
	case "commandConfig":
		p.CommandConfig, err = scalar(path, k, v)
		p.CommandConfig = pp.rel(p.CommandConfig)
	case "securityProtocol":
		p.SecurityProtocol, err = scalar(path, k, v)
	case "tls":
		err = parseSection(path, k, v, pp.where+".tls", tlsKeys, pp.tlsKey)
	case "sasl":
		err = parseSection(path, k, v, pp.where+".sasl", saslKeys, pp.saslKey)
	case "policy":
		p.Policy, err = pathList(path, k, v)
		for i := range p.Policy {
			p.Policy[i] = pp.rel(p.Policy[i])
		}
	case "allowedSigners":
		p.AllowedSigners, err = scalar(path, k, v)
		p.AllowedSigners = pp.rel(p.AllowedSigners)
	case "connect":
		err = parseSection(path, k, v, pp.where+".connect", connectKeys, pp.connectKey)
	case "password", "sasl.password":
		return inlinePassword(path, k, pp.where)
	default:
		return unknownKey(path, k, pp.where, profileKeys)
	}
	return err
}

// tlsKey reads one setting of the profile's tls section.
func (pp profileParser) tlsKey(k, v *yaml.Node) error {
	p := pp.p
	if k.Value == "insecureSkipVerify" {
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return profileErr(pp.path, v.Line, "%s.tls.insecureSkipVerify: must be true or false", pp.where)
		}
		p.TLSInsecureSkipVerify = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		return nil
	}
	s, err := scalar(pp.path, k, v)
	switch k.Value {
	case "caFile":
		p.TLSCAFile = pp.rel(s)
	case "certFile":
		p.TLSCertFile = pp.rel(s)
	case "keyFile":
		p.TLSKeyFile = pp.rel(s)
	case "serverName":
		p.TLSServerName = s
	}
	return err
}

// saslKey reads one setting of the profile's sasl section.
func (pp profileParser) saslKey(k, v *yaml.Node) error {
	p := pp.p
	s, err := scalar(pp.path, k, v)
	switch k.Value {
	case "mechanism":
		p.SASLMechanism = s
	case "username":
		p.SASLUsername = s
	case "passwordEnv":
		p.PasswordEnv = s
	case "passwordFile":
		p.PasswordFile = pp.rel(s)
	case "tokenEndpoint", "tokenFile", "scope":
		setOAuthKey(p, k.Value, s, pp.rel)
	case "keytab":
		p.Kerberos.Keytab = pp.rel(s)
	case "principal":
		p.Kerberos.Principal = s
	case "kerberosServiceName":
		p.Kerberos.ServiceName = s
	case "krb5Config":
		p.Kerberos.Krb5Config = pp.rel(s)
	}
	return err
}

// check holds the settings read against each other, at the profile's
// line: bootstrap given, a known protocol and mechanism, keyFile with
// certFile, one password source.
func (pp profileParser) check(line int) error {
	path, where, p := pp.path, pp.where, pp.p
	if len(p.Bootstrap) == 0 {
		return profileErr(path, line, "%s: bootstrap is required (HOST:PORT[,HOST:PORT])", where)
	}
	if sp := strings.ToUpper(p.SecurityProtocol); sp != "" && !validProtocol(sp) {
		return profileErr(path, line, "%s: securityProtocol %q: use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL", where, p.SecurityProtocol)
	}
	switch strings.ToUpper(p.SASLMechanism) {
	case "", mechPlain, mechSCRAM256, mechSCRAM512, mechOAuth, mechMSKIAM, mechGSSAPI:
	default:
		return profileErr(path, line, "%s.sasl: mechanism %q is not supported: use PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM or GSSAPI", where, p.SASLMechanism)
	}
	if p.TLSKeyFile != "" && p.TLSCertFile == "" {
		return profileErr(path, line, "%s.tls: keyFile needs certFile", where)
	}
	if p.PasswordEnv != "" && p.PasswordFile != "" {
		return profileErr(path, line, "%s.sasl: give passwordEnv or passwordFile, not both", where)
	}
	return nil
}

// inlinePassword refuses a password written into the file: secrets are
// given by reference only, so the file can be shared and printed.
func inlinePassword(path string, k *yaml.Node, where string) error {
	return profileErr(path, k.Line, "%s: an inline password is not allowed; reference it with sasl.passwordEnv: VARIABLE or sasl.passwordFile: PATH", where)
}

// parseSection checks the mapping v (the section k of a profile) against
// known, refusing an inline password with its own message.
func parseSection(path string, k, v *yaml.Node, where string, known []string, fn func(k, v *yaml.Node) error) error {
	if v.Kind != yaml.MappingNode {
		return profileErr(path, v.Line, "%s: must be a mapping (%s)", where, strings.Join(known, ", "))
	}
	return eachKey(path, v, where, func(k, v *yaml.Node) error {
		if k.Value == "password" {
			return inlinePassword(path, k, where)
		}
		if !slices.Contains(known, k.Value) {
			return unknownKey(path, k, where, known)
		}
		return fn(k, v)
	})
}

// pathList accepts one path or a list of paths.
func pathList(path string, k, v *yaml.Node) ([]string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" || v.Value == "" {
			return nil, profileErr(path, v.Line, "%s: give a path or a list of paths", k.Value)
		}
		return []string{v.Value}, nil
	case yaml.SequenceNode:
		var out []string
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || e.Tag == "!!null" || e.Value == "" {
				return nil, profileErr(path, e.Line, "%s: each entry must be a path", k.Value)
			}
			out = append(out, e.Value)
		}
		return out, nil
	}
	return nil, profileErr(path, v.Line, "%s: give a path or a list of paths", k.Value)
}

// bootstrapList accepts "h:p,h:p" or a list of "h:p".
func bootstrapList(path string, k, v *yaml.Node) ([]string, error) {
	var raw []string
	switch v.Kind {
	case yaml.ScalarNode:
		raw = strings.Split(v.Value, ",")
	case yaml.SequenceNode:
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				return nil, profileErr(path, e.Line, "bootstrap: each entry must be HOST:PORT")
			}
			raw = append(raw, e.Value)
		}
	default:
		return nil, profileErr(path, v.Line, "bootstrap: must be HOST:PORT[,HOST:PORT] or a list of them")
	}
	var out []string
	for _, a := range raw {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if !validHostPort(a) {
			return nil, profileErr(path, v.Line, "bootstrap: %q is not HOST:PORT", a)
		}
		out = append(out, a)
	}
	return out, nil
}

// relativeTo resolves a relative path against the config file's directory:
// kcg runs from anywhere, the file stays put. "~/" is the home directory.
func relativeTo(configPath, p string) string {
	if p == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(configPath), p)
}

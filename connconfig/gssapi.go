package connconfig

// SASL GSSAPI (Kerberos) settings: where kcg finds the client principal's
// credentials (a keytab, or a ticket cache), the broker's service name and
// krb5.conf, from the flags, a profile and a Java --command-config file
// (sasl.jaas.config with Krb5LoginModule, sasl.kerberos.service.name).
// gssapi_mech.go is the handshake. docs/connecting.md, "Kerberos", is the
// user's side.

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"github.com/segmentio/kafka-go/sasl"
)

// krb5Module is the JDK's Kerberos login module, the one Kafka's GSSAPI
// configurations name.
const krb5Module = "com.sun.security.auth.module.Krb5LoginModule"

// KerberosOptions are the GSSAPI settings given by flags or a profile.
// Each wins over the same setting of the --command-config file.
type KerberosOptions struct {
	// Keytab is --sasl-kerberos-keytab: the client principal's keytab
	// (keyTab= of Krb5LoginModule). Empty and no keytab in the file: the
	// ticket cache (kinit) is used.
	Keytab string
	// Principal is --sasl-kerberos-principal: the client principal,
	// NAME[/INSTANCE][@REALM] (principal= of Krb5LoginModule).
	Principal string
	// ServiceName is --sasl-kerberos-service-name: the first part of the
	// brokers' principals (sasl.kerberos.service.name), usually "kafka".
	ServiceName string
	// Krb5Config is --krb5-config: the krb5.conf to read instead of
	// $KRB5_CONFIG or /etc/krb5.conf.
	Krb5Config string
}

// given returns the first Kerberos flag set, for messages ("" for none).
func (k KerberosOptions) given() string {
	switch {
	case k.Keytab != "":
		return "--sasl-kerberos-keytab"
	case k.Principal != "":
		return "--sasl-kerberos-principal"
	case k.ServiceName != "":
		return "--sasl-kerberos-service-name"
	case k.Krb5Config != "":
		return "--krb5-config"
	}
	return ""
}

// krb5Options are the Krb5LoginModule options kcg reads or may ignore
// (they tune only the JDK: debugging, prompting, refreshing).
var krb5Options = map[string]bool{
	"useKeyTab": true, "keyTab": true, "principal": true, "storeKey": true,
	"useTicketCache": true, "ticketCache": true, "doNotPrompt": true,
	"serviceName": true, "debug": true, "refreshKrb5Config": true,
	"renewTGT": true, "isInitiator": true, "clearPass": true,
}

// gssapiMechanism resolves the GSSAPI settings. jaas is the parsed
// sasl.jaas.config (nil: none).
func (r *resolver) gssapiMechanism(jaas *javaprops.JAASEntry) (sasl.Mechanism, error) {
	k := r.o.Kerberos
	if r.o.SASLUsername != "" {
		return nil, usageErr("--sasl-username", "GSSAPI has no user name: give the client principal with --sasl-kerberos-principal")
	}
	opts := map[string]string{}
	jaasKey := "sasl.jaas.config"
	if jaas == nil && k.Keytab == "" {
		e, key, err := jaasFromLoginConfig()
		if err != nil {
			return nil, err
		}
		jaas, jaasKey = e, key
	}
	if jaas != nil {
		o, err := r.krb5LoginOptions(jaas, jaasKey)
		if err != nil {
			return nil, err
		}
		opts = o
	}
	isTrue := func(name string) bool { return strings.EqualFold(opts[name], "true") }

	service, err := r.serviceName(opts)
	if err != nil {
		return nil, err
	}
	confPath, confFrom, err := krb5ConfPath(k.Krb5Config)
	if err != nil {
		return nil, err
	}
	cfg, err := loadKrb5Conf(confPath, confFrom)
	if err != nil {
		return nil, err
	}
	m := &gssapiMech{service: service, krb5conf: confPath}

	ktPath, ktKey := k.Keytab, "--sasl-kerberos-keytab"
	if ktPath == "" && isTrue("useKeyTab") {
		ktPath, ktKey = opts["keyTab"], jaasKey
		if ktPath == "" {
			return nil, r.jaasErr(ktKey, "useKeyTab=true needs keyTab=\"/path/to/client.keytab\" (kcg has no default keytab)", nil)
		}
	}
	principal, pKey := k.Principal, "--sasl-kerberos-principal"
	if principal == "" {
		principal, pKey = opts["principal"], jaasKey
	}
	if jaas != nil && ktPath == "" && !isTrue("useTicketCache") {
		return nil, r.jaasErr(jaasKey, "Krb5LoginModule without useKeyTab=true or useTicketCache=true would prompt for a password: write useKeyTab=true storeKey=true keyTab=\"...\" principal=\"...\", or useTicketCache=true", nil)
	}
	if ktPath != "" {
		return r.keytabMech(m, cfg, ktPath, ktKey, principal, pKey)
	}
	return r.ccacheMech(m, cfg, opts["ticketCache"], jaasKey, principal)
}

// krb5LoginOptions checks that the JAAS entry (from jaasKey) is a client
// Krb5LoginModule with only options kcg reads, and returns its options.
func (r *resolver) krb5LoginOptions(jaas *javaprops.JAASEntry, jaasKey string) (map[string]string, error) {
	if jaas.Module != krb5Module {
		return nil, r.jaasErr(jaasKey, fmt.Sprintf("login module %s does not go with GSSAPI: write %s required useKeyTab=true storeKey=true keyTab=\"...\" principal=\"...\";", jaas.Module, krb5Module), nil)
	}
	for name := range jaas.Options {
		if !krb5Options[name] {
			return nil, r.jaasErr(jaasKey, fmt.Sprintf("Krb5LoginModule option %s is not supported: kcg reads useKeyTab, keyTab, principal, useTicketCache, ticketCache and serviceName", name), nil)
		}
	}
	if v, ok := jaas.Options["isInitiator"]; ok && !strings.EqualFold(v, "true") {
		return nil, r.jaasErr(jaasKey, "isInitiator=false is for servers: a client must be the initiator", nil)
	}
	return jaas.Options, nil
}

// loginConfigKey names a JAAS file given to the Java tool's JVM.
const loginConfigKey = "-Djava.security.auth.login.config in KAFKA_OPTS"

// jaasErr is a data error about the JAAS entry: of sasl.jaas.config (with
// the file and line), or of the JAAS file of KAFKA_OPTS, or of a flag.
func (r *resolver) jaasErr(key, msg string, err error) *ConfigError {
	if key == "sasl.jaas.config" {
		return r.dataErr(key, msg, err)
	}
	return &ConfigError{Kind: ConfigErrorData, Key: key, Msg: msg, Err: err}
}

// kafkaClientSection finds the KafkaClient { ... }; entry of a JAAS file,
// the one Kafka's clients read when sasl.jaas.config is not set.
var kafkaClientSection = regexp.MustCompile(`(?s)(?:^|[\s;}])KafkaClient\s*\{(.*?)\}\s*;`)

// jaasFromLoginConfig reads the KafkaClient entry of the JAAS file that
// KAFKA_OPTS gives the Java tool (-Djava.security.auth.login.config=F),
// as Kafka's clients do without sasl.jaas.config. nil: no such option.
func jaasFromLoginConfig() (*javaprops.JAASEntry, string, error) {
	path := ""
	for _, f := range strings.Fields(os.Getenv("KAFKA_OPTS")) {
		if v, ok := strings.CutPrefix(f, "-Djava.security.auth.login.config="); ok && v != "" {
			path = v
		}
	}
	if path == "" {
		return nil, "", nil
	}
	key := loginConfigKey + " (" + path + ")"
	data, err := readSmall(path)
	if err != nil {
		return nil, "", &ConfigError{Kind: ConfigErrorData, Key: loginConfigKey, Msg: "GSSAPI cannot read the JAAS file", Err: err}
	}
	m := kafkaClientSection.FindSubmatch(data)
	if m == nil {
		return nil, "", &ConfigError{Kind: ConfigErrorData, Key: key, Msg: "no KafkaClient { ... }; entry, which Kafka's clients read (or set sasl.jaas.config in --command-config)"}
	}
	e, err := javaprops.ParseJAAS(strings.TrimSpace(string(m[1])))
	if err != nil {
		return nil, "", &ConfigError{Kind: ConfigErrorData, Key: key, Msg: "KafkaClient: " + err.Error()}
	}
	return e, key, nil
}

// serviceName returns the brokers' service name: the flag, else
// sasl.kerberos.service.name, else serviceName= of the JAAS entry.
func (r *resolver) serviceName(opts map[string]string) (string, error) {
	if s := strings.TrimSpace(r.o.Kerberos.ServiceName); s != "" {
		return s, nil
	}
	if s := r.get("sasl.kerberos.service.name"); s != "" {
		return s, nil
	}
	if s := strings.TrimSpace(opts["serviceName"]); s != "" {
		return s, nil
	}
	msg := "GSSAPI needs the brokers' Kerberos service name (the first part of their principal, usually kafka): "
	if r.file != "" {
		return "", r.dataErr("sasl.kerberos.service.name", msg+"set sasl.kerberos.service.name in --command-config, as the Java client requires, or give --sasl-kerberos-service-name", nil)
	}
	return "", usageErr("--sasl-kerberos-service-name", msg+"give --sasl-kerberos-service-name kafka (or sasl.kerberos.service.name in --command-config)")
}

// krb5ConfPath returns the krb5.conf to read and where that choice came
// from: --krb5-config (or a profile's krb5Config), else
// -Djava.security.krb5.conf in KAFKA_OPTS (what the Java tool is given),
// else the first file of $KRB5_CONFIG, else /etc/krb5.conf.
func krb5ConfPath(flag string) (string, string, error) {
	if flag != "" {
		return flag, "--krb5-config", nil
	}
	for _, f := range strings.Fields(os.Getenv("KAFKA_OPTS")) {
		if v, ok := strings.CutPrefix(f, "-Djava.security.krb5.conf="); ok && v != "" {
			return v, "-Djava.security.krb5.conf in KAFKA_OPTS", nil
		}
	}
	if v := os.Getenv("KRB5_CONFIG"); v != "" {
		return strings.Split(v, ":")[0], "KRB5_CONFIG", nil
	}
	return "/etc/krb5.conf", "krb5.conf", nil
}

// maxKrb5File bounds krb5.conf, keytab and ticket cache reads.
const maxKrb5File = 4 << 20

func readSmall(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	if fi.Size() > maxKrb5File {
		return nil, fmt.Errorf("%s is %d bytes, larger than %d", path, fi.Size(), maxKrb5File)
	}
	return os.ReadFile(path)
}

func loadKrb5Conf(path, from string) (*config.Config, error) {
	data, err := readSmall(path)
	if err != nil {
		return nil, &ConfigError{Kind: ConfigErrorData, Key: from, Msg: "GSSAPI cannot read krb5.conf (give --krb5-config FILE or set KRB5_CONFIG)", Err: err}
	}
	cfg, err := config.NewFromString(string(data))
	var ud config.UnsupportedDirective
	if err != nil && !errors.As(err, &ud) {
		return nil, &ConfigError{Kind: ConfigErrorData, Key: from, Msg: "GSSAPI cannot parse krb5.conf " + path, Err: errors.New(oneLine(err.Error()))}
	}
	return cfg, nil
}

// splitPrincipal splits NAME[/INSTANCE][@REALM]; an empty realm is the
// default_realm of krb5.conf.
func splitPrincipal(p string, cfg *config.Config) (name, realm string) {
	name, realm = p, ""
	if i := strings.LastIndexByte(p, '@'); i >= 0 {
		name, realm = p[:i], p[i+1:]
	}
	if realm == "" {
		realm = cfg.LibDefaults.DefaultRealm
	}
	return name, realm
}

func (r *resolver) keytabMech(m *gssapiMech, cfg *config.Config, ktPath, ktKey, principal, pKey string) (sasl.Mechanism, error) {
	if principal == "" {
		if pKey != "--sasl-kerberos-principal" && r.o.Kerberos.Keytab == "" {
			return nil, r.jaasErr(pKey, "useKeyTab=true needs principal=\"name@REALM\" (kcg does not guess the keytab's principal)", nil)
		}
		return nil, usageErr("--sasl-kerberos-principal", "a keytab needs the client principal: give --sasl-kerberos-principal name@REALM")
	}
	data, err := readSmall(ktPath)
	if err != nil {
		return nil, r.jaasErr(ktKey, "GSSAPI cannot read the keytab", err)
	}
	kt := keytab.New()
	if err := kt.Unmarshal(data); err != nil {
		return nil, r.jaasErr(ktKey, "GSSAPI cannot read the keytab "+ktPath+": not a Kerberos keytab file", errors.New(oneLine(err.Error())))
	}
	name, realm := splitPrincipal(principal, cfg)
	if realm == "" {
		return nil, r.jaasErr(pKey, fmt.Sprintf("principal %q has no @REALM and krb5.conf %s has no default_realm", principal, m.krb5conf), nil)
	}
	m.principal, m.realm, m.source = name+"@"+realm, realm, "keytab "+ktPath
	m.newClient = func() (*client.Client, error) {
		return client.NewWithKeytab(name, realm, kt, cfg, client.DisablePAFXFAST(true)), nil
	}
	return m, nil
}

// defaultCCache is the ticket cache MIT Kerberos uses: $KRB5CCNAME (FILE:
// caches only), else /tmp/krb5cc_<uid>.
func defaultCCache() (string, error) {
	v := os.Getenv("KRB5CCNAME")
	if v == "" {
		return "/tmp/krb5cc_" + strconv.Itoa(os.Getuid()), nil
	}
	if p, ok := strings.CutPrefix(v, "FILE:"); ok {
		return p, nil
	}
	if i := strings.IndexByte(v, ':'); i > 0 && !strings.HasPrefix(v, "/") {
		return "", fmt.Errorf("KRB5CCNAME=%s: kcg reads FILE: ticket caches only (%s: caches need the MIT library); use a keytab, or kinit -c FILE:/path", v, v[:i])
	}
	return v, nil
}

func (r *resolver) ccacheMech(m *gssapiMech, cfg *config.Config, ticketCache, jaasKey, principal string) (sasl.Mechanism, error) {
	path, key := ticketCache, jaasKey
	if path == "" {
		p, err := defaultCCache()
		if err != nil {
			return nil, &ConfigError{Kind: ConfigErrorData, Key: "KRB5CCNAME", Msg: err.Error()}
		}
		path, key = p, "KRB5CCNAME"
	}
	data, err := readSmall(path)
	if err != nil {
		return nil, &ConfigError{Kind: ConfigErrorData, Key: key, Msg: "GSSAPI cannot read the Kerberos ticket cache (run kinit, or use a keytab: --sasl-kerberos-keytab or useKeyTab=true in sasl.jaas.config)", Err: err}
	}
	cc := new(credentials.CCache)
	if err := cc.Unmarshal(data); err != nil {
		return nil, &ConfigError{Kind: ConfigErrorData, Key: key, Msg: "GSSAPI cannot read the ticket cache " + path, Err: errors.New(oneLine(err.Error()))}
	}
	got := cc.DefaultPrincipal.PrincipalName.PrincipalNameString() + "@" + cc.DefaultPrincipal.Realm
	if principal != "" {
		name, realm := splitPrincipal(principal, cfg)
		if name+"@"+realm != got {
			return nil, &ConfigError{Kind: ConfigErrorData, Key: key, Msg: fmt.Sprintf("the ticket cache %s is for %s, not %s (kinit as %s, or use a keytab)", path, got, principal, principal)}
		}
	}
	m.principal, m.realm, m.source = got, cc.DefaultPrincipal.Realm, "ticket cache "+path
	m.newClient = func() (*client.Client, error) {
		return client.NewFromCCache(cc, cfg, client.DisablePAFXFAST(true))
	}
	return m, nil
}

// oneLine folds a multi-line library message onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// loginErr explains a failed login (the AS exchange) in one line.
func (m *gssapiMech) loginErr(err error) error {
	s := err.Error()
	var msg string
	switch {
	case strings.Contains(s, "KDC_ERR_C_PRINCIPAL_UNKNOWN"):
		msg = fmt.Sprintf("the KDC does not know the client principal %s (check the principal and the realm)", m.principal)
	case strings.Contains(s, "matching key not found in keytab"):
		msg = fmt.Sprintf("the %s has no key for %s (check the principal and the keyTab: klist -k lists the keytab's principals)", m.source, m.principal)
	case strings.Contains(s, "KDC_ERR_PREAUTH_FAILED"), strings.Contains(s, "KRB_AP_ERR_BAD_INTEGRITY"), strings.Contains(s, "Decrypting_Error"):
		msg = fmt.Sprintf("the KDC refused the key of %s from the %s: it is not the principal's current key (export it again, e.g. kadmin ktadd)", m.principal, m.source)
	case strings.Contains(s, "KRB_AP_ERR_SKEW"):
		msg = "the clocks of this host and the KDC differ by more than the allowed skew (check the time on both; Kerberos allows 5 minutes by default)"
	case strings.Contains(s, "KDC_ERR_ETYPE_NOSUPP"):
		msg = fmt.Sprintf("the KDC and kcg share no encryption type for %s (check default_tkt_enctypes and permitted_enctypes in %s, and the keytab's key types)", m.principal, m.krb5conf)
	case strings.Contains(s, "KDC_ERR_CLIENT_REVOKED"), strings.Contains(s, "KDC_ERR_KEY_EXPIRED"):
		msg = fmt.Sprintf("the KDC refuses %s: the principal is locked, disabled or its key expired", m.principal)
	case strings.Contains(s, "no valid existing session"), strings.Contains(s, "error getting any existing session"):
		msg = fmt.Sprintf("the %s holds no valid ticket for %s (run kinit again, or use a keytab)", m.source, m.principal)
	case strings.Contains(s, "Networking_Error"), strings.Contains(s, "failed to communicate with KDC"), strings.Contains(s, "no KDCs defined"):
		msg = fmt.Sprintf("cannot reach a KDC for realm %s (check the kdc entries of [realms] %s in %s, and that the KDC is up)", m.realm, m.realm, m.krb5conf)
	default:
		return &GSSAPIError{Msg: fmt.Sprintf("login of %s failed (check %s, the principal and the %s)", m.principal, m.krb5conf, m.source), Err: err}
	}
	return &GSSAPIError{Msg: msg}
}

// ticketErr explains a failed service ticket request (the TGS exchange).
func (m *gssapiMech) ticketErr(spn string, err error) error {
	s := err.Error()
	switch {
	case strings.Contains(s, "KDC_ERR_S_PRINCIPAL_UNKNOWN"):
		return &GSSAPIError{Msg: fmt.Sprintf("the KDC does not know the service principal %s@%s: check sasl.kerberos.service.name (%s) and the broker host (kcg uses the host name as dialled, from --bootstrap-server or the broker's advertised listener, without reverse DNS)", spn, m.realm, m.service)}
	case strings.Contains(s, "KRB_AP_ERR_SKEW"):
		return &GSSAPIError{Msg: "the clocks of this host and the KDC differ by more than the allowed skew (check the time on both; Kerberos allows 5 minutes by default)"}
	case strings.Contains(s, "Networking_Error"), strings.Contains(s, "failed to communicate with KDC"):
		return &GSSAPIError{Msg: fmt.Sprintf("cannot reach a KDC for realm %s to get a ticket for %s (check the kdc entries in %s, and that the KDC is up)", m.realm, spn, m.krb5conf)}
	}
	return &GSSAPIError{Msg: fmt.Sprintf("cannot get a service ticket for %s as %s", spn, m.principal), Err: err}
}

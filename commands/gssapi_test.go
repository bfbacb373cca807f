package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// gssapiEnv is the GSSAPI listener of the real broker and the client's
// Kerberos credentials, as .ci/auth-kerberos sets them up (a real MIT KDC).
type gssapiEnv struct {
	e                             *kafkatest.Env
	addr, keytab, principal, conf string
}

func gssapiCluster(t *testing.T) gssapiEnv {
	t.Helper()
	g := gssapiEnv{addr: os.Getenv("KCG_TEST_GSSAPI_BOOTSTRAP"), keytab: os.Getenv("KCG_TEST_GSSAPI_KEYTAB"),
		principal: os.Getenv("KCG_TEST_GSSAPI_PRINCIPAL"), conf: os.Getenv("KCG_TEST_KRB5_CONF")}
	if g.addr == "" || g.keytab == "" || g.principal == "" || g.conf == "" {
		t.Skip("KCG_TEST_GSSAPI_BOOTSTRAP (and _KEYTAB, _PRINCIPAL, KCG_TEST_KRB5_CONF) not set: run .ci/auth-kerberos, which starts a KDC and a broker with a GSSAPI listener")
	}
	g.e = kafkatest.Cluster(t)
	g.e.RequireReal(t, "needs the real broker's GSSAPI listener")
	// Neither kcg nor the Java tool may find krb5.conf by accident.
	t.Setenv("KRB5_CONFIG", filepath.Join(t.TempDir(), "no-krb5.conf"))
	t.Setenv("KAFKA_OPTS", "")
	return g
}

// The keytab and principal of the Kerberos example in docs/connecting.md.
const (
	docKeytab    = "/etc/kafka/kcg-client.keytab"
	docPrincipal = "kcg-client@KCG.TEST"
)

// javaGSSAPIConfig writes the Java client properties file a Kerberos user
// writes for kafka-consumer-groups.sh: the example of docs/connecting.md
// (marked <!-- tested: kerberos ... -->), with keytab and principal in
// place of the example's. The real-KDC test runs the file as documented,
// so the doc cannot drift from what is tested.
func javaGSSAPIConfig(t *testing.T, keytab, principal string) string {
	t.Helper()
	body := docExample(t, "kerberos")
	for _, s := range []string{docKeytab, docPrincipal} {
		if !strings.Contains(body, s) {
			t.Fatalf("the kerberos example of docs/connecting.md no longer names %s; the test puts its own keytab and principal in its place:\n%s", s, body)
		}
	}
	body = strings.NewReplacer(docKeytab, keytab, docPrincipal, principal).Replace(body)
	p := filepath.Join(t.TempDir(), "kerberos.properties")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The Kerberos example of docs/connecting.md is there, marked, and names
// the keytab and principal the real-KDC test replaces (checked here too,
// without a KDC, so a doc edit fails every run, not only .ci/auth-kerberos);
// the file reaches the keytab: its properties and JAAS entry parse.
func TestKerberosDocExample(t *testing.T) {
	keytab := filepath.Join(t.TempDir(), "absent.keytab")
	p := javaGSSAPIConfig(t, keytab, "kcg-client@KCG.TEST")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sasl.mechanism=GSSAPI\n", "sasl.kerberos.service.name=kafka\n", `keyTab="` + keytab + `"`} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("the example lacks %q:\n%s", want, data)
		}
	}
	conf := filepath.Join(t.TempDir(), "krb5.conf")
	if err := os.WriteFile(conf, []byte("[libdefaults]\n\tdefault_realm = KCG.TEST\n[realms]\n\tKCG.TEST = {\n\t\tkdc = 127.0.0.1:1\n\t}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5_CONFIG", conf)
	t.Setenv("KAFKA_OPTS", "")
	r := kcg(t, "list", "-b", "127.0.0.1:1", "--command-config", p).MustCode(t, 65)
	oneLine(t, r.Stderr, "keytab", keytab)
}

// The real thing: kcg over SASL GSSAPI with a real MIT KDC, through its
// native flags, a profile, and drop-in mode with the very --command-config
// file (and KAFKA_OPTS) the Java tool runs with, side by side.
func TestGSSAPIRealBroker(t *testing.T) {
	g := gssapiCluster(t)
	e := g.e
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(10)...)
	e.Produce(t, topic, 1, records(10)...)
	e.Commit(t, group, topic, map[int32]int64{0: 3, 1: 4})
	native := []string{"--bootstrap-server", g.addr, "--sasl-mechanism", "GSSAPI", "--sasl-kerberos-keytab", g.keytab,
		"--sasl-kerberos-principal", g.principal, "--sasl-kerberos-service-name", "kafka", "--krb5-config", g.conf}

	t.Run("native flags: describe, plan, apply", func(t *testing.T) {
		r := kcg(t, append([]string{"describe", group, "-o", "json"}, native...)...).MustCode(t, 0)
		d := parseDescribe(t, r.Stdout)
		if len(d.Groups) != 1 || len(d.Groups[0].Offsets) != 2 {
			t.Fatalf("describe over GSSAPI:\n%s", r.Stdout)
		}
		plan := filepath.Join(t.TempDir(), "reset.yaml")
		kcg(t, append([]string{"plan", group, "--topic", topic, "--to-earliest", "--out", plan}, native...)...).MustCode(t, 0)
		kcg(t, append([]string{"apply", plan}, native...)...).MustCode(t, 0)
		got := e.Committed(t, group)[topic]
		if len(got) != 2 || got[0] != 0 || got[1] != 0 {
			t.Fatalf("after apply over GSSAPI: %v, want 0 and 0", got)
		}
	})

	t.Run("profile", func(t *testing.T) {
		dir := t.TempDir()
		cfg := filepath.Join(dir, "config.yaml")
		body := fmt.Sprintf("current: krb\nprofiles:\n  krb:\n    bootstrap: %s\n    securityProtocol: SASL_PLAINTEXT\n    sasl:\n      mechanism: GSSAPI\n"+
			"      keytab: %s\n      principal: %s\n      kerberosServiceName: kafka\n      krb5Config: %s\n", g.addr, g.keytab, g.principal, g.conf)
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("KCG_CONFIG", cfg)
		r := kcg(t, "list").MustCode(t, 0)
		if len(rows(r.Stdout, group)) != 1 {
			t.Fatalf("kcg list with a GSSAPI profile misses %s:\n%s", group, r.Stdout)
		}
	})

	t.Run("drop-in with the Java tool's file, side by side", func(t *testing.T) {
		props := javaGSSAPIConfig(t, g.keytab, g.principal)
		// What a Java tool user exports: the krb5.conf as a JVM property.
		t.Setenv("KAFKA_OPTS", "-Djava.security.krb5.conf="+g.conf)
		args := []string{"--bootstrap-server", g.addr, "--command-config", props, "--describe", "--group", group}
		jout, jerr, code := e.JavaTool(t, args...)
		if code != 0 {
			t.Fatalf("Java tool over GSSAPI: exit %d\n%s\n%s", code, jout, jerr)
		}
		r := kcg(t, args...).MustCode(t, 0)
		if r.Stdout != jout {
			t.Fatalf("drop-in describe over GSSAPI differs from the Java tool's:\n--- kcg\n%s--- java\n%s", r.Stdout, jout)
		}
		if !strings.Contains(r.Stdout, group) {
			t.Fatalf("drop-in describe misses %s:\n%s", group, r.Stdout)
		}

		// The older setup: no sasl.jaas.config, a JAAS file with a
		// KafkaClient entry given to the JVM in KAFKA_OPTS.
		dir := t.TempDir()
		jaas := filepath.Join(dir, "kafka_client_jaas.conf")
		body := fmt.Sprintf("KafkaClient {\n  com.sun.security.auth.module.Krb5LoginModule required\n  useKeyTab=true storeKey=true keyTab=\"%s\" principal=\"%s\";\n};\n", g.keytab, g.principal)
		bare := filepath.Join(dir, "bare.properties")
		if err := os.WriteFile(jaas, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bare, []byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("KAFKA_OPTS", "-Djava.security.auth.login.config="+jaas+" -Djava.security.krb5.conf="+g.conf)
		args[3] = bare
		jout, jerr, code = e.JavaTool(t, args...)
		if code != 0 {
			t.Fatalf("Java tool with a JAAS file: exit %d\n%s\n%s", code, jout, jerr)
		}
		r = kcg(t, args...).MustCode(t, 0)
		if r.Stdout != jout || !strings.Contains(jout, group) {
			t.Fatalf("drop-in describe with a JAAS file differs from the Java tool's:\n--- kcg\n%s--- java\n%s", r.Stdout, jout)
		}
	})

	t.Run("ticket cache (kinit), native and drop-in side by side", func(t *testing.T) {
		kinit, err := exec.LookPath("kinit")
		if err != nil {
			t.Skip("kinit not found: install krb5-user (.ci/auth-kerberos does)")
		}
		cc := filepath.Join(t.TempDir(), "krb5cc")
		cmd := exec.Command(kinit, "-kt", g.keytab, "-c", "FILE:"+cc, g.principal)
		cmd.Env = append(os.Environ(), "KRB5_CONFIG="+g.conf)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kinit: %v\n%s", err, out)
		}
		t.Setenv("KRB5CCNAME", "FILE:"+cc)
		r := kcg(t, "list", "--bootstrap-server", g.addr, "--sasl-mechanism", "GSSAPI", "--sasl-kerberos-service-name", "kafka", "--krb5-config", g.conf).MustCode(t, 0)
		if len(rows(r.Stdout, group)) != 1 {
			t.Fatalf("kcg list with the ticket cache misses %s:\n%s", group, r.Stdout)
		}
		props := filepath.Join(t.TempDir(), "cache.properties")
		body := "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n" +
			"sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useTicketCache=true ticketCache=\"" + cc + "\" doNotPrompt=true;\n"
		if err := os.WriteFile(props, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("KRB5CCNAME", "FILE:"+filepath.Join(t.TempDir(), "not-this-one"))
		t.Setenv("KAFKA_OPTS", "-Djava.security.krb5.conf="+g.conf)
		args := []string{"--bootstrap-server", g.addr, "--command-config", props, "--list"}
		jout, jerr, code := e.JavaTool(t, args...)
		if code != 0 {
			t.Fatalf("Java tool with the ticket cache: exit %d\n%s\n%s", code, jout, jerr)
		}
		r = kcg(t, args...).MustCode(t, 0)
		// --list prints in no particular order: compare the sets.
		if !sameLines(r.Stdout, jout) || !strings.Contains(jout, group) {
			t.Fatalf("drop-in list with the ticket cache differs from the Java tool's:\n--- kcg\n%s--- java\n%s--- java stderr\n%s", r.Stdout, jout, jerr)
		}
	})

	t.Run("failures: one line, exit 1 or 65, no key material", func(t *testing.T) {
		// The keytab holds kcg-client's key only: another principal is
		// refused before the KDC is asked.
		wrong := append([]string{"list"}, native...)
		for i, a := range wrong {
			if a == g.principal {
				wrong[i] = "kafka/localhost"
			}
		}
		r := kcg(t, wrong...).MustCode(t, 1)
		oneGSSAPILine(t, r.Stderr, "has no key for kafka/localhost@")

		// A principal the KDC does not know.
		unknown := strings.Replace(strings.Join(wrong, "\x00"), "kafka/localhost", "nobody", 1)
		r = kcg(t, strings.Split(unknown, "\x00")...).MustCode(t, 1)
		oneGSSAPILine(t, r.Stderr, "does not know the client principal nobody@")

		// The KDC down: krb5.conf names a port nothing listens on.
		data, err := os.ReadFile(g.conf)
		if err != nil {
			t.Fatal(err)
		}
		dead := filepath.Join(t.TempDir(), "krb5.conf")
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if strings.Contains(l, "kdc = ") {
				lines[i] = "\t\tkdc = 127.0.0.1:1"
			}
		}
		if err := os.WriteFile(dead, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		down := append([]string{"list"}, native...)
		down[len(down)-1] = dead
		start := time.Now()
		r = kcg(t, append(down, "--timeout", "20s")...).MustCode(t, 1)
		oneGSSAPILine(t, r.Stderr, "cannot reach a KDC for realm KCG.TEST")
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("KDC down took %v to fail", d)
		}

		// The broker host has no service principal: 127.0.0.1 instead of
		// localhost (kcg does not reverse-resolve).
		ip := append([]string{"list"}, native...)
		ip[2] = strings.Replace(g.addr, "localhost", "127.0.0.1", 1)
		r = kcg(t, ip...).MustCode(t, 1)
		oneGSSAPILine(t, r.Stderr, "does not know the service principal kafka/127.0.0.1@KCG.TEST")

		// A keytab with a key the KDC no longer has (.ci/auth-kerberos
		// re-keys kcg-stale after exporting it).
		t.Run("stale key", func(t *testing.T) {
			stale := os.Getenv("KCG_TEST_GSSAPI_STALE_KEYTAB")
			if stale == "" {
				t.Skip("KCG_TEST_GSSAPI_STALE_KEYTAB not set (.ci/auth-kerberos sets it)")
			}
			old := append([]string{"list"}, native...)
			old[6], old[8] = stale, os.Getenv("KCG_TEST_GSSAPI_STALE_PRINCIPAL")
			r := kcg(t, old...).MustCode(t, 1)
			oneGSSAPILine(t, r.Stderr, "not the principal's current key")
		})

		// A KDC whose clock is 2 hours ahead (.ci/auth-kerberos runs one
		// under faketime): the pre-authentication timestamp is refused.
		t.Run("clock skew", func(t *testing.T) {
			skew := os.Getenv("KCG_TEST_KRB5_SKEW_CONF")
			if skew == "" {
				t.Skip("KCG_TEST_KRB5_SKEW_CONF not set: .ci/auth-kerberos sets it when faketime is installed")
			}
			ahead := append([]string{"list"}, native...)
			ahead[len(ahead)-1] = skew
			r := kcg(t, ahead...).MustCode(t, 1)
			oneGSSAPILine(t, r.Stderr, "allowed skew")
		})

		// An unreadable keytab is bad configuration: exit 65.
		missing := append([]string{"list"}, native...)
		missing[6] = filepath.Join(t.TempDir(), "absent.keytab")
		r = kcg(t, missing...).MustCode(t, 65)
		if !strings.Contains(r.Stderr, "keytab") || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Fatalf("unreadable keytab: %q", r.Stderr)
		}
	})
}

// oneGSSAPILine checks that stderr is one line naming GSSAPI and want.
func oneGSSAPILine(t *testing.T, stderr, want string) {
	t.Helper()
	s := strings.TrimSpace(stderr)
	if !strings.Contains(s, "GSSAPI") || !strings.Contains(s, want) || strings.Contains(s, "\n") {
		t.Fatalf("stderr %q: want one line naming GSSAPI and %q", stderr, want)
	}
}

func sameLines(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// A GSSAPI profile: its Kerberos keys are shown (file references and
// names only) in every format, and the documents match their schemas.
func TestGSSAPIProfileShow(t *testing.T) {
	writeConfig(t, `profiles:
  krb:
    bootstrap: broker-1:9092
    sasl:
      mechanism: GSSAPI
      keytab: /etc/kafka/kcg.keytab
      principal: kcg-client@KCG.TEST
      kerberosServiceName: kafka
      krb5Config: krb5.conf
`)
	r := kcg(t, "profile", "show", "krb", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "Profile", r.Stdout, false)
	var d struct {
		SASL map[string]*string `json:"sasl"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mechanism": "GSSAPI", "keytab": "/etc/kafka/kcg.keytab", "principal": "kcg-client@KCG.TEST", "kerberosServiceName": "kafka"}
	for k, v := range want {
		if d.SASL[k] == nil || *d.SASL[k] != v {
			t.Errorf("sasl.%s = %v, want %q", k, d.SASL[k], v)
		}
	}
	if c := d.SASL["krb5Config"]; c == nil || !filepath.IsAbs(*c) {
		t.Errorf("krb5Config is not resolved against the config file's directory: %v", c)
	}
	schematest.MustMatch(t, "ProfileList", kcg(t, "profile", "list", "-o", "json").MustCode(t, 0).Stdout, false)
	table := kcg(t, "profile", "show", "krb").MustCode(t, 0).Stdout
	for _, s := range []string{"kerberos keytab:", "/etc/kafka/kcg.keytab", "kerberos principal:", "kerberos service:", "krb5.conf:"} {
		if !strings.Contains(table, s) {
			t.Errorf("table misses %q:\n%s", s, table)
		}
	}
}

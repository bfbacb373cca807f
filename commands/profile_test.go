package commands_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
)

// writeConfig writes a kcg config file, points KCG_CONFIG at it and
// returns its path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KCG_CONFIG", p)
	return p
}

// secondCluster starts another kfake cluster, with a cluster id of its own.
func secondCluster(t *testing.T) string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ClusterID("other-cluster-id"), kfake.AllowAutoTopicCreation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()[0]
}

func TestProfileListShowUse(t *testing.T) {
	t.Setenv("PROD_PW", "s3cret-value")
	path := writeConfig(t, `# team clusters
current: dev
profiles:
  dev:
    bootstrap: localhost:9092
  prod:
    bootstrap: [broker-1:9093, broker-2:9093]
    tls: {caFile: /etc/kafka/ca.pem}
    sasl:
      mechanism: SCRAM-SHA-512
      username: alice
      passwordEnv: PROD_PW
`)
	r := kcg(t, "profile", "list").MustCode(t, 0)
	if got := rows(r.Stdout, "*"); len(got) != 1 || got[0][1] != "dev" {
		t.Fatalf("current not marked:\n%s", r.Stdout)
	}
	if got := rows(r.Stdout, "prod"); len(got) != 1 || got[0][1] != "broker-1:9093,broker-2:9093" || got[0][3] != "SCRAM-SHA-512" {
		t.Fatalf("prod row:\n%s", r.Stdout)
	}
	r = kcg(t, "profile", "list", "-o", "json").MustCode(t, 0)
	var l struct {
		Kind, Current string
		Profiles      []struct {
			Name    string
			Current bool
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil || l.Kind != "ProfileList" || l.Current != "dev" ||
		len(l.Profiles) != 2 || !l.Profiles[0].Current || l.Profiles[1].Current {
		t.Fatalf("list JSON %v:\n%s", err, r.Stdout)
	}
	yml := kcg(t, "profile", "list", "-o", "yaml").MustCode(t, 0).Stdout
	if !strings.Contains(yml, "kind: ProfileList") || !strings.Contains(yml, "current: dev") {
		t.Fatalf("list YAML:\n%s", yml)
	}

	// show: the password as its reference, never its value.
	for _, f := range []string{"table", "json", "yaml"} {
		r = kcg(t, "profile", "show", "prod", "-o", f).MustCode(t, 0)
		if strings.Contains(r.Stdout+r.Stderr, "s3cret-value") {
			t.Fatalf("-o %s shows the password:\n%s", f, r.Stdout)
		}
		if !strings.Contains(r.Stdout, "PROD_PW") {
			t.Fatalf("-o %s does not show the reference:\n%s", f, r.Stdout)
		}
	}
	if r = kcg(t, "profile", "show").MustCode(t, 0); !strings.Contains(r.Stdout, "dev (current)") {
		t.Fatalf("show without a name is the current profile:\n%s", r.Stdout)
	}
	r = kcg(t, "profile", "show", "nosuch").MustCode(t, 64)
	oneLine(t, r.Stderr, `"nosuch"`, "known: dev, prod")

	// use: refuses an unknown name, changing nothing; rewrites current:
	// and keeps the rest, comments included.
	before, _ := os.ReadFile(path)
	r = kcg(t, "profile", "use", "prdo").MustCode(t, 64)
	oneLine(t, r.Stderr, `no profile "prdo"`, "known: dev, prod")
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a refused use changed the file")
	}
	r = kcg(t, "profile", "use", "prod").MustCode(t, 0)
	// One plain line on stderr, no `kcg:` (that starts errors), nothing on
	// stdout.
	if want := "current profile is now prod (" + path + ")\n"; r.Stderr != want || r.Stdout != "" {
		t.Fatalf("use prod: stderr %q (want %q), stdout %q", r.Stderr, want, r.Stdout)
	}
	after, _ := os.ReadFile(path)
	if want := strings.Replace(string(before), "current: dev\n", "current: prod\n", 1); string(after) != want {
		t.Fatalf("after use:\n%s\nwant:\n%s", after, want)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Fatalf("use left files behind: %v", ents)
	}
	kcg(t, "profile", "use").MustCode(t, 64)
	kcg(t, "profile", "use", "a", "b").MustCode(t, 64)
	kcg(t, "profile", "bogus").MustCode(t, 64)

	// No config file: list is empty, show and use say where it was looked for.
	missing := filepath.Join(t.TempDir(), "none.yaml")
	t.Setenv("KCG_CONFIG", missing)
	r = kcg(t, "profile", "list", "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"profiles": []`) {
		t.Fatalf("empty list: %s", r.Stdout)
	}
	oneLine(t, kcg(t, "profile", "use", "dev").MustCode(t, 64).Stderr, "no config file at "+missing)
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("use created a config file")
	}
}

// A bad config file is bad input data (65) for every command that reads
// it, with the key and line named; an inline password is refused with how
// to reference it.
func TestProfileConfigRefusedByCommands(t *testing.T) {
	writeConfig(t, "current: a\nprofiles:\n  a:\n    bootstrap: h:1\n    sasl:\n      password: hunter2\n")
	for _, args := range [][]string{{"list"}, {"profile", "list"}, {"describe", "g"}} {
		r := kcg(t, args...).MustCode(t, 65)
		oneLine(t, r.Stderr, "line 6", "inline password", "passwordEnv")
		if strings.Contains(r.Stderr, "hunter2") {
			t.Fatalf("%v: the password is printed: %q", args, r.Stderr)
		}
	}
	writeConfig(t, "profiles:\n  a:\n    bootstrap: h:1\n    bootstap: h:2\n")
	oneLine(t, kcg(t, "list", "--profile", "a").MustCode(t, 65).Stderr, "line 4", `unknown key "bootstap"`)
}

// Profiles end to end on two kfake clusters: --profile, KCG_PROFILE and
// current: choose the cluster, in any position; a plan made on one
// profile is refused on the other by its cluster id.
func TestProfilesOnTwoClusters(t *testing.T) {
	f := newResetFixture(t)
	other := secondCluster(t)
	writeConfig(t, "current: main\nprofiles:\n  main:\n    bootstrap: "+f.e.Bootstrap+"\n  other:\n    bootstrap: "+other+"\n")

	// current: with no -b at all.
	d := parseDescribe(t, kcg(t, "describe", f.group, "-o", "json").MustCode(t, 0).Stdout)
	if len(d.Groups) != 1 || d.Groups[0].Error != nil || len(d.Groups[0].Offsets) == 0 {
		t.Fatalf("describe on the current profile: %+v", d)
	}
	// --profile before the command, like -b; after its arguments too.
	kcg(t, "--profile", "main", "describe", f.group).MustCode(t, 0)
	kcg(t, "describe", f.group, "--profile", "main", "-o", "json").MustCode(t, 0)

	// plan on main, apply on other: refused by cluster id, nothing written.
	plan := f.path("p.yaml")
	kcg(t, "plan", f.group, "--topic", f.topic, "--to-earliest", "--out", plan).MustCode(t, 0)
	r := kcg(t, "--profile", "other", "apply", plan).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "other-cluster-id") {
		t.Fatalf("refusal does not name the cluster id: %q", r.Stderr)
	}
	t.Setenv("KCG_PROFILE", "other")
	kcg(t, "apply", plan).MustCode(t, 3)
	if got := f.committed(t); got[0] != 5 {
		t.Fatalf("refused apply wrote: %v", got)
	}
	// --profile beats KCG_PROFILE.
	kcg(t, "apply", plan, "--profile", "main").MustCode(t, 0)
	if got := f.committed(t); got[0] != 0 {
		t.Fatalf("apply on main: %v", got)
	}

	// An explicit profile with another cluster's -b: refused before
	// connecting (the profile's credentials would go there).
	r = kcg(t, "list", "--profile", "main", "-b", other).MustCode(t, 64)
	oneLine(t, r.Stderr, other, `profile "main"`, "drop --bootstrap-server")
	t.Setenv("KCG_PROFILE", "main")
	r = kcg(t, "list", "-b", other).MustCode(t, 64)
	oneLine(t, r.Stderr, "unset KCG_PROFILE")
	t.Setenv("KCG_PROFILE", "")
	// The current: profile with another -b: not used; -b wins.
	kcg(t, "list", "-b", other).MustCode(t, 0)

	// Drop-in mode ignores profiles: the Java tool has none.
	t.Setenv("KCG_PROFILE", "nosuch")
	r = kcg(t, "--bootstrap-server", f.e.Bootstrap, "--describe", "--group", f.group).MustCode(t, 0)
	if !strings.Contains(r.Stdout, f.topic) {
		t.Fatalf("drop-in describe:\n%s\n%s", r.Stdout, r.Stderr)
	}
	oneLine(t, kcg(t, "list").MustCode(t, 64).Stderr, `KCG_PROFILE: no profile "nosuch"`, "known: main, other")
}

// Completion offers profile names (read from the config file, never from
// Kafka) for --profile and kcg profile use|show, and the profile
// subcommands.
func TestProfileCompletion(t *testing.T) {
	writeConfig(t, "profiles:\n  prod:\n    bootstrap: h:1\n  staging:\n    bootstrap: h:2\n")
	words := func(args ...string) []string {
		t.Helper()
		r := kcg(t, append(args, "--generate-bash-completion")...).MustCode(t, 0)
		return strings.Fields(r.Stdout)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"profile", ""}, "list show use"},
		{[]string{"profile", "use", ""}, "prod staging"},
		{[]string{"profile", "use", "st"}, "staging"},
		{[]string{"profile", "show", "p"}, "prod"},
		{[]string{"profile", "use", "prod", ""}, ""},
		{[]string{"describe", "--profile", ""}, "prod staging"},
		{[]string{"--profile", "s"}, "staging"},
	} {
		if got := strings.Join(words(tc.args...), " "); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
	t.Setenv("KCG_CONFIG", filepath.Join(t.TempDir(), "none.yaml"))
	if got := words("profile", "use", ""); len(got) != 0 {
		t.Errorf("no config file: %q", got)
	}
}

// --sandbox answers from its own demo cluster: a --profile typed with it
// is refused like -b; KCG_PROFILE exported in the shell is not a conflict
// and is not applied to the demo cluster.
func TestProfileWithSandbox(t *testing.T) {
	writeConfig(t, "profiles:\n  prod:\n    bootstrap: prod-1:9093\n    sasl: {mechanism: PLAIN, username: u, passwordEnv: UNSET_PW_VARIABLE}\n")
	oneLine(t, kcg(t, "list", "--sandbox", "--profile", "prod").MustCode(t, 64).Stderr, "--sandbox", "--profile")
	t.Setenv("KCG_PROFILE", "prod")
	r := kcg(t, "list", "--sandbox", "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"kind": "GroupList"`) {
		t.Fatalf("sandbox list:\n%s\n%s", r.Stdout, r.Stderr)
	}
}

// A SASL profile end to end on a kfake cluster with SCRAM: the password
// comes from the profile's passwordFile and is never printed; an exported
// KCG_SASL_PASSWORD (another cluster's) does not replace it; a typed
// --sasl-password does.
func TestProfileSASLOnKfake(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "profile-secret"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scram.pw"), []byte("profile-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.yaml")
	body := "profiles:\n  scram:\n    bootstrap: " + c.ListenAddrs()[0] + "\n    sasl:\n      mechanism: SCRAM-SHA-256\n      username: admin\n      passwordFile: scram.pw\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KCG_CONFIG", cfg)

	r := kcg(t, "--profile", "scram", "list", "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stdout, `"kind": "GroupList"`) {
		t.Fatalf("list over the profile's SCRAM:\n%s\n%s", r.Stdout, r.Stderr)
	}
	t.Setenv("KCG_SASL_PASSWORD", "another-clusters-password")
	kcg(t, "--profile", "scram", "list").MustCode(t, 0)
	r = kcg(t, "--profile", "scram", "list", "--sasl-password", "typed-wrong").MustCode(t, 1)
	for _, out := range []string{r.Stdout, r.Stderr, kcg(t, "profile", "show", "scram", "-o", "json").MustCode(t, 0).Stdout} {
		if strings.Contains(out, "profile-secret") || strings.Contains(out, "typed-wrong") {
			t.Fatalf("a password is printed: %q", out)
		}
	}
	// Without the profile, the same cluster refuses the exported password.
	kcg(t, "list", "-b", c.ListenAddrs()[0], "--sasl-mechanism", "SCRAM-SHA-256", "--sasl-username", "admin").MustCode(t, 1)
}

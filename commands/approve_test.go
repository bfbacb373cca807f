package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/schematest"
)

// reviewer is an SSH key made by the real ssh-keygen.
type reviewer struct {
	key, pub, principal string
}

func sshKeygenOrSkip(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen is not installed (openssh-client; .ci/run installs it): approvals are checked against its signatures")
	}
	return p
}

func sshRun(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(sshKeygenOrSkip(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func newReviewer(t *testing.T, dir, principal, typ string) reviewer {
	t.Helper()
	key := filepath.Join(dir, strings.ReplaceAll(principal, "@", "_")+"-"+typ)
	args := []string{"-q", "-t", typ, "-N", "", "-C", principal, "-f", key}
	if typ == "rsa" {
		args = append(args, "-b", "2048")
	}
	if out, err := sshRun(t, "", args...); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return reviewer{key: key, pub: strings.TrimSpace(string(pub)), principal: principal}
}

// sshSign signs file with ssh-keygen -Y sign in namespace ns, to out
// (moved from FILE.sig).
func sshSign(t *testing.T, r reviewer, ns, file, out string) {
	t.Helper()
	os.Remove(file + ".sig")
	if o, err := sshRun(t, "", "-Y", "sign", "-q", "-f", r.key, "-n", ns, file); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, o)
	}
	if out != file+".sig" {
		if err := os.Rename(file+".sig", out); err != nil {
			t.Fatal(err)
		}
	}
}

func allowedSigners(t *testing.T, dir string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, "allowed_signers")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// An approval made with ssh-keygen (Ed25519) is accepted: apply writes,
// and names the approver on stderr and in the report; with
// --min-approvals 2 a second principal (RSA, signed by kcg approve) is
// needed.
func TestApplySignedApproval(t *testing.T) {
	f := newResetFixture(t)
	alice := newReviewer(t, f.dir, "alice@example.com", "ed25519")
	bob := newReviewer(t, f.dir, "bob@example.com", "rsa")
	signers := allowedSigners(t, f.dir, "# reviewers", alice.principal+" "+alice.pub, `bob@example.com namespaces="kcg-plan" `+bob.pub)
	plan := f.path("p.yaml")
	f.plan(t, "p.yaml", f.group, "--all-topics", "--to-earliest", "--ticket", "OPS-1")
	sshSign(t, alice, "kcg-plan", plan, plan+".sig")

	r := kcgOn(t, f.e, "apply", plan, "--allowed-signers", signers, "--min-approvals", "2").MustCode(t, 3)
	if !strings.Contains(r.Stderr, "not approved: the plan needs 2 approvals by distinct principals of "+signers+"; it has 1 (alice@example.com)") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 5})

	kcg(t, "approve", plan, "--key", bob.key, "--out", f.path("bob.sig")).MustCode(t, 0)
	r = kcgOn(t, f.e, "apply", plan, "--allowed-signers", signers, "--signature", plan+".sig", "--signature", f.path("bob.sig"), "--min-approvals", "2", "-o", "json").MustCode(t, 0)
	if !strings.Contains(r.Stderr, "approved by alice@example.com (SHA256:") || !strings.Contains(r.Stderr, ", bob@example.com (SHA256:") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	var rep struct {
		Result    string `json:"result"`
		Approvals []struct {
			Principal, Key, Signature string
		} `json:"approvals"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil || rep.Result != "applied" || len(rep.Approvals) != 2 ||
		rep.Approvals[0].Principal != alice.principal || rep.Approvals[1].Signature != f.path("bob.sig") {
		t.Fatalf("report %+v (%v)", rep, err)
	}
	schematest.MustMatch(t, "ApplyReport", r.Stdout, false)
	f.mustCommitted(t, map[int32]int64{0: 0})
}

// --min-approvals counts people: a reviewer listed with aliases
// ("alice,alice2") and again under one of them ("alice") with another
// key is one approver, and the second signature says whose approval it
// joined. The Markdown report names the approver, as JSON does.
func TestApplyCountsApproversNotFields(t *testing.T) {
	f := newResetFixture(t)
	work := newReviewer(t, f.dir, "alice,alice2", "ed25519")
	laptop := newReviewer(t, f.dir, "alice", "ed25519")
	signers := allowedSigners(t, f.dir, work.principal+" "+work.pub, laptop.principal+" "+laptop.pub)
	plan := f.path("p.yaml")
	f.plan(t, "p.yaml", f.group, "--all-topics", "--to-earliest", "--ticket", "OPS-1")
	// (sshSign signs to PLAN.sig first: the laptop's signature is moved
	// away before the work key's is made.)
	sshSign(t, laptop, "kcg-plan", plan, f.path("laptop.sig"))
	sshSign(t, work, "kcg-plan", plan, plan+".sig")
	sigs := []string{"--signature", plan + ".sig", "--signature", f.path("laptop.sig")}

	r := kcgOn(t, f.e, append([]string{"apply", plan, "--allowed-signers", signers, "--min-approvals", "2"}, sigs...)...).MustCode(t, 3)
	for _, want := range []string{
		"not approved: " + f.path("laptop.sig") + ": the signature by alice (key SHA256:",
		") counts as the approval by alice,alice2 (" + plan + ".sig): their principals may name one person\n",
		"not approved: the plan needs 2 approvals by distinct principals of " + signers + "; it has 1 (alice,alice2)\n",
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	f.mustCommitted(t, map[int32]int64{0: 5})

	r = kcgOn(t, f.e, append([]string{"apply", plan, "--allowed-signers", signers, "-o", "markdown"}, sigs...)...).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "warning: "+f.path("laptop.sig")+": the signature by alice") || !strings.Contains(r.Stderr, "(not counted)\napproved by alice,alice2 (SHA256:") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	if !regexp.MustCompile("(?m)^- \\*\\*Approved by:\\*\\* `alice,alice2` \\(`SHA256:[A-Za-z0-9+/]+`\\)$").MatchString(r.Stdout) {
		t.Fatalf("the Markdown report does not name the approver:\n%s", r.Stdout)
	}
	f.mustCommitted(t, map[int32]int64{0: 0})
}

// Without a valid approval apply refuses (exit 3) and writes nothing:
// unsigned, edited after signing, the wrong namespace, a key the file
// does not list, one principal twice for --min-approvals 2.
func TestApplyRefusesUnapproved(t *testing.T) {
	f := newResetFixture(t)
	alice := newReviewer(t, f.dir, "alice@example.com", "ed25519")
	alice2 := newReviewer(t, f.dir, "alice@example.com", "rsa")
	mallory := newReviewer(t, f.dir, "mallory@example.com", "ed25519")
	signers := allowedSigners(t, f.dir, "alice@example.com "+alice.pub, "alice@example.com "+alice2.pub)
	plan := f.path("p.yaml")
	f.plan(t, "p.yaml", f.group, "--all-topics", "--to-earliest")
	data, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	tampered := f.path("tampered.yaml")
	if err := os.WriteFile(tampered, []byte(strings.Replace(string(data), "target: 0", "target: 1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	sshSign(t, alice, "kcg-plan", plan, tampered+".sig")
	sshSign(t, alice, "file", plan, f.path("ns.sig"))
	sshSign(t, mallory, "kcg-plan", plan, f.path("mallory.sig"))
	sshSign(t, alice, "kcg-plan", plan, f.path("a1.sig"))
	sshSign(t, alice2, "kcg-plan", plan, f.path("a2.sig"))

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unsigned", []string{plan}, plan + ".sig: no such signature file"},
		{"tampered", []string{tampered}, "does not match the plan's bytes: the plan was changed after it was signed"},
		{"namespace", []string{plan, "--signature", f.path("ns.sig")}, `is for namespace "file", not "kcg-plan"`},
		{"not listed", []string{plan, "--signature", f.path("mallory.sig")}, "is valid, but " + signers + " does not list that key"},
		{"one principal twice", []string{plan, "--signature", f.path("a1.sig"), "--signature", f.path("a2.sig"), "--min-approvals", "2"}, "it has 1 (alice@example.com)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := kcgOn(t, f.e, append(append([]string{"apply"}, c.args...), "--allowed-signers", signers)...).MustCode(t, 3)
			if !strings.Contains(r.Stderr, c.want) || !strings.Contains(r.Stderr, "is not approved; nothing was written") {
				t.Fatalf("stderr:\n%s\nwant %q", r.Stderr, c.want)
			}
			f.mustCommitted(t, map[int32]int64{0: 5})
		})
	}
	// The same signatures, one each: accepted.
	kcgOn(t, f.e, "apply", plan, "--allowed-signers", signers, "--signature", f.path("a2.sig")).MustCode(t, 0)
	f.mustCommitted(t, map[int32]int64{0: 0})
}

// kcg approve writes what ssh-keygen -Y verify accepts, refuses to
// overwrite a signature, and refuses an encrypted key with the reason.
func TestApproveVerifiedBySSHKeygen(t *testing.T) {
	f := newResetFixture(t)
	dir := f.dir
	rv := newReviewer(t, dir, "carol@example.com", "ed25519")
	plan := f.path("p.yaml")
	f.plan(t, "p.yaml", f.group, "--all-topics", "--to-earliest")
	r := kcg(t, "approve", plan, "--key", rv.key).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "signature written to "+plan+".sig") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	signers := allowedSigners(t, dir, "carol@example.com "+rv.pub)
	data, _ := os.ReadFile(plan)
	out, err := sshRun(t, string(data), "-Y", "verify", "-f", signers, "-I", "carol@example.com", "-n", "kcg-plan", "-s", plan+".sig")
	if err != nil || !strings.Contains(out, `Good "kcg-plan" signature for carol@example.com`) {
		t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, out)
	}
	kcg(t, "approve", plan, "--key", rv.key).MustCode(t, 64)
	kcg(t, "approve", plan, "--key", rv.key, "--overwrite").MustCode(t, 0)

	enc := filepath.Join(dir, "enc")
	if o, err := sshRun(t, "", "-q", "-t", "ed25519", "-N", "passphrase", "-f", enc); err != nil {
		t.Fatal(o)
	}
	t.Setenv("SSH_AUTH_SOCK", "")
	r = kcg(t, "approve", plan, "--key", enc, "--out", filepath.Join(dir, "x.sig")).MustCode(t, 65)
	if !strings.Contains(r.Stderr, "is encrypted with a passphrase, and kcg approve does not read passphrases") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	kcg(t, "approve", filepath.Join(dir, "nothing.yaml"), "--key", rv.key).MustCode(t, 65)
	kcg(t, "approve", plan).MustCode(t, 64)
}

// policy: and allowedSigners: in the profile apply like the flags.
func TestProfilePolicyAndSigners(t *testing.T) {
	f := newResetFixture(t)
	rv := newReviewer(t, f.dir, "dave@example.com", "ed25519")
	signers := allowedSigners(t, f.dir, "dave@example.com "+rv.pub)
	abs, err := filepath.Abs(examplePolicies)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(f.dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("current: ci\nprofiles:\n  ci:\n    bootstrap: %s\n    policy: [%q]\n    allowedSigners: allowed_signers\n", f.e.Bootstrap, abs)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KCG_CONFIG", cfg)
	show := kcg(t, "profile", "show", "ci", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "Profile", show.Stdout, false)
	if !strings.Contains(show.Stdout, `"allowedSigners": "`+signers+`"`) || !strings.Contains(show.Stdout, `"policy": [`) {
		t.Fatalf("profile show:\n%s", show.Stdout)
	}
	plan := f.path("p.yaml")
	r := kcg(t, "plan", f.group, "--all-topics", "--to-earliest", "--out", plan).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "policy denied: the plan has no change ticket") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	kcg(t, "plan", f.group, "--all-topics", "--to-earliest", "--ticket", "OPS-9", "--note", "n", "--out", plan).MustCode(t, 0)
	r = kcg(t, "apply", plan).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "no such signature file") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	kcg(t, "approve", plan, "--key", rv.key).MustCode(t, 0)
	r = kcg(t, "apply", plan).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "approved by dave@example.com") || !strings.Contains(signers, "allowed_signers") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 0})
}

package approval_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/approval"
)

// sshKeygen skips the test when ssh-keygen is not installed (.ci/run
// installs openssh-client), and returns its path.
func sshKeygen(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen is not installed (openssh-client): the signatures to verify are made by it")
	}
	return p
}

func run(t *testing.T, stdin []byte, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newKey makes a key pair with ssh-keygen and returns the private key's
// path and the public key's line.
func newKey(t *testing.T, dir, name, typ string) (string, string) {
	t.Helper()
	kg := sshKeygen(t)
	path := filepath.Join(dir, name)
	args := []string{"-q", "-t", typ, "-N", "", "-C", name, "-f", path}
	if typ == "rsa" {
		args = append(args, "-b", "2048")
	}
	run(t, nil, kg, args...)
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// sign signs data with ssh-keygen -Y sign in namespace ns and returns the
// signature file's path.
func sign(t *testing.T, dir, key, ns string, data []byte) string {
	t.Helper()
	msg := filepath.Join(dir, "plan-"+filepath.Base(key)+"-"+ns+".yaml")
	if err := os.WriteFile(msg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, nil, sshKeygen(t), "-Y", "sign", "-q", "-f", key, "-n", ns, msg)
	return msg + ".sig"
}

func signers(t *testing.T, text string) *approval.Signers {
	t.Helper()
	s, err := approval.ParseSigners("allowed", []byte(text), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var plan = []byte("apiVersion: kcg/v1\nkind: OffsetResetPlan\n")

// Signatures made by the real ssh-keygen, Ed25519 and RSA, are approvals
// of the exact bytes, by the principals of the file; anything else is
// refused with its reason.
func TestCheckSSHKeygenSignatures(t *testing.T) {
	dir := t.TempDir()
	alice, alicePub := newKey(t, dir, "alice", "ed25519")
	bob, bobPub := newKey(t, dir, "bob", "rsa")
	carol, _ := newKey(t, dir, "carol", "ed25519")
	s := signers(t, "alice@example.com "+alicePub+"\nbob@example.com,robert@example.com namespaces=\"kcg-plan,file\" "+bobPub+"\n")
	aliceSig := sign(t, dir, alice, "kcg-plan", plan)
	bobSig := sign(t, dir, bob, "kcg-plan", plan)

	r := s.Check(plan, []string{aliceSig, bobSig}, time.Now())
	if got := strings.Join(r.Principals(), " "); got != "alice@example.com bob@example.com,robert@example.com" || len(r.Rejected) != 0 {
		t.Fatalf("principals %q, rejected %q", got, r.Rejected)
	}
	if r.Approvals[0].Signature != aliceSig || !strings.HasPrefix(r.Approvals[1].Key, "SHA256:") {
		t.Fatalf("approvals %+v", r.Approvals)
	}

	cases := []struct {
		name string
		sig  string
		msg  []byte
		want string
	}{
		{"tampered", aliceSig, append(append([]byte{}, plan...), '#'), "does not match the plan's bytes"},
		{"wrong namespace", sign(t, dir, alice, "file", plan), nil, `is for namespace "file", not "kcg-plan"`},
		{"not in the file", sign(t, dir, carol, "kcg-plan", plan), nil, "does not list that key"},
		{"missing", filepath.Join(dir, "none.sig"), nil, "no such signature file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := c.msg
			if msg == nil {
				msg = plan
			}
			r := s.Check(msg, []string{c.sig}, time.Now())
			if len(r.Approvals) != 0 || len(r.Rejected) != 1 || !strings.Contains(r.Rejected[0], c.want) {
				t.Fatalf("approvals %v, rejected %q, want %q", r.Approvals, r.Rejected, c.want)
			}
		})
	}
}

// Two signatures by one principal (one key twice, or two keys of one
// principal) are one approval; a key on two lines is approved by the
// first line that accepts it.
func TestCheckCountsDistinctPrincipals(t *testing.T) {
	dir := t.TempDir()
	a1, a1Pub := newKey(t, dir, "a1", "ed25519")
	a2, a2Pub := newKey(t, dir, "a2", "ed25519")
	s := signers(t, "alice "+a1Pub+"\nalice "+a2Pub+"\n")
	r := s.Check(plan, []string{sign(t, dir, a1, "kcg-plan", plan), sign(t, dir, a2, "kcg-plan", plan), sign(t, dir, a1, "kcg-plan", plan)}, time.Now())
	if got := r.Principals(); len(got) != 1 || got[0] != "alice" || len(r.Approvals) != 1 {
		t.Fatalf("principals %q, approvals %v", got, r.Approvals)
	}
	// Several armored signatures in one file count one by one.
	b1, _ := os.ReadFile(sign(t, dir, a1, "kcg-plan", plan))
	b2, _ := os.ReadFile(sign(t, dir, a2, "kcg-plan", plan))
	both := filepath.Join(dir, "both.sig")
	if err := os.WriteFile(both, append(b1, b2...), 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := signers(t, "alice "+a1Pub+"\nbob "+a2Pub+"\n")
	if got := s2.Check(plan, []string{both}, time.Now()).Principals(); len(got) != 2 {
		t.Fatalf("principals %q from one file of two signatures", got)
	}
}

// --min-approvals counts people: approvals whose principals may name one
// person (the same key, or principals patterns a name can match both of:
// aliases "alice,alice2" beside "alice", a wildcard beside a name, a key
// listed under two names) are one, transitively; disjoint principals are
// several.
func TestCheckCountsApproversNotFields(t *testing.T) {
	dir := t.TempDir()
	var keys, pubs, sigs [3]string
	for i := range keys {
		keys[i], pubs[i] = newKey(t, dir, fmt.Sprintf("k%d", i), "ed25519")
		sigs[i] = sign(t, dir, keys[i], "kcg-plan", plan)
	}
	cases := []struct {
		name, file string
		// want are the approvers counted; joined, the signatures that
		// joined another's approval.
		want   []string
		joined int
	}{
		{"aliases", "alice,alice2 K0\nalice K1\n", []string{"alice,alice2"}, 1},
		{"aliases reversed", "alice K0\nalice2,alice K1\n", []string{"alice"}, 1},
		{"wildcard", "alice@example.com K0\n*@example.com K1\n", []string{"alice@example.com"}, 1},
		{"wildcard elsewhere", "alice@example.com K0\n*@example.org K1\n", []string{"alice@example.com", "*@example.org"}, 0},
		{"negation names nobody", "alice K0\n!alice,bob K1\n", []string{"alice", "!alice,bob"}, 0},
		{"transitive", "a K0\nb K1\na,b K2\n", []string{"a"}, 2},
		{"one key, two names", "alice K0\nbob K0\nbob K1\n", []string{"alice"}, 1},
		{"distinct", "alice K0\nbob K1\ncarol K2\n", []string{"alice", "bob", "carol"}, 0},
		{"prefixes are not aliases", "alice K0\nalice2 K1\n", []string{"alice", "alice2"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// One pass: a key's base64 may itself contain "K1".
			text := strings.NewReplacer("K0", pubs[0], "K1", pubs[1], "K2", pubs[2]).Replace(c.file)
			r := signers(t, text).Check(plan, sigs[:], time.Now())
			if got := r.Principals(); !slices.Equal(got, c.want) || len(r.Approvals) != len(c.want) {
				t.Fatalf("approvers %q (%d approvals), want %q", got, len(r.Approvals), c.want)
			}
			var joined []string
			for _, why := range r.Rejected {
				switch {
				case strings.Contains(why, "counts as the approval by "+c.want[0]+" ("+sigs[0]+"): their principals may name one person"):
					joined = append(joined, why)
				case !strings.Contains(why, "does not list that key"):
					t.Errorf("rejected %q", why)
				}
			}
			if len(joined) != c.joined {
				t.Fatalf("joined %q, want %d", joined, c.joined)
			}
		})
	}
}

// namespaces=, valid-after= and valid-before= decide whether a listed
// key counts, as for ssh-keygen -Y verify.
func TestCheckOptions(t *testing.T) {
	dir := t.TempDir()
	k, pub := newKey(t, dir, "k", "ed25519")
	sig := sign(t, dir, k, "kcg-plan", plan)
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		opts, want string
	}{
		{`namespaces="kcg-*"`, ""},
		{`namespaces="git,file"`, `only for namespaces "git,file"`},
		{`namespaces="*,!kcg-plan"`, "only for namespaces"},
		{`valid-after="20260101"`, ""},
		{`valid-after="20260601120001Z"`, "only from 2026-06-01T12:00:01Z"},
		{`valid-before="202606011159Z"`, "only until 2026-06-01T11:59:00Z"},
		{`VALID-BEFORE="20270101",valid-after="20250101"`, ""},
	}
	for _, c := range cases {
		t.Run(c.opts, func(t *testing.T) {
			r := signers(t, "k "+c.opts+" "+pub).Check(plan, []string{sig}, now)
			if c.want == "" {
				if len(r.Approvals) != 1 {
					t.Fatalf("refused: %q", r.Rejected)
				}
				return
			}
			if len(r.Approvals) != 0 || len(r.Rejected) != 1 || !strings.Contains(r.Rejected[0], c.want) {
				t.Fatalf("approvals %v, rejected %q, want %q", r.Approvals, r.Rejected, c.want)
			}
		})
	}
}

// Lines kcg cannot honour are refused with the file and line, never
// skipped: a skipped restriction would accept more than the file says.
func TestParseSignersRefuses(t *testing.T) {
	_, pub := newKey(t, t.TempDir(), "k", "ed25519")
	cases := []struct{ text, want string }{
		{"*@example.com cert-authority " + pub, "allowed:1: option cert-authority is not supported"},
		{"# c\n\nk no-touch-required " + pub, `allowed:3: unsupported option "no-touch-required"`},
		{"k namespaces=kcg-plan " + pub, "needs a quoted value"},
		{"k valid-after=\"2026\" " + pub, "use YYYYMMDD"},
		{`k valid-after="20270101",valid-before="20260101" ` + pub, "never valid"},
		{"k ssh-ed25519 AAAA", "allowed:1: no valid public key"},
		{"justaname", "expected: principals"},
		{"\"alice " + pub, "unterminated quote"},
		{"# only a comment\n", "names no signer"},
	}
	for _, c := range cases {
		_, err := approval.ParseSigners("allowed", []byte(c.text), time.UTC)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	s, err := approval.ParseSigners("allowed", []byte(`"alice smith@example.com" `+pub+"\n"), time.UTC)
	if err != nil || s.Lines[0].Principals != "alice smith@example.com" {
		t.Fatalf("quoted principals: %v %+v", err, s)
	}
}

func TestMatchPatternList(t *testing.T) {
	cases := []struct {
		s, list string
		want    bool
	}{
		{"kcg-plan", "kcg-plan", true},
		{"kcg-plan", "file,kcg-*", true},
		{"kcg-plan", "kcg-?lan", true},
		{"kcg-plan", "kcg-??", false},
		{"kcg-plan", "*,!kcg-plan", false},
		{"kcg-plan", "!file", false},
		{"kcg-plan", "*", true},
		{"kcg-plan", "KCG-PLAN", false},
	}
	for _, c := range cases {
		if got := approval.MatchPatternList(c.s, c.list); got != c.want {
			t.Errorf("MatchPatternList(%q, %q) = %v", c.s, c.list, got)
		}
	}
}

// Sign writes what ssh-keygen -Y verify accepts; an Ed25519 signature is
// the very bytes ssh-keygen -Y sign writes (Ed25519 is deterministic).
func TestSignVerifiedBySSHKeygen(t *testing.T) {
	dir := t.TempDir()
	for _, typ := range []string{"ed25519", "rsa"} {
		key, pub := newKey(t, dir, "r-"+typ, typ)
		signer, err := approval.LoadSigner(key)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := approval.Sign(plan, signer)
		if err != nil {
			t.Fatal(err)
		}
		sigPath := filepath.Join(dir, typ+".sig")
		allowed := filepath.Join(dir, "allowed-"+typ)
		if err := os.WriteFile(sigPath, sig, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(allowed, []byte("reviewer@example.com "+pub+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out := run(t, plan, sshKeygen(t), "-Y", "verify", "-f", allowed, "-I", "reviewer@example.com", "-n", "kcg-plan", "-s", sigPath)
		if !strings.Contains(out, `Good "kcg-plan" signature for reviewer@example.com`) {
			t.Fatalf("ssh-keygen -Y verify: %s", out)
		}
		if typ == "ed25519" {
			theirs, _ := os.ReadFile(sign(t, dir, key, "kcg-plan", plan))
			if !bytes.Equal(sig, theirs) {
				t.Fatalf("kcg's signature\n%s\nis not ssh-keygen's\n%s", sig, theirs)
			}
		}
	}
}

// An encrypted key without an agent holding it is refused with the
// reason; a public key needs the agent.
func TestLoadSignerEncrypted(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	dir := t.TempDir()
	path := filepath.Join(dir, "enc")
	run(t, nil, sshKeygen(t), "-q", "-t", "ed25519", "-N", "secret", "-f", path)
	if _, err := approval.LoadSigner(path); err != approval.ErrEncrypted {
		t.Fatalf("encrypted key: %v", err)
	}
	if _, err := approval.LoadSigner(path + ".pub"); err == nil || !strings.Contains(err.Error(), "no ssh-agent") {
		t.Fatalf("public key: %v", err)
	}
	if _, err := approval.LoadSigner(filepath.Join(dir, "none")); err == nil {
		t.Fatal("a missing key loaded")
	}
}

// A public key, or an encrypted private key, signs through the ssh-agent
// that holds it, as ssh-keygen -Y sign -f does; the signature verifies.
func TestLoadSignerAgent(t *testing.T) {
	kg := sshKeygen(t)
	agentBin, err := exec.LookPath("ssh-agent")
	if err != nil {
		t.Skip("ssh-agent is not installed")
	}
	addBin, err := exec.LookPath("ssh-add")
	if err != nil {
		t.Skip("ssh-add is not installed")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "agent.sock")
	agent := exec.Command(agentBin, "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = agent.Process.Kill(); _ = agent.Wait() })
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Setenv("SSH_AUTH_SOCK", sock)
	key := filepath.Join(dir, "enc")
	run(t, nil, kg, "-q", "-t", "ed25519", "-N", "secret", "-f", key)
	askpass := filepath.Join(dir, "askpass")
	if err := os.WriteFile(askpass, []byte("#!/bin/sh\necho secret\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	add := exec.Command(addBin, key)
	add.Env = append(os.Environ(), "SSH_ASKPASS="+askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=:0")
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v\n%s", err, out)
	}
	pub, _ := os.ReadFile(key + ".pub")
	s := signers(t, "agent@example.com "+string(pub))
	for _, path := range []string{key, key + ".pub"} {
		signer, err := approval.LoadSigner(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		sig, err := approval.Sign(plan, signer)
		if err != nil {
			t.Fatal(err)
		}
		sigs, err := approval.ParseArmored(sig)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := s.Verify(plan, sigs[0], time.Now()); err != nil || a.Principal != "agent@example.com" {
			t.Fatalf("%s: %+v %v", path, a, err)
		}
	}
}

package approval

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// maxSignatureFile bounds a signature file read into memory (one armored
// SSHSIG of an RSA-16384 key is under 8 KiB).
const maxSignatureFile = 1 << 20

// maxPatternPairs bounds patternsMeet's search (principals are names:
// two of 1,000 characters are well within it).
const maxPatternPairs = 1 << 20

// pemType is the armor of an SSHSIG signature.
const pemType = "SSH SIGNATURE"

// Approval is one valid signature of the plan by a listed key.
type Approval struct {
	// Principal is the principals field of the first allowed_signers
	// line that lists the key and accepts it (the approver's name).
	Principal string `json:"principal" yaml:"principal"`
	// Key is the key's SHA256 fingerprint, as ssh-keygen -l prints it.
	Key string `json:"key" yaml:"key"`
	// Signature is the signature file it was read from.
	Signature string `json:"signature" yaml:"signature"`
	// patterns are the principal patterns the signature may stand for:
	// those of every line that lists the key and accepts it, negated
	// ones ("!…") left out. See SameApprover.
	patterns []string
}

// SameApprover reports whether a and b may be approvals by one person,
// and so count once: they are by the same key, or their principals are
// the same field, or some principal could match a pattern of both
// (OpenSSH's principals are comma-separated patterns, * and ?, and a key
// verifies as any principal its line's patterns match, as ssh-keygen -Y
// verify -I does: "alice,alice2" and "alice" share alice, "*@example.com"
// and "alice@example.com" share alice@example.com). Negated patterns are
// left out, which can only join approvals, never split them: kcg may
// count fewer approvers than there are, never more.
func SameApprover(a, b Approval) bool {
	if a.Key == b.Key || a.Principal == b.Principal {
		return true
	}
	for _, p := range a.patterns {
		for _, q := range b.patterns {
			if patternsMeet(p, q) {
				return true
			}
		}
	}
	return false
}

// principalPatterns are the positive patterns of a principals field.
func principalPatterns(field string) []string {
	var out []string
	for p := range strings.SplitSeq(field, ",") {
		if p != "" && !strings.HasPrefix(p, "!") {
			out = append(out, p)
		}
	}
	return out
}

// patternsMeet reports whether some string matches both OpenSSH patterns
// p and q (* any run, ? any one byte, case-sensitive as for principals):
// a search of the pairs of positions the two patterns can be in after
// reading the same string. Patterns too long to search are taken to meet:
// the cautious answer (fewer approvers).
func patternsMeet(p, q string) bool {
	if (len(p)+1)*(len(q)+1) > maxPatternPairs {
		return true
	}
	seen := map[[2]int]bool{}
	var reach func(i, j int) bool
	reach = func(i, j int) bool {
		if i == len(p) && j == len(q) {
			return true
		}
		if seen[[2]int{i, j}] {
			return false
		}
		seen[[2]int{i, j}] = true
		// A star may match nothing.
		if i < len(p) && p[i] == '*' && reach(i+1, j) {
			return true
		}
		if j < len(q) && q[j] == '*' && reach(i, j+1) {
			return true
		}
		// Or both read one byte they can agree on; a star stays.
		if i < len(p) && j < len(q) && (p[i] == '*' || p[i] == '?' || q[j] == '*' || q[j] == '?' || p[i] == q[j]) {
			ni, nj := i+1, j+1
			if p[i] == '*' {
				ni = i
			}
			if q[j] == '*' {
				nj = j
			}
			return reach(ni, nj)
		}
		return false
	}
	return reach(0, 0)
}

// ParseArmored reads one or more armored SSHSIG signatures ("-----BEGIN
// SSH SIGNATURE-----", as ssh-keygen -Y sign writes them; several may be
// concatenated in one file). Anything else in the data is refused.
func ParseArmored(data []byte) ([]*sshsig.Signature, error) {
	var out []*sshsig.Signature
	rest := data
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != pemType {
			return nil, fmt.Errorf("holds a %q block, not an SSH SIGNATURE", block.Type)
		}
		sig, err := sshsig.ParseSignature(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("not a valid SSH signature: %v", err)
		}
		out = append(out, sig)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		if len(out) == 0 {
			return nil, errors.New("is not an armored SSH signature (-----BEGIN SSH SIGNATURE-----, as ssh-keygen -Y sign writes)")
		}
		return nil, errors.New("has text after its last SSH SIGNATURE block")
	}
	if len(out) == 0 {
		return nil, errors.New("is empty: no SSH SIGNATURE block")
	}
	return out, nil
}

// ReadSignatureFile reads and parses the signature file at path.
func ReadSignatureFile(path string) ([]*sshsig.Signature, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSignatureFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSignatureFile {
		return nil, errors.New("is more than 1 MiB: not a signature file")
	}
	return ParseArmored(data)
}

// Verify checks one signature of message: made in the kcg-plan
// namespace, of exactly these bytes, by a key of s valid at now for that
// namespace. It returns the approval, or why the signature does not count.
func (s *Signers) Verify(message []byte, sig *sshsig.Signature, now time.Time) (Approval, error) {
	if _, ok := sig.PublicKey.(*ssh.Certificate); ok {
		return Approval{}, errors.New("is made with an SSH certificate: kcg accepts signatures by the keys listed in the allowed signers file only")
	}
	fp := ssh.FingerprintSHA256(sig.PublicKey)
	if sig.Namespace != Namespace {
		return Approval{}, fmt.Errorf("by key %s is for namespace %q, not %q: sign with ssh-keygen -Y sign -n %s (or kcg approve)", fp, sig.Namespace, Namespace, Namespace)
	}
	if err := sig.HashAlgorithm.Available(); err != nil {
		return Approval{}, fmt.Errorf("by key %s uses hash %q: %v", fp, sig.HashAlgorithm, err)
	}
	if err := sshsig.Verify(bytes.NewReader(message), sig, sig.PublicKey, sig.HashAlgorithm, Namespace); err != nil {
		return Approval{}, fmt.Errorf("by key %s does not match the plan's bytes: the plan was changed after it was signed, or the signature is of another file", fp)
	}
	want := sig.PublicKey.Marshal()
	var why error
	var a Approval
	for _, l := range s.Lines {
		if !bytes.Equal(l.Key.Marshal(), want) {
			continue
		}
		switch {
		case l.Namespaces != "" && !MatchPatternList(Namespace, l.Namespaces):
			why = fmt.Errorf("by %s (key %s) is valid, but %s:%d allows that key only for namespaces %q", l.Principals, fp, s.Path, l.Line, l.Namespaces)
		case !l.ValidAfter.IsZero() && now.Before(l.ValidAfter):
			why = fmt.Errorf("by %s (key %s) is valid, but %s:%d accepts that key only from %s", l.Principals, fp, s.Path, l.Line, l.ValidAfter.Format(time.RFC3339))
		case !l.ValidBefore.IsZero() && now.After(l.ValidBefore):
			why = fmt.Errorf("by %s (key %s) is valid, but %s:%d accepted that key only until %s", l.Principals, fp, s.Path, l.Line, l.ValidBefore.Format(time.RFC3339))
		default:
			// The first accepting line names the approval; every accepting
			// line says whom the key may stand for.
			if a.Principal == "" {
				a = Approval{Principal: l.Principals, Key: fp}
			}
			a.patterns = append(a.patterns, principalPatterns(l.Principals)...)
		}
	}
	if a.Principal != "" {
		return a, nil
	}
	if why != nil {
		return Approval{}, why
	}
	return Approval{}, fmt.Errorf("by key %s (%s) is valid, but %s does not list that key", fp, sig.PublicKey.Type(), s.Path)
}

// Result is the approvals of a plan: the signatures that count, one per
// approver, and why the others do not.
type Result struct {
	Approvals []Approval
	// Rejected are the signatures that do not count, each "FILE: why".
	Rejected []string
}

// Principals are the distinct approvers, one name each (the Principal of
// the approval that counts for them), in the order first seen.
func (r Result) Principals() []string {
	var out []string
	for _, a := range r.Approvals {
		if !slices.Contains(out, a.Principal) {
			out = append(out, a.Principal)
		}
	}
	return out
}

// Check verifies every signature of every file against message. A
// signature that cannot be read, or does not count, is in Rejected.
// Valid signatures that may be by one person (SameApprover, and so on
// transitively: "a" and "b" are one approver with "a,b" beside them) are
// one approval, the first; one kept out for another principals field is
// in Rejected, saying whose approval it joined.
func (s *Signers) Check(message []byte, files []string, now time.Time) Result {
	var r Result
	// valid are the signatures that verify, names what to call each in a
	// message ("FILE (signature N)" for one of several in a file).
	var valid []Approval
	var names []string
	for _, path := range files {
		sigs, err := ReadSignatureFile(path)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				r.Rejected = append(r.Rejected, fmt.Sprintf("%s: no such signature file (sign the plan with kcg approve or ssh-keygen -Y sign -n %s)", path, Namespace))
				continue
			}
			r.Rejected = append(r.Rejected, fmt.Sprintf("%s: %s", path, errText(err)))
			continue
		}
		for i, sig := range sigs {
			a, err := s.Verify(message, sig, now)
			name := path
			if len(sigs) > 1 {
				name = fmt.Sprintf("%s (signature %d)", path, i+1)
			}
			if err != nil {
				r.Rejected = append(r.Rejected, fmt.Sprintf("%s: the signature %s", name, err))
				continue
			}
			a.Signature = path
			valid = append(valid, a)
			names = append(names, name)
		}
	}
	// One approver per class of SameApprover, joined transitively; the
	// first signature of a class counts for it.
	class := make([]int, len(valid))
	for i := range class {
		class[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if class[i] != i {
			class[i] = find(class[i])
		}
		return class[i]
	}
	for i := range valid {
		for j := range i {
			if SameApprover(valid[i], valid[j]) {
				ri, rj := find(i), find(j)
				class[max(ri, rj)] = min(ri, rj)
			}
		}
	}
	for i, a := range valid {
		first := valid[find(i)]
		switch {
		case find(i) == i:
			r.Approvals = append(r.Approvals, a)
		case a.Principal != first.Principal:
			// Two signatures of one principals field were always one
			// approval, silently; a join across fields is said.
			r.Rejected = append(r.Rejected, fmt.Sprintf("%s: the signature by %s (key %s) counts as the approval by %s (%s): their principals may name one person", names[i], a.Principal, a.Key, first.Principal, names[find(i)]))
		}
	}
	return r
}

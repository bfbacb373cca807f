package approval

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// maxSignatureFile bounds a signature file read into memory (one armored
// SSHSIG of an RSA-16384 key is under 8 KiB).
const maxSignatureFile = 1 << 20

// pemType is the armor of an SSHSIG signature.
const pemType = "SSH SIGNATURE"

// Approval is one valid signature of the plan by a listed key.
type Approval struct {
	// Principal is the principals field of the allowed_signers line of
	// the key (the approver's name).
	Principal string `json:"principal" yaml:"principal"`
	// Key is the key's SHA256 fingerprint, as ssh-keygen -l prints it.
	Key string `json:"key" yaml:"key"`
	// Signature is the signature file it was read from.
	Signature string `json:"signature" yaml:"signature"`
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
			return Approval{Principal: l.Principals, Key: fp}, nil
		}
	}
	if why != nil {
		return Approval{}, why
	}
	return Approval{}, fmt.Errorf("by key %s (%s) is valid, but %s does not list that key", fp, sig.PublicKey.Type(), s.Path)
}

// Result is the approvals of a plan: the signatures that count, one per
// principal, and why the others do not.
type Result struct {
	Approvals []Approval
	// Rejected are the signatures that do not count, each "FILE: why".
	Rejected []string
}

// Principals are the distinct approvers, in the order first seen.
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
// signature that cannot be read, or does not count, is in Rejected; two
// valid signatures by one principal are one approval (the first).
func (s *Signers) Check(message []byte, files []string, now time.Time) Result {
	var r Result
	seen := map[string]bool{}
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
			if seen[a.Principal] {
				continue
			}
			seen[a.Principal] = true
			a.Signature = path
			r.Approvals = append(r.Approvals, a)
		}
	}
	return r
}

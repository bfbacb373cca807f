package approval_test

import (
	"testing"
	"time"

	"github.com/kcg-dev/kcg/approval"
)

// FuzzParseSigners: any allowed_signers text parses or is refused with
// an error, never a panic.
func FuzzParseSigners(f *testing.F) {
	f.Add([]byte("alice@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA3XlK90ybAlE2J7vI6vNrwQHqYOMItuqD6Am+91baqw alice\n"))
	f.Add([]byte(`"a b",c namespaces="kcg-plan",valid-after="20260101Z" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA3XlK90ybAlE2J7vI6vNrwQHqYOMItuqD6Am+91baqw`))
	f.Add([]byte("# comment\n\n*@x cert-authority ssh-rsa AAAA\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := approval.ParseSigners("f", data, time.UTC)
		if err == nil && len(s.Lines) == 0 {
			t.Fatal("no error and no signer")
		}
		_ = approval.MatchPatternList(string(data), string(data))
	})
}

// FuzzParseArmored: any signature file parses or is refused, never a
// panic; a parsed one verifies or is refused.
func FuzzParseArmored(f *testing.F) {
	f.Add([]byte("-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgDdeUr3TJsCUTYnu8jq82vBAepg4wi26oPoCb73VtqrAAAAAIa2NnLXBsYW4AAAAAAAAABnNoYTUxMgAAAFMAAAALc3NoLWVkMjU1MTkAAABA2SLL7BS8KJvcJ/F/pNdOu+Q9ZvLaxBlsvesVNMMBUeaHlTlSS8Ma6Qe456ZnRXM4M1pW4NBj8HLyD/1lPJHTAg==\n-----END SSH SIGNATURE-----\n"))
	f.Add([]byte("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"))
	f.Add([]byte("garbage"))
	s, err := approval.ParseSigners("f", []byte("a ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA3XlK90ybAlE2J7vI6vNrwQHqYOMItuqD6Am+91baqw\n"), time.UTC)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sigs, err := approval.ParseArmored(data)
		if err != nil {
			return
		}
		for _, sig := range sigs {
			_, _ = s.Verify([]byte("plan"), sig, time.Now())
		}
	})
}

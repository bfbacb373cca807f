// Package approval is signed approvals of plan files: SSH signatures in
// the SSHSIG format of `ssh-keygen -Y sign` (namespace kcg-plan), checked
// against an OpenSSH allowed_signers file. The envelope (parse, armor,
// sign, verify) is github.com/hiddeco/sshsig over golang.org/x/crypto/ssh;
// this package adds the allowed_signers file, which neither library reads,
// and the rules of an approval (the namespace, distinct approvers). No
// network, no exit codes: commands maps its errors.
package approval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Namespace is the SSHSIG namespace of a kcg plan approval.
const Namespace = "kcg-plan"

// maxSignersFile bounds the allowed_signers file read into memory.
const maxSignersFile = 4 << 20

// Signer is one line of an allowed_signers file.
type Signer struct {
	// Principals is the line's principals field as written (a
	// comma-separated pattern list): the name an approval by this key
	// goes by, as `ssh-keygen -Y find-principals` prints it.
	Principals string
	Key        ssh.PublicKey
	// Namespaces is the namespaces= pattern list; "" when not given (any
	// namespace).
	Namespaces string
	// ValidAfter and ValidBefore are the valid-after= and valid-before=
	// bounds; zero when not given.
	ValidAfter, ValidBefore time.Time
	// Line is the line in the file.
	Line int
}

// Signers is a parsed allowed_signers file.
type Signers struct {
	Path  string
	Lines []Signer
}

// FileError is a line of an allowed_signers file that kcg refuses.
type FileError struct {
	Path string
	Line int
	Msg  string
}

func (e *FileError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// ReadSigners reads and parses the allowed_signers file at path.
func ReadSigners(path string) (*Signers, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &FileError{Path: path, Msg: "cannot read the allowed signers file: " + errText(err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSignersFile+1))
	if err != nil {
		return nil, &FileError{Path: path, Msg: "cannot read the allowed signers file: " + errText(err)}
	}
	if len(data) > maxSignersFile {
		return nil, &FileError{Path: path, Msg: "more than 4 MiB: not an allowed signers file"}
	}
	return ParseSigners(path, data, time.Local)
}

func errText(err error) string {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// ParseSigners parses the contents of an allowed_signers file, in the
// format of ssh-keygen(1) ALLOWED SIGNERS: "principals [options] keytype
// base64 [comment]". Timestamps without Z are in loc (the system zone, as
// ssh-keygen reads them). The options namespaces=, valid-after= and
// valid-before= are supported; cert-authority, and any other option, is
// refused with the line: kcg does not verify certificate signatures.
func ParseSigners(path string, data []byte, loc *time.Location) (*Signers, error) {
	s := &Signers{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), maxSignersFile)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		sg, err := parseLine(text, loc)
		if err != nil {
			return nil, &FileError{Path: path, Line: line, Msg: err.Error()}
		}
		sg.Line = line
		s.Lines = append(s.Lines, sg)
	}
	if err := sc.Err(); err != nil {
		return nil, &FileError{Path: path, Line: line + 1, Msg: "line too long"}
	}
	if len(s.Lines) == 0 {
		return nil, &FileError{Path: path, Msg: "names no signer (every line is empty or a comment)"}
	}
	return s, nil
}

// parseLine parses one non-comment line.
func parseLine(text string, loc *time.Location) (Signer, error) {
	var sg Signer
	principals, rest, err := firstField(text)
	if err != nil {
		return sg, err
	}
	if principals == "" || rest == "" {
		return sg, errors.New("expected: principals [options] keytype base64-key")
	}
	sg.Principals = principals
	// The rest is the authorized_keys form: [options] keytype base64
	// [comment]; x/crypto/ssh parses it, options with quoted commas
	// included.
	key, _, options, _, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return sg, fmt.Errorf("no valid public key after the principals %q (%v)", principals, err)
	}
	if _, ok := key.(*ssh.Certificate); ok {
		return sg, errors.New("a certificate is not a signer key: list the key itself (certificates are not supported)")
	}
	sg.Key = key
	for _, opt := range options {
		if err := sg.option(opt, loc); err != nil {
			return sg, err
		}
	}
	if !sg.ValidAfter.IsZero() && !sg.ValidBefore.IsZero() && sg.ValidBefore.Before(sg.ValidAfter) {
		return sg, errors.New("valid-before is before valid-after: the key is never valid")
	}
	return sg, nil
}

// option applies one option of a line (keywords case-insensitive, as in
// ssh-keygen).
func (sg *Signer) option(opt string, loc *time.Location) error {
	name, value, hasValue := strings.Cut(opt, "=")
	name = strings.ToLower(name)
	unquote := func() (string, error) {
		if !hasValue || len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
			return "", fmt.Errorf("option %s needs a quoted value: %s=\"...\"", name, name)
		}
		return value[1 : len(value)-1], nil
	}
	var err error
	switch name {
	case "cert-authority":
		return errors.New("option cert-authority is not supported: kcg verifies signatures by listed keys, not by certificates; list each reviewer's key")
	case "namespaces":
		if sg.Namespaces, err = unquote(); err != nil {
			return err
		}
		if sg.Namespaces == "" {
			return errors.New(`namespaces="" accepts no namespace`)
		}
	case "valid-after", "valid-before":
		v, err := unquote()
		if err != nil {
			return err
		}
		t, err := parseTimestamp(v, loc)
		if err != nil {
			return fmt.Errorf("%s=%q: %v", name, v, err)
		}
		if name == "valid-after" {
			sg.ValidAfter = t
		} else {
			sg.ValidBefore = t
		}
	default:
		return fmt.Errorf("unsupported option %q (supported: namespaces=, valid-after=, valid-before=)", opt)
	}
	return nil
}

// parseTimestamp reads YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z], as ssh-keygen.
func parseTimestamp(v string, loc *time.Location) (time.Time, error) {
	if z, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = z, time.UTC
	} else if z, ok := strings.CutSuffix(v, "z"); ok {
		v, loc = z, time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	layout, ok := layouts[len(v)]
	if !ok {
		return time.Time{}, errors.New("use YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]")
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, errors.New("use YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]")
	}
	return t, nil
}

// firstField splits off the principals field: up to the first space or
// tab, or a double-quoted string (ssh-keygen's strdelimw).
func firstField(text string) (string, string, error) {
	if text[0] == '"' {
		end := strings.IndexByte(text[1:], '"')
		if end < 0 {
			return "", "", errors.New("unterminated quote in the principals")
		}
		field := text[1 : end+1]
		rest := text[end+2:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return "", "", errors.New("expected a space after the quoted principals")
		}
		return field, strings.TrimSpace(rest), nil
	}
	i := strings.IndexAny(text, " \t")
	if i < 0 {
		return text, "", nil
	}
	return text[:i], strings.TrimSpace(text[i:]), nil
}

// MatchPatternList is OpenSSH's match_pattern_list: list is
// comma-separated patterns with * and ?, a leading ! negates; s matches
// when some positive pattern matches and no negated one does.
func MatchPatternList(s, list string) bool {
	matched := false
	for p := range strings.SplitSeq(list, ",") {
		neg := strings.HasPrefix(p, "!")
		if neg {
			p = p[1:]
		}
		if matchPattern(s, p) {
			if neg {
				return false
			}
			matched = true
		}
	}
	return matched
}

// matchPattern matches s against one pattern of * (any run) and ? (any
// one byte), as OpenSSH's match_pattern.
func matchPattern(s, p string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			if p == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if matchPattern(s[i:], p) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
		}
		s, p = s[1:], p[1:]
	}
	return s == ""
}

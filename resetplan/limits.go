package resetplan

import (
	"fmt"
	"io"
)

// The limits on untrusted input (docs/reliability.md, "Hostile input";
// docs/plan-format.md, "Limits"). Decoding a YAML plan allocates about
// sixty times its size in total (yaml.v3 builds a node tree first), so
// the file size is what bounds memory; the limits are far above any plan
// a person can review.
const (
	// MaxPlanBytes is the largest plan file kcg reads: 16 MiB, about
	// 130,000 partition lines.
	MaxPlanBytes = 16 << 20
	// MaxResetFileBytes is the largest --from-file (plan or CSV).
	MaxResetFileBytes = MaxPlanBytes
	// MaxCSVRows is the most rows a --from-file CSV may have (blank lines
	// are not counted).
	MaxCSVRows = 1_000_000
)

// ReadLimited reads r to its end, at most limit bytes: a longer input is
// refused with a *TooLargeError naming the limit after reading limit+1
// bytes, never more, so a huge file or an endless stream (/dev/zero, a
// pipe) costs no more memory than the limit. what names the input in the
// message ("plan file", "--from-file").
func ReadLimited(r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(limit, what)
	}
	return data, nil
}

// TooLargeError is an input over one of the limits. It matches
// ErrBadInput (exit 65).
type TooLargeError struct {
	Limit int64  // the limit, in bytes
	What  string // "plan file", "--from-file"
}

// Error reads like "larger than 16 MiB, kcg's limit for a plan file".
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than %s, kcg's limit for a %s", sizeText(e.Limit), e.What)
}

// Is makes a TooLargeError ErrBadInput.
func (e *TooLargeError) Is(target error) bool { return target == ErrBadInput }

func tooLarge(limit int64, what string) error { return &TooLargeError{Limit: limit, What: what} }

// sizeText prints a limit: "16 MiB", or bytes when not a whole MiB.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

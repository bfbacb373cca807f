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
	// MaxPlanBytes is the largest plan file kcg reads: 64 MiB, about
	// 550,000 partition lines, when it is in kcg's own YAML layout (the
	// bytes kcg plan writes), which fastWire reads at a few times its size
	// without yaml.v3.
	MaxPlanBytes = 64 << 20
	// MaxOtherPlanBytes is the largest plan file in any other layout
	// (JSON, or YAML written or edited by hand): 16 MiB, about 130,000
	// partition lines, as yaml.v3 and encoding/json allocate some sixty
	// times the size.
	MaxOtherPlanBytes = 16 << 20
	// MaxResetFileBytes is the largest --from-file (plan or CSV).
	MaxResetFileBytes = MaxOtherPlanBytes
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

// otherLayout names a plan file over MaxOtherPlanBytes that is not in kcg's
// own YAML layout.
const otherLayout = "plan file not in kcg's own YAML layout (JSON, or YAML written by hand; kcg reads its own YAML plans up to 64 MiB)"

// CheckWritable refuses a plan encoding that kcg would not read back: over
// MaxPlanBytes, or over MaxOtherPlanBytes as JSON. kcg plan calls it
// before writing, so it never leaves a plan that show, diff and apply
// refuse.
func CheckWritable(data []byte, f Format) error {
	switch {
	case len(data) > MaxPlanBytes:
		return fmt.Errorf("the plan is %s, larger than %s, kcg's limit for a plan file: plan fewer groups or topics at a time", sizeText(int64(len(data))), sizeText(MaxPlanBytes))
	case f == FormatJSON && len(data) > MaxOtherPlanBytes:
		return fmt.Errorf("the plan is %s as JSON, larger than %s, kcg's limit for a JSON plan file: write it as YAML (--out PLAN.yaml), which kcg reads up to %s", sizeText(int64(len(data))), sizeText(MaxOtherPlanBytes), sizeText(MaxPlanBytes))
	}
	return nil
}

// sizeText prints a limit: "16 MiB", or bytes when not a whole MiB.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

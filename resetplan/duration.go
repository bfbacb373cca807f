package resetplan

import (
	"math"
	"math/big"
	"strings"
	"time"
)

const durationHint = "want ISO-8601 PnDTnHnMn.nS, e.g. PT1M, PT1H, P1DT2H, PT0.5S"

// ParseDuration parses a --by-duration value with java.time.Duration.parse
// semantics: ISO-8601 PnDTnHnMn.nS, case-insensitive, an optional leading
// sign, a sign on each component (P1DT-1H is 23 hours), a fraction of up
// to 9 digits on seconds only ("." or ","), and no years, months or weeks
// (Java rejects P1W and P1M too: their length is not fixed). "P" and "PT"
// alone are invalid.
//
// Go's time.Duration holds about 292 years; a longer duration, which Java
// accepts, is refused with a clear message rather than overflowing.
func ParseDuration(s string) (time.Duration, error) {
	fail := func(msg string) (time.Duration, error) {
		return 0, &ArgError{Option: "by-duration", Value: s, Msg: msg + "; " + durationHint,
			Java: "Text cannot be parsed to a Duration"}
	}
	u := strings.ToUpper(s)
	neg := false
	if strings.HasPrefix(u, "-") || strings.HasPrefix(u, "+") {
		neg = u[0] == '-'
		u = u[1:]
	}
	if !strings.HasPrefix(u, "P") {
		return fail("a duration starts with P")
	}
	u = u[1:]
	// Accumulate in nanoseconds with big.Int so overflow is detected once,
	// at the end, whatever the component order and signs.
	total := new(big.Int)
	datePart, timePart, hasT := strings.Cut(u, "T")
	if datePart == "" && !hasT {
		return fail("no components after P")
	}
	if datePart != "" {
		if msg := addDatePart(total, datePart); msg != "" {
			return fail(msg)
		}
	}
	if hasT {
		if timePart == "" {
			return fail("no components after T")
		}
		if msg := addTimePart(total, timePart); msg != "" {
			return fail(msg)
		}
	}
	if neg {
		total.Neg(total)
	}
	if !total.IsInt64() || total.Int64() == math.MinInt64 {
		return fail("longer than kcg can represent (about 292 years)")
	}
	return time.Duration(total.Int64()), nil
}

// addScaled adds num (decimal, optionally signed) times unit nanoseconds to
// total; false if num is not a number.
func addScaled(total *big.Int, num string, unit int64) bool {
	v, ok := new(big.Int).SetString(num, 10)
	if !ok {
		return false
	}
	total.Add(total, v.Mul(v, big.NewInt(unit)))
	return true
}

// durationComponent reads "[+-]digits" followed by one unit letter; it
// returns the number text, the unit letter and the rest.
func durationComponent(s string) (num string, unit byte, rest string, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j >= len(s) {
		return "", 0, s, false
	}
	return s[:j], s[j], s[j+1:], true
}

// addDatePart adds the part between P and T, which may only be days, to
// total. It returns the reason the part is invalid, or "".
func addDatePart(total *big.Int, datePart string) string {
	num, unit, rest, ok := durationComponent(datePart)
	switch {
	case ok && unit == 'D' && rest == "":
		if !addScaled(total, num, int64(24*time.Hour)) {
			return "bad number of days"
		}
		return ""
	case ok && (unit == 'Y' || unit == 'M' || unit == 'W'):
		return "years, months and weeks are not supported (use days: P7D)"
	default:
		return "only days (nD) may come before T"
	}
}

// addTimePart adds the non-empty part after T (nH, nM and n.nS, each
// optional, in that order) to total. It returns the reason the part is
// invalid, or "".
func addTimePart(total *big.Int, timePart string) string {
	order := "HMS"
	for timePart != "" {
		c, msg := nextTimeComponent(timePart)
		if msg != "" {
			return msg
		}
		idx := strings.IndexByte(order, c.unit)
		if idx < 0 {
			return "components after T are nH, nM and n.nS, in that order"
		}
		order = order[idx+1:]
		switch c.unit {
		case 'H':
			addScaled(total, c.num, int64(time.Hour))
		case 'M':
			addScaled(total, c.num, int64(time.Minute))
		case 'S':
			if msg := addSeconds(total, c.num, c.frac); msg != "" {
				return msg
			}
		}
		timePart = c.rest
	}
	return ""
}

// timeComponent is one nH, nM or n.nS after T: the signed whole number,
// the fraction's digits, the unit and what follows.
type timeComponent struct {
	num, frac string
	unit      byte
	rest      string
}

// nextTimeComponent reads the component that timePart starts with; a
// non-empty msg says what is wrong with it.
func nextTimeComponent(timePart string) (c timeComponent, msg string) {
	i := 0
	if timePart[0] == '+' || timePart[0] == '-' {
		i++
	}
	j := i
	for j < len(timePart) && timePart[j] >= '0' && timePart[j] <= '9' {
		j++
	}
	if j == i {
		return c, "components after T are nH, nM and n.nS"
	}
	c.num = timePart[:j]
	hasFrac := false
	if j < len(timePart) && (timePart[j] == '.' || timePart[j] == ',') {
		k := j + 1
		for k < len(timePart) && timePart[k] >= '0' && timePart[k] <= '9' {
			k++
		}
		c.frac, hasFrac, j = timePart[j+1:k], true, k
	}
	if j >= len(timePart) {
		return c, "a number after T needs a unit H, M or S"
	}
	c.unit, c.rest = timePart[j], timePart[j+1:]
	if hasFrac && c.unit != 'S' {
		return c, "only seconds may have a fraction"
	}
	return c, ""
}

// addSeconds adds num seconds and the fraction frac (at most 9 digits)
// to total, in nanoseconds.
func addSeconds(total *big.Int, num, frac string) string {
	addScaled(total, num, int64(time.Second))
	if len(frac) > 9 {
		return "at most 9 fraction digits"
	}
	if frac != "" {
		f, _ := digitsAt(frac+strings.Repeat("0", 9-len(frac)), 0, 9)
		// The fraction takes the sign of the seconds, as in Java ("-0.5S"
		// is minus half a second).
		if strings.HasPrefix(num, "-") {
			f = -f
		}
		total.Add(total, big.NewInt(int64(f)))
	}
	return ""
}

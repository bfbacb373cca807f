package app

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// DurationForms says what ParseDuration accepts, for the messages of the
// flags that take one.
const DurationForms = "a number and a unit, d, h, m, s or ms: 8d, 6d23h, 90m, 1h30m, 45s, 500ms"

// errNotDuration is ParseDuration's error: the flag package prefixes the
// flag and the value (invalid value "8x" for flag --max-time-lag: ...).
var errNotDuration = errors.New("not a duration: give " + DurationForms)

// ParseDuration reads a duration flag: a Go duration (90s, 10m, 1h30m)
// that may start with whole days, as kcg's tables print durations (8d,
// 6d23h, 1d12h30m), so a value read off a table can be typed back.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	if neg || strings.HasPrefix(t, "+") {
		t = t[1:] // one sign, as time.ParseDuration takes
	}
	if i := strings.IndexByte(t, 'd'); i > 0 {
		days, err := strconv.ParseInt(t[:i], 10, 64)
		// time.Duration holds about 106751 days.
		if err != nil || days > 100000 || t[0] < '0' || t[0] > '9' {
			return 0, errNotDuration
		}
		d := time.Duration(days) * 24 * time.Hour
		if rest := t[i+1:]; rest != "" {
			r, err := time.ParseDuration(rest)
			if err != nil || strings.ContainsAny(rest[:1], "+-") || r > math.MaxInt64-d {
				return 0, errNotDuration
			}
			d += r
		}
		if neg {
			d = -d
		}
		return d, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, errNotDuration
	}
	return d, nil
}

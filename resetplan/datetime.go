package resetplan

import (
	"fmt"
	"strings"
	"time"
)

// dateTimeHint ends every datetime error, so the operator sees a form that
// works.
const dateTimeHint = "want yyyy-MM-ddTHH:mm:ss[.fraction][Z|±hh|±hhmm|±hh:mm], e.g. 2026-11-28T00:00:00Z or 2026-11-28T09:00:00.000+09:00 (no zone: UTC)"

// ParseDateTime parses a --to-datetime value. It accepts every form the
// Java tool accepts (yyyy-MM-ddTHH:mm:ss.SSS with zone Z, ±hh, ±hhmm,
// ±hh:mm, or no zone) and RFC 3339 besides: seconds without a fraction and
// fractions of 1 to 9 digits. A value without a zone is UTC, as in the
// Java tool (not local time).
//
// Deliberate differences from the Java tool, which parses with
// SimpleDateFormat: "+0530" is +05:30 (Java reads +05:00 and ignores the
// minutes); a fraction is a decimal fraction (".5" is 500 ms; Java reads
// 5 ms); milliseconds are optional (Java rejects "2024-01-01T00:00:00").
// A lowercase 't' or 'z' is accepted, as RFC 3339 allows.
func ParseDateTime(s string) (time.Time, error) {
	t, msg := parseDateTime(s)
	if msg == "" {
		return t, nil
	}
	java := fmt.Sprintf("Unparseable date: %q", s)
	if !strings.Contains(s, "T") {
		java = "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format"
	}
	return time.Time{}, &ArgError{Option: "to-datetime", Value: s, Msg: msg + "; " + dateTimeHint, Java: java}
}

// parseDateTime is ParseDateTime's steps in the order of their checks:
// the date, the time of day, its fraction, the zone, then the ranges. A
// non-empty msg says what is wrong (ParseDateTime adds the hint).
func parseDateTime(s string) (t time.Time, msg string) {
	if s == "" {
		return time.Time{}, "empty value"
	}
	tIdx := strings.IndexAny(s, "Tt")
	if tIdx < 0 {
		return time.Time{}, "no 'T' between date and time"
	}
	date, rest := s[:tIdx], s[tIdx+1:]
	year, month, day, ok := parseDate(date)
	if !ok {
		return time.Time{}, fmt.Sprintf("date %q is not yyyy-MM-dd", date)
	}
	hour, minute, sec, ok := parseClock(rest)
	if !ok {
		return time.Time{}, "time is not HH:mm:ss"
	}
	nanos, rest, msg := parseFraction(rest[8:])
	if msg != "" {
		return time.Time{}, msg
	}
	offset, msg := parseZone(rest)
	if msg != "" {
		return time.Time{}, msg
	}
	if month < 1 || month > 12 {
		return time.Time{}, fmt.Sprintf("month %02d is out of range", month)
	}
	if hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, fmt.Sprintf("time %02d:%02d:%02d is out of range", hour, minute, sec)
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.FixedZone("", offset))
	if day < 1 || t.Day() != day {
		// time.Date normalizes Feb 30 to Mar 2; the Java tool (non-lenient)
		// rejects it, and so do we.
		return time.Time{}, fmt.Sprintf("%s is not a calendar date", date)
	}
	if u := t.UTC(); u.Year() < 0 || u.Year() > 9999 {
		// 9999-12-31T23:00:00-05:00 is in the year 10000 in UTC, which
		// RFC 3339 cannot write: the plan would hold a time no reader
		// (kcg's own Decode included) accepts. Found by FuzzParseDateTime.
		return time.Time{}, "the time is outside the years 0000 to 9999 in UTC"
	}
	return t.UTC(), ""
}

// parseDate reads yyyy-MM-dd, the whole of date; the ranges are checked
// later.
func parseDate(date string) (year, month, day int, ok bool) {
	year, ok1 := digitsAt(date, 0, 4)
	month, ok2 := digitsAt(date, 5, 2)
	day, ok3 := digitsAt(date, 8, 2)
	ok = len(date) == 10 && date[4] == '-' && date[7] == '-' && ok1 && ok2 && ok3
	return year, month, day, ok
}

// parseClock reads HH:mm:ss at the start of rest (what follows the 'T');
// the ranges are checked later.
func parseClock(rest string) (hour, minute, sec int, ok bool) {
	if len(rest) < 8 || rest[2] != ':' || rest[5] != ':' {
		return 0, 0, 0, false
	}
	hour, ok1 := digitsAt(rest, 0, 2)
	minute, ok2 := digitsAt(rest, 3, 2)
	sec, ok3 := digitsAt(rest, 6, 2)
	return hour, minute, sec, ok1 && ok2 && ok3
}

// parseFraction reads an optional fraction of a second (".d" to
// ".ddddddddd") at the start of rest, as nanoseconds, and returns what
// follows it.
func parseFraction(rest string) (nanos int, after string, msg string) {
	if !strings.HasPrefix(rest, ".") {
		return 0, rest, ""
	}
	n := 1
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	frac := rest[1:n]
	if len(frac) == 0 || len(frac) > 9 {
		return 0, rest, "the fraction of a second must have 1 to 9 digits"
	}
	v, _ := digitsAt(frac, 0, len(frac))
	for i := len(frac); i < 9; i++ {
		v *= 10
	}
	return v, rest[n:], ""
}

// parseZone reads what follows the time: nothing or Z (UTC), or ±hh,
// ±hhmm or ±hh:mm, as an offset in seconds east of UTC.
func parseZone(rest string) (offset int, msg string) {
	switch {
	case rest == "" || rest == "Z" || rest == "z":
		return 0, ""
	case rest[0] == '+' || rest[0] == '-':
		hh, mm, ok := zoneHoursMinutes(rest[1:])
		if !ok || hh > 23 || mm > 59 {
			return 0, fmt.Sprintf("zone %q is not Z, ±hh, ±hhmm or ±hh:mm", rest)
		}
		offset = hh*3600 + mm*60
		if rest[0] == '-' {
			offset = -offset
		}
		return offset, ""
	default:
		return 0, fmt.Sprintf("unexpected %q after the time", rest)
	}
}

// zoneHoursMinutes reads a zone's hh, hhmm or hh:mm (after its sign).
func zoneHoursMinutes(z string) (hh, mm int, ok bool) {
	var ok2 bool
	switch {
	case len(z) == 2:
		hh, ok = digitsAt(z, 0, 2)
		return hh, 0, ok
	case len(z) == 4:
		hh, ok = digitsAt(z, 0, 2)
		mm, ok2 = digitsAt(z, 2, 2)
	case len(z) == 5 && z[2] == ':':
		hh, ok = digitsAt(z, 0, 2)
		mm, ok2 = digitsAt(z, 3, 2)
	}
	return hh, mm, ok && ok2
}

// digitsAt parses s[i:i+n] as an unsigned decimal; ok is false unless all n
// bytes are ASCII digits.
func digitsAt(s string, i, n int) (int, bool) {
	if i+n > len(s) || n == 0 {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// ceilMillis returns t's instant in Unix milliseconds, rounded up. Kafka
// timestamps are milliseconds and ListOffsets finds the first record with
// timestamp >= ts, so a sub-millisecond instant must round up: a record at
// exactly the truncated millisecond is earlier than what was asked for.
func ceilMillis(t time.Time) int64 {
	ms := t.UnixMilli()
	if t.Nanosecond()%int(time.Millisecond) != 0 {
		ms++
	}
	return ms
}

// formatTime is the one format for times in plan files: RFC 3339 in UTC;
// whole seconds print without a fraction ("2026-11-28T00:00:00Z"),
// millisecond instants with exactly three digits, finer ones with up to
// nine.
func formatTime(t time.Time) string {
	t = t.UTC()
	switch ns := t.Nanosecond(); {
	case ns == 0:
		return t.Format("2006-01-02T15:04:05Z")
	case ns%int(time.Millisecond) == 0:
		return t.Format("2006-01-02T15:04:05.000Z")
	default:
		return t.Format(time.RFC3339Nano)
	}
}

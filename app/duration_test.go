package app

import (
	"strings"
	"testing"
	"time"
)

// Durations may start with days, as the tables print them (6d23h), and a
// bad one says which forms are accepted (issue 30 item 14).
func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"8d":       8 * 24 * time.Hour,
		"6d23h":    6*24*time.Hour + 23*time.Hour,
		"1d12h30m": 36*time.Hour + 30*time.Minute,
		"0d":       0,
		"-2d":      -48 * time.Hour,
		" 1d ":     24 * time.Hour,
		"90s":      90 * time.Second,
		"1h30m":    90 * time.Minute,
		"500ms":    500 * time.Millisecond,
		"0":        0,
		"-5m":      -5 * time.Minute,
	} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "8", "8x", "1.5d", "d3h", "1d-3h", "1d+3h", "2d2d", "1h2d", "999999d", "100000d2562047h", "--2d", "+-2d", "parse"} {
		_, err := ParseDuration(in)
		if err == nil || !strings.Contains(err.Error(), "8d, 6d23h") {
			t.Errorf("ParseDuration(%q): %v, want an error naming the accepted forms", in, err)
		}
	}
}

package resetplan

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDateTime(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			panic(err)
		}
		return v.UTC()
	}
	valid := []struct {
		in   string
		want string
	}{
		// The Java tool's forms (UtilsTest.shouldAcceptValidDateFormats).
		{"2024-01-01T00:00:00.000", "2024-01-01T00:00:00Z"}, // no zone = UTC
		{"2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00Z"},
		{"2024-01-01T01:00:00.000+01", "2024-01-01T00:00:00Z"},
		{"2024-01-01T01:00:00.000+0100", "2024-01-01T00:00:00Z"},
		{"2024-01-01T01:00:00.000+01:00", "2024-01-01T00:00:00Z"},
		{"2023-12-31T19:00:00.000-05:00", "2024-01-01T00:00:00Z"},
		{"2024-01-01T00:00:00.123", "2024-01-01T00:00:00.123Z"},
		// RFC 3339 without milliseconds (Java rejects these).
		{"2026-11-28T00:00:00Z", "2026-11-28T00:00:00Z"},
		{"2026-11-28T09:00:00+09:00", "2026-11-28T00:00:00Z"},
		{"2026-11-28T00:00:00", "2026-11-28T00:00:00Z"},
		{"2026-11-28t00:00:00z", "2026-11-28T00:00:00Z"},
		// +0530 is +05:30 in kcg (Java: +05:00).
		{"2026-11-28T05:30:00+0530", "2026-11-28T00:00:00Z"},
		{"2026-11-28T05:30:00.000+05:30", "2026-11-28T00:00:00Z"},
		// Fractions are decimal, 1 to 9 digits.
		{"2026-11-28T00:00:00.5Z", "2026-11-28T00:00:00.5Z"},
		{"2026-11-28T00:00:00.123456789Z", "2026-11-28T00:00:00.123456789Z"},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"},
		// The edges of what RFC 3339 (a plan file) can hold.
		{"9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z"},
		{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"},
	}
	for _, tc := range valid {
		got, err := ParseDateTime(tc.in)
		if err != nil {
			t.Errorf("ParseDateTime(%q): %v", tc.in, err)
			continue
		}
		if want := utc(tc.want); !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseDateTime(%q) = %v, want %v", tc.in, got, want)
		}
	}
	invalid := []struct {
		in, msg, java string
	}{
		{"2024-01-01 00:00:00", "no 'T'", "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format"},
		{"", "empty", "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format"},
		{"2024-13-01T00:00:00Z", "month 13", `Unparseable date: "2024-13-01T00:00:00Z"`},
		{"2023-02-29T00:00:00Z", "not a calendar date", ""},
		{"2024-01-01T24:00:00Z", "out of range", ""},
		{"2024-01-01T00:60:00Z", "out of range", ""},
		{"2024-01-01T00:00Z", "HH:mm:ss", ""},
		{"2024-1-01T00:00:00Z", "yyyy-MM-dd", ""},
		{"2024-01-01T00:00:00.Z", "1 to 9 digits", ""},
		{"2024-01-01T00:00:00.1234567890Z", "1 to 9 digits", ""},
		{"2024-01-01T00:00:00+1", "zone", ""},
		{"2024-01-01T00:00:00+01:0", "zone", ""},
		{"2024-01-01T00:00:00+24:00", "zone", ""},
		{"2024-01-01T00:00:00 UTC", "unexpected", ""},
		{"now", "no 'T'", ""},
		// In UTC these are in the years 10000 and -1, which a plan file
		// (RFC 3339) cannot hold.
		{"9999-12-31T23:59:59.999999999-23:59", "0000 to 9999", ""},
		{"0000-01-01T00:00:00+23:59", "0000 to 9999", ""},
	}
	for _, tc := range invalid {
		_, err := ParseDateTime(tc.in)
		var ae *ArgError
		if !errors.As(err, &ae) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("ParseDateTime(%q) = %v, want *ArgError", tc.in, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "--to-datetime") || !strings.Contains(err.Error(), "2026-11-28T00:00:00Z") {
			t.Errorf("ParseDateTime(%q) error %q: want it to contain %q, the option and an example", tc.in, err, tc.msg)
		}
		if tc.in != "" && !strings.Contains(err.Error(), tc.in) {
			t.Errorf("error %q does not name the input", err)
		}
		if tc.java != "" && ae.JavaMessage() != tc.java {
			t.Errorf("ParseDateTime(%q) Java message %q, want %q", tc.in, ae.JavaMessage(), tc.java)
		}
	}
}

func TestCeilMillisAndFormatTime(t *testing.T) {
	base := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ns     int
		ms     int64
		format string
	}{
		{0, 0, "2026-11-28T00:00:00Z"},
		{int(time.Millisecond), 1, "2026-11-28T00:00:00.001Z"},
		{500 * int(time.Millisecond), 500, "2026-11-28T00:00:00.500Z"},
		{1, 1, "2026-11-28T00:00:00.000000001Z"},
		{int(time.Millisecond) + 1, 2, "2026-11-28T00:00:00.001000001Z"},
	} {
		ts := base.Add(time.Duration(tc.ns))
		if got := ceilMillis(ts) - base.UnixMilli(); got != tc.ms {
			t.Errorf("ceilMillis(+%dns) = +%d, want +%d", tc.ns, got, tc.ms)
		}
		if got := formatTime(ts.In(time.FixedZone("", 3600))); got != tc.format {
			t.Errorf("formatTime(+%dns) = %s, want %s", tc.ns, got, tc.format)
		}
	}
}

func TestParseDuration(t *testing.T) {
	valid := []struct {
		in   string
		want time.Duration
	}{
		{"PT1M", time.Minute},
		{"P1DT2H", 26 * time.Hour},
		{"PT0.1S", 100 * time.Millisecond},
		{"-PT1H", -time.Hour},
		{"+PT1H", time.Hour},
		{"pt1m", time.Minute},
		{"P2D", 48 * time.Hour},
		{"PT1H30M", 90 * time.Minute},
		{"PT1H2M3.5S", time.Hour + 2*time.Minute + 3500*time.Millisecond},
		{"PT0,5S", 500 * time.Millisecond},
		{"PT1.S", time.Second},
		{"P1DT-1H", 23 * time.Hour},
		{"PT-0.5S", -500 * time.Millisecond},
		{"-PT-1H", time.Hour},
		{"PT0.000000001S", time.Nanosecond},
		{"PT36H", 36 * time.Hour},
		{"P0D", 0},
	}
	for _, tc := range valid {
		got, err := ParseDuration(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	invalid := []struct{ in, msg string }{
		{"P1W", "weeks"},
		{"P1M", "months"},
		{"P1Y", "years"},
		{"PT", "after T"},
		{"P", "no components"},
		{"P1DT", "after T"},
		{"1H", "starts with P"},
		{"", "starts with P"},
		{"PT1.5M", "only seconds"},
		{"PT1M1H", "in that order"},
		{"PT1H1H", "in that order"},
		{"PT0.1234567891S", "9 fraction"},
		{"PTH", "components after T"},
		{"PT1", "unit"},
		{"P1.5D", "only days"},
		{"P200000D", "292 years"},
		{"PT1X", "components after T"},
	}
	for _, tc := range invalid {
		_, err := ParseDuration(tc.in)
		var ae *ArgError
		if !errors.As(err, &ae) {
			t.Errorf("ParseDuration(%q) = %v, want *ArgError", tc.in, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "PT1H") {
			t.Errorf("ParseDuration(%q) error %q: want %q and an example", tc.in, err, tc.msg)
		}
		if ae.JavaMessage() != "Text cannot be parsed to a Duration" {
			t.Errorf("Java message %q", ae.JavaMessage())
		}
	}
}

func TestParseTopicArg(t *testing.T) {
	for _, tc := range []struct {
		in    string
		topic string
		parts []int32
		java  string
	}{
		{in: "t", topic: "t"},
		{in: "t:0", topic: "t", parts: []int32{0}},
		{in: "t:2,0,2", topic: "t", parts: []int32{0, 2}},
		{in: "t:0,1,", topic: "t", parts: []int32{0, 1}}, // Java split drops trailing empties
		{in: "t:,", topic: "t", parts: []int32{}},        // listed, but none
		{in: "t:", java: "Invalid topic arg 't:', expected topic name and partitions"},
		{in: "t:0:1", java: "Invalid topic arg 't:0:1', expected topic name and partitions"},
		{in: ":", java: "Invalid topic arg ':', expected topic name and partitions"},
		{in: "t:x", java: "Invalid partition 'x' specified in topic arg 't:x''"},
		{in: "t:0,,1", java: "Invalid partition '' specified in topic arg 't:0,,1''"},
		{in: "t:0, 1", java: "Invalid partition ' 1' specified in topic arg 't:0, 1''"},
		{in: "t:99999999999", java: "Invalid partition '99999999999' specified in topic arg 't:99999999999''"},
	} {
		got, err := ParseTopicArg(tc.in)
		if tc.java != "" {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.JavaMessage() != tc.java || !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("ParseTopicArg(%q) error %v, want Java text %q", tc.in, err, tc.java)
			} else if !strings.Contains(err.Error(), tc.in) {
				t.Errorf("kcg error %q does not name the argument", err)
			}
			continue
		}
		if err != nil || got.Topic != tc.topic || (tc.parts == nil) != (got.Partitions == nil) || len(got.Partitions) != len(tc.parts) {
			t.Errorf("ParseTopicArg(%q) = %+v, %v; want %s %v", tc.in, got, err, tc.topic, tc.parts)
			continue
		}
		for i := range tc.parts {
			if got.Partitions[i] != tc.parts[i] {
				t.Errorf("ParseTopicArg(%q) partitions %v, want %v", tc.in, got.Partitions, tc.parts)
			}
		}
	}
	s, err := ParseScope(false, []string{"a", "b:1"})
	if err != nil || len(s.Topics) != 2 || s.IsZero() {
		t.Errorf("ParseScope = %+v, %v", s, err)
	}
	if _, err := ParseScope(false, []string{"a", "b:x"}); err == nil {
		t.Error("ParseScope accepted b:x")
	}
	if !(Scope{}).IsZero() || (Scope{AllTopics: true}).IsZero() {
		t.Error("IsZero")
	}
}

func TestParseStrategy(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        StrategyType
		offset      int64
		errJava     string
	}{
		{name: "--to-earliest", want: StrategyToEarliest},
		{name: "to-latest", want: StrategyToLatest},
		{name: "to-current", want: StrategyToCurrent},
		{name: "--to-offset", value: "42", want: StrategyToOffset, offset: 42},
		{name: "to-offset", value: "-1", want: StrategyToOffset, offset: -1},
		{name: "--shift-by", value: "-50", want: StrategyShiftBy, offset: -50},
		{name: "--to-offset", value: "abc", errJava: "Cannot parse argument 'abc' of option to-offset"},
		{name: "--shift-by", value: "1.5", errJava: "Cannot parse argument '1.5' of option shift-by"},
		{name: "--to-datetime", value: "2026-11-28T00:00:00Z", want: StrategyToDatetime},
		{name: "--to-datetime", value: "yesterday", errJava: "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format"},
		{name: "--by-duration", value: "PT1H", want: StrategyByDuration},
		{name: "--by-duration", value: "P1W", errJava: "Text cannot be parsed to a Duration"},
		{name: "--from-file", value: "plan.csv", want: StrategyFromFile},
		{name: "--from-file", value: "", errJava: "invalid --from-file \"\": a file name is required"},
		{name: "--to-nowhere", errJava: `unknown strategy "--to-nowhere"; want one of --to-offset, --to-datetime, --by-duration, --to-earliest, --to-latest, --to-current, --shift-by, --from-file, --to-group, --translate-from`},
	} {
		s, err := ParseStrategy(tc.name, tc.value)
		if tc.errJava != "" {
			var ae *ArgError
			if !errors.As(err, &ae) || ae.JavaMessage() != tc.errJava {
				t.Errorf("ParseStrategy(%s %q) err %v, want %q", tc.name, tc.value, err, tc.errJava)
			}
			continue
		}
		if err != nil || s.Type != tc.want || s.Offset != tc.offset {
			t.Errorf("ParseStrategy(%s %q) = %+v, %v", tc.name, tc.value, s, err)
		}
	}
	s, _ := ParseStrategy("by-duration", "PT1H")
	if s.Duration != time.Hour || s.DurationText != "PT1H" {
		t.Errorf("by-duration spec %+v", s)
	}
	s, _ = ParseStrategy("from-file", "x.csv")
	if s.File != "x.csv" {
		t.Errorf("from-file spec %+v", s)
	}
}

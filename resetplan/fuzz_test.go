package resetplan

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fuzz targets of resetplan's parsers of untrusted input. Seed
// corpora are in testdata/fuzz/FuzzX/ (taken from the golden plans and
// CSVs of testdata/) besides the f.Add seeds; .ci/fuzz runs each target
// for a bounded time. Every target checks properties, not only the
// absence of a panic: an error is the package's error type, and what
// parses survives its own encoding.

// addTestdata adds every testdata file matching pattern as a seed.
func addTestdata(f *testing.F, pattern string) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s: %v", pattern, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkDecodeError is the contract of Decode's and parseCSV's errors.
func checkDecodeError(t *testing.T, err error) {
	t.Helper()
	var de *DecodeError
	var tl *TooLargeError
	if !(errors.As(err, &de) || errors.As(err, &tl)) || !errors.Is(err, ErrBadInput) {
		t.Fatalf("error %T %q is not a *DecodeError or *TooLargeError (ErrBadInput)", err, err)
	}
	if err.Error() == "" {
		t.Fatal("empty error message")
	}
}

// FuzzDecode: a plan that decodes survives encode → decode in both
// encodings with the same digest, and its encoding is stable (a second
// encode gives the same bytes). Anything else is a *DecodeError.
func FuzzDecode(f *testing.F) {
	addTestdata(f, "plan-*.yaml")
	addTestdata(f, "plan-*.json")
	addTestdata(f, "export-*.csv")
	for _, s := range []string{
		"", "{}", "[]", "null", "---\n---\n", "apiVersion: kcg/v2\nkind: OffsetResetPlan\n",
		"apiVersion: kcg/v1\nkind: OffsetResetPlan\nx: &a [*a]\n",
		`{"apiVersion":"kcg/v1","kind":"OffsetResetPlan","kind":"x"}`,
		"a: &a [1,2]\nb: [*a,*a,*a]\n",
		strings.Repeat("[", 100), strings.Repeat("{\"a\":", 100),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		digest := Digest(p)
		for _, format := range []Format{FormatYAML, FormatJSON} {
			enc, err := Encode(p, format)
			if err != nil {
				t.Fatalf("Encode(%s) of a decoded plan: %v", format, err)
			}
			p2, err := Decode(enc)
			if err != nil {
				t.Fatalf("Decode of its own %s encoding: %v\n%s", format, err, enc)
			}
			if d2 := Digest(p2); d2 != digest {
				t.Fatalf("%s round trip changed the digest: %s -> %s\n%s", format, digest, d2, enc)
			}
			enc2, err := Encode(p2, format)
			if err != nil || !bytes.Equal(enc, enc2) {
				t.Fatalf("%s encoding not stable (err %v):\n%s\n---\n%s", format, err, enc, enc2)
			}
		}
		if Digest(p) != digest {
			t.Fatal("encoding changed the plan's digest")
		}
	})
}

// FuzzParseResetFile: a --from-file (plan or Java CSV) parses or fails
// with a *DecodeError; the targets of a CSV survive ExportCSV and a
// second parse.
func FuzzParseResetFile(f *testing.F) {
	for _, pattern := range []string{"export-*.csv", "plan-*.yaml", "plan-*.json"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pattern))
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data, "")
			f.Add(data, "billing")
		}
	}
	for _, s := range []string{
		"t,0,5\n", "g,t,0,5\n", "topic,partition,offset\nt,0,1\n", "\xef\xbb\xbfg,t,0,1\r\n\r\n",
		"\"g\nx\",t,0,1\n", "g,t, 1 , 2 \n", "g,t,0\n", "\"unterminated\n", "g,t,99999999999,1\n",
	} {
		f.Add([]byte(s), "")
		f.Add([]byte(s), "g")
	}
	f.Fuzz(func(t *testing.T, data []byte, single string) {
		ft, format, err := ParseResetFile(data, single)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if format == FormatPlan {
			return // FuzzDecode covers plans
		}
		if format == FormatCSVNoGroup {
			if len(ft) != 1 || ft[single] == nil {
				t.Fatalf("topic,partition,offset file gave groups %v, want only %q", slices.Collect(mapKeys(ft)), single)
			}
		}
		// encoding/csv reads \r\n inside a quoted field as \n: names with
		// a carriage return do not survive a CSV, in any reader.
		if strings.ContainsRune(targetsText(ft), '\r') {
			return
		}
		p := &Plan{}
		for g, m := range ft {
			grp := Group{Group: g}
			for tp, off := range m {
				grp.Partitions = append(grp.Partitions, Partition{Topic: tp.Topic, Partition: tp.Partition, Target: i64(off)})
			}
			p.Groups = append(p.Groups, grp)
		}
		csv, err := ExportCSV(p, CSVWithGroup)
		if err != nil {
			t.Fatalf("ExportCSV: %v", err)
		}
		ft2, _, err := parseCSV(csv, "")
		if err != nil {
			t.Fatalf("parseCSV of its own export: %v\n%s", err, csv)
		}
		if got, want := targetsText(ft2), targetsText(ft); got != want {
			t.Fatalf("CSV round trip:\n%s\nwant\n%s\nexport:\n%s", got, want, csv)
		}
	})
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// targetsText renders targets sorted, for comparison; groups without a
// partition are left out (a CSV cannot hold them).
func targetsText(ft FileTargets) string {
	var lines []string
	for g, m := range ft {
		for tp, off := range m {
			lines = append(lines, strconv.Quote(g)+" "+strconv.Quote(tp.Topic)+" "+strconv.Itoa(int(tp.Partition))+" "+strconv.FormatInt(off, 10))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// checkArgError is the contract of the flag value parsers' errors: an
// *ArgError (ErrInvalidArgument) with kcg's and the Java tool's message.
func checkArgError(t *testing.T, err error) {
	t.Helper()
	var ae *ArgError
	if !errors.As(err, &ae) || !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("error %T %q is not an *ArgError", err, err)
	}
	if ae.Error() == "" || ae.JavaMessage() == "" {
		t.Fatalf("ArgError without a message: %q / %q", ae.Error(), ae.JavaMessage())
	}
}

// FuzzParseDateTime: a --to-datetime that parses is a UTC instant that
// reads back the same from its plan-file form.
func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{
		"2024-01-01T00:00:00.000", "2024-01-01T01:00:00.000+01", "2024-01-01T01:00:00.000+0100",
		"2023-12-31T19:00:00.000-05:00", "2026-11-28t00:00:00z", "2026-11-28T00:00:00.123456789Z",
		"2024-02-29T00:00:00Z", "2024-01-01 00:00:00", "", "T", "9999-12-31T23:59:59.999999999-23:59",
		"0000-01-01T00:00:00+23:59", "2024-01-01T00:00:00.1234567890Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseDateTime(s)
		if err != nil {
			checkArgError(t, err)
			return
		}
		if tm.Location() != time.UTC {
			t.Fatalf("ParseDateTime(%q) is in %v, want UTC", s, tm.Location())
		}
		back, err := ParseDateTime(formatTime(tm))
		if err != nil || !back.Equal(tm) {
			t.Fatalf("ParseDateTime(%q) = %v; its form %q reads back as %v, %v", s, tm, formatTime(tm), back, err)
		}
	})
}

// FuzzParseDuration: a --by-duration that parses negates exactly with a
// leading '-' (Java's Duration.parse), and is deterministic.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{
		"PT1M", "PT1H", "P1DT2H", "PT0.5S", "pt1m", "-PT1H", "+P1D", "P1DT-1H", "PT-0.5S", "PT1,5S",
		"P", "PT", "P1W", "P1M", "PT0.1234567891S", "P106751DT23H47M16.854775807S", "P999999999999999999999D",
		"PT-9223372036.854775808S",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			checkArgError(t, err)
			return
		}
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			return
		}
		neg, err := ParseDuration("-" + s)
		if d == math.MinInt64 {
			if err == nil {
				t.Fatalf("ParseDuration(-%q) = %v, want an overflow error", s, neg)
			}
			return
		}
		if err != nil || neg != -d {
			t.Fatalf("ParseDuration(%q) = %v but ParseDuration(-%q) = %v, %v", s, d, s, neg, err)
		}
	})
}

// FuzzParseTopicArg: a --topic that parses has sorted, distinct
// partitions and reads back the same from its canonical form.
func FuzzParseTopicArg(f *testing.F) {
	for _, s := range []string{"t", "t:0", "t:0,1,2", "t:2,0,2", "t:0,1,", "t:", "t:,", "t:0,,1", "t:x", ":0", "a:b:c", "t:-1", "t:2147483648", ""} {
		f.Add(s, "u:1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ts, err := ParseTopicArg(a)
		if err != nil {
			checkArgError(t, err)
		} else {
			if !slices.IsSorted(ts.Partitions) || len(slices.Compact(slices.Clone(ts.Partitions))) != len(ts.Partitions) {
				t.Fatalf("ParseTopicArg(%q) partitions %v not sorted and distinct", a, ts.Partitions)
			}
			if ts.Partitions == nil {
				if ts.Topic != a {
					t.Fatalf("ParseTopicArg(%q) topic %q", a, ts.Topic)
				}
			} else if len(ts.Partitions) > 0 {
				var ps []string
				for _, p := range ts.Partitions {
					ps = append(ps, strconv.Itoa(int(p)))
				}
				canon := ts.Topic + ":" + strings.Join(ps, ",")
				back, err := ParseTopicArg(canon)
				if err != nil || back.Topic != ts.Topic || !slices.Equal(back.Partitions, ts.Partitions) {
					t.Fatalf("ParseTopicArg(%q) = %+v; %q reads back as %+v, %v", a, ts, canon, back, err)
				}
			}
		}
		s, err := ParseScope(false, []string{a, b})
		if err != nil {
			checkArgError(t, err)
			return
		}
		if len(s.Topics) != 2 || s.IsZero() {
			t.Fatalf("ParseScope(%q, %q) = %+v", a, b, s)
		}
	})
}

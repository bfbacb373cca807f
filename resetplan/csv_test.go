package resetplan

import (
	"errors"
	"strings"
	"testing"
)

func TestCSVField(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"orders", "orders"},
		{"my-group_1.x", "my-group_1.x"},
		{"a,b", `"a,b"`},
		{`say "hi"`, `"say ""hi"""`},
		{`a"b`, `"a""b"`},
		{"a b", `"a b"`}, // space is below '-': Jackson loose quoting
		{"a+b", `"a+b"`}, // so is '+'
		{"a#b", `"a#b"`}, // and '#'
		{"line\nbreak", "\"line\nbreak\""},
		{"cr\rx", "\"cr\rx\""},
		{"abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx"},     // 24: not quoted
		{"abcdefghijklmnopqrstuvwxy", `"abcdefghijklmnopqrstuvwxy"`}, // 25: always quoted
		{"ü", "ü"},
		{"", ""},
		{strings.Repeat("😀", 12), strings.Repeat("😀", 12)},             // 24 UTF-16 units
		{strings.Repeat("😀", 13), `"` + strings.Repeat("😀", 13) + `"`}, // 26
	} {
		if got := csvField(tc.in); got != tc.want {
			t.Errorf("csvField(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func csvPlan() *Plan {
	p := &Plan{APIVersion: APIVersion, Kind: Kind, Strategy: Strategy{Type: StrategyToOffset, Offset: i64(2)}}
	part := func(topic string, n int32, target int64) Partition {
		return Partition{Topic: topic, Partition: n, Target: i64(target), LogEnd: 10, Reason: ReasonResolved}
	}
	p.Groups = []Group{
		{Group: `odd "group", with comma`, Partitions: []Partition{part("orders", 1, 2), part("orders", 0, 2)}},
		{Group: "billing", Partitions: []Partition{part("payments-eu-west-1-retry-dlq", 0, 7), part("orders", 0, 5)}},
	}
	return p
}

func TestExportCSV(t *testing.T) {
	p := csvPlan()
	got, err := ExportCSV(p, CSVWithGroup)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export-with-group.csv", got)
	one := &Plan{Groups: p.Groups[1:]}
	got, err = ExportCSV(one, CSVNoGroup)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export-single-group.csv", got)
	if want := "orders,0,5\n\"payments-eu-west-1-retry-dlq\",0,7\n\n"; string(got) != want {
		t.Errorf("single-group export %q, want %q", got, want)
	}
	if got, _ := ExportCSV(&Plan{}, CSVWithGroup); string(got) != "\n" {
		t.Errorf("empty export %q, want a lone newline (Java println)", got)
	}
	if _, err := ExportCSV(p, CSVNoGroup); err == nil {
		t.Error("3-column export of two groups accepted")
	}
	del := &Plan{Groups: []Group{{Group: "g", Partitions: []Partition{{Topic: "t", Reason: ReasonDeleteOffset}}}}}
	if _, err := ExportCSV(del, CSVWithGroup); err == nil {
		t.Error("delete-offset exported")
	}
}

// TestCSVRoundTrip: what ExportCSV writes, parseCSV reads back, including
// the group ids Java's own line-based reader cannot.
func TestCSVRoundTrip(t *testing.T) {
	p := csvPlan()
	p.Groups = append(p.Groups, Group{Group: "multi\nline", Partitions: []Partition{{Topic: "t", Partition: 3, Target: i64(9)}}})
	data, err := ExportCSV(p, CSVWithGroup)
	if err != nil {
		t.Fatal(err)
	}
	ft, format, err := parseCSV(data, "")
	if err != nil || format != FormatCSVWithGroup {
		t.Fatalf("parseCSV: %v %v", format, err)
	}
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			if got, ok := ft[g.Group][pt.TP()]; !ok || got != *pt.Target {
				t.Errorf("%q %s: got %d %v, want %d", g.Group, pt.TP(), got, ok, *pt.Target)
			}
		}
	}
}

func TestParseCSV(t *testing.T) {
	type row = map[string]map[TopicPartition]int64
	cases := []struct {
		name, data, single string
		format             FileFormat
		want               row
		err                string
	}{
		{"3 columns, one --group", "t,0,5\nt,1,6\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): 5, tp("t", 1): 6}}, ""},
		{"4 columns, one --group (Java reads it too)", "g,t,0,5\nh,t,0,6\n", "g", FormatCSVWithGroup, row{"g": {tp("t", 0): 5}, "h": {tp("t", 0): 6}}, ""},
		{"4 columns, several groups", "g,t,0,5\nh,t,1,6\n", "", FormatCSVWithGroup, row{"g": {tp("t", 0): 5}, "h": {tp("t", 1): 6}}, ""},
		{"duplicates: last wins", "t,0,5\nt,0,7\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): 7}}, ""},
		{"CRLF, blank lines, trailing blank line", "t,0,5\r\n\r\n\r\nt,1,6\r\n\r\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): 5, tp("t", 1): 6}}, ""},
		{"Java export ends with an empty line", "t,0,5\n\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): 5}}, ""},
		{"BOM and header", "\xef\xbb\xbftopic,partition,offset\nt,0,5\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): 5}}, ""},
		{"group header", "group,topic,partition,offset\ng,t,0,5\n", "", FormatCSVWithGroup, row{"g": {tp("t", 0): 5}}, ""},
		{"quoted group with comma and quote", "\"a,\"\"b\",t,0,5\n", "", FormatCSVWithGroup, row{`a,"b`: {tp("t", 0): 5}}, ""},
		{"spaces around numbers", "t, 0 , 5\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): 5}}, ""},
		{"negative offset is kept (clamped later)", "t,0,-3\n", "g", FormatCSVNoGroup, row{"g": {tp("t", 0): -3}}, ""},
		{"empty file", "", "g", FormatCSVWithGroup, row{}, ""},
		{"3 columns with several groups", "t,0,5\n", "", "", nil, "CSV line 1: this is a topic,partition,offset file"},
		{"3 then 4 columns", "t,0,5\ng,t,0,5\n", "g", "", nil, "CSV line 2: 4 fields, want 3 (topic,partition,offset) as on line 1"},
		{"extra column", "g,t,0,5,x\n", "", "", nil, "CSV line 1: 5 fields, want 4 (group,topic,partition,offset), or 3 (topic,partition,offset) with exactly one --group"},
		{"extra column, one --group: 3 is valid too", "t,0,5,x,y\n", "g", "", nil, "CSV line 1: 5 fields, want 4 (group,topic,partition,offset) or 3 (topic,partition,offset)"},
		{"two fields, one --group", "t,0\n", "g", "", nil, "CSV line 1: 2 fields, want 4 (group,topic,partition,offset) or 3 (topic,partition,offset)"},
		{"4 columns then 3", "g,t,0,5\nt,0,5\n", "", "", nil, "CSV line 2: 3 fields, want 4 (group,topic,partition,offset) as on line 1"},
		{"bad partition", "g,t,x,5\n", "", "", nil, `CSV line 1: partition "x" is not a number`},
		{"bad offset", "g,t,0,1.5\n", "", "", nil, `CSV line 1: offset "1.5" is not a number`},
		{"partition overflow", "g,t,3000000000,5\n", "", "", nil, `partition "3000000000" is not a number`},
		// One group, a 3-field first row with a bad number: the field is
		// named, not "3 fields, want 4" (issue 20 §2.15).
		{"3 columns, bad offset on line 1", "t1,0,zero\n", "g", "", nil, `CSV line 1: offset "zero" is not a number`},
		{"3 columns, bad partition on line 1", "t1,zero,8\n", "g", "", nil, `CSV line 1: partition "zero" is not a number`},
		{"3 columns, bad offset on line 2", "t1,0,5\nt1,1,zero\n", "g", "", nil, `CSV line 2: offset "zero" is not a number`},
		{"4 columns missing a field, several groups", "g,t,0\n", "", "", nil, "CSV line 1: 3 fields, want 4 (group,topic,partition,offset), or 3 (topic,partition,offset) with exactly one --group"},
		{"bare quote", "g\"x,t,0,5\n", "", "", nil, "CSV line 1: bare \""},
	}
	for _, tc := range cases {
		ft, format, err := parseCSV([]byte(tc.data), tc.single)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrBadInput) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if format != tc.format {
			t.Errorf("%s: format %s, want %s", tc.name, format, tc.format)
		}
		if len(ft) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, ft, tc.want)
		}
		for g, m := range tc.want {
			if len(ft[g]) != len(m) {
				t.Errorf("%s: group %q %v, want %v", tc.name, g, ft[g], m)
			}
			for k, v := range m {
				if ft[g][k] != v {
					t.Errorf("%s: %q %s = %d, want %d", tc.name, g, k, ft[g][k], v)
				}
			}
		}
	}
}

func TestParseResetFilePlan(t *testing.T) {
	p := samplePlan()
	for _, f := range []Format{FormatYAML, FormatJSON} {
		data, err := Encode(p, f)
		if err != nil {
			t.Fatal(err)
		}
		ft, format, err := ParseResetFile(append([]byte("# reviewed\n"), data...), "")
		if err != nil || format != FormatPlan {
			t.Fatalf("%s: %v %v", f, format, err)
		}
		if ft["billing"][tp("payments", 0)] != 0 || ft["billing"][tp("payments", 1)] != 6 || len(ft["analytics"]) != 1 {
			t.Errorf("%s: targets %v", f, ft)
		}
	}
	if _, format, err := ParseResetFile([]byte("t,0,1\n"), "g"); err != nil || format != FormatCSVNoGroup {
		t.Errorf("CSV through ParseResetFile: %v %v", format, err)
	}
	rb := Rollback(p, LiveOffsets{}, testNow)
	data, _ := EncodeYAML(rb)
	if _, _, err := ParseResetFile(data, ""); err == nil || !strings.Contains(err.Error(), "delete-offset") || !errors.Is(err, ErrBadInput) {
		t.Errorf("rollback with deletes as from-file: %v", err)
	}
	if _, _, err := ParseResetFile([]byte("apiVersion: kcg/v2\nkind: OffsetResetPlan\n"), ""); !errors.Is(err, ErrUnsupportedVersion) {
		t.Errorf("v2 plan as from-file: %v", err)
	}
}

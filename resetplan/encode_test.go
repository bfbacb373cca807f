package resetplan

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// samplePlan is the example of docs/plan-format.md, with a second group.
func samplePlan() *Plan {
	return &Plan{
		APIVersion: APIVersion, Kind: Kind,
		CreatedAt: time.Date(2026, 11, 29, 7, 10, 0, 0, time.UTC), CreatedBy: "kcg 0.1.0",
		Cluster:     Cluster{ID: "4L6g3nShT-eMCtK--X86sw", Bootstrap: "broker-1:9092"},
		Strategy:    Strategy{Type: StrategyToDatetime, Datetime: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)},
		Annotations: &Annotations{Ticket: "CHG-1234", Note: "replay payments lost in the 11-28 outage"},
		Groups: []Group{
			{Group: "billing", Type: "classic", StateAtPlan: "Empty", Partitions: []Partition{
				{Topic: "payments", Partition: 1, Target: i64(6), LogStart: 0, LogEnd: 6, Reason: ReasonNoRecordAfterTime},
				{Topic: "payments", Partition: 0, Current: i64(3), Target: i64(0), LogStart: 0, LogEnd: 6, Reason: ReasonResolved},
			}},
			{Group: "analytics", Type: "consumer", StateAtPlan: "Empty", Partitions: []Partition{
				{Topic: "payments", Partition: 0, Current: i64(5), Target: i64(2), LogStart: 2, LogEnd: 6, Reason: ReasonResolved},
			}},
		},
	}
}

// oddPlan has strings YAML must quote and JSON must escape.
func oddPlan() *Plan {
	p := &Plan{
		APIVersion: APIVersion, Kind: Kind,
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 678000000, time.UTC), CreatedBy: "kcg 0.1.0-dev+abc",
		Cluster:     Cluster{ID: "", Bootstrap: "b1:9092,b2:9092"},
		Strategy:    Strategy{Type: StrategyByDuration, Duration: "PT1H", ResolvedTime: time.Date(2026, 1, 2, 2, 4, 5, 678000000, time.UTC)},
		Annotations: &Annotations{Note: "line one\nline \"two\" <&>"},
	}
	for _, name := range []string{"007", "yes", "null", "true", "a: b", "#hash", "multi\nline", "- dash", "{brace}", "1e3", "2026-01-01", "ü-grüße", " lead"} {
		p.Groups = append(p.Groups, Group{Group: name, Type: "classic", StateAtPlan: "Dead", Partitions: []Partition{
			{Topic: "t", Partition: 0, Target: i64(1), LogStart: 0, LogEnd: 1, Reason: ReasonResolved}}})
	}
	p.Groups = append(p.Groups, Group{Group: "no-partitions", Type: "classic", StateAtPlan: "Empty", Partitions: []Partition{}})
	return p
}

func plansForGolden() map[string]*Plan {
	offsetPlan := samplePlan()
	offsetPlan.Strategy = Strategy{Type: StrategyToOffset, Offset: i64(-5)}
	offsetPlan.Annotations = nil
	shift := samplePlan()
	shift.Strategy = Strategy{Type: StrategyShiftBy, ShiftBy: i64(10)}
	shift.Annotations = &Annotations{Ticket: "CHG-9"}
	file := samplePlan()
	file.Strategy = Strategy{Type: StrategyFromFile, File: "offsets.csv"}
	rb := Rollback(samplePlan(), LiveOffsets{"billing": {tp("payments", 0): 3}, "analytics": {tp("payments", 0): 5}},
		time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC))
	toGroup := samplePlan()
	toGroup.Strategy = Strategy{Type: StrategyToGroup, Group: "billing-v1"}
	toGroup.Groups[0].Partitions[0].Reason = ReasonCopiedFromGroup
	toGroup.Groups[0].Partitions[1].Reason = ReasonClampedToStart
	toGroup.Groups[1].Partitions[0].Reason = ReasonClampedToEnd
	return map[string]*Plan{"sample": samplePlan(), "odd": oddPlan(), "to-offset": offsetPlan, "shift-by": shift, "from-file": file, "rollback": rb, "to-group": toGroup}
}

func TestEncodeGolden(t *testing.T) {
	for name, p := range plansForGolden() {
		y, err := EncodeYAML(p)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "plan-"+name+".yaml", y)
		golden(t, "plan-"+name+".json", EncodeJSON(p))
		golden(t, "plan-"+name+".digest", []byte(Digest(p)+"\n"))
	}
}

// TestContractExample: the layout of docs/plan-format.md's example, line
// for line, for its first partition.
func TestContractExample(t *testing.T) {
	p := samplePlan()
	p.Groups = p.Groups[:1]
	p.Groups[0].Partitions = p.Groups[0].Partitions[1:]
	y, _ := EncodeYAML(p)
	want := `apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-11-29T07:10:00Z"
createdBy: kcg 0.1.0
cluster: {id: 4L6g3nShT-eMCtK--X86sw, bootstrap: "broker-1:9092"}
strategy: {type: to-datetime, datetime: "2026-11-28T00:00:00Z"}
annotations: {ticket: CHG-1234, note: "replay payments lost in the 11-28 outage"}
groups:
  - group: billing
    type: classic
    stateAtPlan: Empty
    partitions:
      - {topic: payments, partition: 0, current: 3, target: 0, logStart: 0, logEnd: 6, reason: resolved}
`
	if string(y) != want {
		t.Errorf("got\n%s\nwant\n%s", y, want)
	}
}

func TestRoundTrip(t *testing.T) {
	for name, p := range plansForGolden() {
		d := Digest(p)
		y, _ := EncodeYAML(p)
		j := EncodeJSON(p)
		for f, data := range map[string][]byte{"yaml": y, "json": j} {
			q, err := Decode(data)
			if err != nil {
				t.Errorf("%s %s: decode: %v", name, f, err)
				continue
			}
			if Digest(q) != d {
				t.Errorf("%s %s: digest changed on round trip", name, f)
			}
			again, _ := Encode(q, Format(f))
			if !bytes.Equal(again, data) {
				t.Errorf("%s %s: re-encoding differs:\n%s\nvs\n%s", name, f, again, data)
			}
		}
	}
}

func TestEncodeDoesNotMutate(t *testing.T) {
	p := samplePlan()
	_, _ = EncodeYAML(p)
	_ = Digest(p)
	if p.Groups[0].Group != "billing" || p.Groups[0].Partitions[0].Partition != 1 {
		t.Error("encoding sorted the caller's plan")
	}
}

func TestDigest(t *testing.T) {
	p := samplePlan()
	d := Digest(p)
	if !strings.HasPrefix(d, "sha256:") || len(d) != len("sha256:")+64 {
		t.Fatalf("digest %q", d)
	}
	// Reformatted YAML (block style, other key order, comments, quoting)
	// is the same plan.
	reformatted := `# reviewed by ops
kind: OffsetResetPlan
apiVersion: "kcg/v1"
createdBy: 'kcg 0.1.0'
createdAt: 2026-11-29T08:10:00+01:00
cluster:
  bootstrap: broker-1:9092
  id: 4L6g3nShT-eMCtK--X86sw
strategy: {datetime: "2026-11-28T00:00:00.000Z", type: to-datetime}
annotations: {note: "replay payments lost in the 11-28 outage", ticket: CHG-1234}
groups:
- group: analytics
  type: consumer
  stateAtPlan: Empty
  partitions:
  - {topic: payments, partition: 0, current: 5, target: 2, logStart: 2, logEnd: 6, reason: resolved}
- stateAtPlan: Empty
  type: classic
  group: billing
  partitions:
  - {topic: payments, partition: 1, current: ~, target: 6, logStart: 0, logEnd: 6, reason: no-record-after-time}
  - topic: payments
    partition: 0
    current: 3
    target: 0
    logStart: 0
    logEnd: 6
    reason: resolved
`
	q, err := Decode([]byte(reformatted))
	if err != nil {
		t.Fatal(err)
	}
	if Digest(q) != d {
		t.Errorf("reformatted plan has another digest:\n%s\n%s", canonicalJSON(q), canonicalJSON(p))
	}
	// Any change to a value changes it.
	mutations := map[string]func(p *Plan){
		"target":      func(p *Plan) { *p.Groups[0].Partitions[1].Target = 1 },
		"current":     func(p *Plan) { p.Groups[0].Partitions[0].Current = i64(0) },
		"current nil": func(p *Plan) { p.Groups[0].Partitions[1].Current = nil },
		"logEnd":      func(p *Plan) { p.Groups[1].Partitions[0].LogEnd = 7 },
		"reason":      func(p *Plan) { p.Groups[1].Partitions[0].Reason = ReasonClampedToStart },
		"ticket":      func(p *Plan) { p.Annotations.Ticket = "CHG-1235" },
		"no notes":    func(p *Plan) { p.Annotations = nil },
		"cluster":     func(p *Plan) { p.Cluster.ID = "other" },
		"createdAt":   func(p *Plan) { p.CreatedAt = p.CreatedAt.Add(time.Second) },
		"strategy":    func(p *Plan) { p.Strategy.Datetime = p.Strategy.Datetime.Add(time.Millisecond) },
		"group":       func(p *Plan) { p.Groups[0].Group = "billing2" },
		"partition":   func(p *Plan) { p.Groups[1].Partitions[0].Partition = 9 },
		"state":       func(p *Plan) { p.Groups[0].StateAtPlan = "Dead" },
		"drop part":   func(p *Plan) { p.Groups[0].Partitions = p.Groups[0].Partitions[:1] },
	}
	for name, mut := range mutations {
		m := samplePlan()
		mut(m)
		if Digest(m) == d {
			t.Errorf("%s: digest unchanged", name)
		}
	}
	// The documented recipe: kcg's JSON, compacted, is the canonical form.
	for name, gp := range plansForGolden() {
		var compact bytes.Buffer
		if err := json.Compact(&compact, EncodeJSON(gp)); err != nil || !bytes.Equal(compact.Bytes(), canonicalJSON(gp)) {
			t.Errorf("%s: compacted JSON is not the canonical form: %v\n%s\n%s", name, err, compact.Bytes(), canonicalJSON(gp))
		}
	}
	// Stable across runs and releases: pinned.
	golden(t, "digest-sample.txt", []byte(d+"\n"+string(canonicalJSON(p))+"\n"))
}

func TestDecodeStrict(t *testing.T) {
	y, _ := EncodeYAML(samplePlan())
	valid := string(y)
	j := string(EncodeJSON(samplePlan()))
	cases := []struct {
		name, data string
		want       string
		sentinel   error
	}{
		{"empty", "  \n", "the file is empty", nil},
		{"CSV 3 columns", "orders,0,2\norders,1,2\n\n", "looks like a kafka-consumer-groups CSV export", ErrLooksLikeCSV},
		{"CSV 4 columns quoted", "\"a,b\",orders,0,2\n", "use --from-file to turn it into a plan", ErrLooksLikeCSV},
		{"CSV header", "group,topic,partition,offset\ng,t,0,1\n", "CSV export", ErrLooksLikeCSV},
		{"garbage", "\x00\x01binary\xff", "not a kcg plan file", nil},
		{"a YAML list", "- a\n- b\n", "not a kcg plan file", nil},
		{"other YAML", "foo: bar\n", "no apiVersion and kind", nil},
		{"wrong kind", "apiVersion: kcg/v1\nkind: GroupList\n", `kind is "GroupList"`, nil},
		{"v2", strings.Replace(valid, "kcg/v1", "kcg/v2", 1) + "newField: 1\n", "plan apiVersion kcg/v2 is not supported: this kcg reads kcg/v1", ErrUnsupportedVersion},
		{"v0", strings.Replace(valid, "kcg/v1", "kcg/v0", 1), "not supported", ErrUnsupportedVersion},
		{"other apiVersion", strings.Replace(valid, "kcg/v1", "v1", 1), `apiVersion "v1" is not a kcg plan version`, ErrUnsupportedVersion},
		{"unknown top-level field", valid + "extra: 1\n", `line 20: unknown field "extra" in the plan`, nil},
		{"unknown partition field", strings.Replace(valid, "reason: resolved}", "reason: resolved, delta: 3}", 1), `unknown field "delta" in a partition entry`, nil},
		{"unknown JSON field", strings.Replace(j, `"kind"`, `"kinds": 1, "kind"`, 1), `unknown field "kinds"`, nil},
		{"duplicate YAML key", strings.Replace(valid, "createdBy:", "kind: OffsetResetPlan\ncreatedBy:", 1), "already defined", nil},
		{"duplicate JSON key", strings.Replace(j, `"target": 0,`, `"target": 0, "target": 5,`, 1), `key "target" appears twice`, nil},
		{"two documents", valid + "---\n" + valid, "more than one YAML document", nil},
		{"JSON trailing data", j + "{}", "unexpected data after the plan", nil},
		{"missing createdAt", strings.Replace(valid, "createdAt: \"2026-11-29T07:10:00Z\"\n", "", 1), "createdAt is missing", nil},
		{"bad createdAt", strings.Replace(valid, "2026-11-29T07:10:00Z", "yesterday", 1), `createdAt "yesterday" is not an RFC 3339 time`, nil},
		{"missing groups", strings.Split(valid, "groups:")[0], "groups is missing", nil},
		{"unknown reason", strings.Replace(valid, "reason: resolved}", "reason: vibes}", 1), `unknown reason "vibes"`, nil},
		{"null target outside rollback", strings.Replace(valid, "target: 0,", "target: null,", 1), "target is missing", nil},
		{"restore outside rollback", strings.Replace(valid, "reason: resolved}", "reason: restore}", 1), "only valid in a rollback plan", nil},
		{"missing logEnd", strings.Replace(valid, ", logEnd: 6, reason: resolved}", ", reason: resolved}", 1), "logStart and logEnd are required", nil},
		{"negative partition", strings.Replace(valid, "partition: 0, current: 3", "partition: -1, current: 3", 1), "negative", nil},
		{"string offset", strings.Replace(valid, "target: 0,", "target: zero,", 1), "expected a whole number from -9223372036854775808 to 9223372036854775807, got the string `zero`", nil},
		{"duplicate partition", strings.Replace(valid, "partition: 1, current: null", "partition: 0, current: null", 1), "appears twice", nil},
		{"duplicate group", strings.Replace(valid, "group: analytics", "group: billing", 1), `group "billing" appears twice`, nil},
		{"unknown strategy", strings.Replace(valid, "type: to-datetime", "type: to-moon", 1), `strategy.type "to-moon" is not a known strategy`, nil},
		{"strategy extra param", strings.Replace(valid, "type: to-datetime,", "type: to-datetime, offset: 3,", 1), "strategy to-datetime does not take offset", nil},
		{"strategy missing param", strings.Replace(valid, "{type: to-datetime, datetime: \"2026-11-28T00:00:00Z\"}", "{type: to-offset}", 1), "strategy to-offset needs offset", nil},
		{"empty from-file file", strings.Replace(valid, "{type: to-datetime, datetime: \"2026-11-28T00:00:00Z\"}", "{type: from-file, file: \"\"}", 1), "strategy from-file: file is empty", nil},
		{"empty rollbackOf", strings.Replace(valid, "{type: to-datetime, datetime: \"2026-11-28T00:00:00Z\"}", "{type: rollback, rollbackOf: \"\"}", 1), "strategy rollback: rollbackOf is empty", nil},
	}
	for _, tc := range cases {
		_, err := Decode([]byte(tc.data))
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: err %v, want a *DecodeError", tc.name, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %q, want it to contain %q", tc.name, err, tc.want)
		}
		if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
			t.Errorf("%s: err %v does not match %v", tc.name, err, tc.sentinel)
		}
		if strings.Contains(err.Error(), "resetplan.") || strings.Contains(err.Error(), "wire") {
			t.Errorf("%s: Go type names leak into %q", tc.name, err)
		}
	}
}

func TestDecodeTolerates(t *testing.T) {
	y, _ := EncodeYAML(samplePlan())
	for name, data := range map[string]string{
		"BOM":                 "\xef\xbb\xbf" + string(y),
		"CRLF":                strings.ReplaceAll(string(y), "\n", "\r\n"),
		"annotations null":    strings.Replace(string(y), `{ticket: CHG-1234, note: "replay payments lost in the 11-28 outage"}`, "null", 1),
		"ticket null":         strings.Replace(string(y), `ticket: CHG-1234,`, "ticket: null,", 1),
		"document marker":     "---\n" + string(y),
		"leading comment":     "# CHG-1234\n" + string(y),
		"current absent=null": strings.Replace(string(y), "current: null, ", "", 1),
	} {
		if _, err := Decode([]byte(data)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	q, _ := Decode([]byte(strings.Replace(string(y), `{ticket: CHG-1234, note: "replay payments lost in the 11-28 outage"}`, "{}", 1)))
	if q.Annotations != nil {
		t.Error("empty annotations decoded as non-nil")
	}
}

func TestFormatForPath(t *testing.T) {
	for path, want := range map[string]Format{"p.json": FormatJSON, "P.JSON": FormatJSON, "p.yaml": FormatYAML, "p.yml": FormatYAML, "p": FormatYAML} {
		if got := FormatForPath(path); got != want {
			t.Errorf("FormatForPath(%s) = %s", path, got)
		}
	}
	if _, err := Encode(samplePlan(), "xml"); err == nil {
		t.Error("xml accepted")
	}
}

// TestNewGroupMark: a group that did not exist at plan time (stateAtPlan
// Dead) is written "new: true"; the mark is derived, so a file without it
// decodes to the same plan and digest, and one that contradicts
// stateAtPlan is refused.
func TestNewGroupMark(t *testing.T) {
	p := &Plan{APIVersion: APIVersion, Kind: Kind, CreatedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), CreatedBy: "kcg test",
		Cluster: Cluster{ID: "c", Bootstrap: "b:9092"}, Strategy: Strategy{Type: StrategyToEarliest},
		Groups: []Group{
			{Group: "fresh", Type: "classic", StateAtPlan: "Dead", Partitions: []Partition{{Topic: "t", Partition: 0, Target: i64(0), LogEnd: 3, Reason: ReasonResolved}}},
			{Group: "old", Type: "classic", StateAtPlan: "Empty", Partitions: []Partition{{Topic: "t", Partition: 0, Current: i64(2), Target: i64(0), LogEnd: 3, Reason: ReasonResolved}}},
		}}
	y, err := EncodeYAML(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(y), "new: true") != 1 || !strings.Contains(string(y), "stateAtPlan: Dead\n    new: true\n") {
		t.Fatalf("YAML:\n%s", y)
	}
	if !strings.Contains(string(EncodeJSON(p)), `"stateAtPlan": "Dead",
      "new": true,`) {
		t.Fatalf("JSON:\n%s", EncodeJSON(p))
	}
	for _, fast := range []bool{true, false} {
		for name, data := range map[string]string{
			"as written":   string(y),
			"without mark": strings.Replace(string(y), "    new: true\n", "", 1),
		} {
			got, err := decode([]byte(data), fast)
			if err != nil {
				t.Fatalf("fast=%v %s: %v", fast, name, err)
			}
			if Digest(got) != Digest(p) || !got.IsNew(got.Groups[0]) || got.IsNew(got.Groups[1]) {
				t.Errorf("fast=%v %s: digest %s, want %s", fast, name, Digest(got), Digest(p))
			}
		}
		for name, data := range map[string]string{
			"new on an existing group": strings.Replace(string(y), "stateAtPlan: Empty\n", "stateAtPlan: Empty\n    new: true\n", 1),
			"not new on a Dead group":  strings.Replace(string(y), "new: true", "new: false", 1),
		} {
			_, err := decode([]byte(data), fast)
			if err == nil || !strings.Contains(err.Error(), "new: ") {
				t.Errorf("fast=%v %s: err = %v", fast, name, err)
			}
		}
	}
	// A rollback's groups existed when it was made: the plan it undoes
	// created them.
	rb := Rollback(p, LiveOffsets{"fresh": {{Topic: "t", Partition: 0}: 0}, "old": {{Topic: "t", Partition: 0}: 0}}, time.Time{})
	if b, _ := EncodeYAML(rb); strings.Contains(string(b), "new:") {
		t.Errorf("rollback marked new:\n%s", b)
	}
}

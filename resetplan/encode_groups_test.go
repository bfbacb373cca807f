package resetplan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// encodeYAMLWhole is EncodeYAML as it was before it encoded a group at a
// time: the whole tree in one yaml.v3 document. It is the reference.
func encodeYAMLWhole(p *Plan) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(yamlNode(tree(p))); err != nil {
		return nil, fmt.Errorf("encoding plan as YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding plan as YAML: %w", err)
	}
	return b.Bytes(), nil
}

// planStrings are strings YAML must quote, fold or escape: keywords,
// numbers, indicators, line breaks, blanks at either end, unicode (with
// the line separators yaml.v3 breaks at), control bytes, invalid UTF-8.
var planStrings = []string{
	"", "billing", "payments", "null", "~", "yes", "No", "on", "true", "0", "007", "-1", "1.5", "1e3",
	"0x1F", ".inf", ".nan", "2026-12-01", "2026-12-01T08:00:00Z", "-", "- a", ": ", "a: b", "key:",
	"#c", "a #b", "?", "|", ">", "!tag", "&a", "*a", "%YAML", "@", "`", "{", "}", "[", "]", ",",
	"'", "\"", "it's", "\\", "---", "...", "<<", " lead", "trail ", "\t", "a\nb", "a\n", "a\n\n",
	"\n", "a \nb", "a\n b", "a\r\nb", "\r", "ünï", "日本語", "😀", "line\u2028sep", "\u2029",
	"nel\u0085", "\ufeff", "\x00", "\x07", "\x7f", "\xff\xfe", "a\xc3", "a<b&c>", "b1:9092,b2:9092",
	strings.Repeat("long ", 40),
}

func randomPlan(r *rand.Rand) *Plan {
	str := func() string {
		if r.IntN(3) == 0 {
			return fmt.Sprintf("name-%d", r.IntN(100))
		}
		return planStrings[r.IntN(len(planStrings))]
	}
	opt := func() *int64 {
		if r.IntN(4) == 0 {
			return nil
		}
		return i64(r.Int64N(1<<40) - 1<<20)
	}
	p := &Plan{APIVersion: APIVersion, Kind: Kind,
		CreatedAt: time.Unix(r.Int64N(4e9), r.Int64N(1e9)).UTC(), CreatedBy: str(),
		Cluster: Cluster{ID: str(), Bootstrap: str()}}
	switch r.IntN(5) {
	case 0:
		p.Strategy = Strategy{Type: StrategyToOffset, Offset: i64(r.Int64())}
	case 1:
		p.Strategy = Strategy{Type: StrategyShiftBy, ShiftBy: i64(-r.Int64N(100))}
	case 2:
		p.Strategy = Strategy{Type: StrategyByDuration, Duration: str(), ResolvedTime: p.CreatedAt}
	case 3:
		p.Strategy = Strategy{Type: StrategyRollback, RollbackOf: str()}
	default:
		p.Strategy = Strategy{Type: StrategyToGroup, Group: str()}
	}
	if r.IntN(2) == 0 {
		p.Annotations = &Annotations{Ticket: str(), Note: str()}
	}
	if r.IntN(6) > 0 {
		p.Groups = []Group{}
		for range r.IntN(5) {
			g := Group{Group: str(), Type: str(), StateAtPlan: str()}
			for i := range r.IntN(4) {
				g.Partitions = append(g.Partitions, Partition{Topic: str(), Partition: int32(i),
					Current: opt(), Target: opt(), LogStart: r.Int64N(10), LogEnd: r.Int64(), Reason: Reason(str())})
			}
			p.Groups = append(p.Groups, g)
		}
	}
	return p
}

func checkEncodeYAMLSame(t *testing.T, p *Plan) {
	t.Helper()
	want, werr := encodeYAMLWhole(p)
	got, gerr := EncodeYAML(p)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("errors differ: whole %v, group by group %v", werr, gerr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("EncodeYAML differs from the whole-document encoding\n--- got ---\n%q\n--- want ---\n%q", got, want)
	}
}

// TestEncodeYAMLGroupByGroup pins that EncodeYAML, which encodes a group at
// a time, writes exactly the bytes of the whole-document encoding: for
// the golden plans, for every odd string in every string field of a
// group and as the plan's last value, and for 2,000 generated plans.
func TestEncodeYAMLGroupByGroup(t *testing.T) {
	for name, p := range plansForGolden() {
		t.Run(name, func(t *testing.T) { checkEncodeYAMLSame(t, p) })
	}
	for _, s := range planStrings {
		p := samplePlan()
		p.Annotations = &Annotations{Ticket: s, Note: s}
		p.Groups[0].Group, p.Groups[0].Type, p.Groups[0].StateAtPlan = s, s, s
		p.Groups[0].Partitions[0].Topic, p.Groups[0].Partitions[0].Reason = s, Reason(s)
		p.Groups[1].Group, p.Groups[1].StateAtPlan = "zz"+s, s
		checkEncodeYAMLSame(t, p)
	}
	r := rand.New(rand.NewPCG(10, 2))
	for range 2000 {
		checkEncodeYAMLSame(t, randomPlan(r))
	}
}

// FuzzEncodeYAMLGroupByGroup compares the two encoders on plans whose
// strings the fuzzer chooses.
func FuzzEncodeYAMLGroupByGroup(f *testing.F) {
	for _, s := range planStrings {
		f.Add(s, s, "payments", int64(3))
	}
	f.Fuzz(func(t *testing.T, group, state, topic string, n int64) {
		p := samplePlan()
		p.Groups[0].Group, p.Groups[0].StateAtPlan, p.Groups[0].Partitions[0].Topic = group, state, topic
		p.Groups[0].Partitions[0].Current = i64(n)
		p.Groups[1].Type = state
		p.Annotations.Note = group + topic
		checkEncodeYAMLSame(t, p)
	})
}

// TestJSONStringFastPath pins that jsonString writes what encoding/json
// writes for every single byte, every odd string and 20,000 random
// strings of bytes that stress the fast path's boundary.
func TestJSONStringFastPath(t *testing.T) {
	cases := append([]string{}, planStrings...)
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"b")
	}
	r := rand.New(rand.NewPCG(7, 7))
	alphabet := []byte("az09-_.:/<>&'\"\\ \t\n\x00\x1f\x7e\x7f\x80\xc3\xa9\xe2\x80\xa8")
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := jsonString(s), jsonStringSlow(s); got != want {
			t.Fatalf("jsonString(%q) = %s, encoding/json writes %s", s, got, want)
		}
	}
}

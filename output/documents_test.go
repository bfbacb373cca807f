package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/golden"
	"gopkg.in/yaml.v3"
)

func TestDocumentGoldens(t *testing.T) {
	docs := map[string]any{
		"list":     fixtureGroupList(),
		"describe": fixtureDescriptions(),
	}
	for name, doc := range docs {
		golden.Check(t, name+".json", golden.Render(t, func(b *bytes.Buffer) error { return writeJSON(b, doc) }))
		golden.Check(t, name+".yaml", golden.Render(t, func(b *bytes.Buffer) error { return writeYAML(b, doc) }))
	}
}

// TestJSONAndYAMLCarryTheSameDocument decodes both renderings into
// generic values: same fields, same nulls, same lists (no nil-vs-[]
// difference), same numbers.
func TestJSONAndYAMLCarryTheSameDocument(t *testing.T) {
	for name, doc := range map[string]any{
		"list":       fixtureGroupList(),
		"describe":   fixtureDescriptions(),
		"empty list": NewGroupList(nil),
		"empty desc": NewGroupDescriptionList([]GroupDescription{{Group: "g"}}),
	} {
		t.Run(name, func(t *testing.T) {
			var fromJSON, fromYAML any
			if err := json.Unmarshal(golden.Render(t, func(b *bytes.Buffer) error { return writeJSON(b, doc) }), &fromJSON); err != nil {
				t.Fatal(err)
			}
			if err := yaml.Unmarshal(golden.Render(t, func(b *bytes.Buffer) error { return writeYAML(b, doc) }), &fromYAML); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(normalizeNumbers(fromJSON), normalizeNumbers(fromYAML)) {
				t.Errorf("JSON and YAML differ:\njson: %#v\nyaml: %#v", fromJSON, fromYAML)
			}
		})
	}
}

// normalizeNumbers turns JSON's float64 and YAML's int into one type so
// the documents compare by value.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	case int:
		return float64(x)
	}
	return v
}

// TestYAMLKeepsJSONFieldOrder checks the order of keys, which a map
// comparison cannot see: YAML must list fields as JSON does.
func TestYAMLKeepsJSONFieldOrder(t *testing.T) {
	doc := fixtureDescriptions()
	var node yaml.Node
	if err := yaml.Unmarshal(golden.Render(t, func(b *bytes.Buffer) error { return writeYAML(b, doc) }), &node); err != nil {
		t.Fatal(err)
	}
	var yamlKeys []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i < len(n.Content); i += 2 {
				yamlKeys = append(yamlKeys, n.Content[i].Value)
				walk(n.Content[i+1])
			}
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&node)

	var jsonKeys []string
	dec := json.NewDecoder(bytes.NewReader(golden.Render(t, func(b *bytes.Buffer) error { return writeJSON(b, doc) })))
	// In a JSON token stream a string directly inside an object at an even
	// position is a key.
	type frame struct {
		object bool
		n      int
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, frame{object: true})
				continue
			case '[':
				stack = append(stack, frame{})
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if top := len(stack) - 1; top >= 0 && stack[top].object && stack[top].n%2 == 0 {
				jsonKeys = append(jsonKeys, v)
				stack[top].n++
				continue
			}
		}
		if top := len(stack) - 1; top >= 0 && stack[top].object {
			stack[top].n++
		}
	}
	if !reflect.DeepEqual(jsonKeys, yamlKeys) {
		t.Errorf("key order differs:\njson: %v\nyaml: %v", jsonKeys, yamlKeys)
	}
	if len(jsonKeys) < 50 {
		t.Fatalf("walked only %d keys; the test is not looking at the document", len(jsonKeys))
	}
}

func TestAbsentValuesAreNullNotOmittedOrSentinels(t *testing.T) {
	doc := NewGroupDescriptionList([]GroupDescription{{
		Group:   "g",
		Offsets: []PartitionOffset{{Topic: "t", Partition: 0}},
		Members: []Member{{MemberID: "m"}},
	}})
	js := string(golden.Render(t, func(b *bytes.Buffer) error { return writeJSON(b, doc) }))
	ys := string(golden.Render(t, func(b *bytes.Buffer) error { return writeYAML(b, doc) }))
	for _, want := range []string{
		`"committedOffset": null`, `"lag": null`, `"totalLag": null`, `"assignor": null`,
		`"coordinator": null`, `"error": null`, `"targetAssignments": null`, `"upgraded": null`,
		`"assignments": []`, `"metadata": null`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lacks %s:\n%s", want, js)
		}
	}
	for _, want := range []string{
		"committedOffset: null", "lag: null", "totalLag: null", "assignor: null",
		"coordinator: null", "error: null", "targetAssignments: null", "assignments: []",
	} {
		if !strings.Contains(ys, want) {
			t.Errorf("YAML lacks %s:\n%s", want, ys)
		}
	}
	for _, bad := range []string{"-1", `"-"`} {
		if strings.Contains(js, bad) {
			t.Errorf("JSON holds the sentinel %s:\n%s", bad, js)
		}
	}
}

func TestJSONDoesNotEscapeHTMLAndEndsWithNewline(t *testing.T) {
	js := golden.Render(t, func(b *bytes.Buffer) error {
		return writeJSON(b, NewGroupList([]GroupListing{{Group: "a<b>&c"}}))
	})
	if !bytes.Contains(js, []byte(`"a<b>&c"`)) {
		t.Errorf("group id escaped: %s", js)
	}
	if !bytes.HasSuffix(js, []byte("}\n")) || bytes.HasSuffix(js, []byte("\n\n")) {
		t.Errorf("want exactly one trailing newline: %q", js)
	}
	if !bytes.Contains(js, []byte("\n  \"apiVersion\"")) {
		t.Errorf("want two-space indent: %s", js)
	}
}

// TestContractExampleDecodes keeps the JSON outline of the documents (see
// docs/output.md) valid: every field it names exists, under that name, in
// the Go types.
func TestContractExampleDecodes(t *testing.T) {
	examples := []struct {
		text string
		into any
	}{
		{`{"apiVersion": "kcg/v1", "kind": "GroupList",
 "groups": [{"group": "billing", "state": "Empty", "type": "classic", "protocolType": "consumer"}]}`, &GroupList{}},
		{`{"apiVersion": "kcg/v1", "kind": "GroupDescriptionList",
 "groups": [{
   "group": "billing", "state": "Empty", "type": "classic", "protocolType": "consumer",
   "assignor": null, "coordinator": {"id": 1, "host": "broker-1", "port": 9092},
   "members": [{"memberId": "...", "clientId": "...", "host": "/10.0.0.7", "groupInstanceId": null,
                "assignments": [{"topic": "payments", "partitions": [0]}]}],
   "offsets": [{"topic": "payments", "partition": 0, "committedOffset": 3,
                "logStartOffset": 0, "logEndOffset": 6, "lag": 3,
                "memberId": null, "clientId": null, "host": null, "metadata": ""}],
   "totalLag": 3, "error": null}]}`, &GroupDescriptionList{}},
	}
	for _, ex := range examples {
		dec := json.NewDecoder(strings.NewReader(ex.text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(ex.into); err != nil {
			t.Errorf("contract example does not decode: %v", err)
		}
	}
	d := examples[1].into.(*GroupDescriptionList).Groups[0]
	if d.Offsets[0].MemberID != nil || *d.Offsets[0].CommittedOffset != 3 || *d.TotalLag != 3 || *d.Offsets[0].Metadata != "" {
		t.Errorf("decoded wrongly: %+v", d)
	}
	// The documents render apiVersion and kind first, as the contract does.
	js := golden.Render(t, func(b *bytes.Buffer) error { return writeJSON(b, NewGroupDescriptionList(nil)) })
	if want := "{\n  \"apiVersion\": \"kcg/v1\",\n  \"kind\": \"GroupDescriptionList\",\n  \"groups\": []\n}\n"; string(js) != want {
		t.Errorf("got %q, want %q", js, want)
	}
}

func TestSort(t *testing.T) {
	l := fixtureDescriptions()
	var groups []string
	for _, g := range l.Groups {
		groups = append(groups, g.Group)
	}
	if want := []string{"billing", "broken", "orders-app-long-group-id", "payments-v2", "zombie"}; !reflect.DeepEqual(groups, want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	pay := l.Groups[3]
	if pay.Members[0].MemberID != payMemberOld || pay.Members[1].MemberID != payMemberNew {
		t.Errorf("members not sorted by id: %s, %s", pay.Members[0].MemberID, pay.Members[1].MemberID)
	}
	if got := pay.Members[1].Assignments; got[0].Topic != "payments" || !reflect.DeepEqual(got[0].Partitions, []int32{0, 1}) {
		t.Errorf("assignments not sorted: %+v", got)
	}
	if got := (*pay.Members[1].TargetAssignments)[0]; got.Topic != "payments" || !reflect.DeepEqual(got.Partitions, []int32{0, 1}) {
		t.Errorf("target assignments not sorted: %+v", got)
	}
	var tps []string
	for _, o := range pay.Offsets {
		tps = append(tps, o.Topic+"/"+string(rune('0'+o.Partition)))
	}
	if want := []string{"payments/0", "payments/1", "payments/2", "payments-dlq/0"}; !reflect.DeepEqual(tps, want) {
		t.Errorf("offsets %v, want %v", tps, want)
	}
}

func TestSumLag(t *testing.T) {
	if SumLag(nil) != nil || SumLag([]PartitionOffset{{Topic: "t"}}) != nil {
		t.Error("no known lag must be nil, not 0")
	}
	got := SumLag([]PartitionOffset{{Lag: Ptr[int64](3)}, {}, {Lag: Ptr[int64](0)}, {Lag: Ptr[int64](-1)}})
	if got == nil || *got != 2 {
		t.Errorf("SumLag = %v, want 2", got)
	}
	if Lag(Ptr[int64](3), Ptr[int64](6)) == nil || *Lag(Ptr[int64](3), Ptr[int64](6)) != 3 || Lag(nil, Ptr[int64](6)) != nil || Lag(Ptr[int64](3), nil) != nil {
		t.Error("Lag wrong")
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"table", "json", "yaml", "markdown"} {
		f, err := ParseFormat(s)
		if err != nil || string(f) != s {
			t.Errorf("ParseFormat(%q) = %q, %v", s, f, err)
		}
	}
	for _, s := range []string{"", "JSON", "yml", "csv", "wide"} {
		_, err := ParseFormat(s)
		if err == nil || !strings.Contains(err.Error(), "table, json, yaml") {
			t.Errorf("ParseFormat(%q) error = %v, want one listing the allowed values", s, err)
		}
	}
	if err := writeDocument(&bytes.Buffer{}, FormatTable, fixtureGroupList()); err == nil {
		t.Error("writeDocument accepted the table format")
	}
	var b bytes.Buffer
	if err := writeDocument(&b, FormatYAML, fixtureGroupList()); err != nil || !strings.HasPrefix(b.String(), "apiVersion: kcg/v1\nkind: GroupList\n") {
		t.Errorf("writeDocument yaml: %v %q", err, b.String())
	}
}

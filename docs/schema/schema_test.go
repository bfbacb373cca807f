package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/kcg-dev/kcg/internal/schematest"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Every kind kcg prints has a schema, and no schema names a kind kcg does
// not print: a new document kind fails here until its schema is written.
func TestEveryKindHasASchema(t *testing.T) {
	want := []string{
		output.KindGroupList, output.KindGroupDescriptionList, resetplan.Kind, output.KindPlanDiff,
		output.KindPlanStatus, output.KindApplyReport, output.KindGroupDeleteResult,
		output.KindOffsetDeleteResult, output.KindLagSample, output.KindVersion,
		output.KindProfileList, output.KindProfile,
	}
	slices.Sort(want)
	if got := schema.Kinds(); !slices.Equal(got, want) {
		t.Fatalf("schemas for %q, want %q", got, want)
	}
}

// Each schema is a valid draft 2020-12 schema: it validates against the
// meta-schema (checked here explicitly) and compiles; its $schema, $id
// and title name the draft and the kind.
func TestSchemasAreValid2020_12(t *testing.T) {
	c := schematest.NewCompiler()
	meta, err := c.Compile(schematest.MetaSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range schema.Kinds() {
		data, name, ok := schema.Get(kind)
		if !ok || name != kind {
			t.Fatalf("Get(%q) = %q, %v", kind, name, ok)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if err := meta.Validate(doc); err != nil {
			t.Errorf("%s does not match the 2020-12 meta-schema: %v", kind, err)
		}
		m := doc.(map[string]any)
		if m["$schema"] != schematest.MetaSchema || m["title"] != kind ||
			m["$id"] != "https://raw.githubusercontent.com/kcg-dev/kcg/main/docs/schema/"+kind+".schema.json" {
			t.Errorf("%s: $schema %v, $id %v, title %v", kind, m["$schema"], m["$id"], m["title"])
		}
	}
	if _, err := schematest.Compile(); err != nil {
		t.Fatal(err)
	}
}

// The embedded schemas are the files in this folder, byte for byte.
func TestEmbeddedAreTheFiles(t *testing.T) {
	files, err := filepath.Glob("*.schema.json")
	if err != nil || len(files) != len(schema.Kinds()) {
		t.Fatalf("%d files (%v), %d kinds", len(files), err, len(schema.Kinds()))
	}
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, _, ok := schema.Get(strings.TrimSuffix(f, ".schema.json"))
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: embedded copy differs", f)
		}
	}
}

// Kinds are found without regard to case; an unknown kind is not.
func TestGet(t *testing.T) {
	if _, name, ok := schema.Get("grouplist"); !ok || name != "GroupList" {
		t.Fatalf("grouplist: %q %v", name, ok)
	}
	for _, k := range []string{"", "Group", "GroupList.schema.json", "../schema"} {
		if _, _, ok := schema.Get(k); ok {
			t.Errorf("%q found", k)
		}
	}
}

// The golden files of the renderers and of the plan codec are documents:
// each matches its schema, in JSON and in YAML.
func TestGoldenFilesMatch(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../output/testdata/*.json", "../../output/testdata/*.yaml",
		"../../resetplan/testdata/*.json", "../../resetplan/testdata/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d golden files: %v", len(files), files)
	}
	kinds := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check := schematest.Check
		if strings.HasSuffix(f, ".yaml") {
			check = schematest.CheckYAML
		}
		kind, err := check(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		kinds[kind]++
	}
	for _, k := range []string{output.KindGroupList, output.KindGroupDescriptionList, output.KindPlanDiff, resetplan.Kind} {
		if kinds[k] == 0 {
			t.Errorf("no golden file of kind %s (%v)", k, kinds)
		}
	}
}

// The schemas reject what the contract forbids: each case changes one
// value of a valid document.
func TestSchemasReject(t *testing.T) {
	list := `{"apiVersion": "kcg/v1", "kind": "GroupList", "groups": [{"group": "g", "state": "Empty", "type": "classic", "protocolType": "consumer"}]}`
	if _, err := schematest.Check([]byte(list)); err != nil {
		t.Fatalf("the valid document is refused: %v", err)
	}
	plan, err := os.ReadFile("../../resetplan/testdata/plan-rollback.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, doc, old, new string }{
		{"a string where a number is", list, `"groups": [`, `"groups": "none", "x": [`},
		{"a state Kafka has not", list, `"Empty"`, `"Idle"`},
		{"a missing field", list, `, "protocolType": "consumer"`, ``},
		{"a field the schema does not know", list, `"group": "g"`, `"group": "g", "lag": 3`},
		{"another apiVersion", list, `kcg/v1`, `kcg/v2`},
		{"a partition number as a string", string(plan), `"partition": 0`, `"partition": "0"`},
		{"a target of null with another reason", string(plan), `"target": 5`, `"target": null`},
		{"a rollback reason in another strategy", string(plan), `"type": "rollback", "rollbackOf": "sha256:ecb13bf335d108dd0afd10ab8509016d3abc848c596b6902dd7013fa4e81a818"`, `"type": "to-earliest"`},
		{"a stray strategy parameter", string(plan), `"type": "rollback", `, `"type": "rollback", "offset": 3, `},
		{"a time not in UTC", string(plan), `"2026-11-29T08:00:00Z"`, `"2026-11-29T09:00:00+01:00"`},
		{"a time that is not one", string(plan), `"2026-11-29T08:00:00Z"`, `"2026-13-45T08:00:00Z"`},
	} {
		doc := strings.Replace(tc.doc, tc.old, tc.new, 1)
		if doc == tc.doc {
			t.Fatalf("%s: %q not in the document", tc.name, tc.old)
		}
		if !json.Valid([]byte(doc)) {
			t.Fatalf("%s: not JSON: %s", tc.name, doc)
		}
		_, err := schematest.Check([]byte(doc))
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		t.Logf("%s: %s", tc.name, strings.SplitN(err.Error(), "\n", 3)[1:])
	}
}

// Package schematest validates kcg's documents against their JSON Schemas
// (docs/schema) in tests, with github.com/santhosh-tekuri/jsonschema/v6
// (draft 2020-12, format assertions on). It is imported only by tests.
package schematest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/kcg-dev/kcg/docs/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// MetaSchema is the URL of the draft 2020-12 meta-schema; the validator
// library carries it, so nothing is fetched.
const MetaSchema = "https://json-schema.org/draft/2020-12/schema"

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	errAll   error
)

// Compile compiles the schema of every kind (the compiler checks each
// against the 2020-12 meta-schema first) and returns them by kind.
func Compile() (map[string]*jsonschema.Schema, error) {
	once.Do(func() { compiled, errAll = compileAll() })
	return compiled, errAll
}

func compileAll() (map[string]*jsonschema.Schema, error) {
	c := NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for _, kind := range schema.Kinds() {
		data, _, _ := schema.Get(kind)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s.schema.json: %w", kind, err)
		}
		url := URL(kind)
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("%s.schema.json: %w", kind, err)
		}
		s, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("%s.schema.json: %w", kind, err)
		}
		out[kind] = s
	}
	return out, nil
}

// NewCompiler is the compiler the tests use: draft 2020-12 by default,
// "format" asserted (date-time is checked, not only annotated).
func NewCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	return c
}

// URL is where a kind's schema is registered with the compiler: a local
// name, so a schema's $id (checked separately) does not decide where it is
// found.
func URL(kind string) string { return "file:///kcg/docs/schema/" + kind + ".schema.json" }

// Check validates one JSON document against the schema its "kind" names
// and returns the kind.
func Check(data []byte) (string, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("not JSON: %w", err)
	}
	return CheckValue(v)
}

// CheckYAML validates a YAML document (the same document as the JSON
// form) against the schema its "kind" names.
func CheckYAML(data []byte) (string, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return "", fmt.Errorf("not YAML: %w", err)
	}
	// Through JSON, so the values are those a JSON reader sees (yaml.v3
	// gives int and map[string]any already; this also catches a value
	// JSON cannot hold).
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("YAML document has no JSON form: %w", err)
	}
	return Check(b)
}

// CheckValue validates a decoded document (jsonschema.UnmarshalJSON's
// values) against the schema of its kind.
func CheckValue(v any) (string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Errorf("the document is %T, not an object", v)
	}
	kind, _ := m["kind"].(string)
	schemas, err := Compile()
	if err != nil {
		return kind, err
	}
	s, ok := schemas[kind]
	if !ok {
		return kind, fmt.Errorf("no schema for kind %q", kind)
	}
	if err := s.Validate(v); err != nil {
		return kind, fmt.Errorf("%s does not match its schema: %w", kind, err)
	}
	return kind, nil
}

// MustMatch fails t unless data (JSON, or YAML when yamlDoc) is a document
// of kind that matches its schema.
func MustMatch(t testing.TB, kind string, data string, yamlDoc bool) {
	t.Helper()
	check := Check
	if yamlDoc {
		check = CheckYAML
	}
	got, err := check([]byte(data))
	if err != nil {
		t.Fatalf("%v\ndocument:\n%s", err, clip(data))
	}
	if got != kind {
		t.Fatalf("document of kind %q, want %q", got, kind)
	}
}

// MustMatchLines is MustMatch for a stream of one JSON document per line
// (kcg watch -o json); it returns how many documents it checked.
func MustMatchLines(t testing.TB, kind string, data string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		MustMatch(t, kind, line, false)
		n++
	}
	return n
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}

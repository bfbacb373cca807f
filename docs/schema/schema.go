// Package schema holds the JSON Schemas (draft 2020-12) of kcg's
// documents, one file per kind (KIND.schema.json), and embeds them in the
// binary for `kcg schema KIND`. The files in this folder are the
// published schemas and the embedded ones at once, so the two cannot
// drift; README.md explains their versioning.
package schema

import (
	"embed"
	"slices"
	"strings"
)

//go:embed *.schema.json
var files embed.FS

// suffix ends every schema file's name.
const suffix = ".schema.json"

// Kinds returns the document kinds that have a schema, sorted.
func Kinds() []string {
	// The embedded folder always reads (an error would be a build bug,
	// caught by the tests: they expect every kind).
	entries, _ := files.ReadDir(".")
	var kinds []string
	for _, e := range entries {
		if k, ok := strings.CutSuffix(e.Name(), suffix); ok {
			kinds = append(kinds, k)
		}
	}
	slices.Sort(kinds)
	return kinds
}

// Get returns the schema of kind, byte for byte the file
// docs/schema/KIND.schema.json, and the kind as the documents spell it;
// ok is false for a kind without one. The kind is matched without regard
// to case, so `kcg schema grouplist` finds GroupList.
func Get(kind string) (data []byte, name string, ok bool) {
	i := slices.IndexFunc(Kinds(), func(k string) bool { return strings.EqualFold(k, kind) })
	if i < 0 {
		return nil, "", false
	}
	name = Kinds()[i]
	data, err := files.ReadFile(name + suffix)
	return data, name, err == nil
}

package output

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// The describe document of a big cluster (2,000 groups × 64 partitions is
// 128,000 offsets) is written group by group: the document's head, then
// each group encoded alone and indented into its place, then the tail.
// Encoding the whole document at once kept every yaml.v3 event of it in
// memory (3 GB at that size) and, for JSON, three copies of the output.
// The bytes are those of encoding the whole document (TestStreamIdentical
// compares the two on generated documents).

// groupLister is implemented by the documents written group by group.
type groupLister interface{ groupList() GroupDescriptionList }

func (l GroupDescriptionList) groupList() GroupDescriptionList { return l }
func (v DescribeView) groupList() GroupDescriptionList         { return v.Doc }

// streamBufferSize is how much output is gathered before it is written.
const streamBufferSize = 64 << 10

// docHead is the part of a GroupDescriptionList before its groups.
type docHead struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// Clusters: only in a document of several clusters.
	Clusters []ClusterStatus `json:"clusters,omitempty" yaml:"clusters,omitempty"`
}

// offsetsPlaceholder is a group's offsets in its encoding without them.
var offsetsPlaceholder = []byte(`"offsets": []`)

// writeGroupsJSON writes l as writeJSON writes the whole document. Each
// group is encoded in full before any of it is written, so a group is
// never written in part; encoding a GroupDescription cannot fail (no maps,
// floats or marshalers), so only w can fail part way.
func writeGroupsJSON(w io.Writer, l GroupDescriptionList) error {
	bw := bufio.NewWriterSize(w, streamBufferSize)
	// JSON strings hold no raw line break, so the indentation of a value
	// at depth two is its encoding with a prefix of two levels, and at
	// depth one with a prefix of one.
	j := newJSONIndenter()
	encode := func(v any) ([]byte, error) { return j.encode(v, "    ") }
	bw.WriteString("{\n  \"apiVersion\": ")
	s, err := encode(l.APIVersion)
	if err != nil {
		return err
	}
	bw.Write(s)
	bw.WriteString(",\n  \"kind\": ")
	if s, err = encode(l.Kind); err != nil {
		return err
	}
	bw.Write(s)
	if len(l.Clusters) > 0 {
		c, err := j.encode(l.Clusters, "  ")
		if err != nil {
			return err
		}
		bw.WriteString(",\n  \"clusters\": ")
		bw.Write(c)
	}
	if len(l.Groups) == 0 {
		bw.WriteString(",\n  \"groups\": []\n}\n")
		return bw.Flush()
	}
	bw.WriteString(",\n  \"groups\": [\n")
	var offs []byte
	for i := range l.Groups {
		// The group without its offsets, which appendOffsetsJSON writes
		// in the place of the [] this leaves: the only "offsets" name of
		// a group, and no string can hold `"offsets": ` (its quotes would
		// be escaped).
		g := l.Groups[i]
		g.Offsets = nil
		if s, err = encode(g.normalized()); err != nil {
			return err
		}
		at := bytes.Index(s, offsetsPlaceholder)
		if at < 0 {
			return fmt.Errorf("encoding JSON: no offsets in the encoding of group %q", g.Group)
		}
		at += len(offsetsPlaceholder) - len("[]")
		offs = appendOffsetsJSON(offs[:0], l.Groups[i].Offsets)
		if i > 0 {
			bw.WriteString(",\n")
		}
		bw.WriteString("    ")
		bw.Write(s[:at])
		bw.Write(offs)
		if _, err := bw.Write(s[at+len("[]"):]); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// writeGroupsYAML writes l as writeYAML writes the whole document: the
// head, "groups:", and then each group as the text yaml.v3 writes for a
// document whose only content is "groups:" holding that one group, less
// its first line. The group is encoded at the same place of the same
// structure (a sequence item under a top-level key), so every choice the
// emitter makes for it - indentation, scalar styles, line breaks inside
// quoted scalars - is the one it makes in the whole document. The first
// item of a sequence is written as every other item ("  - ").
func writeGroupsYAML(w io.Writer, l GroupDescriptionList) error {
	bw := bufio.NewWriterSize(w, streamBufferSize)
	var buf bytes.Buffer
	encode := func(v any) ([]byte, error) {
		buf.Reset()
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(v); err != nil {
			return nil, fmt.Errorf("encoding YAML: %w", err)
		}
		if err := enc.Close(); err != nil {
			return nil, fmt.Errorf("encoding YAML: %w", err)
		}
		return buf.Bytes(), nil
	}
	head, err := encode(docHead{APIVersion: l.APIVersion, Kind: l.Kind, Clusters: l.Clusters})
	if err != nil {
		return err
	}
	bw.Write(head)
	if len(l.Groups) == 0 {
		bw.WriteString("groups: []\n")
		return bw.Flush()
	}
	bw.WriteString(groupsKey)
	one := make([]GroupDescription, 1)
	y := groupYAML{scalars: map[string]string{}, topics: map[string]string{}}
	var direct bytes.Buffer
	for i := range l.Groups {
		one[0] = l.Groups[i].normalized()
		direct.Reset()
		if y.write(&direct, &one[0]) {
			if _, err := bw.Write(direct.Bytes()); err != nil {
				return err
			}
			continue
		}
		g, err := encode(oneGroup{Groups: one})
		if err != nil {
			return err
		}
		item, ok := bytes.CutPrefix(g, []byte(groupsKey))
		if !ok {
			return fmt.Errorf("encoding YAML: group %q: unexpected encoding %.40q", l.Groups[i].Group, g)
		}
		if _, err := bw.Write(item); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// oneGroup is the document a group is encoded in: under the same key as
// in GroupDescriptionList, whose head is encoded apart.
type oneGroup struct {
	Groups []GroupDescription `yaml:"groups"`
}

const groupsKey = "groups:\n"

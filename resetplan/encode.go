package resetplan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Format is a plan file's encoding.
type Format string

// The plan encodings. YAML is the default: it is what reviewers read and
// diff.
const (
	FormatYAML Format = "yaml"
	FormatJSON Format = "json"
)

// FormatForPath picks the encoding for a file name: ".json" is JSON,
// everything else YAML (docs/plan-format.md, "Encodings").
func FormatForPath(path string) Format {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return FormatJSON
	}
	return FormatYAML
}

// Encode renders a plan in the given format (YAML when f is empty). The
// plan is not modified; the output is sorted and deterministic.
func Encode(p *Plan, f Format) ([]byte, error) {
	switch f {
	case FormatYAML, "":
		return EncodeYAML(p)
	case FormatJSON:
		return EncodeJSON(p), nil
	}
	return nil, fmt.Errorf("unknown plan format %q (want yaml or json)", f)
}

// ordMap is a mapping with a fixed key order: the one tree from which the
// YAML, the JSON and the canonical (digest) forms are all written, so they
// cannot disagree about keys, order or omissions. Values are string,
// quoted, int64, nil (null), *ordMap or []any.
type ordMap struct {
	keys []string
	vals []any
	// flow writes the mapping on one line: {k: v, ...} in YAML,
	// {"k": v, ...} in the pretty JSON.
	flow bool
}

// quoted is a string YAML always writes double-quoted: times and free
// text, which read better quoted and are never mistaken for another type.
type quoted string

func (m *ordMap) set(k string, v any) *ordMap {
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	return m
}

// normalizedCopy returns p with groups and partitions sorted, without
// touching p.
func normalizedCopy(p *Plan) *Plan {
	c := *p
	c.Groups = make([]Group, len(p.Groups))
	for i, g := range p.Groups {
		g.Partitions = append([]Partition(nil), g.Partitions...)
		c.Groups[i] = g
	}
	c.normalize()
	return &c
}

// tree is the plan's document, in the key order of docs/plan-format.md
// ("Fields"). Absent
// optional values are omitted (annotations, strategy parameters); absent
// offsets are null (current, a rollback's target). It is the reference
// the direct writers (encode_direct.go) are compared with, and the form a
// group yaml.v3 must write is built from (groupTree).
func tree(p *Plan) *ordMap {
	p = normalizedCopy(p)
	doc := headTree(p)
	groups := make([]any, 0, len(p.Groups))
	for _, g := range p.Groups {
		groups = append(groups, groupTree(p, g))
	}
	doc.set("groups", groups)
	return doc
}

// headTree is the document less its last key, groups: a few keys.
func headTree(p *Plan) *ordMap {
	doc := &ordMap{}
	doc.set("apiVersion", p.APIVersion).set("kind", p.Kind).
		set("createdAt", quoted(formatTime(p.CreatedAt))).set("createdBy", p.CreatedBy)
	doc.set("cluster", (&ordMap{flow: true}).set("id", p.Cluster.ID).set("bootstrap", quoted(p.Cluster.Bootstrap)))
	s := p.Strategy
	st := (&ordMap{flow: true}).set("type", string(s.Type))
	if s.Offset != nil {
		st.set("offset", *s.Offset)
	}
	if s.ShiftBy != nil {
		st.set("shiftBy", *s.ShiftBy)
	}
	if !s.Datetime.IsZero() {
		st.set("datetime", quoted(formatTime(s.Datetime)))
	}
	if s.Duration != "" {
		st.set("duration", s.Duration)
	}
	if !s.ResolvedTime.IsZero() {
		st.set("resolvedTime", quoted(formatTime(s.ResolvedTime)))
	}
	if s.File != "" {
		st.set("file", quoted(s.File))
	}
	if s.RollbackOf != "" {
		st.set("rollbackOf", quoted(s.RollbackOf))
	}
	if s.Group != "" {
		st.set("group", s.Group)
	}
	if s.Alias != "" {
		st.set("alias", s.Alias)
	}
	if s.CheckpointsTopic != "" {
		st.set("checkpointsTopic", s.CheckpointsTopic)
	}
	doc.set("strategy", st)
	if !p.Annotations.IsZero() {
		an := &ordMap{flow: true}
		if p.Annotations.Ticket != "" {
			an.set("ticket", p.Annotations.Ticket)
		}
		if p.Annotations.Note != "" {
			an.set("note", quoted(p.Annotations.Note))
		}
		doc.set("annotations", an)
	}
	if p.Connector != nil {
		doc.set("connector", connectorTree(p.Connector))
	}
	return doc
}

// groupTree is one item of the document's groups.
func groupTree(p *Plan, g Group) *ordMap {
	parts := make([]any, 0, len(g.Partitions))
	for _, pt := range g.Partitions {
		m := (&ordMap{flow: true}).set("topic", pt.Topic).set("partition", int64(pt.Partition))
		m.set("current", optInt(pt.Current)).set("target", optInt(pt.Target))
		m.set("logStart", pt.LogStart).set("logEnd", pt.LogEnd).set("reason", string(pt.Reason))
		// translate-from only; absent in every other plan, so their bytes
		// and digests are unchanged.
		if pt.Upstream != nil {
			m.set("upstreamOffset", *pt.Upstream)
		}
		if !pt.CheckpointTime.IsZero() {
			m.set("checkpointTime", quoted(formatTime(pt.CheckpointTime)))
		}
		parts = append(parts, m)
	}
	gm := (&ordMap{}).set("group", g.Group).set("type", g.Type).set("stateAtPlan", g.StateAtPlan)
	if p.IsNew(g) {
		// Derived from stateAtPlan (IsNew), said plainly for the
		// reviewer; part of the canonical form like every key.
		gm.set("new", true)
	}
	gm.set("partitions", parts)
	return gm
}

func optInt(v *int64) any {
	if v == nil {
		return nil
	}
	return *v
}

// EncodeYAML renders the plan as YAML: block style at the top and for each
// group, one flow mapping per partition line, two-space indent. Strings
// YAML would read as another type (numbers, true, null, ...) are quoted.
//
// The document is written a group at a time from the plan itself
// (encodeYAMLDirect): yaml.v3 keeps every event of a document until it
// ends, 2 GB at 128,000 partitions, and the tree of the whole plan is
// 100 MB more. The bytes are those of encoding the whole tree at once
// (TestEncodeYAMLGroupByGroup, TestDirectWritersIdentical).
func EncodeYAML(p *Plan) ([]byte, error) {
	b, err := encodeYAMLDirect(canonicalOrder(p))
	if err != nil {
		return nil, fmt.Errorf("encoding plan as YAML: %w", err)
	}
	return b, nil
}

// planYAML writes a group of the plan in YAML itself (yamlGroup), as
// yaml.v3 writes its tree as an item of "groups:", and asks yaml.v3 only how to write
// each distinct string, once per context (block mapping value, or flow
// mapping value, where more strings need quotes), as the only value of a
// one-key mapping of that style. That is exact while the rendering is one
// line: yaml.v3's width is unlimited and its choice of style depends on
// the string, its node style and the context alone. A group holding a
// string yaml.v3 writes over several lines is left to yaml.v3
// (TestEncodeYAMLGroupByGroup compares the result with the whole-tree
// encoding).
type planYAML struct {
	cache  map[scalarKey]string
	encode func(*yaml.Node) ([]byte, error)
	// strs caches scalar's answer for strings, block [0] and flow [1]
	// (str, used by the direct writer).
	strs [2]map[string]string
}

type scalarKey struct {
	v    any // string or quoted
	flow bool
}

// scalar returns how yaml.v3 writes v in the context, "" when not on one
// line.
func (e *planYAML) scalar(v any, flow bool) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	case string, quoted:
	default:
		return ""
	}
	k := scalarKey{v, flow}
	if r, ok := e.cache[k]; ok {
		return r
	}
	r := ""
	one, err := e.encode(yamlNode(&ordMap{keys: []string{"k"}, vals: []any{v}, flow: flow}))
	prefix, suffix := "k: ", "\n"
	if flow {
		prefix, suffix = "{k: ", "}\n"
	}
	if text, ok := bytes.CutPrefix(one, []byte(prefix)); err == nil && ok && bytes.HasSuffix(text, []byte(suffix)) {
		text = bytes.TrimSuffix(text, []byte(suffix))
		// yaml.v3 also breaks lines at NEL, LS and PS.
		if len(text) > 0 && !bytes.ContainsAny(text, "\n\r\u0085\u2028\u2029") {
			r = string(text)
		}
	}
	e.cache[k] = r
	return r
}

func yamlNode(v any) *yaml.Node {
	switch v := v.(type) {
	case *ordMap:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if v.flow {
			n.Style = yaml.FlowStyle
		}
		for i, k := range v.keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, yamlNode(v.vals[i]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, it := range v {
			n.Content = append(n.Content, yamlNode(it))
		}
		return n
	case quoted:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(v), Style: yaml.DoubleQuotedStyle}
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
		if needsYAMLQuotes(v) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	panic(fmt.Sprintf("resetplan: unexpected value %T in plan tree", v))
}

// needsYAMLQuotes covers what yaml.v3 leaves plain but other readers
// misread: YAML 1.1 booleans (PyYAML reads a group named "yes" as true),
// and control characters, which would otherwise become block scalars.
// yaml.v3 itself quotes strings that resolve to numbers, null, true/false
// or timestamps, and anything with indicator characters.
func needsYAMLQuotes(s string) bool {
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "":
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// EncodeJSON renders the plan as indented JSON with the same keys and
// order as the YAML; each partition is one line, as in the YAML, so a
// JSON plan diffs as well.
func EncodeJSON(p *Plan) []byte {
	p = canonicalOrder(p)
	var b bytes.Buffer
	b.Grow(planSize(p) * 3 / 2)
	writePlanJSON(&b, p, false, nil)
	b.WriteByte('\n')
	return b.Bytes()
}

// canonicalJSON is the form the digest is computed over: the plan sorted
// (groups by id, partitions by topic and partition), the document's keys in
// their fixed order, absent optional keys omitted, absent offsets null,
// times in formatTime's UTC form, compact (no whitespace outside strings),
// strings escaped as Go's encoding/json does without HTML escaping.
func canonicalJSON(p *Plan) []byte {
	p = canonicalOrder(p)
	var b bytes.Buffer
	b.Grow(planSize(p))
	writePlanJSON(&b, p, true, nil)
	return b.Bytes()
}

// Digest returns the plan's content digest, "sha256:<hex>", over
// canonicalJSON. The same plan decoded from YAML or JSON, reformatted or
// reordered has the same digest; any change to a value changes it. The
// digest is not stored in the file: plan, show and apply print it, and
// apply --expect-digest compares it.
//
// The canonical bytes are hashed as they are written, 64 KiB at a time,
// never held whole.
func Digest(p *Plan) string {
	h := sha256.New()
	var b bytes.Buffer
	b.Grow(flushAt + 4096)
	writePlanJSON(&b, canonicalOrder(p), true, h)
	h.Write(b.Bytes())
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func writeJSON(b *bytes.Buffer, v any, indent int, compact bool) {
	switch v := v.(type) {
	case *ordMap:
		writeJSONObject(b, v, indent, compact)
	case []any:
		writeJSONArray(b, v, indent, compact)
	case quoted:
		b.WriteString(jsonString(string(v)))
	case string:
		b.WriteString(jsonString(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("resetplan: unexpected value %T in plan tree", v))
	}
}

// writeJSONObject writes a mapping of the plan tree for writeJSON.
func writeJSONObject(b *bytes.Buffer, v *ordMap, indent int, compact bool) {
	if len(v.keys) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteByte('{')
	for i, k := range v.keys {
		if i > 0 {
			b.WriteByte(',')
			if !compact && v.flow {
				b.WriteByte(' ')
			}
		}
		if !compact && !v.flow {
			jsonPad(b, indent+2)
		}
		b.WriteString(jsonString(k))
		b.WriteByte(':')
		if !compact {
			b.WriteByte(' ')
		}
		// Flow mappings hold only scalars, so they stay on one line.
		writeJSON(b, v.vals[i], indent+2, compact)
	}
	if !compact && !v.flow {
		jsonPad(b, indent)
	}
	b.WriteByte('}')
}

// writeJSONArray writes a sequence of the plan tree for writeJSON.
func writeJSONArray(b *bytes.Buffer, v []any, indent int, compact bool) {
	if len(v) == 0 {
		b.WriteString("[]")
		return
	}
	b.WriteByte('[')
	for i, it := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		if !compact {
			jsonPad(b, indent+2)
		}
		writeJSON(b, it, indent+2, compact)
	}
	if !compact {
		jsonPad(b, indent)
	}
	b.WriteByte(']')
}

// jsonPad starts a new line indented by n spaces.
func jsonPad(b *bytes.Buffer, n int) {
	b.WriteByte('\n')
	b.WriteString(strings.Repeat(" ", n))
}

// jsonString is s as encoding/json writes it without HTML escaping. A
// string of printable ASCII other than '"' and '\\' (group and topic
// names nearly always are) is written as it is, quoted, which is what
// encoding/json writes for it, without an encoder per string; anything
// else goes through encoding/json (jsonStringSlow).
func jsonString(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return jsonStringSlow(s)
		}
	}
	return `"` + s + `"`
}

func jsonStringSlow(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

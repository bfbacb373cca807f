package resetplan

import (
	"bytes"
	"strconv"
	"strings"
)

// fastWire reads a YAML plan in exactly the layout EncodeYAML writes
// (the canonical form: block top level in its key order, one flow
// mapping per partition line) into its wire form without yaml.v3, which
// builds a yaml.Node tree of the whole file twice over (553 MB at 128,000
// partitions). It accepts only what it can read with certainty: plain
// scalars of a small character set that begin with a letter and are no
// YAML keyword, double-quoted strings without escapes, decimal integers
// and null, each key once. For anything else it reports false and Decode
// takes the yaml.v3 path, so every refusal, and every plan written
// another way, is today's. TestDecodeFastPath and FuzzDecodeFastPath
// compare the two paths.
func fastWire(data []byte) (*wirePlan, bool) {
	if len(data) == 0 || data[len(data)-1] != '\n' || bytes.ContainsAny(data, "\r\t\x00#&*!|>%@`'\\") {
		return nil, false
	}
	lines := strings.Split(string(data[:len(data)-1]), "\n")
	r := &lineReader{lines: lines}
	w := &wirePlan{}
	var ok bool
	if w.APIVersion, ok = r.blockString("apiVersion"); !ok {
		return nil, false
	}
	if w.Kind, ok = r.blockString("kind"); !ok {
		return nil, false
	}
	createdAt, ok := r.blockString("createdAt")
	if !ok {
		return nil, false
	}
	w.CreatedAt = &createdAt
	if w.CreatedBy, ok = r.blockString("createdBy"); !ok {
		return nil, false
	}
	m, ok := r.flow("cluster", map[string]bool{"id": true, "bootstrap": true})
	if !ok || !m.has("id", "bootstrap") {
		return nil, false
	}
	w.Cluster = &wireCluster{}
	if w.Cluster.ID, ok = m.str("id"); !ok {
		return nil, false
	}
	if w.Cluster.Bootstrap, ok = m.str("bootstrap"); !ok {
		return nil, false
	}
	m, ok = r.flow("strategy", map[string]bool{"type": true, "offset": true, "shiftBy": true, "datetime": true,
		"duration": true, "resolvedTime": true, "file": true, "rollbackOf": true, "group": true})
	if !ok || !m.has("type") {
		return nil, false
	}
	s := &wireStrategy{}
	if s.Type, ok = m.str("type"); !ok {
		return nil, false
	}
	for _, f := range []struct {
		k string
		p **int64
	}{{"offset", &s.Offset}, {"shiftBy", &s.ShiftBy}} {
		if _, present := m[f.k]; present {
			v, ok := m.int(f.k, 64)
			if !ok || v == nil {
				return nil, false
			}
			*f.p = v
		}
	}
	for _, f := range []struct {
		k string
		p **string
	}{{"datetime", &s.Datetime}, {"duration", &s.Duration}, {"resolvedTime", &s.ResolvedTime},
		{"file", &s.File}, {"rollbackOf", &s.RollbackOf}, {"group", &s.Group}} {
		if _, present := m[f.k]; present {
			v, ok := m.str(f.k)
			if !ok {
				return nil, false
			}
			*f.p = &v
		}
	}
	w.Strategy = s
	if r.peekKey("annotations") {
		m, ok = r.flow("annotations", map[string]bool{"ticket": true, "note": true})
		if !ok {
			return nil, false
		}
		a := &wireAnnotations{}
		for _, f := range []struct {
			k string
			p **string
		}{{"ticket", &a.Ticket}, {"note", &a.Note}} {
			if _, present := m[f.k]; present {
				v, ok := m.str(f.k)
				if !ok {
					return nil, false
				}
				*f.p = &v
			}
		}
		w.Annotations = a
	}
	groups := []wireGroup{}
	w.Groups = &groups
	switch r.next() {
	case "groups: []":
	case "groups:":
		for r.more() {
			g, ok := r.group()
			if !ok {
				return nil, false
			}
			groups = append(groups, g)
		}
		if len(groups) == 0 {
			return nil, false
		}
	default:
		return nil, false
	}
	if r.more() {
		return nil, false
	}
	return w, true
}

type lineReader struct {
	lines []string
	i     int
}

func (r *lineReader) more() bool { return r.i < len(r.lines) }

func (r *lineReader) next() string {
	if r.i >= len(r.lines) {
		return "\x00" // matches no line
	}
	r.i++
	return r.lines[r.i-1]
}

func (r *lineReader) peekKey(k string) bool {
	return r.more() && strings.HasPrefix(r.lines[r.i], k+": ")
}

// keyValue cuts "<indent><key>: <value>" from the next line.
func (r *lineReader) keyValue(indent, key string) (string, bool) {
	return strings.CutPrefix(r.next(), indent+key+": ")
}

func (r *lineReader) blockString(key string) (string, bool) {
	v, ok := r.keyValue("", key)
	if !ok {
		return "", false
	}
	return scalarString(v, true)
}

func (r *lineReader) flow(key string, known map[string]bool) (flowMap, bool) {
	v, ok := r.keyValue("", key)
	if !ok {
		return nil, false
	}
	return parseFlow(v, known)
}

func (r *lineReader) group() (wireGroup, bool) {
	var g wireGroup
	name, ok := r.keyValue("  - ", "group")
	if !ok {
		return g, false
	}
	n, ok := scalarString(name, true)
	if !ok {
		return g, false
	}
	g.Group = &n
	v, ok := r.keyValue("    ", "type")
	if !ok {
		return g, false
	}
	if g.Type, ok = scalarString(v, true); !ok {
		return g, false
	}
	if v, ok = r.keyValue("    ", "stateAtPlan"); !ok {
		return g, false
	}
	if g.StateAtPlan, ok = scalarString(v, true); !ok {
		return g, false
	}
	if r.more() && r.lines[r.i] == "    new: true" {
		// The derived mark EncodeYAML writes for a new group; fromWire
		// checks it against stateAtPlan.
		r.i++
		yes := true
		g.New = &yes
	}
	switch r.next() {
	case "    partitions: []":
		g.Partitions = []wirePartition{}
		return g, true
	case "    partitions:":
	default:
		return g, false
	}
	for r.more() && strings.HasPrefix(r.lines[r.i], "      - ") {
		m, ok := parseFlow(strings.TrimPrefix(r.next(), "      - "), partitionKeys)
		if !ok || !m.has("topic", "partition", "current", "target", "logStart", "logEnd", "reason") {
			return g, false
		}
		var p wirePartition
		topic, ok := m.str("topic")
		if !ok {
			return g, false
		}
		p.Topic = &topic
		pn, ok := m.int("partition", 32)
		if !ok || pn == nil {
			return g, false
		}
		p.Partition = new(int32(*pn))
		if p.Current, ok = m.int("current", 64); !ok {
			return g, false
		}
		if p.Target, ok = m.int("target", 64); !ok {
			return g, false
		}
		if p.LogStart, ok = m.int("logStart", 64); !ok || p.LogStart == nil {
			return g, false
		}
		if p.LogEnd, ok = m.int("logEnd", 64); !ok || p.LogEnd == nil {
			return g, false
		}
		if p.Reason, ok = m.str("reason"); !ok {
			return g, false
		}
		g.Partitions = append(g.Partitions, p)
	}
	return g, len(g.Partitions) > 0
}

var partitionKeys = map[string]bool{"topic": true, "partition": true, "current": true, "target": true,
	"logStart": true, "logEnd": true, "reason": true}

// flowMap is a flow mapping's raw values by key.
type flowMap map[string]string

func (m flowMap) has(keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func (m flowMap) str(k string) (string, bool) { return scalarString(m[k], false) }

// int reads a decimal integer of the given size, or null (nil).
func (m flowMap) int(k string, bits int) (*int64, bool) {
	v := m[k]
	if v == "null" {
		return nil, true
	}
	if v == "" || v == "-" || (v[0] == '0' && len(v) > 1) || strings.HasPrefix(v, "-0") {
		return nil, false
	}
	for i := 0; i < len(v); i++ {
		if (v[i] < '0' || v[i] > '9') && !(i == 0 && v[i] == '-') {
			return nil, false
		}
	}
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		return nil, false
	}
	return &n, true
}

// parseFlow reads "{k: v, k: v}" with keys from known, each once.
func parseFlow(s string, known map[string]bool) (flowMap, bool) {
	body, ok := strings.CutPrefix(s, "{")
	if !ok {
		return nil, false
	}
	if body, ok = strings.CutSuffix(body, "}"); !ok || body == "" {
		return nil, false
	}
	m := flowMap{}
	for {
		k, rest, ok := strings.Cut(body, ": ")
		if !ok || !known[k] {
			return nil, false
		}
		if _, dup := m[k]; dup {
			return nil, false
		}
		var v string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return nil, false
			}
			v, rest = rest[:end+2], rest[end+2:]
		} else {
			end := strings.IndexAny(rest, ",{}[]\"")
			if end < 0 {
				v, rest = rest, ""
			} else {
				v, rest = rest[:end], rest[end:]
			}
		}
		m[k] = v
		if rest == "" {
			return m, true
		}
		if body, ok = strings.CutPrefix(rest, ", "); !ok {
			return nil, false
		}
	}
}

// scalarString reads a string value: double-quoted printable ASCII
// without escapes, or a plain scalar that cannot be anything but that
// string (see plainOK).
func scalarString(v string, block bool) (string, bool) {
	if inner, ok := strings.CutPrefix(v, `"`); ok {
		inner, ok = strings.CutSuffix(inner, `"`)
		if !ok {
			return "", false
		}
		for i := 0; i < len(inner); i++ {
			if c := inner[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return "", false
			}
		}
		return inner, true
	}
	return v, plainOK(v, block)
}

// plainOK accepts plain scalars of letters, digits and ._/+- (and, in
// block context, single spaces between them) that begin with a letter
// and are not a YAML keyword, or begin with a digit and hold a letter no
// number or timestamp can hold (not a-f, o, x, e, t, z: "4L6g3nShT-…",
// a cluster id): such a scalar is always the string itself.
func plainOK(v string, block bool) bool {
	if v == "" || v[len(v)-1] == ' ' {
		return false
	}
	if !isLetter(v[0]) {
		if v[0] < '0' || v[0] > '9' || !strings.ContainsFunc(v, func(c rune) bool {
			return c < 0x80 && isLetter(byte(c)) && !strings.ContainsRune("abcdefABCDEFoOxXtTzZ", c)
		}) {
			return false
		}
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLetter(c), c >= '0' && c <= '9', c == '.', c == '_', c == '/', c == '+', c == '-':
		case c == ' ' && block && v[i-1] != ' ':
		default:
			return false
		}
	}
	switch strings.ToLower(v) {
	case "y", "yes", "n", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

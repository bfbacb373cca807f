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
	r := &lineReader{lines: lines, kept: map[string]string{}}
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
	if w.Cluster, ok = r.cluster(); !ok {
		return nil, false
	}
	if w.Strategy, ok = r.strategy(); !ok {
		return nil, false
	}
	if r.peekKey("annotations") {
		if w.Annotations, ok = r.annotations(); !ok {
			return nil, false
		}
	}
	if w.Groups, ok = r.groups(); !ok {
		return nil, false
	}
	if r.more() {
		return nil, false
	}
	r.keepHeader(w)
	return w, true
}

// cluster reads the cluster line, a flow mapping of id and bootstrap.
func (r *lineReader) cluster() (*wireCluster, bool) {
	m, ok := r.flow("cluster", map[string]bool{"id": true, "bootstrap": true})
	if !ok || !m.has("id", "bootstrap") {
		return nil, false
	}
	c := &wireCluster{}
	if c.ID, ok = m.str("id"); !ok {
		return nil, false
	}
	if c.Bootstrap, ok = m.str("bootstrap"); !ok {
		return nil, false
	}
	return c, true
}

// strategy reads the strategy line, a flow mapping of its type and the
// parameters present (fromWire checks which ones the type takes).
func (r *lineReader) strategy() (*wireStrategy, bool) {
	m, ok := r.flow("strategy", map[string]bool{"type": true, "offset": true, "shiftBy": true, "datetime": true,
		"duration": true, "resolvedTime": true, "file": true, "rollbackOf": true, "group": true,
		"alias": true, "checkpointsTopic": true})
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
	if !m.optionalStrings([]stringField{{"datetime", &s.Datetime}, {"duration", &s.Duration},
		{"resolvedTime", &s.ResolvedTime}, {"file", &s.File}, {"rollbackOf", &s.RollbackOf}, {"group", &s.Group},
		{"alias", &s.Alias}, {"checkpointsTopic", &s.CheckpointsTopic}}) {
		return nil, false
	}
	return s, true
}

// annotations reads the annotations line, a flow mapping of ticket and
// note, each optional.
func (r *lineReader) annotations() (*wireAnnotations, bool) {
	m, ok := r.flow("annotations", map[string]bool{"ticket": true, "note": true})
	if !ok {
		return nil, false
	}
	a := &wireAnnotations{}
	if !m.optionalStrings([]stringField{{"ticket", &a.Ticket}, {"note", &a.Note}}) {
		return nil, false
	}
	return a, true
}

// groups reads "groups: []" or "groups:" and at least one group entry.
func (r *lineReader) groups() (*[]wireGroup, bool) {
	groups := []wireGroup{}
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
	return &groups, true
}

// keepHeader gives the strings before groups their own copies (group
// keeps the groups' own as it reads them).
func (r *lineReader) keepHeader(w *wirePlan) {
	for _, s := range []*string{&w.APIVersion, &w.Kind, w.CreatedAt, &w.CreatedBy, &w.Cluster.ID, &w.Cluster.Bootstrap, &w.Strategy.Type} {
		*s = r.keep(*s)
	}
	for _, s := range []*string{w.Strategy.Datetime, w.Strategy.Duration, w.Strategy.ResolvedTime, w.Strategy.File,
		w.Strategy.RollbackOf, w.Strategy.Group, w.Strategy.Alias, w.Strategy.CheckpointsTopic} {
		if s != nil {
			*s = r.keep(*s)
		}
	}
	if a := w.Annotations; a != nil {
		for _, s := range []*string{a.Ticket, a.Note} {
			if s != nil {
				*s = r.keep(*s)
			}
		}
	}
}

type lineReader struct {
	lines []string
	i     int
	// kept interns every string the wire plan keeps (keep): the values
	// are substrings of one copy of the whole file, and a plan holding
	// any of them would hold all of it (15 MB at 128,000 partitions) for
	// as long as it lives.
	kept map[string]string
	// ints, i32s and strs hold the wire partitions' values, a chunk at a
	// time instead of an allocation each.
	ints slab[int64]
	i32s slab[int32]
	strs slab[string]
}

// keep returns s as a string of its own, one per distinct value.
func (r *lineReader) keep(s string) string {
	if k, ok := r.kept[s]; ok {
		return k
	}
	k := strings.Clone(s)
	r.kept[k] = k
	return k
}

// slab hands out pointers to values stored in chunks: a pointer stays
// valid because a full chunk is never grown, only replaced.
type slab[T any] struct{ buf []T }

func (s *slab[T]) put(v T) *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 1024)
	}
	s.buf = append(s.buf, v)
	return &s.buf[len(s.buf)-1]
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
	n = r.keep(n)
	g.Group = &n
	v, ok := r.keyValue("    ", "type")
	if !ok {
		return g, false
	}
	if g.Type, ok = scalarString(v, true); !ok {
		return g, false
	}
	g.Type = r.keep(g.Type)
	if v, ok = r.keyValue("    ", "stateAtPlan"); !ok {
		return g, false
	}
	if g.StateAtPlan, ok = scalarString(v, true); !ok {
		return g, false
	}
	g.StateAtPlan = r.keep(g.StateAtPlan)
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
	start := r.i
	for r.i < len(r.lines) && strings.HasPrefix(r.lines[r.i], "      - ") {
		r.i++
	}
	g.Partitions = make([]wirePartition, r.i-start)
	for k, line := range r.lines[start:r.i] {
		if !r.partition(strings.TrimPrefix(line, "      - "), &g.Partitions[k]) {
			return g, false
		}
	}
	return g, len(g.Partitions) > 0
}

// partition reads one partition line into p. The line EncodeYAML writes
// (its keys in their order) is read as it stands (canonicalPartition);
// any other is cut into a flowMap first, which reads the same values
// from the canonical line (TestCanonicalPartitionLine).
func (r *lineReader) partition(line string, p *wirePartition) bool {
	var vals [len(partitionOrder)]string
	if !canonicalPartition(line, &vals) {
		m, ok := parseFlow(line, partitionKeys)
		if !ok || !m.has(partitionOrder[:]...) {
			return false
		}
		for i, k := range partitionOrder {
			vals[i] = m[k]
		}
		if !r.checkpointFields(m, p) {
			return false
		}
	}
	topic, ok := scalarString(vals[0], false)
	if !ok {
		return false
	}
	p.Topic = r.strs.put(r.keep(topic))
	pn, null, ok := intValue(vals[1], 32)
	if !ok || null {
		return false
	}
	p.Partition = r.i32s.put(int32(pn))
	for i, f := range []**int64{&p.Current, &p.Target, &p.LogStart, &p.LogEnd} {
		n, null, ok := intValue(vals[2+i], 64)
		if !ok || (null && i >= 2) {
			return false
		}
		if !null {
			*f = r.ints.put(n)
		}
	}
	if p.Reason, ok = scalarString(vals[6], false); !ok {
		return false
	}
	p.Reason = r.keep(p.Reason)
	return true
}

// partitionOrder is the keys of a partition line in EncodeYAML's order.
var partitionOrder = [...]string{"topic", "partition", "current", "target", "logStart", "logEnd", "reason"}

// canonicalPartition cuts "{topic: v, partition: v, ..., reason: v}", the
// keys in partitionOrder, into vals, each value cut as parseFlow cuts it;
// false for any other line.
func canonicalPartition(s string, vals *[len(partitionOrder)]string) bool {
	body, ok := strings.CutPrefix(s, "{")
	if !ok {
		return false
	}
	if body, ok = strings.CutSuffix(body, "}"); !ok {
		return false
	}
	for i, k := range partitionOrder {
		if i > 0 {
			if body, ok = strings.CutPrefix(body, ", "); !ok {
				return false
			}
		}
		if len(body) < len(k)+2 || body[:len(k)] != k || body[len(k):len(k)+2] != ": " {
			return false
		}
		rest := body[len(k)+2:]
		v, rest, ok := flowValue(rest)
		if !ok {
			return false
		}
		vals[i], body = v, rest
	}
	return body == ""
}

var partitionKeys = map[string]bool{"topic": true, "partition": true, "current": true, "target": true,
	"logStart": true, "logEnd": true, "reason": true, "upstreamOffset": true, "checkpointTime": true}

// checkpointFields reads a translate-from partition's optional
// upstreamOffset and checkpointTime (fromWire checks they belong).
func (r *lineReader) checkpointFields(m flowMap, p *wirePartition) bool {
	if _, ok := m["upstreamOffset"]; ok {
		v, ok := m.int("upstreamOffset", 64)
		if !ok || v == nil {
			return false
		}
		p.UpstreamOffset = v
	}
	if !m.optionalStrings([]stringField{{"checkpointTime", &p.CheckpointTime}}) {
		return false
	}
	if p.CheckpointTime != nil {
		s := r.keep(*p.CheckpointTime)
		p.CheckpointTime = &s
	}
	return true
}

// flowValue cuts the raw value at the start of rest (a flow mapping's
// text after "key: "): a double-quoted string whole, quotes kept, or the
// text up to the next flow indicator or quote. ok is false for an
// unterminated string.
func flowValue(rest string) (v, after string, ok bool) {
	if strings.HasPrefix(rest, `"`) {
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return "", "", false
		}
		return rest[:end+2], rest[end+2:], true
	}
	if end := strings.IndexAny(rest, ",{}[]\""); end >= 0 {
		return rest[:end], rest[end:], true
	}
	return rest, "", true
}

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

// stringField is an optional string of a flow mapping: its key and where
// it goes.
type stringField struct {
	k string
	p **string
}

// optionalStrings sets each field present in m to its string value; false
// if one of them is not a string.
func (m flowMap) optionalStrings(fields []stringField) bool {
	for _, f := range fields {
		if _, present := m[f.k]; present {
			v, ok := m.str(f.k)
			if !ok {
				return false
			}
			*f.p = &v
		}
	}
	return true
}

// int reads a decimal integer of the given size, or null (nil).
func (m flowMap) int(k string, bits int) (*int64, bool) {
	n, null, ok := intValue(m[k], bits)
	if !ok || null {
		return nil, ok
	}
	return &n, true
}

// intValue reads a decimal integer of the given size, or null.
func intValue(v string, bits int) (n int64, null, ok bool) {
	if v == "null" {
		return 0, true, true
	}
	if v == "" || v == "-" || (v[0] == '0' && len(v) > 1) || strings.HasPrefix(v, "-0") {
		return 0, false, false
	}
	for i := 0; i < len(v); i++ {
		if (v[i] < '0' || v[i] > '9') && !(i == 0 && v[i] == '-') {
			return 0, false, false
		}
	}
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		return 0, false, false
	}
	return n, false, true
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
		v, rest, ok := flowValue(rest)
		if !ok {
			return nil, false
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

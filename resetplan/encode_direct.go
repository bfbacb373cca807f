package resetplan

import (
	"bytes"
	"fmt"
	"hash"
	"strconv"

	"gopkg.in/yaml.v3"
)

// The direct writers: the plan's YAML, JSON and canonical (digest) forms
// written from the Plan itself, group by group, without building the
// ordMap tree of the whole plan first. At 128,000 partitions that tree was
// some 100 MB of boxed values and 15 allocations per partition, built
// again for every encoding and every digest (apply made four). Only the
// few keys before groups still go through the tree (headTree), and a
// group yaml.v3 must write itself (a string it writes over several lines)
// through that group's tree (groupTree). The bytes are those of the tree
// writers: TestDirectWritersIdentical compares them on the golden,
// odd-string and generated plans.

// canonicalOrder returns p when its groups and each group's partitions
// are already strictly in canonical order (what Build and Decode return),
// otherwise a sorted copy (normalizedCopy), so a sorted plan is not
// copied. Equal neighbours (duplicate names, which only a hand-made Plan
// holds) take the copy: the sort need not keep their order, and the
// copy's order is what the tree writers see.
func canonicalOrder(p *Plan) *Plan {
	for i := range p.Groups {
		if i > 0 && compareGroups(p.Groups[i-1], p.Groups[i]) >= 0 {
			return normalizedCopy(p)
		}
		parts := p.Groups[i].Partitions
		for j := 1; j < len(parts); j++ {
			if comparePartitions(parts[j-1], parts[j]) >= 0 {
				return normalizedCopy(p)
			}
		}
	}
	return p
}

// flushAt is how much a streaming writer buffers before it hands the
// bytes on (to the digest's hash).
const flushAt = 64 << 10

// planSize estimates the bytes of the plan's encoding, so the output
// buffer is allocated once rather than doubled (and copied) a dozen times.
func planSize(p *Plan) int {
	n := 1024
	for _, g := range p.Groups {
		n += 96 + 3*len(g.Group)
		for _, pt := range g.Partitions {
			n += 104 + len(pt.Topic) + len(pt.Reason)
		}
	}
	return n
}

// writePlanJSON writes p (in canonical order) as writeJSON writes its tree
// at indent 0. With sink set, b is handed to sink and emptied after each
// group once it holds flushAt bytes.
func writePlanJSON(b *bytes.Buffer, p *Plan, compact bool, sink hash.Hash) {
	head := headTree(p)
	b.WriteByte('{')
	sp := func() {
		if !compact {
			b.WriteByte(' ')
		}
	}
	pad := func(n int) {
		if !compact {
			b.WriteByte('\n')
			for range n {
				b.WriteByte(' ')
			}
		}
	}
	for i, k := range head.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		pad(2)
		appendJSONString(b, k)
		b.WriteByte(':')
		sp()
		writeJSON(b, head.vals[i], 2, compact)
	}
	b.WriteByte(',')
	pad(2)
	b.WriteString(`"groups":`)
	sp()
	if len(p.Groups) == 0 {
		b.WriteString("[]")
	} else {
		b.WriteByte('[')
		for gi, g := range p.Groups {
			if gi > 0 {
				b.WriteByte(',')
			}
			pad(4)
			writeGroupJSON(b, p, g, compact, sp, pad)
			if sink != nil && b.Len() >= flushAt {
				sink.Write(b.Bytes())
				b.Reset()
			}
		}
		pad(2)
		b.WriteByte(']')
	}
	pad(0)
	b.WriteByte('}')
}

// writeGroupJSON writes groupTree(p, g) as writeJSON does at indent 4.
func writeGroupJSON(b *bytes.Buffer, p *Plan, g Group, compact bool, sp func(), pad func(int)) {
	key := func(first bool, k string) {
		if !first {
			b.WriteByte(',')
		}
		pad(6)
		b.WriteString(k) // the keys are plain ASCII, already quoted
		b.WriteByte(':')
		sp()
	}
	b.WriteByte('{')
	key(true, `"group"`)
	appendJSONString(b, g.Group)
	key(false, `"type"`)
	appendJSONString(b, g.Type)
	key(false, `"stateAtPlan"`)
	appendJSONString(b, g.StateAtPlan)
	if p.IsNew(g) {
		key(false, `"new"`)
		b.WriteString("true")
	}
	key(false, `"partitions"`)
	if len(g.Partitions) == 0 {
		b.WriteString("[]")
	} else {
		sep := ","
		if !compact {
			sep = ", "
		}
		b.WriteByte('[')
		for i, pt := range g.Partitions {
			if i > 0 {
				b.WriteByte(',')
			}
			pad(8)
			b.WriteString(`{"topic":`)
			sp()
			appendJSONString(b, pt.Topic)
			b.WriteString(sep + `"partition":`)
			sp()
			appendInt(b, int64(pt.Partition))
			b.WriteString(sep + `"current":`)
			sp()
			appendOptInt(b, pt.Current)
			b.WriteString(sep + `"target":`)
			sp()
			appendOptInt(b, pt.Target)
			b.WriteString(sep + `"logStart":`)
			sp()
			appendInt(b, pt.LogStart)
			b.WriteString(sep + `"logEnd":`)
			sp()
			appendInt(b, pt.LogEnd)
			b.WriteString(sep + `"reason":`)
			sp()
			appendJSONString(b, string(pt.Reason))
			if pt.Upstream != nil {
				b.WriteString(sep + `"upstreamOffset":`)
				sp()
				appendInt(b, *pt.Upstream)
			}
			if !pt.CheckpointTime.IsZero() {
				b.WriteString(sep + `"checkpointTime":`)
				sp()
				appendJSONString(b, formatTime(pt.CheckpointTime))
			}
			b.WriteByte('}')
		}
		pad(6)
		b.WriteByte(']')
	}
	pad(4)
	b.WriteByte('}')
}

func appendInt(b *bytes.Buffer, v int64) {
	b.Write(strconv.AppendInt(b.AvailableBuffer(), v, 10))
}

func appendOptInt(b *bytes.Buffer, v *int64) {
	if v == nil {
		b.WriteString("null")
		return
	}
	appendInt(b, *v)
}

// appendJSONString writes jsonString(s) without building the string.
func appendJSONString(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			b.WriteString(jsonStringSlow(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// encodeYAMLDirect is EncodeYAML: the keys before groups through yaml.v3
// (one small document), then each group written directly (yamlGroup) or,
// when it holds a string yaml.v3 writes over several lines, by yaml.v3 as
// the only item of a "groups:" document less that line: each group is
// encoded at the same place of the same structure (an item of a block
// sequence under a top-level key), so the emitter makes every choice for
// it as in the whole document.
func encodeYAMLDirect(p *Plan) ([]byte, error) {
	var out, buf bytes.Buffer
	encode := func(n *yaml.Node) ([]byte, error) {
		buf.Reset()
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(n); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	head, err := encode(yamlNode(headTree(p)))
	if err != nil {
		return nil, err
	}
	out.Grow(len(head) + planSize(p))
	out.Write(head)
	if len(p.Groups) == 0 {
		out.WriteString("groups: []\n")
		return out.Bytes(), nil
	}
	const key = "groups:\n"
	out.WriteString(key)
	direct := planYAML{cache: map[scalarKey]string{}, encode: encode,
		strs: [2]map[string]string{{}, {}}}
	for _, g := range p.Groups {
		mark := out.Len()
		if direct.yamlGroup(&out, p, g) {
			continue
		}
		out.Truncate(mark)
		one, err := encode(yamlNode((&ordMap{}).set("groups", []any{groupTree(p, g)})))
		if err != nil {
			return nil, err
		}
		item, ok := bytes.CutPrefix(one, []byte(key))
		if !ok {
			return nil, fmt.Errorf("unexpected encoding of a group: %.40q", one)
		}
		out.Write(item)
	}
	return out.Bytes(), nil
}

// str is scalar for a string, through a cache keyed by the string alone
// (an interface key costs a hash of the type and an allocation). A string
// fastWire reads back as plain (plainOK: letters, digits, ._/+- and, in
// block context, single spaces, no keyword or number) is one yaml.v3
// writes plain, as it is, without asking it (TestYAMLPlainFastPath): the
// group names, 2,000 distinct ones at 2,000 groups, cost a yaml.v3
// encoder each otherwise.
func (e *planYAML) str(s string, flow bool) string {
	if plainOK(s, !flow) {
		return s
	}
	i := 0
	if flow {
		i = 1
	}
	if r, ok := e.strs[i][s]; ok {
		return r
	}
	r := e.scalar(s, flow)
	e.strs[i][s] = r
	return r
}

// yamlGroup appends g as yaml.v3 writes groupTree(p, g) as an item of
// "groups:" (two-space indent, one flow mapping per partition line);
// false when a string must be left to yaml.v3.
func (e *planYAML) yamlGroup(out *bytes.Buffer, p *Plan, g Group) bool {
	line := func(prefix, s string) bool {
		r := e.str(s, false)
		if r == "" {
			return false
		}
		out.WriteString(prefix)
		out.WriteString(r)
		out.WriteByte('\n')
		return true
	}
	if !line("  - group: ", g.Group) || !line("    type: ", g.Type) || !line("    stateAtPlan: ", g.StateAtPlan) {
		return false
	}
	if p.IsNew(g) {
		out.WriteString("    new: true\n")
	}
	if len(g.Partitions) == 0 {
		out.WriteString("    partitions: []\n")
		return true
	}
	out.WriteString("    partitions:\n")
	for _, pt := range g.Partitions {
		topic, reason := e.str(pt.Topic, true), e.str(string(pt.Reason), true)
		if topic == "" || reason == "" {
			return false
		}
		out.WriteString("      - {topic: ")
		out.WriteString(topic)
		out.WriteString(", partition: ")
		appendInt(out, int64(pt.Partition))
		out.WriteString(", current: ")
		appendOptInt(out, pt.Current)
		out.WriteString(", target: ")
		appendOptInt(out, pt.Target)
		out.WriteString(", logStart: ")
		appendInt(out, pt.LogStart)
		out.WriteString(", logEnd: ")
		appendInt(out, pt.LogEnd)
		out.WriteString(", reason: ")
		out.WriteString(reason)
		if pt.Upstream != nil {
			out.WriteString(", upstreamOffset: ")
			appendInt(out, *pt.Upstream)
		}
		if !pt.CheckpointTime.IsZero() {
			out.WriteString(`, checkpointTime: "`)
			out.WriteString(formatTime(pt.CheckpointTime))
			out.WriteByte('"')
		}
		out.WriteString("}\n")
	}
	return true
}

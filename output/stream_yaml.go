package output

import (
	"bytes"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// groupYAML writes describe groups in YAML itself, as yaml.v3 would
// write them as items of "groups:", leaving to yaml.v3 only how each
// string is written. yaml.v3 writes a string in block context the same
// way wherever it stands (as a mapping value or a sequence item, at any
// indentation) as long as it fits on one line (no "\n", NEL, LS or PS): its width is unlimited and
// its choice of style depends on the string alone. So each distinct
// string is encoded once, as the value of a one-key document, and reused;
// a group holding a string yaml.v3 writes over several lines (a literal
// block, long binary) is encoded by yaml.v3 whole instead.
// TestStreamIdentical compares the result with the whole-document
// encoding.
type groupYAML struct {
	scalars map[string]string
	// topics are the renderings of assignment topics: TopicPartitions
	// goes through a yaml.Node (MarshalYAML), and re-encoding a node
	// writes the tag it resolved to ("topic: !!merge <<"), so the same
	// string may be written differently there.
	topics map[string]string
	buf    bytes.Buffer
	// multiline is set when a string of the group being written does not
	// fit on one line.
	multiline bool
}

// scalar returns how yaml.v3 writes s as a value in block context.
func (y *groupYAML) scalar(s string) string {
	return y.rendering(y.scalars, s, struct {
		K string `yaml:"k"`
	}{s}, "k: ", "\n")
}

// topic returns how yaml.v3 writes s as the topic of a TopicPartitions.
func (y *groupYAML) topic(s string) string {
	return y.rendering(y.topics, s, TopicPartitions{Topic: s}, "topic: ", "\npartitions: []\n")
}

// rendering encodes doc, which yaml.v3 writes as prefix, the rendering
// of s, and suffix, and caches that rendering; "" (and multiline set)
// when it is not one line.
func (y *groupYAML) rendering(cache map[string]string, s string, doc any, prefix, suffix string) string {
	r, ok := cache[s]
	if !ok {
		y.buf.Reset()
		enc := yaml.NewEncoder(&y.buf)
		enc.SetIndent(2)
		err := enc.Encode(doc)
		if err == nil {
			err = enc.Close()
		}
		out := y.buf.String()
		// yaml.v3 breaks lines, and indents after them, at NEL, LS and
		// PS (U+0085, U+2028, U+2029) too; a rendering holding one, or
		// a line break, is not one line.
		if v, ok := strings.CutPrefix(out, prefix); err == nil && ok && strings.HasSuffix(v, suffix) {
			v = strings.TrimSuffix(v, suffix)
			if !strings.ContainsAny(v, "\n\r\u0085\u2028\u2029") {
				r = v
			}
		}
		cache[s] = r
	}
	if r == "" {
		y.multiline = true
	}
	return r
}

// write appends the YAML of g (normalized) as an item of "groups:" to
// out, and reports false when g needs yaml.v3 itself.
func (y *groupYAML) write(out *bytes.Buffer, g *GroupDescription) bool {
	y.multiline = false
	str := func(ind, k, v string) {
		out.WriteString(ind)
		out.WriteString(k)
		out.WriteString(": ")
		out.WriteString(y.scalar(v))
		out.WriteByte('\n')
	}
	strp := func(ind, k string, v *string) {
		if v == nil {
			out.WriteString(ind + k + ": null\n")
			return
		}
		str(ind, k, *v)
	}
	i64p := func(ind, k string, v *int64) {
		out.WriteString(ind + k + ": ")
		if v == nil {
			out.WriteString("null\n")
			return
		}
		out.WriteString(strconv.FormatInt(*v, 10))
		out.WriteByte('\n')
	}
	i32 := func(ind, k string, v int32) {
		out.WriteString(ind + k + ": ")
		out.WriteString(strconv.FormatInt(int64(v), 10))
		out.WriteByte('\n')
	}
	i32p := func(ind, k string, v *int32) {
		if v == nil {
			out.WriteString(ind + k + ": null\n")
			return
		}
		i32(ind, k, *v)
	}
	assignments := func(ind, k string, as []TopicPartitions) {
		if len(as) == 0 {
			out.WriteString(ind + k + ": []\n")
			return
		}
		out.WriteString(ind + k + ":\n")
		for _, a := range as {
			out.WriteString(ind + "  - topic: " + y.topic(a.Topic) + "\n")
			out.WriteString(ind + "    partitions: [")
			for i, p := range a.Partitions {
				if i > 0 {
					out.WriteString(", ")
				}
				out.WriteString(strconv.FormatInt(int64(p), 10))
			}
			out.WriteString("]\n")
		}
	}
	const i1, i2, i3 = "    ", "        ", "          "
	str("  - ", "group", g.Group)
	strp(i1, "state", g.State)
	strp(i1, "type", g.Type)
	str(i1, "protocolType", g.ProtocolType)
	strp(i1, "assignor", g.Assignor)
	if c := g.Coordinator; c == nil {
		out.WriteString(i1 + "coordinator: null\n")
	} else {
		out.WriteString(i1 + "coordinator:\n")
		i32("      ", "id", c.ID)
		str("      ", "host", c.Host)
		i32("      ", "port", c.Port)
	}
	i32p(i1, "groupEpoch", g.GroupEpoch)
	i32p(i1, "targetAssignmentEpoch", g.TargetAssignmentEpoch)
	if len(g.Members) == 0 {
		out.WriteString(i1 + "members: []\n")
	} else {
		out.WriteString(i1 + "members:\n")
		for _, m := range g.Members {
			str("      - ", "memberId", m.MemberID)
			str(i2, "clientId", m.ClientID)
			str(i2, "host", m.Host)
			strp(i2, "groupInstanceId", m.GroupInstanceID)
			i32p(i2, "memberEpoch", m.MemberEpoch)
			if m.Upgraded == nil {
				out.WriteString(i2 + "upgraded: null\n")
			} else {
				out.WriteString(i2 + "upgraded: " + strconv.FormatBool(*m.Upgraded) + "\n")
			}
			assignments(i2, "assignments", m.Assignments)
			if m.TargetAssignments == nil {
				out.WriteString(i2 + "targetAssignments: null\n")
			} else {
				assignments(i2, "targetAssignments", *m.TargetAssignments)
			}
		}
	}
	if len(g.Offsets) == 0 {
		out.WriteString(i1 + "offsets: []\n")
	} else {
		out.WriteString(i1 + "offsets:\n")
		for i := range g.Offsets {
			o := &g.Offsets[i]
			str("      - ", "topic", o.Topic)
			i32(i2, "partition", o.Partition)
			i64p(i2, "committedOffset", o.CommittedOffset)
			i32p(i2, "committedLeaderEpoch", o.CommittedLeaderEpoch)
			i64p(i2, "logStartOffset", o.LogStartOffset)
			i64p(i2, "logEndOffset", o.LogEndOffset)
			i64p(i2, "lastStableOffset", o.LastStableOffset)
			i64p(i2, "lag", o.Lag)
			strp(i2, "committedTimestamp", o.CommittedTimestamp)
			i64p(i2, "timeLagMs", o.TimeLagMs)
			if len(o.TimeLagFlags) == 0 {
				out.WriteString(i2 + "timeLagFlags: []\n")
			} else {
				out.WriteString(i2 + "timeLagFlags:\n")
				for _, f := range o.TimeLagFlags {
					out.WriteString(i3 + "- " + y.scalar(f) + "\n")
				}
			}
			strp(i2, "memberId", o.MemberID)
			strp(i2, "clientId", o.ClientID)
			strp(i2, "host", o.Host)
			strp(i2, "metadata", o.Metadata)
		}
	}
	i64p(i1, "totalLag", g.TotalLag)
	i64p(i1, "maxTimeLagMs", g.MaxTimeLagMs)
	strp(i1, "error", g.Error)
	return !y.multiline
}

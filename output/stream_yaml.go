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
	if g.Streams != nil || g.Owner != nil || g.Cluster != nil {
		return false // a streams group, an owner, a group of several clusters: yaml.v3 writes it
	}
	y.multiline = false
	w := yamlLines{y: y, out: out}
	w.str("  - ", "group", g.Group)
	w.strp(yamlI1, "state", g.State)
	w.strp(yamlI1, "type", g.Type)
	w.str(yamlI1, "protocolType", g.ProtocolType)
	w.strp(yamlI1, "assignor", g.Assignor)
	w.coordinator(g.Coordinator)
	w.i32p(yamlI1, "groupEpoch", g.GroupEpoch)
	w.i32p(yamlI1, "targetAssignmentEpoch", g.TargetAssignmentEpoch)
	w.members(g.Members)
	w.offsets(g.Offsets)
	w.i64p(yamlI1, "totalLag", g.TotalLag)
	w.i64p(yamlI1, "maxTimeLagMs", g.MaxTimeLagMs)
	w.i64p(yamlI1, "minRetentionHeadroomMs", g.MinRetentionHeadroomMs)
	w.strp(yamlI1, "error", g.Error)
	return !y.multiline
}

// yamlLines appends the lines of one group's YAML to out, each "key:
// value" at the indentation given, strings rendered by y.
type yamlLines struct {
	y   *groupYAML
	out *bytes.Buffer
}

// The indentations of a group item's keys, of a member's or offset's, and
// of a list item under one of those.
const yamlI1, yamlI2, yamlI3 = "    ", "        ", "          "

func (w yamlLines) str(ind, k, v string) {
	w.out.WriteString(ind)
	w.out.WriteString(k)
	w.out.WriteString(": ")
	w.out.WriteString(w.y.scalar(v))
	w.out.WriteByte('\n')
}

func (w yamlLines) strp(ind, k string, v *string) {
	if v == nil {
		w.out.WriteString(ind + k + ": null\n")
		return
	}
	w.str(ind, k, *v)
}

func (w yamlLines) i64p(ind, k string, v *int64) {
	w.out.WriteString(ind + k + ": ")
	if v == nil {
		w.out.WriteString("null\n")
		return
	}
	w.out.WriteString(strconv.FormatInt(*v, 10))
	w.out.WriteByte('\n')
}

func (w yamlLines) i32(ind, k string, v int32) {
	w.out.WriteString(ind + k + ": ")
	w.out.WriteString(strconv.FormatInt(int64(v), 10))
	w.out.WriteByte('\n')
}

func (w yamlLines) i32p(ind, k string, v *int32) {
	if v == nil {
		w.out.WriteString(ind + k + ": null\n")
		return
	}
	w.i32(ind, k, *v)
}

func (w yamlLines) assignments(ind, k string, as []TopicPartitions) {
	if len(as) == 0 {
		w.out.WriteString(ind + k + ": []\n")
		return
	}
	w.out.WriteString(ind + k + ":\n")
	for _, a := range as {
		w.out.WriteString(ind + "  - topic: " + w.y.topic(a.Topic) + "\n")
		w.out.WriteString(ind + "    partitions: [")
		for i, p := range a.Partitions {
			if i > 0 {
				w.out.WriteString(", ")
			}
			w.out.WriteString(strconv.FormatInt(int64(p), 10))
		}
		w.out.WriteString("]\n")
	}
}

func (w yamlLines) coordinator(c *Coordinator) {
	if c == nil {
		w.out.WriteString(yamlI1 + "coordinator: null\n")
		return
	}
	w.out.WriteString(yamlI1 + "coordinator:\n")
	w.i32("      ", "id", c.ID)
	w.str("      ", "host", c.Host)
	w.i32("      ", "port", c.Port)
}

func (w yamlLines) members(ms []Member) {
	if len(ms) == 0 {
		w.out.WriteString(yamlI1 + "members: []\n")
		return
	}
	w.out.WriteString(yamlI1 + "members:\n")
	for _, m := range ms {
		w.str("      - ", "memberId", m.MemberID)
		w.str(yamlI2, "clientId", m.ClientID)
		w.str(yamlI2, "host", m.Host)
		w.strp(yamlI2, "groupInstanceId", m.GroupInstanceID)
		w.i32p(yamlI2, "memberEpoch", m.MemberEpoch)
		if m.Upgraded == nil {
			w.out.WriteString(yamlI2 + "upgraded: null\n")
		} else {
			w.out.WriteString(yamlI2 + "upgraded: " + strconv.FormatBool(*m.Upgraded) + "\n")
		}
		w.assignments(yamlI2, "assignments", m.Assignments)
		if m.TargetAssignments == nil {
			w.out.WriteString(yamlI2 + "targetAssignments: null\n")
		} else {
			w.assignments(yamlI2, "targetAssignments", *m.TargetAssignments)
		}
	}
}

func (w yamlLines) offsets(offs []PartitionOffset) {
	if len(offs) == 0 {
		w.out.WriteString(yamlI1 + "offsets: []\n")
		return
	}
	w.out.WriteString(yamlI1 + "offsets:\n")
	for i := range offs {
		o := &offs[i]
		w.str("      - ", "topic", o.Topic)
		w.i32(yamlI2, "partition", o.Partition)
		if o.StreamsTopic != nil { // omitempty, as the struct's tags say
			w.str(yamlI2, "streamsTopic", *o.StreamsTopic)
		}
		w.i64p(yamlI2, "committedOffset", o.CommittedOffset)
		if o.StartOffset != nil {
			w.i64p(yamlI2, "startOffset", o.StartOffset)
		}
		w.i32p(yamlI2, "committedLeaderEpoch", o.CommittedLeaderEpoch)
		w.i64p(yamlI2, "logStartOffset", o.LogStartOffset)
		w.i64p(yamlI2, "logEndOffset", o.LogEndOffset)
		w.i64p(yamlI2, "lastStableOffset", o.LastStableOffset)
		w.i64p(yamlI2, "lag", o.Lag)
		w.strp(yamlI2, "committedTimestamp", o.CommittedTimestamp)
		w.i64p(yamlI2, "timeLagMs", o.TimeLagMs)
		if len(o.TimeLagFlags) == 0 {
			w.out.WriteString(yamlI2 + "timeLagFlags: []\n")
		} else {
			w.out.WriteString(yamlI2 + "timeLagFlags:\n")
			for _, f := range o.TimeLagFlags {
				w.out.WriteString(yamlI3 + "- " + w.y.scalar(f) + "\n")
			}
		}
		w.i64p(yamlI2, "retentionHeadroomMs", o.RetentionHeadroomMs)
		w.i64p(yamlI2, "retentionHeadroomBytes", o.RetentionHeadroomBytes)
		w.strp(yamlI2, "memberId", o.MemberID)
		w.strp(yamlI2, "clientId", o.ClientID)
		w.strp(yamlI2, "host", o.Host)
		w.strp(yamlI2, "metadata", o.Metadata)
	}
}

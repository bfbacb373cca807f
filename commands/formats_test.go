package commands_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
	"gopkg.in/yaml.v3"
)

// Every format of every document of every group type says the numbers
// its JSON says (docs/output.md, "Every format says the same numbers").
// For a classic, a consumer (KIP-848), a share and (real broker only) a
// streams group, each document kind kcg prints about a group — list,
// describe, the plan (show), the plan check and the plan diff, apply,
// delete-offsets, delete, watch — is rendered in every format its
// command has (table, yaml, markdown, prometheus, csv) and each number
// (and state, type, result) the format shows for a group, partition or
// group total is compared with the JSON of the same state; a partition
// or group the JSON has and the format leaves out fails too. The JSON
// and YAML match their schemas. Writes run once per format, each undone
// before the next (the rollback and undo plans), so every format reports
// the same change.
func TestEveryFormatSaysTheJSONNumbers(t *testing.T) {
	for _, typ := range []string{"classic", "consumer", "share", "streams"} {
		t.Run(typ, func(t *testing.T) {
			e := kafkatest.Cluster(t)
			x := &formatCheck{e: e, dir: t.TempDir()}
			x.setUp(t, typ)
			x.reads(t)
			x.writes(t)
		})
	}
}

type formatCheck struct {
	e            *kafkatest.Env
	dir          string
	typ          string
	group, topic string
}

func (x *formatCheck) path(name string) string { return x.dir + "/" + name }

// setUp makes a group of type typ with numbers to show: commits (or
// start offsets) below the log end on a 2-partition topic, and no
// member, except a share group on kfake, which drops a share group whose
// last member leaves.
func (x *formatCheck) setUp(t *testing.T, typ string) {
	e := x.e
	x.typ, x.group, x.topic = typ, kafkatest.UniqueName(t, typ), kafkatest.UniqueName(t, "t")
	switch typ {
	case "streams":
		f := newStreamsFixture(t)
		x.group, x.topic = f.group, f.input
		f.stop(t)
		return
	case "share":
		if !e.HasShareGroups(t) {
			t.Skip("the broker has no share groups (Kafka 4.1+)")
		}
	}
	e.CreateTopic(t, x.topic, 2)
	e.Produce(t, x.topic, 0, records(10)...)
	e.Produce(t, x.topic, 1, records(10)...)
	switch typ {
	case "classic":
		e.Commit(t, x.group, x.topic, map[int32]int64{0: 4, 1: 7})
	case "consumer":
		// Committed first, then a KIP-848 member joins: a consumer
		// group with commits below the end.
		e.Commit(t, x.group, x.topic, map[int32]int64{0: 4, 1: 7})
		e.ConsumerProtocolMember(t, x.group, x.topic).Stop()
		waitShareState(t, e, x.group, "Empty") // any group's state, by describe
	case "share":
		m := e.ShareGroupMember(t, x.group, x.topic)
		if !e.Real {
			return // kfake: start offsets not initialised, the member stays
		}
		waitShareOffsets(t, e, x.group, x.topic, 2)
		m.Stop()
		waitShareState(t, e, x.group, "Empty")
		// Records the group has not consumed: a lag.
		e.Produce(t, x.topic, 0, records(3)...)
	}
}

// run runs args with -o format (kcg show reads only the file).
func (x *formatCheck) run(t *testing.T, format string, args ...string) clitest.Result {
	t.Helper()
	args = append(args, "-o", format)
	if args[0] == "show" {
		return kcg(t, args...)
	}
	return kcgOn(t, x.e, args...)
}

// reads compares the documents that change nothing.
func (x *formatCheck) reads(t *testing.T) {
	g, topic := x.group, x.topic
	if typ := describeJSONOf(t, x.e, g).Groups[0].Type; typ == nil || *typ != x.typ {
		t.Fatalf("the %s group %s has type %v", x.typ, g, typ)
	}
	x.compare(t, "GroupList", nil, []string{"list", "--type", "all"}, "table", "yaml")
	x.compare(t, "GroupDescriptionList", nil, []string{"describe", g}, "table", "yaml", "markdown", "prometheus")
	x.compare(t, "GroupDescriptionList", nil, []string{"describe", g, "--verbose"}, "table")
	// The describe variants whose numbers move between two runs (the
	// time lag is measured from now): their documents match the schema.
	for _, v := range [][]string{{"--time-lag"}, {"--isolation", "read-committed"}, {"--members", "--verbose"}, {"--state", "--verbose"}} {
		for _, o := range []string{"json", "yaml"} {
			r := x.run(t, o, append([]string{"describe", g}, v...)...).MustCode(t, 0)
			schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, o == "yaml")
		}
	}
	plan, other := x.path("p.yaml"), x.path("q.yaml")
	kcgOn(t, x.e, "plan", g, "--topic", topic, "--to-offset", "3", "--out", plan).MustCode(t, 0)
	kcgOn(t, x.e, "plan", g, "--topic", topic+":0", "--to-offset", "5", "--out", other).MustCode(t, 0)
	x.compare(t, "OffsetResetPlan", nil, []string{"show", plan}, "table", "yaml", "markdown", "csv")
	x.compare(t, "PlanStatus", nil, []string{"diff", plan}, "table", "yaml", "markdown")
	x.compare(t, "PlanDiff", nil, []string{"diff", plan, other}, "table", "yaml", "markdown")
	// kcg watch of a share group is still refused on this branch (issue
	// 30, item 5's other half, on its own branch): compared once it is
	// not; the refusal, and only it, is let through until then.
	if r := kcgOn(t, x.e, "watch", g, "--count", "1", "-o", "json"); x.typ == "share" && r.Code == 3 &&
		strings.Contains(r.Stderr, "is a share group, not a consumer group") {
		t.Logf("watch of a share group refused: %s", strings.TrimSpace(r.Stderr))
	} else {
		x.compare(t, "LagSample", nil, []string{"watch", g, "--count", "1"}, "table")
	}
}

var writtenPlanRE = regexp.MustCompile(`(?:undo|rollback) plan written to (\S+?):?\s`)

// writes compares the documents of apply, delete-offsets and delete, each
// run undone before the next.
func (x *formatCheck) writes(t *testing.T) {
	plan, n := x.path("p.yaml"), 0
	undo := func(r clitest.Result) {
		t.Helper()
		m := writtenPlanRE.FindStringSubmatch(r.Stderr + " ")
		if m == nil {
			return // nothing written
		}
		n++
		kcgOn(t, x.e, "apply", m[1], "--rollback-out", x.path(fmt.Sprintf("undo-%d.yaml", n))).MustCode(t, 0)
	}
	written := func(what, doc string, want ...string) {
		t.Helper()
		if x.typ == "share" && !x.e.Real {
			return // kfake's share group keeps its member: refused
		}
		for _, w := range want {
			if !strings.Contains(doc, w) {
				t.Fatalf("%s wrote nothing (no %s), so the formats compare no change:\n%s", what, w, doc)
			}
		}
	}
	out := x.compare(t, "ApplyReport", undo, []string{"apply", plan, "--rollback-out", x.path("rb-json.yaml")}, "table", "yaml", "markdown")
	written("apply", out, `"result": "applied"`)
	out = x.compare(t, "OffsetDeleteResult", undo, []string{"delete-offsets", "--yes", x.group, "--topic", x.topic}, "table", "yaml")
	written("delete-offsets", out, `"deleted": true`)
	out = x.compare(t, "GroupDeleteResult", undo, []string{"delete", "--yes", x.group}, "table", "yaml")
	written("delete", out, `"deleted": true`)
}

// compare runs args with -o json and with each format (undo, when set,
// after each run) and compares what each format shows with the JSON.
func (x *formatCheck) compare(t *testing.T, kind string, undo func(clitest.Result), args []string, formats ...string) string {
	t.Helper()
	name := strings.Join(args[:1], " ")
	if kind == "PlanDiff" {
		name = "diff A B"
	}
	jr := x.run(t, "json", args...)
	if kind == "LagSample" {
		schematest.MustMatchLines(t, kind, jr.Stdout)
	} else {
		schematest.MustMatch(t, kind, jr.Stdout, false)
	}
	if undo != nil {
		undo(jr)
	}
	want := docFacts(t, jr.Stdout, x.group)
	if len(want.rows) == 0 && !(kind == "ApplyReport" && jr.Code == 3 && strings.Contains(jr.Stdout, x.group)) {
		// Only a refused apply (kfake's share group keeps its member)
		// names the group in its reasons alone.
		t.Fatalf("%s -o json: nothing about %s\n%s", name, x.group, jr.Stdout)
	}
	for _, format := range formats {
		// apply's --rollback-out must not exist: a name per format.
		if args[0] == "apply" {
			args = append(args[:len(args)-1], x.path(fmt.Sprintf("rb-%s.yaml", format)))
		}
		r := x.run(t, format, args...)
		if r.Code != jr.Code {
			t.Errorf("%s -o %s: exit %d, -o json %d\nstderr %s", name, format, r.Code, jr.Code, r.Stderr)
		}
		if undo != nil {
			undo(r)
		}
		if len(want.rows) == 0 {
			if !strings.Contains(r.Stdout+r.Stderr, x.group) {
				t.Errorf("%s -o %s does not name %s:\n%s%s", name, format, x.group, r.Stdout, r.Stderr)
			}
			continue
		}
		var got facts
		switch format {
		case "yaml":
			schematest.MustMatch(t, kind, r.Stdout, true)
			got = yamlFacts(t, r.Stdout, x.group)
			want.equal(t, got, name+" -o yaml")
			continue
		case "prometheus":
			got = promFacts(t, r.Stdout, x.group)
		case "csv":
			got = csvFacts(t, r.Stdout, x.group)
		case "markdown":
			got = tableFacts(markdownTables(r.Stdout), kind, format, x.group)
		default:
			got = tableFacts(plainTables(r.Stdout), kind, format, x.group)
		}
		shownFacts(want, kind, format).shownBy(t, got, name+" -o "+format, r.Stdout)
	}
	return jr.Stdout
}

// facts are what a document says about one group: per row (the group
// itself "", or a partition "topic/partition") its fields as text, null
// as "-".
type facts struct {
	rows     map[string]map[string]string
	promOnly bool // -o prometheus: null is no sample
	// shown are the fields of the columns the output has (tables and
	// markdown); nil: every field of the format's columns.
	shown map[string]bool
}

func (f *facts) set(row, field, value string) {
	if f.rows == nil {
		f.rows = map[string]map[string]string{}
	}
	if f.rows[row] == nil {
		f.rows[row] = map[string]string{}
	}
	f.rows[row][field] = value
}

// equal: the same rows and fields, the same values (YAML against JSON).
func (f facts) equal(t *testing.T, got facts, what string) {
	t.Helper()
	for row, fields := range f.rows {
		for k, v := range fields {
			if g, ok := got.rows[row][k]; !ok || g != v {
				t.Errorf("%s: %s %s = %q (present %v), JSON %q", what, rowName(row), k, g, ok, v)
			}
		}
	}
	for row := range got.rows {
		if f.rows[row] == nil {
			t.Errorf("%s: %s, which JSON does not have", what, rowName(row))
		}
	}
}

// shownBy: the format shows the values of want (shownFacts: the JSON's,
// as cells), every row and every field of it; only -o prometheus leaves
// out what is null (no sample: docs/output.md), a whole partition when
// it has no position.
func (want facts) shownBy(t *testing.T, got facts, what, out string) {
	t.Helper()
	if len(got.rows) == 0 {
		t.Errorf("%s: shows nothing of the group\n%s", what, out)
		return
	}
	for row, fields := range got.rows {
		w := want.rows[row]
		if w == nil {
			t.Errorf("%s: %s, which JSON does not have\n%s", what, rowName(row), out)
			continue
		}
		for k, v := range fields {
			if wv, ok := w[k]; !ok || wv != v {
				t.Errorf("%s: %s %s = %q, JSON %q (present %v)\n%s", what, rowName(row), k, v, wv, ok, out)
			}
		}
	}
	for row, fields := range want.rows {
		g := got.rows[row]
		if g == nil && got.promOnly && fields[col("position").key()] == "-" {
			continue
		}
		for k, v := range fields {
			if got.shown != nil && !got.shown[k] {
				continue // not a column of this output (leader epoch without --verbose)
			}
			if _, ok := g[k]; !ok && (v != "-" || !got.promOnly) {
				t.Errorf("%s: no %s %s, which JSON has: %q\n%s", what, rowName(row), k, v, out)
			}
		}
	}
}

func rowName(row string) string {
	if row == "" {
		return "the group"
	}
	return "partition " + row
}

func partRow(topic string, partition any) string { return fmt.Sprintf("%s/%v", topic, partition) }

// docFacts reads a JSON document (or a stream of them, kcg watch) and
// returns what it says about group: every scalar field of the group's
// objects and of its partitions' objects (nested objects flattened as
// a.b), an array's length as #name, and a partition's position
// (committedOffset, else startOffset: the views without a start-offset
// column show it there).
func docFacts(t *testing.T, text, group string) facts {
	t.Helper()
	var f facts
	dec := json.NewDecoder(strings.NewReader(text))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("JSON: %v\n%s", err, text)
		}
		walkFacts(&f, v, "", group)
	}
	return f
}

func yamlFacts(t *testing.T, text, group string) facts {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("YAML: %v\n%s", err, text)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return docFacts(t, string(b), group)
}

func walkFacts(f *facts, v any, cur, group string) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			walkFacts(f, e, cur, group)
		}
	case map[string]any:
		if g, ok := v["group"].(string); ok {
			cur = g
		}
		topic, hasTopic := v["topic"].(string)
		p, hasPart := v["partition"]
		if cur == group {
			row := ""
			if hasTopic && hasPart {
				row = partRow(topic, scalarText(p)) // null: a whole topic (share groups' delete-offsets)
			}
			if row != "" || !hasTopic {
				addScalars(f, row, "", v)
			}
			if row != "" {
				if _, ok := v["committedOffset"]; ok {
					pos := v["committedOffset"]
					if pos == nil {
						pos = v["startOffset"]
					}
					f.set(row, "position", scalarText(pos))
				}
			}
		}
		for _, e := range v {
			if _, ok := e.([]any); ok {
				walkFacts(f, e, cur, group)
			}
		}
	}
}

func addScalars(f *facts, row, prefix string, m map[string]any) {
	for k, e := range m {
		switch e := e.(type) {
		case []any:
			f.set(row, "#"+prefix+k, strconv.Itoa(len(e)))
		case map[string]any:
			addScalars(f, row, prefix+k+".", e)
		default:
			f.set(row, prefix+k, scalarText(e))
		}
	}
}

func scalarText(v any) string {
	switch v := v.(type) {
	case nil:
		return "-"
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// A table: its header (column names) and rows of cells.
type textTable struct {
	header []string
	rows   [][]string
}

var plainHeaderRE, columnGapRE = regexp.MustCompile(`^[A-Z][A-Z0-9/-]*$`), regexp.MustCompile(`\s{2,}`)

// plainTables parses kcg's borderless tables: a header line of
// upper-case names, each column's cells starting where its name starts.
func plainTables(out string) []textTable {
	var tables []textTable
	var cur *textTable
	var starts []int
	for _, line := range strings.Split(out, "\n") {
		rs := []rune(line)
		names := columnGapRE.Split(strings.TrimSpace(line), -1)
		header := len(names) >= 2
		for _, n := range names {
			header = header && plainHeaderRE.MatchString(n)
		}
		switch {
		case header:
			tables = append(tables, textTable{header: names})
			cur, starts = &tables[len(tables)-1], nil
			at := 0
			for _, n := range names {
				i := strings.Index(string(rs[at:]), n)
				at += len([]rune(string(rs[at:])[:i]))
				starts = append(starts, at)
				at += len([]rune(n))
			}
		case strings.TrimSpace(line) == "":
			cur = nil
		case cur != nil:
			row := make([]string, len(starts))
			for i, s := range starts {
				end := len(rs)
				if i+1 < len(starts) {
					end = min(starts[i+1], len(rs))
				}
				if s < end {
					row[i] = strings.TrimSpace(string(rs[s:end]))
				}
			}
			cur.rows = append(cur.rows, row)
		}
	}
	return tables
}

// markdownTables parses -o markdown's tables: cells between unescaped
// pipes, code spans and backslash escapes undone.
func markdownTables(out string) []textTable {
	var tables []textTable
	var cur *textTable
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		cells := splitMarkdownRow(line)
		switch {
		case cur == nil:
			tables = append(tables, textTable{header: cells})
			cur = &tables[len(tables)-1]
		case strings.HasPrefix(line, "|---"):
		default:
			cur.rows = append(cur.rows, cells)
		}
	}
	return tables
}

func splitMarkdownRow(line string) []string {
	var cells []string
	var b strings.Builder
	esc := false
	for _, r := range strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|") {
		switch {
		case esc:
			b.WriteRune(r)
			esc = false
		case r == '\\':
			esc = true
		case r == '|':
			cells = append(cells, b.String())
			b.Reset()
		default:
			b.WriteRune(r)
		}
	}
	cells = append(cells, b.String())
	for i, c := range cells {
		c = strings.TrimSpace(c)
		c = strings.TrimSpace(strings.Trim(c, "`"))
		cells[i] = strings.Trim(c, "*>")
	}
	return cells
}

// column says which JSON fields a column shows: one field, or two
// joined "a → b" (arrow: always; pair: only when they differ).
type column struct {
	fields []string
	join   string
}

func col(fields ...string) column { return column{fields: fields} }
func arrow(a, b string) column    { return column{fields: []string{a, b}, join: "arrow"} }
func pairCol(a, b string) column  { return column{fields: []string{a, b}, join: "pair"} }

// colMap names the columns, lower case, that show a JSON field.
type colMap map[string]column

// formatColumns: per kind and format, the columns of partition rows and
// of group rows (a table without TOPIC, or a "(total)" row) that show a
// JSON field. Column names are lower case.
var formatColumns = map[string]map[string][2]colMap{
	"GroupList": {"table": {nil, colMap{"state": col("state"), "type": col("type")}}},
	"GroupDescriptionList": {
		"table": {
			colMap{"current-offset": col("committedOffset"), "start-offset": col("startOffset"),
				"log-end-offset": col("logEndOffset"), "lag": col("lag"), "leader-epoch": col("committedLeaderEpoch"),
				"consumer-id": col("memberId"), "client-id": col("clientId")},
			colMap{"lag": col("totalLag")},
		},
		"prometheus": {
			colMap{"current": col("position"), "lag": col("lag"), "log-end": col("logEndOffset"), "log-start": col("logStartOffset")},
			colMap{"members": col("#members")},
		},
		"markdown": {
			colMap{"current": col("position"), "log end": col("logEndOffset"), "lag": col("lag"), "client": col("clientId")},
			colMap{"state": col("state"), "type": col("type"), "members": col("#members"), "partitions": col("#offsets"), "total lag": col("totalLag")},
		},
	},
	"OffsetResetPlan": {
		"table":    {colMap{"current": col("current"), "target": col("target"), "log-start": col("logStart"), "log-end": col("logEnd"), "reason": col("reason")}, nil},
		"markdown": {colMap{"current": col("current"), "target": col("target"), "reason": col("reason")}, colMap{"partitions": col("#partitions")}},
		"csv":      {colMap{"target": col("target")}, nil},
	},
	"PlanStatus": {
		"table":    {colMap{"detail": arrow("from", "to")}, colMap{"detail": arrow("members", "state")}},
		"markdown": {colMap{"current": col("from"), "target": col("to")}, nil},
	},
	"PlanDiff": {
		"table":    {colMap{"change": col("change"), "current": pairCol("before.current", "after.current"), "target": pairCol("before.target", "after.target")}, nil},
		"markdown": {colMap{"change": col("change"), "current": pairCol("before.current", "after.current"), "target": pairCol("before.target", "after.target")}, nil},
	},
	"ApplyReport": {
		"table":    {colMap{"before": col("before"), "target": col("target"), "after": col("after"), "result": col("result")}, nil},
		"markdown": {colMap{"before": col("before"), "target": col("target"), "after": col("after"), "result": col("result")}, colMap{"result": col("result"), "partitions": col("#partitions")}},
	},
	"OffsetDeleteResult": {"table": {colMap{"result": col("deleted")}, nil}},
	"GroupDeleteResult":  {"table": {nil, colMap{"result": col("deleted")}}},
	"LagSample":          {"table": {nil, colMap{"state": col("state"), "members": col("members"), "lag": col("lag")}}},
}

// tableFacts reads the group's rows of tables into facts, under the JSON
// field names formatColumns gives; the cell of a joined column is kept
// whole under the joined names ("a → b").
func tableFacts(tables []textTable, kind, format, group string) facts {
	var f facts
	spec := formatColumns[kind][format]
	for _, tb := range tables {
		idx := map[string]int{}
		for i, h := range tb.header {
			idx[strings.ToLower(h)] = i
		}
		gi, ok := idx["group"]
		if !ok {
			continue
		}
		ti, hasTopic := idx["topic"]
		pi := idx["partition"]
		for _, r := range tb.rows {
			if r[gi] != group {
				continue
			}
			row, m := "", spec[1]
			if hasTopic && r[ti] != "(total)" {
				if _, err := strconv.Atoi(r[pi]); err != nil && (r[pi] != "-" || r[ti] == "-") {
					m = nil // a group line of a table of partitions (plan check: active)
				} else {
					row, m = partRow(r[ti], r[pi]), spec[0]
				}
			}
			if hasTopic && r[ti] == "-" && kind == "PlanStatus" {
				row, m = "", spec[1]
			}
			for name, c := range m {
				i, ok := idx[name]
				if !ok {
					continue
				}
				if f.shown == nil {
					f.shown = map[string]bool{}
				}
				f.shown[c.key()] = true
				f.set(row, c.key(), normalCell(kind, r[i]))
			}
		}
	}
	return f
}

func (c column) key() string { return c.join + ":" + strings.Join(c.fields, "|") }

var membersRE = regexp.MustCompile(`^(\d+) members?, state (\S+)$`)

// normalCell is a cell as docFacts would give it: null as "-", a
// deleted/failed result as the JSON's bool.
func normalCell(kind, s string) string {
	s = strings.ReplaceAll(s, "no commit", "-")
	if m := membersRE.FindStringSubmatch(s); m != nil {
		s = m[1] + " → " + m[2]
	}
	if strings.HasSuffix(kind, "DeleteResult") {
		switch s {
		case "deleted":
			return "true"
		case "failed":
			return "false"
		}
	}
	return s
}

// shownFacts turns JSON facts into the cells formatColumns says a format
// shows, so they compare with tableFacts.
func shownFacts(want facts, kind, format string) facts {
	var out facts
	spec := formatColumns[kind][format]
	for row, fields := range want.rows {
		m := spec[0]
		if row == "" {
			m = spec[1]
		}
		for _, c := range m {
			v, ok := c.value(fields)
			if ok {
				out.set(row, c.key(), v)
			}
		}
	}
	return out
}

func (c column) value(fields map[string]string) (string, bool) {
	if c.join == "" {
		// A field JSON leaves out (startOffset of a share-partition not
		// initialised) is null.
		if v, ok := fields[c.fields[0]]; ok {
			return v, true
		}
		return "-", true
	}
	a, okA := fields[c.fields[0]]
	b, okB := fields[c.fields[1]]
	switch {
	case !okA && !okB:
		return "", false
	case c.join == "pair" && !okA:
		return b, true
	case c.join == "pair" && !okB:
		return a, true
	case c.join == "pair" && a == b:
		return a, true
	}
	return a + " → " + b, true
}

// csvFacts reads the Java tool's CSV (kcg show -o csv): TOPIC,PARTITION,
// OFFSET for one group, GROUP,TOPIC,PARTITION,OFFSET for several.
func csvFacts(t *testing.T, out, group string) facts {
	t.Helper()
	var f facts
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v\n%s", err, out)
	}
	for _, c := range recs {
		if len(c) == 4 {
			if c[0] != group {
				continue
			}
			c = c[1:]
		}
		if len(c) == 3 {
			f.set(partRow(c[0], c[1]), col("target").key(), c[2])
		}
	}
	return f
}

// promFacts reads the metrics of the group: current_offset is the
// position, lag the lag, members the members, the topic families the
// log bounds of the group's partitions.
func promFacts(t *testing.T, out, group string) facts {
	t.Helper()
	var f facts
	f.promOnly = true
	fams := parseMetrics(t, out)
	fields := map[string]string{"kafka_consumergroup_current_offset": "position", "kafka_consumergroup_lag": "lag"}
	for name, field := range fields {
		for _, m := range fams[name].GetMetric() {
			l := labels(m.GetLabel())
			if l["consumergroup"] == group {
				f.set(partRow(l["topic"], l["partition"]), col(field).key(), scalarText(m.GetGauge().GetValue()))
			}
		}
	}
	if v, ok := sample(fams, "kafka_consumergroup_members", map[string]string{"consumergroup": group}); ok {
		f.set("", col("#members").key(), scalarText(v))
	}
	// The log bounds, for the partitions of the group that have samples.
	for row := range maps.Clone(f.rows) {
		if row == "" {
			continue
		}
		tp := strings.SplitN(row, "/", 2)
		for name, field := range map[string]string{"kafka_topic_partition_current_offset": "logEndOffset", "kafka_topic_partition_oldest_offset": "logStartOffset"} {
			if v, ok := sample(fams, name, map[string]string{"topic": tp[0], "partition": tp[1]}); ok {
				f.set(row, col(field).key(), scalarText(v))
			}
		}
	}
	return f
}

func labels[L interface {
	GetName() string
	GetValue() string
}](ls []L) map[string]string {
	m := map[string]string{}
	for _, l := range ls {
		m[l.GetName()] = l.GetValue()
	}
	return m
}

// describeJSONOf is kcg describe group -o json.
func describeJSONOf(t *testing.T, e *kafkatest.Env, group string) describeJSON {
	t.Helper()
	return parseDescribe(t, kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0).Stdout)
}

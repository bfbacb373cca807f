package clienttest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/output"
)

// The three describe views compared with the 4.4.0 Java tool.
var views = [][]string{nil, {"--members", "--verbose"}, {"--state", "--verbose"}}

// sideBySide runs each view through the Java kafka-consumer-groups and kcg
// in drop-in mode: stdout equal line for line (as sets: Java prints
// members in the broker's order, kcg sorted by member id), stderr equal;
// and every cell of Java's tables equal to kcg's describe -o json (d).
// On kfake (no Java tool) it checks nothing but says so.
func (s *scenario) sideBySide(t *testing.T, d output.GroupDescription) {
	t.Helper()
	if !s.e.Real {
		t.Logf("kfake: no Java tool to compare with; the drop-in views are compared on the real broker")
		return
	}
	for _, view := range views {
		args := append([]string{"--bootstrap-server", s.e.Bootstrap, "--describe", "--group", s.group}, view...)
		jout, jerr, jcode := s.e.JavaTool(t, args...)
		k := clitest.Run(t, args...)
		if jcode != 0 || k.Code != 0 {
			t.Fatalf("%q: exit java %d kcg %d\njava:\n%s%s\nkcg:\n%s%s", view, jcode, k.Code, jout, jerr, k.Stdout, k.Stderr)
		}
		t.Logf("%q, the same from both tools:\n%s", view, jout)
		j := sortedLines(jout)
		if got := sortedLines(k.Stdout); !slices.Equal(j, got) {
			t.Fatalf("%q stdout differs\njava:\n%s\nkcg:\n%s", view, jout, k.Stdout)
		}
		if clitest.JavaNotices(jerr) != k.Stderr {
			t.Fatalf("%q stderr differs\njava:\n%q\nkcg:\n%q", view, jerr, k.Stderr)
		}
		rows := javaTable(t, jout)
		switch {
		case len(view) == 0:
			offsetsAgree(t, d, rows)
		case view[0] == "--members":
			membersAgree(t, d, rows)
		default:
			stateAgrees(t, d, rows)
		}
	}
}

func sortedLines(s string) []string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return lines
}

// javaTable reads the Java tool's table: the header line (it starts with
// GROUP) names the columns, and each row's cell is cut where its column's
// header starts (values are padded to the header's width; "COORDINATOR
// (ID)" is one column with a space in its name and its value).
func javaTable(t *testing.T, out string) []map[string]string {
	t.Helper()
	lines := strings.Split(out, "\n")
	h := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "GROUP ") })
	if h < 0 {
		t.Fatalf("no header line in the Java tool's output:\n%s", out)
	}
	type col struct {
		name  string
		start int
	}
	var cols []col
	header := lines[h]
	for i := 0; i < len(header); {
		if header[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(header) && header[j] != ' ' {
			j++
		}
		if name := header[i:j]; name == "(ID)" {
			cols[len(cols)-1].name += " (ID)"
		} else {
			cols = append(cols, col{name, i})
		}
		i = j
	}
	var rows []map[string]string
	for _, l := range lines[h+1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		row := map[string]string{}
		for i, c := range cols {
			end := len(l)
			if i+1 < len(cols) && cols[i+1].start < end {
				end = cols[i+1].start
			}
			if c.start < end {
				row[c.name] = strings.TrimSpace(l[c.start:end])
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// agree fails for each column whose Java cell differs from kcg's JSON value.
func agree(t *testing.T, what string, row map[string]string, want map[string]string) {
	t.Helper()
	for c, v := range want {
		if got, ok := row[c]; ok && got != v {
			t.Errorf("%s: Java's %s is %q, kcg's describe -o json says %q (row %v)", what, c, got, v, row)
		}
	}
}

func offsetsAgree(t *testing.T, d output.GroupDescription, rows []map[string]string) {
	t.Helper()
	if len(rows) != len(d.Offsets) {
		t.Fatalf("Java prints %d offsets rows, describe -o json has %d offsets", len(rows), len(d.Offsets))
	}
	for _, r := range rows {
		i := slices.IndexFunc(d.Offsets, func(o output.PartitionOffset) bool {
			return o.Topic == r["TOPIC"] && fmt.Sprint(o.Partition) == r["PARTITION"]
		})
		if i < 0 {
			t.Fatalf("Java's row %v has no offsets entry in describe -o json", r)
		}
		o := d.Offsets[i]
		agree(t, "offsets "+o.Topic+"/"+fmt.Sprint(o.Partition), r, map[string]string{
			"CURRENT-OFFSET": num(o.CommittedOffset), "LOG-END-OFFSET": num(o.LogEndOffset), "LAG": num(o.Lag),
			"CONSUMER-ID": str(o.MemberID), "HOST": str(o.Host), "CLIENT-ID": str(o.ClientID),
		})
	}
}

func membersAgree(t *testing.T, d output.GroupDescription, rows []map[string]string) {
	t.Helper()
	if len(d.Members) == 0 {
		rows = nil // Java prints "has no active members" and no table
	}
	if len(rows) != len(d.Members) {
		t.Fatalf("Java prints %d member rows, describe -o json has %d members", len(rows), len(d.Members))
	}
	for _, r := range rows {
		i := slices.IndexFunc(d.Members, func(m output.Member) bool { return m.MemberID == r["CONSUMER-ID"] })
		if i < 0 {
			t.Fatalf("Java's member row %v is no member of describe -o json", r)
		}
		m := d.Members[i]
		want := map[string]string{
			"HOST": m.Host, "CLIENT-ID": m.ClientID, "#PARTITIONS": fmt.Sprint(m.NumPartitions()),
			"GROUP-INSTANCE-ID": str(m.GroupInstanceID), "CURRENT-EPOCH": num(m.MemberEpoch),
			"CURRENT-ASSIGNMENT": javaAssignment(&m.Assignments), "TARGET-ASSIGNMENT": javaAssignment(m.TargetAssignments),
		}
		if m.Upgraded != nil {
			want["UPGRADED"] = fmt.Sprint(*m.Upgraded)
		}
		agree(t, "member "+m.MemberID, r, want)
	}
}

func stateAgrees(t *testing.T, d output.GroupDescription, rows []map[string]string) {
	t.Helper()
	if len(rows) != 1 {
		t.Fatalf("Java's state table has %d rows", len(rows))
	}
	coord := "-"
	if c := d.Coordinator; c != nil {
		coord = fmt.Sprintf("%s:%d  (%d)", c.Host, c.Port, c.ID)
	}
	agree(t, "state", rows[0], map[string]string{
		"COORDINATOR (ID)": coord, "ASSIGNMENT-STRATEGY": strings.TrimSpace(str(d.Assignor)), "STATE": str(d.State),
		"#MEMBERS": fmt.Sprint(len(d.Members)), "GROUP-EPOCH": num(d.GroupEpoch),
		"TARGET-ASSIGNMENT-EPOCH": num(d.TargetAssignmentEpoch),
	})
}

// javaAssignment writes an assignment as the Java tool's members view
// does: topic:p,p per topic, "-" for none.
func javaAssignment(as *[]output.TopicPartitions) string {
	if as == nil || len(*as) == 0 {
		return "-"
	}
	var parts []string
	for _, a := range *as {
		ps := make([]string, len(a.Partitions))
		for i, p := range a.Partitions {
			ps[i] = fmt.Sprint(p)
		}
		parts = append(parts, a.Topic+":"+strings.Join(ps, ","))
	}
	return strings.Join(parts, ";")
}

package output

// The owner of a group (a Kafka Connect sink connector), in every format:
// the owner field of describe's and list's entries (absent when Connect
// was not asked, null when no connector owns the group), an OWNER section
// after the tables, a markdown table. docs/connect.md.

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/resetplan"
)

// ConnectorOwner is the sink connector that owns a group.
type ConnectorOwner struct {
	// Connect is the REST URL of the Connect cluster that runs it.
	Connect   string `json:"connect" yaml:"connect"`
	Connector string `json:"connector" yaml:"connector"`
	Class     string `json:"class" yaml:"class"`
	// State is the connector's state: RUNNING, PAUSED, STOPPED, FAILED,
	// UNASSIGNED, RESTARTING.
	State  string          `json:"state" yaml:"state"`
	Worker string          `json:"worker" yaml:"worker"`
	Tasks  []ConnectorTask `json:"tasks" yaml:"tasks"`
}

// ConnectorTask is one task of the owning connector.
type ConnectorTask struct {
	ID     int    `json:"id" yaml:"id"`
	State  string `json:"state" yaml:"state"`
	Worker string `json:"worker" yaml:"worker"`
}

// ownerField is the owner field of a document entry: nil (absent) when
// Connect was not read, a pointer to nil (null) when no connector owns
// the group.
func ownerField(read bool, o *groupops.Owner) **ConnectorOwner {
	if !read {
		return nil
	}
	var co *ConnectorOwner
	if o != nil {
		co = &ConnectorOwner{Connect: o.Connect, Connector: o.Connector, Class: o.Class, State: o.State, Worker: o.Worker, Tasks: []ConnectorTask{}}
		for _, t := range o.Tasks {
			co.Tasks = append(co.Tasks, ConnectorTask{ID: t.ID, State: t.State, Worker: t.WorkerID})
		}
	}
	return &co
}

// WithOwners returns the list with each group's owner field set from
// owners (Kafka Connect was read: groups no connector owns get null).
func (l GroupList) WithOwners(owners map[string]*groupops.Owner) GroupList {
	gs := slices.Clone(l.Groups)
	for i := range gs {
		gs[i].Owner = ownerField(true, owners[gs[i].Group])
	}
	l.Groups = gs
	return l
}

// tasksCell is "0:RUNNING,1:FAILED", "-" without tasks.
func tasksCell(ts []ConnectorTask) string {
	if len(ts) == 0 {
		return missing
	}
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		parts = append(parts, strconv.Itoa(t.ID)+":"+t.State)
	}
	return strings.Join(parts, ",")
}

// ownerRows are the GROUP CONNECTOR STATE TASKS WORKER rows of the groups
// a connector owns.
func ownerRows(entries []struct {
	group string
	owner **ConnectorOwner
}) [][]string {
	var rows [][]string
	for _, e := range entries {
		if e.owner == nil || *e.owner == nil {
			continue
		}
		o := *e.owner
		rows = append(rows, []string{e.group, o.Connector, o.State, tasksCell(o.Tasks), NonEmptyCell(o.Worker)})
	}
	return rows
}

var ownerHeader = []string{"GROUP", "OWNER (CONNECTOR)", "STATE", "TASKS", "WORKER"}

// writeOwnerSection writes the owners after a describe table: a blank
// line and the table, nothing when no group has an owner.
func writeOwnerSection(w io.Writer, l GroupDescriptionList) error {
	rows := ownerRows(describeOwners(l))
	if len(rows) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return renderTable(w, ownerHeader, rows)
}

func describeOwners(l GroupDescriptionList) []struct {
	group string
	owner **ConnectorOwner
} {
	out := make([]struct {
		group string
		owner **ConnectorOwner
	}, 0, len(l.Groups))
	for _, g := range l.Groups {
		out = append(out, struct {
			group string
			owner **ConnectorOwner
		}{g.Group, g.Owner})
	}
	return out
}

// ownerCell is a list row's OWNER cell: the connector and its state.
func ownerCell(o **ConnectorOwner) string {
	if o == nil || *o == nil {
		return missing
	}
	return (*o).Connector + " (" + (*o).State + ")"
}

// writeOwnersMarkdown is describe -o markdown's owners table.
func writeOwnersMarkdown(m *mdWriter, l GroupDescriptionList) {
	var rows [][]string
	for _, r := range ownerRows(describeOwners(l)) {
		rows = append(rows, []string{mdCode(r[0]), mdCode(r[1]), mdText(r[2]), mdText(r[3]), mdText(r[4])})
	}
	if len(rows) == 0 {
		return
	}
	m.heading("Owners (Kafka Connect)")
	m.table(cols("Group", "Connector", "State", "Tasks", "Worker"), rows, "owner")
}

// connectorLine is the plan summary's line about the plan's connector
// ("" for a plan without one).
func connectorLine(k *resetplan.Connector) string {
	if k == nil {
		return ""
	}
	return fmt.Sprintf("connector %s (%s) on Kafka Connect %s: %s with %d tasks at plan time, config %s, %s; apply stops it, resets its offsets through Connect, verifies them and %s",
		k.Name, k.Class, k.Connect, k.StateAtPlan, k.Tasks, k.ConfigDigest, connectorOffsetsText(k.Offsets), resumeText(k))
}

func connectorOffsetsText(offs []resetplan.ConnectorOffset) string {
	if len(offs) == 0 {
		return "no offsets reported by Connect"
	}
	parts := make([]string, 0, len(offs))
	for _, o := range offs {
		parts = append(parts, fmt.Sprintf("%s/%d=%d", o.Topic, o.Partition, o.Offset))
	}
	return "Connect reported " + strings.Join(parts, " ")
}

// resumeText is what apply does at the end to the connector.
func resumeText(k *resetplan.Connector) string {
	if k.StateAtPlan == "RUNNING" {
		return "resumes it"
	}
	return "leaves it STOPPED (it was " + k.StateAtPlan + ")"
}

// ConnectorApply is the connector section of an ApplyReport: the steps
// apply took, in order, and where the connector was left.
type ConnectorApply struct {
	Connector string `json:"connector" yaml:"connector"`
	Connect   string `json:"connect" yaml:"connect"`
	// Via is how the offsets were written: "connect" (PATCH offsets, the
	// connector's alterOffsets hook ran) or "group" (Connect 3.5: to the
	// group directly); "" when nothing was written.
	Via   string          `json:"via" yaml:"via"`
	Steps []ConnectorStep `json:"steps" yaml:"steps"`
	// Verified: the offsets read back from the group and from Connect
	// are the plan's. Resumed: apply resumed the connector.
	Verified bool `json:"verified" yaml:"verified"`
	Resumed  bool `json:"resumed" yaml:"resumed"`
	// State is the connector's state at the end, as Connect said.
	State string `json:"state" yaml:"state"`
	// ResumeCommand resumes the connector by hand (when apply left it
	// STOPPED).
	ResumeCommand string `json:"resumeCommand" yaml:"resumeCommand"`
}

// ConnectorStep is one step of the procedure.
type ConnectorStep struct {
	Step   string `json:"step" yaml:"step"`
	Detail string `json:"detail" yaml:"detail"`
}

// NewConnectorApply is the report's connector section of r.
func NewConnectorApply(connectURL string, r *groupops.ConnectorResult) *ConnectorApply {
	c := &ConnectorApply{Connector: r.Connector, Connect: connectURL, Via: r.Via, Steps: []ConnectorStep{},
		Verified: r.Verified, Resumed: r.Resumed, State: r.State, ResumeCommand: r.ResumeCommand}
	for _, s := range r.Steps {
		c.Steps = append(c.Steps, ConnectorStep{Step: s.Name, Detail: s.Detail})
	}
	return c
}

// writeConnectorApply writes the connector section after the apply
// table: one line per step, then the state.
func writeConnectorApply(w io.Writer, c *ConnectorApply) error {
	if c == nil {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\nconnector %s on Kafka Connect %s:\n", c.Connector, c.Connect); err != nil {
		return err
	}
	for _, s := range c.Steps {
		if _, err := fmt.Fprintf(w, "  %-22s %s\n", s.Step, s.Detail); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "  %-22s %s\n", "state", orDash(c.State))
	return err
}

func orDash(s string) string {
	if s == "" {
		return missing
	}
	return s
}

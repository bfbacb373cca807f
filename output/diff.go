package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// Document kinds of `kcg diff`.
const (
	KindPlanDiff   = "PlanDiff"
	KindPlanStatus = "PlanStatus"
)

// PlanDiff is `kcg diff A B`: how plan B differs from plan A, by group and
// (topic, partition).
type PlanDiff struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	A          string `json:"a" yaml:"a"`
	B          string `json:"b" yaml:"b"`
	// Equal is true when the plans make the same change (createdAt and
	// createdBy are not compared).
	Equal bool `json:"equal" yaml:"equal"`
	// Plan lists plan-level differences: cluster, strategy, annotations.
	Plan       []FieldChange   `json:"plan" yaml:"plan"`
	Groups     []GroupDiff     `json:"groups" yaml:"groups"`
	Partitions []PartitionDiff `json:"partitions" yaml:"partitions"`
	// planA and planB are the plans compared, for the Markdown view's
	// heading and digests (WithPlans); not part of the document.
	planA, planB *resetplan.Plan
}

// WithPlans returns d with the two plans it compares, which its Markdown
// view names (ticket, note, digests).
func (d PlanDiff) WithPlans(a, b *resetplan.Plan) PlanDiff {
	d.planA, d.planB = a, b
	return d
}

// FieldChange is one value that differs.
type FieldChange struct {
	Field  string `json:"field" yaml:"field"`
	Before string `json:"before" yaml:"before"`
	After  string `json:"after" yaml:"after"`
}

// GroupDiff is a group added, removed, or with a changed type or state.
type GroupDiff struct {
	Group  string        `json:"group" yaml:"group"`
	Change string        `json:"change" yaml:"change"`
	Fields []FieldChange `json:"fields" yaml:"fields"`
}

// PartitionDiff is a partition added, removed or changed.
type PartitionDiff struct {
	Group     string `json:"group" yaml:"group"`
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	Change    string `json:"change" yaml:"change"`
	// Fields names what changed: current, target, logStart, logEnd, reason.
	Fields []string       `json:"fields" yaml:"fields"`
	Before *PlanPartition `json:"before" yaml:"before"`
	After  *PlanPartition `json:"after" yaml:"after"`
}

// PlanPartition is a partition's entry in a plan.
type PlanPartition struct {
	Current  *int64 `json:"current" yaml:"current"`
	Target   *int64 `json:"target" yaml:"target"`
	LogStart int64  `json:"logStart" yaml:"logStart"`
	LogEnd   int64  `json:"logEnd" yaml:"logEnd"`
	Reason   string `json:"reason" yaml:"reason"`
}

// NewPlanDiff returns the document of `kcg diff A B` for d, the
// difference of the plans read from pathA and pathB (resetplan.Diff).
func NewPlanDiff(pathA, pathB string, d resetplan.DiffResult) PlanDiff {
	doc := PlanDiff{APIVersion: APIVersion, Kind: KindPlanDiff, A: pathA, B: pathB, Equal: d.Empty()}
	doc.Plan = fieldChanges(d.Plan)
	for _, g := range d.Groups {
		doc.Groups = append(doc.Groups, GroupDiff{Group: g.Group, Change: string(g.Kind), Fields: fieldChanges(g.Fields)})
	}
	for _, p := range d.Partitions {
		doc.Partitions = append(doc.Partitions, PartitionDiff{
			Group: p.Group, Topic: p.Topic, Partition: p.Partition, Change: string(p.Kind),
			Fields: p.Fields, Before: planPartition(p.Before), After: planPartition(p.After),
		})
	}
	return doc
}

// fieldChanges returns vs as document values; nil for none, as the
// document's lists are until normalized.
func fieldChanges(vs []resetplan.ValueChange) []FieldChange {
	var out []FieldChange
	for _, v := range vs {
		out = append(out, FieldChange{Field: v.Field, Before: v.Before, After: v.After})
	}
	return out
}

func planPartition(p *resetplan.Partition) *PlanPartition {
	if p == nil {
		return nil
	}
	return &PlanPartition{Current: p.Current, Target: p.Target, LogStart: p.LogStart, LogEnd: p.LogEnd, Reason: string(p.Reason)}
}

func (d PlanDiff) normalized() any {
	d.Plan = nonNil(d.Plan)
	d.Groups = nonNil(d.Groups)
	d.Partitions = nonNil(d.Partitions)
	for i := range d.Groups {
		d.Groups[i].Fields = nonNil(d.Groups[i].Fields)
	}
	for i := range d.Partitions {
		d.Partitions[i].Fields = nonNil(d.Partitions[i].Fields)
	}
	return d
}

// WriteTable writes a plan diff: plan-level and group-level changes as
// lines, then a table of changed partitions with "before → after" cells.
func (d PlanDiff) WriteTable(w io.Writer) error {
	if d.Equal {
		_, err := fmt.Fprintf(w, "the plans make the same change\n")
		return err
	}
	for _, f := range d.Plan {
		fmt.Fprintf(w, "%s: %s → %s\n", f.Field, f.Before, f.After)
	}
	for _, g := range d.Groups {
		var fs []string
		for _, f := range g.Fields {
			fs = append(fs, fmt.Sprintf("%s %s → %s", f.Field, f.Before, f.After))
		}
		fmt.Fprintf(w, "group %s %s", g.Group, g.Change)
		if len(fs) > 0 {
			fmt.Fprintf(w, ": %s", strings.Join(fs, ", "))
		}
		fmt.Fprintln(w)
	}
	var rows [][]string
	for _, p := range d.Partitions {
		rows = append(rows, []string{p.Group, p.Topic, strconv.Itoa(int(p.Partition)), p.Change,
			pair(p.Before, p.After, func(x *PlanPartition) string { return IntCell(x.Current) }),
			pair(p.Before, p.After, func(x *PlanPartition) string { return targetCell(x.Target) }),
			pair(p.Before, p.After, func(x *PlanPartition) string { return x.Reason })})
	}
	return renderTable(w, []string{"GROUP", "TOPIC", "PARTITION", "CHANGE", "CURRENT", "TARGET", "REASON"}, rows)
}

func targetCell(t *int64) string {
	if t == nil {
		return "delete"
	}
	return strconv.FormatInt(*t, 10)
}

func pair(a, b *PlanPartition, f func(*PlanPartition) string) string {
	switch {
	case a == nil:
		return f(b)
	case b == nil:
		return f(a)
	}
	x, y := f(a), f(b)
	if x == y {
		return x
	}
	return x + " → " + y
}

// PlanStatus is `kcg diff PLAN`: a plan against the live cluster, and what
// apply would do now.
type PlanStatus struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	Plan       string `json:"plan" yaml:"plan"`
	Digest     string `json:"digest" yaml:"digest"`
	// PlanClusterID is the cluster the plan was made for; ClusterID the
	// live one.
	PlanClusterID string `json:"planClusterId" yaml:"planClusterId"`
	ClusterID     string `json:"clusterId" yaml:"clusterId"`
	// Ready is true when apply would proceed: same cluster, no active
	// group, no drift, every target within the live log.
	Ready bool `json:"ready" yaml:"ready"`
	// AlreadyApplied is true when every committed offset equals its target.
	AlreadyApplied bool `json:"alreadyApplied" yaml:"alreadyApplied"`
	// NewGroups are the plan's groups that do not exist in the cluster
	// now, sorted: apply creates them. A new group is not drift and does
	// not make the plan unready.
	NewGroups    []string       `json:"newGroups" yaml:"newGroups"`
	ActiveGroups []ActiveGroup  `json:"activeGroups" yaml:"activeGroups"`
	Drift        []DriftEntry   `json:"drift" yaml:"drift"`
	OutOfRange   []RangeEntry   `json:"outOfRange" yaml:"outOfRange"`
	WouldWrite   []PendingEntry `json:"wouldWrite" yaml:"wouldWrite"`
	// ConnectorChanges say how the plan's Kafka Connect connector changed
	// since the plan (deleted, state, class, config); absent for a plan
	// without a connector. Any makes the plan not ready.
	ConnectorChanges []string `json:"connectorChanges,omitempty" yaml:"connectorChanges,omitempty"`
	// plan is the plan checked, for the Markdown view (its ticket,
	// strategy and reasons); not part of the document.
	plan *resetplan.Plan
}

// ActiveGroup is a plan group that has members now.
type ActiveGroup struct {
	Group   string `json:"group" yaml:"group"`
	State   string `json:"state" yaml:"state"`
	Members int    `json:"members" yaml:"members"`
}

// DriftEntry is a partition whose committed offset moved since planning.
type DriftEntry struct {
	Group     string `json:"group" yaml:"group"`
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	Planned   *int64 `json:"planned" yaml:"planned"`
	Live      *int64 `json:"live" yaml:"live"`
}

// RangeEntry is a target outside the live log (or a partition whose
// bounds could not be read).
type RangeEntry struct {
	Group     string  `json:"group" yaml:"group"`
	Topic     string  `json:"topic" yaml:"topic"`
	Partition int32   `json:"partition" yaml:"partition"`
	Target    int64   `json:"target" yaml:"target"`
	LogStart  *int64  `json:"logStart" yaml:"logStart"`
	LogEnd    *int64  `json:"logEnd" yaml:"logEnd"`
	Error     *string `json:"error" yaml:"error"`
}

// PendingEntry is a write apply would make now.
type PendingEntry struct {
	Group     string `json:"group" yaml:"group"`
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	From      *int64 `json:"from" yaml:"from"`
	// To is nil for an offset deletion (rollback of a partition that had no
	// commit).
	To *int64 `json:"to" yaml:"to"`
}

// NewPlanStatus returns the head of the document of `kcg diff PLAN`: the
// plan read from path, compared with the live cluster clusterID. The
// caller adds the findings of its live check (ActiveGroups, Drift,
// OutOfRange, WouldWrite) and sets Ready and AlreadyApplied from them.
func NewPlanStatus(path string, plan *resetplan.Plan, clusterID string) PlanStatus {
	return PlanStatus{
		APIVersion: APIVersion, Kind: KindPlanStatus, Plan: path, Digest: resetplan.Digest(plan),
		PlanClusterID: plan.Cluster.ID, ClusterID: clusterID, plan: plan,
	}
}

func (s PlanStatus) normalized() any {
	s.NewGroups = nonNil(s.NewGroups)
	s.ActiveGroups = nonNil(s.ActiveGroups)
	s.Drift = nonNil(s.Drift)
	s.OutOfRange = nonNil(s.OutOfRange)
	s.WouldWrite = nonNil(s.WouldWrite)
	return s
}

// WriteTable writes the live comparison as one table: every finding
// (cluster, active, drift, out-of-range) and every write apply would make,
// one per row.
func (s PlanStatus) WriteTable(w io.Writer) error {
	// An applied plan: its currents all differ from the live offsets (they
	// are the targets now), which is not drift.
	if s.AlreadyApplied {
		_, err := fmt.Fprintln(w, "already applied: every committed offset equals its target")
		return err
	}
	var rows [][]string
	if s.PlanClusterID != s.ClusterID {
		rows = append(rows, []string{"cluster", "-", "-", "-", fmt.Sprintf("plan for %s, live cluster is %s", s.PlanClusterID, s.ClusterID)})
	}
	for _, g := range s.NewGroups {
		rows = append(rows, []string{"new", g, "-", "-", "the group does not exist in the cluster: apply creates it"})
	}
	for _, c := range s.ConnectorChanges {
		rows = append(rows, []string{"connector", "-", "-", "-", c})
	}
	for _, a := range s.ActiveGroups {
		rows = append(rows, []string{"active", a.Group, "-", "-", fmt.Sprintf("%s, state %s", vocab.Count(a.Members, "member"), a.State)})
	}
	for _, d := range s.Drift {
		rows = append(rows, []string{"drift", d.Group, d.Topic, strconv.Itoa(int(d.Partition)), fmt.Sprintf("planned from %s, now %s", offsetWord(d.Planned), offsetWord(d.Live))})
	}
	for _, r := range s.OutOfRange {
		detail := ""
		if r.Error != nil {
			detail = *r.Error
		} else {
			detail = fmt.Sprintf("target %d outside the live log [%s, %s]", r.Target, IntCell(r.LogStart), IntCell(r.LogEnd))
		}
		rows = append(rows, []string{"out-of-range", r.Group, r.Topic, strconv.Itoa(int(r.Partition)), detail})
	}
	for _, p := range s.WouldWrite {
		to := "delete the offset"
		if p.To != nil {
			to = strconv.FormatInt(*p.To, 10)
		}
		rows = append(rows, []string{"write", p.Group, p.Topic, strconv.Itoa(int(p.Partition)), fmt.Sprintf("%s → %s", offsetWord(p.From), to)})
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "already applied: every committed offset equals its target")
		return err
	}
	return renderTable(w, []string{"CHECK", "GROUP", "TOPIC", "PARTITION", "DETAIL"}, rows)
}

func offsetWord(v *int64) string {
	if v == nil {
		return "no commit"
	}
	return strconv.FormatInt(*v, 10)
}

package output

import (
	"fmt"
	"io"

	"github.com/kcg-dev/kcg/resetplan"
)

// Document is what a kcg command prints. JSON and YAML encode the document
// itself (WriteJSON, WriteYAML); for -o table it writes its own view.
type Document interface {
	// WriteTable writes the document as kcg's table for people.
	WriteTable(w io.Writer) error
}

// Write prints doc in format f: its table for FormatTable, the document
// for FormatJSON and FormatYAML.
func Write(w io.Writer, f Format, doc Document) error {
	switch f {
	case FormatTable:
		return doc.WriteTable(w)
	case FormatJSON, FormatYAML:
		if p, ok := doc.(PlanDocument); ok {
			return WritePlanDocument(w, f, p.Plan)
		}
		return WriteDocument(w, f, doc)
	}
	return fmt.Errorf("unknown output format %q", f)
}

// View selects one of describe's three table views.
type View int

// The describe views: --offsets (the default), --members, --state.
const (
	ViewOffsets View = iota
	ViewMembers
	ViewState
)

// DescribeView is the document of `kcg describe`.
type DescribeView struct {
	Doc     GroupDescriptionList
	View    View
	Verbose bool
}

// WriteTable writes the view's table.
func (v DescribeView) WriteTable(w io.Writer) error {
	switch v.View {
	case ViewMembers:
		return WriteMembersTable(w, v.Doc, v.Verbose)
	case ViewState:
		return WriteStateTable(w, v.Doc, v.Verbose)
	}
	return WriteOffsetsTable(w, v.Doc, v.Verbose)
}

func (v DescribeView) normalized() any { return v.Doc.normalized() }

// PlanDocument is the document of `kcg plan` and `kcg show`.
type PlanDocument struct {
	Plan *resetplan.Plan
}

// WriteTable writes the plan summary.
func (d PlanDocument) WriteTable(w io.Writer) error { return WritePlanSummary(w, d.Plan) }

func (l GroupList) WriteTable(w io.Writer) error          { return WriteGroupListTable(w, l) }
func (d PlanDiff) WriteTable(w io.Writer) error           { return WritePlanDiffTable(w, d) }
func (s PlanStatus) WriteTable(w io.Writer) error         { return WritePlanStatusTable(w, s) }
func (r ApplyReport) WriteTable(w io.Writer) error        { return WriteApplyTable(w, r) }
func (r GroupDeleteResult) WriteTable(w io.Writer) error  { return WriteGroupDeleteTable(w, r) }
func (r OffsetDeleteResult) WriteTable(w io.Writer) error { return WriteOffsetDeleteTable(w, r) }

// NewPlanDiff is the document of `kcg diff A B`. (Temporary: replaced by
// the output branch's constructor at merge.)
func NewPlanDiff(pathA, pathB string, d resetplan.DiffResult) PlanDiff {
	doc := PlanDiff{APIVersion: APIVersion, Kind: KindPlanDiff, A: pathA, B: pathB, Equal: d.Empty()}
	for _, v := range d.Plan {
		doc.Plan = append(doc.Plan, FieldChange{Field: v.Field, Before: v.Before, After: v.After})
	}
	for _, g := range d.Groups {
		gd := GroupDiff{Group: g.Group, Change: string(g.Kind)}
		for _, v := range g.Fields {
			gd.Fields = append(gd.Fields, FieldChange{Field: v.Field, Before: v.Before, After: v.After})
		}
		doc.Groups = append(doc.Groups, gd)
	}
	for _, p := range d.Partitions {
		doc.Partitions = append(doc.Partitions, PartitionDiff{
			Group: p.Group, Topic: p.Topic, Partition: p.Partition, Change: string(p.Kind),
			Fields: p.Fields, Before: planPartition(p.Before), After: planPartition(p.After),
		})
	}
	return doc
}

func planPartition(p *resetplan.Partition) *PlanPartition {
	if p == nil {
		return nil
	}
	return &PlanPartition{Current: p.Current, Target: p.Target, LogStart: p.LogStart, LogEnd: p.LogEnd, Reason: string(p.Reason)}
}

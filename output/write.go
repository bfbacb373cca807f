package output

import (
	"fmt"
	"io"

	"github.com/kcg-dev/kcg/resetplan"
)

// Document is what a kcg command prints. JSON and YAML encode the document
// itself (writeJSON, writeYAML); for -o table it writes its own view.
//
// The documents are GroupList, DescribeView (a GroupDescriptionList with
// the table view to show), PlanDocument, PlanDiff, PlanStatus,
// ApplyReport, GroupDeleteResult, OffsetDeleteResult, and ProfileList and
// ProfileDocument (kcg profile list|show).
type Document interface {
	// WriteTable writes the document as kcg's table for people.
	WriteTable(w io.Writer) error
}

// Write prints doc in format f: its table for FormatTable, the document
// for FormatJSON and FormatYAML, its Markdown view for FormatMarkdown
// (markdown.go; an error for a document without one). It is the one place a command's output
// format is decided.
func Write(w io.Writer, f Format, doc Document) error {
	switch f {
	case FormatTable:
		return doc.WriteTable(w)
	case FormatJSON, FormatYAML:
		return writeDocument(w, f, doc)
	case FormatMarkdown:
		return renderMarkdown(w, doc)
	}
	return fmt.Errorf("unknown output format %q", f)
}

// selfEncoder is implemented by documents whose JSON and YAML are an
// encoding of their own (a plan is written exactly as its file).
type selfEncoder interface {
	encode(w io.Writer, f Format) error
}

// View selects one of describe's three table views, in kcg's tables and
// in the Java tool's layouts alike.
type View int

// The describe views: --offsets (the default), --members, --state.
const (
	ViewOffsets View = iota
	ViewMembers
	ViewState
)

// DescribeView is the document of `kcg describe`: the description list,
// and which of its tables -o table shows. JSON and YAML are the
// GroupDescriptionList alone, whatever the view, so a script reads the
// same document with or without --members or --state.
type DescribeView struct {
	Doc     GroupDescriptionList
	View    View
	Verbose bool
	// TimeLag adds the TIME-LAG column to the offsets table.
	TimeLag bool
	// ReadCommitted shows LAST-STABLE-OFFSET, which the lags are measured
	// against, instead of LOG-END-OFFSET.
	ReadCommitted bool
}

// WriteTable writes the view's table (see writeOffsetsTable,
// writeMembersTable, writeStateTable).
func (v DescribeView) WriteTable(w io.Writer) error {
	switch v.View {
	case ViewMembers:
		return writeMembersTable(w, v.Doc, v.Verbose)
	case ViewState:
		return writeStateTable(w, v.Doc, v.Verbose)
	}
	consumer, share := splitShare(v.Doc)
	if len(share) == 0 {
		return writeOffsetsTable(w, v.Doc, v.Verbose, v.TimeLag, v.ReadCommitted)
	}
	// Share groups have start offsets, not committed offsets: their own
	// table, after the consumer groups' (when there are any).
	if len(consumer.Groups) > 0 {
		if err := writeOffsetsTable(w, consumer, v.Verbose, v.TimeLag, v.ReadCommitted); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return writeShareOffsetsTable(w, share, v.Verbose)
}

// normalized makes the machine formats encode the description list, not
// the view.
func (v DescribeView) normalized() any { return v.Doc.normalized() }

// PlanDocument is the document of `kcg plan` and `kcg show`: a plan. Its
// table is the reviewer's summary (see writePlanSummary); its JSON and
// YAML are the plan file's own encoding (see encodePlan).
type PlanDocument struct {
	Plan *resetplan.Plan
}

// WriteTable writes the plan summary.
func (d PlanDocument) WriteTable(w io.Writer) error { return writePlanSummary(w, d.Plan) }

func (d PlanDocument) encode(w io.Writer, f Format) error { return encodePlan(w, f, d.Plan) }

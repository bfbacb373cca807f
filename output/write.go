package output

import (
	"fmt"
	"io"
	"time"

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
	case FormatPrometheus:
		if p, ok := doc.(interface{ WritePrometheus(io.Writer) error }); ok {
			return p.WritePrometheus(w)
		}
		return fmt.Errorf("-o prometheus is not an output of this command")
	case FormatNone:
		return nil
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
	// Cluster and Took are the Prometheus view's cluster_name label and
	// kcg_scrape_duration_seconds.
	Cluster string
	Took    time.Duration
}

// WritePrometheus writes the document as Prometheus metrics (Metrics).
func (v DescribeView) WritePrometheus(w io.Writer) error {
	if len(v.Doc.Clusters) > 0 {
		return fleetMetricsOf(v.Doc, v.TimeLag, v.Took, time.Now()).WritePrometheus(w)
	}
	return Metrics{Doc: v.Doc, Cluster: v.Cluster, TimeLag: v.TimeLag, Up: true, Took: v.Took, At: time.Now()}.WritePrometheus(w)
}

// WriteTable writes the view's table (see writeOffsetsTable,
// writeMembersTable, writeStateTable).
func (v DescribeView) WriteTable(w io.Writer) error {
	if err := v.writeTables(w); err != nil {
		return err
	}
	return writeOwnerSection(w, v.Doc)
}

func (v DescribeView) writeTables(w io.Writer) error {
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
	return writeShareOffsetsTable(w, share, len(v.Doc.Clusters) > 0, v.Verbose)
}

// normalized makes the machine formats encode the description list, not
// the view.
func (v DescribeView) normalized() any { return v.Doc.normalized() }

// PlanDocument is the document of `kcg plan` and `kcg show`: a plan. Its
// table is the reviewer's summary (see writePlanSummary); its JSON and
// YAML are the plan file's own encoding (see encodePlan).
type PlanDocument struct {
	Plan *resetplan.Plan
	// Source is kcg show's reading of the source cluster for a
	// translate-from plan (--source-profile, --source-bootstrap-server);
	// nil: not read. The table shows it; the JSON and YAML forms are the
	// plan file alone.
	Source *FailoverSource
	// MaxCheckpointAge is the age past which a translate-from plan's
	// checkpoints are warned about (0: 5 minutes, the default of kcg plan
	// and kcg show's --max-checkpoint-age).
	MaxCheckpointAge time.Duration
}

// WriteTable writes the plan summary, and for a translate-from plan its
// failover section.
func (d PlanDocument) WriteTable(w io.Writer) error {
	if err := writePlanSummary(w, d.Plan); err != nil {
		return err
	}
	if d.Plan.Strategy.Type == resetplan.StrategyTranslateFrom {
		return writeFailover(w, d.Plan, d.Source, d.MaxCheckpointAge)
	}
	return nil
}

func (d PlanDocument) encode(w io.Writer, f Format) error { return encodePlan(w, f, d.Plan) }

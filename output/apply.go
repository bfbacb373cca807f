package output

import (
	"io"
	"strconv"

	"github.com/kcg-dev/kcg/resetplan"
)

// KindApplyReport is the kind of `kcg apply`'s report.
const KindApplyReport = "ApplyReport"

// Apply and partition results.
const (
	// ResultApplied: every partition was written and read back.
	ResultApplied = "applied"
	// ResultAlreadyApplied: every target already equalled the live offset;
	// nothing was written.
	ResultAlreadyApplied = "already-applied"
	// ResultPartial: some groups (or partitions) were written, others not.
	ResultPartial = "partial"
	// ResultFailed: nothing was written.
	ResultFailed = "failed"
	// ResultRefused: a precondition refused the apply before any write
	// (see ApplyReport.Reasons).
	ResultRefused = "refused"
	// ResultWritten: the partition's new offset was committed and read
	// back.
	ResultWritten = "written"
	// ResultUnchanged: the live offset already equalled the target.
	ResultUnchanged = "unchanged"
	// ResultNotWritten: apply stopped before this partition, or the broker
	// refused it; its offset is as before.
	ResultNotWritten = "not-written"
	// ResultUnknown: the request failed in a way that leaves the outcome
	// unknown, and reading the offset back failed too.
	ResultUnknown = "unknown"
	// ResultOverwritten: the partition was written and read back, then
	// read back another offset while apply watched it (--settle): a
	// consumer that is no member of the group committed over it.
	ResultOverwritten = "overwritten"
)

// ApplyReport is the document `kcg apply` prints: per group and partition,
// the offset before, the planned target, the offset read back after, and
// the result.
type ApplyReport struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// Plan is the plan file applied, Digest its digest.
	Plan   string `json:"plan" yaml:"plan"`
	Digest string `json:"digest" yaml:"digest"`
	// ClusterID is the live cluster's id.
	ClusterID string `json:"clusterId" yaml:"clusterId"`
	// Result is applied, already-applied, partial, failed or refused.
	Result string `json:"result" yaml:"result"`
	// Reasons say why a refused apply was refused; empty otherwise.
	Reasons []string `json:"reasons" yaml:"reasons"`
	// RollbackPlan is the path of the rollback plan written before the
	// first commit; nil when nothing was to be written.
	RollbackPlan *string `json:"rollbackPlan" yaml:"rollbackPlan"`
	// Groups are in plan order (sorted by group id).
	Groups []ApplyGroup `json:"groups" yaml:"groups"`
	// Approvals are the signed approvals apply verified
	// (--allowed-signers), one per approver (approval.SameApprover);
	// absent when none was asked for.
	Approvals []Approval `json:"approvals,omitempty" yaml:"approvals,omitempty"`
	// Connector is what apply did to the plan's Kafka Connect connector
	// (owner.go); absent for a plan without one.
	Connector *ConnectorApply `json:"connector,omitempty" yaml:"connector,omitempty"`
	// plan is the plan applied, for the Markdown view (WithPlan); not
	// part of the document.
	plan *resetplan.Plan
}

// Approval is one signed approval of the plan: who (the principals of
// the allowed_signers line), with which key, from which signature file.
type Approval struct {
	Principal string `json:"principal" yaml:"principal"`
	Key       string `json:"key" yaml:"key"`
	Signature string `json:"signature" yaml:"signature"`
}

// WithPlan returns r with the plan it reports on, whose ticket, note and
// strategy its Markdown view names.
func (r ApplyReport) WithPlan(p *resetplan.Plan) ApplyReport {
	r.plan = p
	return r
}

// ApplyGroup is one group's outcome.
type ApplyGroup struct {
	Group string `json:"group" yaml:"group"`
	// Result is written (all its partitions), unchanged, partial,
	// not-written, unknown or overwritten.
	Result string `json:"result" yaml:"result"`
	// Error says why the group was not (fully) written; nil otherwise.
	Error      *string          `json:"error" yaml:"error"`
	Partitions []ApplyPartition `json:"partitions" yaml:"partitions"`
}

// ApplyPartition is one partition's outcome.
type ApplyPartition struct {
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	// Before is the committed offset right before apply; nil: none.
	Before *int64 `json:"before" yaml:"before"`
	// Target is the plan's target; nil: delete the offset (rollback).
	Target *int64 `json:"target" yaml:"target"`
	// After is the committed offset read back after apply; nil: none, or
	// not read back (see Result).
	After  *int64  `json:"after" yaml:"after"`
	Result string  `json:"result" yaml:"result"`
	Error  *string `json:"error" yaml:"error"`
}

// NewApplyReport returns an empty report for a plan.
func NewApplyReport(plan, digest, clusterID string) ApplyReport {
	return ApplyReport{APIVersion: APIVersion, Kind: KindApplyReport, Plan: plan, Digest: digest, ClusterID: clusterID, Groups: []ApplyGroup{}}
}

func (r ApplyReport) normalized() any {
	gs := make([]ApplyGroup, len(r.Groups))
	for i, g := range r.Groups {
		g.Partitions = nonNil(g.Partitions)
		gs[i] = g
	}
	r.Groups = gs
	r.Reasons = nonNil(r.Reasons)
	return r
}

// NewRefusedApplyReport is the report of an apply that a precondition
// refused: nothing was written, reasons say why.
func NewRefusedApplyReport(plan, digest, clusterID string, reasons []string) ApplyReport {
	r := NewApplyReport(plan, digest, clusterID)
	r.Result = ResultRefused
	r.Reasons = reasons
	return r
}

// WriteTable writes the apply report as a table: GROUP TOPIC PARTITION
// BEFORE TARGET AFTER RESULT, "-" for no offset, "delete" for a
// delete-offset target.
func (r ApplyReport) WriteTable(w io.Writer) error {
	var rows [][]string
	for _, g := range r.Groups {
		for _, p := range g.Partitions {
			target := "delete"
			if p.Target != nil {
				target = strconv.FormatInt(*p.Target, 10)
			}
			res := p.Result
			if p.Error != nil {
				res += ": " + *p.Error
			}
			rows = append(rows, []string{g.Group, p.Topic, strconv.Itoa(int(p.Partition)), IntCell(p.Before), target, IntCell(p.After), res})
		}
	}
	if err := renderTable(w, []string{"GROUP", "TOPIC", "PARTITION", "BEFORE", "TARGET", "AFTER", "RESULT"}, rows); err != nil {
		return err
	}
	return writeConnectorApply(w, r.Connector)
}

// Package output holds the documents kcg's commands print and every
// renderer of kcg's own commands: JSON and YAML for scripts, borderless
// tables for people, GitHub-flavoured Markdown for change tickets
// (markdown*.go: plans, plan checks and diffs, apply reports, describe). Drop-in mode's copies of the Java tool's fixed-width
// layouts are the dropin package's; the cells ("-" for what is absent) and
// the per-group state notices (messages.go) are shared with it.
//
// A command builds a Document (GroupList, DescribeView, PlanDocument,
// PlanDiff, PlanStatus, ApplyReport, GroupDeleteResult,
// OffsetDeleteResult) and hands it to Write with the -o format: the
// document knows its table, and JSON and YAML encode the document itself.
//
// It is the only package that imports tablewriter, whose output changes
// between minor releases; the version is pinned in go.mod and every table is
// covered by a golden test (go test ./output -update rewrites them).
//
// Renderers print in the order they are given and never modify their
// input: the constructors from groupops results (fromops.go:
// NewGroupListOf, NewGroupDescriptionListOf, NewGroupDeleteResultOf,
// NewOffsetDeleteResultOf) return their document sorted by its Sort, so
// the order is decided in one place. JSON and YAML carry the
// same document with the same field order, and a value that does not
// exist is null in both, never a sentinel; docs/output.md is the reference
// for every field.
package output

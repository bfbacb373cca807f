package output

import (
	"cmp"
	"io"
	"slices"
	"strconv"
)

// The document kinds of `kcg delete` and `kcg delete-offsets`.
const (
	KindGroupDeleteResult  = "GroupDeleteResult"
	KindOffsetDeleteResult = "OffsetDeleteResult"
)

// GroupDeleteResult is the document of `kcg delete -o json|yaml`: one
// entry per group asked for, deleted or not.
type GroupDeleteResult struct {
	// APIVersion is always "kcg/v1" and Kind "GroupDeleteResult".
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// Groups is sorted by group id after Sort.
	Groups []GroupDeletion `json:"groups" yaml:"groups"`
}

// GroupDeletion is one group's outcome.
type GroupDeletion struct {
	Group string `json:"group" yaml:"group"`
	// Deleted is true when Kafka deleted the group.
	Deleted bool `json:"deleted" yaml:"deleted"`
	// Error says, in operator language, why the group was not deleted
	// (e.g. "the group has active members"); null when it was.
	Error *string `json:"error" yaml:"error"`
}

// NewGroupDeleteResult returns a GroupDeleteResult holding groups.
func NewGroupDeleteResult(groups []GroupDeletion) GroupDeleteResult {
	return GroupDeleteResult{APIVersion: APIVersion, Kind: KindGroupDeleteResult, Groups: groups}
}

// Sort orders the groups by group id.
func (r GroupDeleteResult) Sort() {
	slices.SortStableFunc(r.Groups, func(a, b GroupDeletion) int { return cmp.Compare(a.Group, b.Group) })
}

func (r GroupDeleteResult) normalized() any {
	r.Groups = nonNil(r.Groups)
	return r
}

// Failed counts the groups that were not deleted.
func (r GroupDeleteResult) Failed() int {
	n := 0
	for _, g := range r.Groups {
		if !g.Deleted {
			n++
		}
	}
	return n
}

// WriteTable writes the result as kcg's table: GROUP, RESULT (deleted or
// failed) and ERROR ("-" when none). Nothing is printed for an empty
// result.
func (r GroupDeleteResult) WriteTable(w io.Writer) error {
	rows := make([][]string, 0, len(r.Groups))
	for _, g := range r.Groups {
		rows = append(rows, []string{g.Group, deletedWord(g.Deleted), StringCell(g.Error)})
	}
	return renderTable(w, []string{"GROUP", "RESULT", "ERROR"}, rows)
}

// OffsetDeleteResult is the document of `kcg delete-offsets -o json|yaml`:
// the group-level outcome and one entry per partition asked for.
type OffsetDeleteResult struct {
	// APIVersion is always "kcg/v1" and Kind "OffsetDeleteResult".
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	Group      string `json:"group" yaml:"group"`
	// Error is the group-level failure (e.g. "the group does not exist");
	// null when Kafka accepted the request. Partition failures are in
	// Partitions.
	Error *string `json:"error" yaml:"error"`
	// Partitions is sorted by topic, then partition, after Sort.
	Partitions []OffsetDeletion `json:"partitions" yaml:"partitions"`
}

// OffsetDeletion is one partition's outcome.
type OffsetDeletion struct {
	Topic string `json:"topic" yaml:"topic"`
	// Partition is null when the topic's partitions could not be listed
	// (the topic does not exist).
	Partition *int32 `json:"partition" yaml:"partition"`
	// Deleted is true when the committed offset was deleted (or there was
	// none to delete).
	Deleted bool    `json:"deleted" yaml:"deleted"`
	Error   *string `json:"error" yaml:"error"`
}

// NewOffsetDeleteResult returns an OffsetDeleteResult for group.
func NewOffsetDeleteResult(group string, groupErr *string, partitions []OffsetDeletion) OffsetDeleteResult {
	return OffsetDeleteResult{APIVersion: APIVersion, Kind: KindOffsetDeleteResult, Group: group, Error: groupErr, Partitions: partitions}
}

// Sort orders the partitions by topic, then partition (a missing partition
// first).
func (r OffsetDeleteResult) Sort() {
	slices.SortStableFunc(r.Partitions, func(a, b OffsetDeletion) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(PartitionNumber(a.Partition), PartitionNumber(b.Partition)))
	})
}

func (r OffsetDeleteResult) normalized() any {
	r.Partitions = nonNil(r.Partitions)
	return r
}

// Failed reports whether anything failed: the group-level request or a
// partition.
func (r OffsetDeleteResult) Failed() bool {
	if r.Error != nil {
		return true
	}
	for _, p := range r.Partitions {
		if !p.Deleted {
			return true
		}
	}
	return false
}

// WriteTable writes the result as kcg's table: GROUP, TOPIC, PARTITION
// ("-" for a topic that does not exist), RESULT (deleted or failed) and
// ERROR.
func (r OffsetDeleteResult) WriteTable(w io.Writer) error {
	rows := make([][]string, 0, len(r.Partitions))
	for _, p := range r.Partitions {
		part := missing
		if p.Partition != nil {
			part = strconv.Itoa(int(*p.Partition))
		}
		rows = append(rows, []string{r.Group, p.Topic, part, deletedWord(p.Deleted), StringCell(p.Error)})
	}
	return renderTable(w, []string{"GROUP", "TOPIC", "PARTITION", "RESULT", "ERROR"}, rows)
}

func deletedWord(ok bool) string {
	if ok {
		return "deleted"
	}
	return "failed"
}

// PartitionNumber is *p, or -1 for nil: a topic whose partitions could not
// be listed sorts, as in the Java tool, before its partition 0.
func PartitionNumber(p *int32) int32 {
	if p == nil {
		return -1
	}
	return *p
}

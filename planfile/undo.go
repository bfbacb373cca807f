package planfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kcg-dev/kcg/resetplan"
)

// Undo is the undo plan a delete shortcut (kcg delete and delete-offsets,
// the drop-in's --delete and --delete-offsets) wrote before deleting, and
// the delete plan it undoes. The zero Undo is none written.
type Undo struct {
	Plan *resetplan.Plan
	Path string
}

// WriteUndoOf writes the undo plan of plan, a delete plan about to be
// applied (WriteUndo), and names it on w. A plan that deletes no committed
// offset (groups without one, or none at all) has nothing to re-commit:
// no undo plan is written, and w says so. Nothing is to be deleted when
// it fails.
func WriteUndoOf(w io.Writer, plan *resetplan.Plan) (Undo, error) {
	if committedOffsets(plan) == 0 {
		fmt.Fprintf(w, "no undo plan written: no committed offset is deleted, so there is nothing to re-commit\n")
		return Undo{}, nil
	}
	path, err := WriteUndo(plan, time.Now())
	if err != nil {
		return Undo{}, fmt.Errorf("writing the undo plan (nothing was deleted): %w", err)
	}
	fmt.Fprintf(w, "undo plan written to %s: kcg apply %s re-commits the offsets deleted now\n", path, path)
	return Undo{Plan: plan, Path: path}, nil
}

// Narrow rewrites the undo plan when keep (groupops.KeepDeletedGroups or
// KeepDeletedOffsets) dropped what Kafka refused to delete: an undo plan
// naming offsets that are still there would be refused as stale. When no
// deleted offset is left, the undo plan is removed: it would re-commit
// nothing. Messages go to w.
func (u Undo) Narrow(w io.Writer, keep func(*resetplan.Plan) bool) {
	if u.Plan == nil || !keep(u.Plan) {
		return
	}
	if committedOffsets(u.Plan) == 0 {
		if err := os.Remove(u.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(w, "warning: no committed offset was deleted, but the undo plan %s could not be removed (%v): it names offsets that are still there\n", u.Path, err)
			return
		}
		fmt.Fprintf(w, "undo plan %s removed: no committed offset was deleted\n", u.Path)
		return
	}
	if err := ReplaceUndo(u.Path, u.Plan, time.Now()); err != nil {
		fmt.Fprintf(w, "warning: the undo plan %s also names what was not deleted (rewriting it failed: %v): apply it with --force, or edit it\n", u.Path, err)
		return
	}
	fmt.Fprintf(w, "undo plan %s rewritten: it restores only what was deleted\n", u.Path)
}

// committedOffsets counts the committed offsets a delete plan deletes:
// those its undo plan re-commits.
func committedOffsets(plan *resetplan.Plan) int {
	n := 0
	for _, g := range plan.Groups {
		for _, pt := range g.Partitions {
			if pt.Current != nil {
				n++
			}
		}
	}
	return n
}

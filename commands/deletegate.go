package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/app"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// deleteGate is what kcg delete and kcg delete-offsets do before they
// delete: they are a delete plan applied at once, so they plan, show the
// plan and ask (or need --yes), write the plan's undo, and only then
// delete.
type deleteGate struct {
	// yes deletes without asking; dryRun prints the plan and deletes
	// nothing.
	yes, dryRun bool
}

func deleteGateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "delete without asking (required when stdin is not a terminal)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print what would be deleted and exit 0: nothing is deleted, no undo plan is written"},
	}
}

func deleteGateFrom(c *cli.Context) deleteGate {
	return deleteGate{yes: c.Bool("yes"), dryRun: c.Bool("dry-run")}
}

// errNeedYes is the refusal, before connecting, of a delete that cannot ask.
func (g deleteGate) check(s Streams, what string) error {
	if g.yes || g.dryRun || s.InTTY {
		return nil
	}
	return app.Usagef("%s deletes without a way back but its undo plan: stdin is not a terminal, so give --yes to delete (or --dry-run to see what would go); nothing was deleted", what)
}

// errDeclined is the answer to the question that was not yes: exit 1.
var errDeclined = errors.New("not confirmed: nothing was deleted")

// undoFile is the undo plan a delete shortcut wrote, and the delete plan
// it undoes.
type undoFile struct {
	plan *resetplan.Plan
	path string
}

// narrow rewrites the undo plan when keep (groupops.KeepDeletedGroups or
// KeepDeletedOffsets) dropped what Kafka refused to delete: an undo plan
// naming offsets that are still there would be refused as stale.
func (u undoFile) narrow(s Streams, keep func(*resetplan.Plan) bool) {
	if !keep(u.plan) {
		return
	}
	if err := planfile.ReplaceUndo(u.path, u.plan, time.Now()); err != nil {
		fmt.Fprintf(s.Err, "warning: the undo plan %s also names what was not deleted (rewriting it failed: %v): apply it with --force, or edit it\n", u.path, err)
		return
	}
	fmt.Fprintf(s.Err, "undo plan %s rewritten: it restores only what was deleted\n", u.path)
}

// run plans the delete (groupops.PlanDelete), then with --dry-run prints
// the plan and stops; otherwise asks on a terminal unless --yes, writes the
// undo plan (named on stderr) and returns it: the caller deletes.
func (g deleteGate) run(ctx context.Context, cl *kafkaadmin.Client, s Streams, format output.Format, groups []string, typ resetplan.StrategyType, specs []resetplan.TopicSpec) (u undoFile, stop bool, err error) {
	plan, _, err := groupops.PlanDelete(ctx, cl, groups, typ, specs, app.CreatedBy())
	if err != nil {
		return u, true, err
	}
	doc := output.PlanDocument{Plan: plan}
	if g.dryRun {
		if err := output.Write(s.Out, format, doc); err != nil {
			return u, true, err
		}
		fmt.Fprintf(s.Err, "dry run: nothing was deleted\n")
		return u, true, nil
	}
	if !g.yes {
		if err := doc.WriteTable(s.Err); err != nil {
			return u, true, err
		}
		fmt.Fprintf(s.Err, "delete this? an undo plan is written first [y/N] ")
		answer, _ := bufio.NewReader(s.In).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return u, true, errDeclined
		}
	}
	path, err := writeUndo(plan)
	if err != nil {
		return u, true, err
	}
	fmt.Fprintf(s.Err, "undo plan written to %s: kcg apply %s re-commits the offsets deleted now\n", path, path)
	return undoFile{plan: plan, path: path}, false, nil
}

// writeUndo writes the undo plan of a delete plan about to be applied
// (planfile.WriteUndo) and returns its name. Nothing is deleted when it
// fails.
func writeUndo(plan *resetplan.Plan) (string, error) {
	path, err := planfile.WriteUndo(plan, time.Now())
	if err != nil {
		return "", fmt.Errorf("writing the undo plan (nothing was deleted): %w", err)
	}
	return path, nil
}

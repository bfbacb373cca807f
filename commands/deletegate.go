package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
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
func (g deleteGate) check(s IO, what string) error {
	if g.yes || g.dryRun || s.InTTY {
		return nil
	}
	return app.Usagef("%s deletes without a way back but its undo plan: stdin is not a terminal, so give --yes to delete (or --dry-run to see what would go); nothing was deleted", what)
}

// typoNothingDeleted ends the refusal of a group the cluster does not have
// (refuseMissing): a typo deletes nothing, --dry-run included.
const typoNothingDeleted = "check the name; nothing was deleted"

// errDeclined is the answer to the question that was not yes: exit 1.
var errDeclined = errors.New("not confirmed: nothing was deleted")

// run plans the delete (groupops.PlanDelete), then with --dry-run prints
// the plan and stops; otherwise asks on a terminal unless --yes, writes the
// undo plan (named on stderr) and returns it: the caller deletes.
//
// The answer is to what the question showed: after a yes, the groups are
// read again, and when what goes changed meanwhile (an offset committed,
// a partition or group gained or lost while the question was on screen)
// the new table is shown and the question asked again, so that the undo
// plan restores what is deleted. With --yes the one read right before the
// write is the plan. Ctrl-C at the question ends the command (exit 130):
// nothing is deleted and no undo plan is written.
func (g deleteGate) run(ctx context.Context, cl *kafkaadmin.Client, s IO, format output.Format, groups []string, typ resetplan.StrategyType, specs []resetplan.TopicSpec) (u planfile.Undo, stop bool, err error) {
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
		if plan, err = confirmDelete(ctx, cl, s, plan, groups, specs); err != nil {
			return u, true, err
		}
	}
	if u, err = planfile.WriteUndoOf(s.Err, plan); err != nil {
		return u, true, err
	}
	return u, false, nil
}

// confirmDelete shows plan on stderr and asks until the answer is to what
// is deleted: it returns the plan read after the last yes, which showed no
// change (errDeclined for anything but yes, ctx's error for Ctrl-C).
func confirmDelete(ctx context.Context, cl *kafkaadmin.Client, s IO, plan *resetplan.Plan, groups []string, specs []resetplan.TopicSpec) (*resetplan.Plan, error) {
	in := bufio.NewReader(s.In)
	for {
		if err := (output.PlanDocument{Plan: plan}).WriteTable(s.Err); err != nil {
			return nil, err
		}
		fmt.Fprintf(s.Err, "delete this? an undo plan is written first [y/N] ")
		answer, err := readAnswer(ctx, in)
		if err != nil {
			// The line the question left open ends before "kcg: interrupted".
			fmt.Fprintln(s.Err)
			return nil, err
		}
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return nil, errDeclined
		}
		now, _, err := groupops.PlanDelete(ctx, cl, groups, plan.Strategy.Type, specs, app.CreatedBy())
		if err != nil {
			return nil, err
		}
		n := changedDeletes(plan, now)
		if n == 0 {
			return now, nil
		}
		fmt.Fprintf(s.Err, "what goes changed while the question was on screen (%s): nothing was deleted yet; now:\n", vocab.Count(n, "change"))
		plan = now
	}
}

// changedDeletes counts what differs between two delete plans of the same
// groups in what is deleted: a group or partition gained or lost, a
// committed offset (the one the undo plan restores) that moved. The log
// bounds and group states may move without changing the delete.
func changedDeletes(before, after *resetplan.Plan) int {
	d := resetplan.Diff(before, after)
	n := 0
	for _, gc := range d.Groups {
		if gc.Kind != resetplan.Changed {
			n++
		}
	}
	for _, pc := range d.Partitions {
		if pc.Kind != resetplan.Changed || slices.Contains(pc.Fields, "current") {
			n++
		}
	}
	return n
}

// readAnswer reads one line of in, the answer to the question, unless ctx
// ends first (Ctrl-C): then it returns ctx's error and leaves the read to
// the process's exit.
func readAnswer(ctx context.Context, in *bufio.Reader) (string, error) {
	line := make(chan string, 1)
	go func() {
		a, _ := in.ReadString('\n')
		line <- a
	}()
	select {
	case a := <-line:
		// A y typed after Ctrl-C is no answer: the command has ended.
		return a, ctx.Err()
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

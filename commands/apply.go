package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

func applyCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "execute a reviewed plan, after re-checking every precondition",
		ArgsUsage: "PLAN",
		Description: "Refuses (exit 3, nothing written) a plan for another cluster, a group with\n" +
			"active members, a partition whose committed offset moved since planning\n" +
			"(unless --force), a target outside the live log, or a file whose digest is\n" +
			"not --expect-digest. Writes the rollback plan before the first commit,\n" +
			"commits group by group, reads every offset back, and reports per partition.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "expect-digest", Usage: "refuse unless the plan's digest is `SHA` (the reviewed one)"},
			&cli.BoolFlag{Name: "force", Usage: "apply even if committed offsets moved since planning"},
			&cli.StringFlag{Name: "rollback-out", Usage: "write the rollback plan to `FILE` (default: beside the plan, PLAN.rollback-TIME.yaml)"},
			outputFlag("table", "json", "yaml"),
		}, connectionFlags()...),
		Action: func(c *cli.Context) error { return runApply(c, s) },
	}
}

// normalizeDigest accepts a digest with or without its "sha256:" prefix.
func normalizeDigest(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if !strings.HasPrefix(d, "sha256:") {
		d = "sha256:" + d
	}
	return d
}

// defaultRollbackPath is beside the plan, named for the time of apply so
// an earlier rollback plan is never overwritten.
func defaultRollbackPath(planPath string, now time.Time) string {
	stamp := now.UTC().Format("20060102T150405Z")
	if planPath == "-" {
		return "kcg-rollback-" + stamp + ".yaml"
	}
	base := strings.TrimSuffix(planPath, filepath.Ext(planPath))
	return base + ".rollback-" + stamp + ".yaml"
}

// commitMetadata is what apply stores as each offset's commit metadata: a
// small JSON object naming kcg, the plan digest and the annotations, so the
// change is visible on the group itself (describe -o json: "metadata").
func commitMetadata(p *resetplan.Plan, digest string) string {
	m := struct {
		By     string `json:"by"`
		Plan   string `json:"plan"`
		Ticket string `json:"ticket,omitempty"`
		Note   string `json:"note,omitempty"`
	}{By: "kcg " + Version(), Plan: digest}
	if a := p.Annotations; a != nil {
		m.Ticket, m.Note = a.Ticket, a.Note
	}
	b, _ := json.Marshal(m)
	// Brokers cap commit metadata (offset.metadata.max.bytes, 4096 by
	// default); a long note is cut rather than failing the commit.
	if len(b) > 4000 && m.Note != "" {
		m.Note = m.Note[:max(0, len(m.Note)-(len(b)-4000))] + "…"
		b, _ = json.Marshal(m)
	}
	return string(b)
}

func runApply(c *cli.Context, s Streams) error {
	if c.Args().Len() != 1 {
		return usageErrorf("apply takes one plan file")
	}
	path := c.Args().First()
	format, err := output.ParseFormat(c.String("output"))
	if err != nil {
		return usageErrorf("%s", err)
	}
	plan, err := readPlan(s, path)
	if err != nil {
		return err
	}
	digest := resetplan.Digest(plan)
	if exp := c.String("expect-digest"); exp != "" && normalizeDigest(exp) != digest {
		return refusedError(fmt.Errorf("%s has digest %s, not the reviewed %s: the file changed since review; nothing was written", path, digest, normalizeDigest(exp)))
	}
	cl, ctx, done, err := connect(c)
	if err != nil {
		return err
	}
	defer done()
	pf, err := runPreflight(ctx, cl, plan)
	if err != nil {
		return err
	}
	report := output.NewApplyReport(path, digest, pf.clusterID)
	// A plan whose targets all equal the live offsets has been applied
	// (re-running apply is safe); it is checked before staleness, since an
	// applied plan's currents are by then always "stale".
	if !pf.clusterMismatch && len(pf.pending) == 0 {
		report.Result = output.ResultAlreadyApplied
		fillUnchanged(&report, plan, pf)
		fmt.Fprintf(s.Err, "already applied: every committed offset equals its target; nothing was written\n")
		return writeApplyReport(s, format, report)
	}
	if err := refusal(pf, c.Bool("force"), s); err != nil {
		return err
	}

	// The rollback plan is on disk before the first commit, so an apply
	// that dies half-way can still be undone.
	now := time.Now()
	rb := resetplan.Rollback(plan, pf.live, now)
	rb.CreatedBy = "kcg " + Version()
	rbPath := c.String("rollback-out")
	if rbPath == "" {
		rbPath = defaultRollbackPath(path, now)
	}
	data, err := resetplan.Encode(rb, resetplan.FormatForPath(rbPath))
	if err != nil {
		return err
	}
	if err := writeFileAtomic(rbPath, data); err != nil {
		return fmt.Errorf("writing the rollback plan (nothing was written to Kafka): %w", err)
	}
	report.RollbackPlan = &rbPath
	fmt.Fprintf(s.Err, "rollback plan written to %s (digest %s)\n", rbPath, resetplan.Digest(rb))

	meta := commitMetadata(plan, digest)
	written, failedAt := 0, -1
	var failure error
	for i, g := range plan.Groups {
		ag, err := applyGroup(ctx, cl, g, pf, meta)
		report.Groups = append(report.Groups, ag)
		if ag.Result == output.ResultWritten || ag.Result == output.ResultPartial || ag.Result == output.ResultUnknown {
			written++
		}
		if err != nil {
			failedAt, failure = i, err
			// Stop at the first failure: the groups after it stay as they
			// were, and the report says exactly which were written.
			for _, rest := range plan.Groups[i+1:] {
				report.Groups = append(report.Groups, notWritten(rest, pf, "apply stopped after an earlier group failed"))
			}
			break
		}
	}
	switch {
	case failedAt < 0:
		report.Result = output.ResultApplied
	case written == 0:
		report.Result = output.ResultFailed
	default:
		report.Result = output.ResultPartial
	}
	if err := writeApplyReport(s, format, report); err != nil {
		return err
	}
	if failedAt < 0 {
		fmt.Fprintf(s.Err, "applied %s: %d partitions written and verified\n", path, len(pf.pending))
		return nil
	}
	var wrote, notWrote []string
	for _, g := range report.Groups {
		switch g.Result {
		case output.ResultWritten, output.ResultUnchanged:
			wrote = append(wrote, g.Group)
		case output.ResultPartial, output.ResultUnknown:
			wrote = append(wrote, g.Group+" (partly)")
		default:
			notWrote = append(notWrote, g.Group)
		}
	}
	if report.Result == output.ResultFailed {
		if kafkaadmin.IsActiveGroupError(failure) {
			return refusedError(fmt.Errorf("group %s: %w; nothing was written", plan.Groups[failedAt].Group, failure))
		}
		return fmt.Errorf("group %s: %w; nothing was written", plan.Groups[failedAt].Group, failure)
	}
	return &exitError{code: ExitPartial, err: fmt.Errorf("apply failed part way at group %s: %v; written: %s; not written: %s; undo with kcg apply %s",
		plan.Groups[failedAt].Group, failure, strings.Join(wrote, ", "), strings.Join(notWrote, ", "), rbPath)}
}

// refusal returns the exit-3 error for a plan apply must not run, naming
// every reason.
func refusal(pf *preflight, force bool, s Streams) error {
	var reasons []string
	if pf.clusterMismatch {
		reasons = append(reasons, fmt.Sprintf("the plan is for cluster %s, this is cluster %s", pf.plan.Cluster.ID, pf.clusterID))
	}
	for _, a := range pf.active {
		reasons = append(reasons, fmt.Sprintf("group %s has %d active members (state %s): stop its consumers first", a.Group, a.Members, a.State))
	}
	if len(pf.drift) > 0 {
		var ds []string
		for _, d := range pf.drift {
			ds = append(ds, d.String())
		}
		if force {
			fmt.Fprintf(s.Err, "warning: --force: applying although offsets moved since planning: %s\n", strings.Join(ds, "; "))
		} else {
			reasons = append(reasons, "the plan is stale: "+strings.Join(ds, "; ")+" (re-plan, or --force)")
		}
	}
	for _, r := range pf.outOfRange {
		reasons = append(reasons, r.String())
	}
	if len(reasons) == 0 {
		return nil
	}
	return refusedError(fmt.Errorf("refusing to apply: %s; nothing was written", strings.Join(reasons, "; ")))
}

func writeApplyReport(s Streams, f output.Format, r output.ApplyReport) error {
	if f == output.FormatTable {
		return output.WriteApplyTable(s.Out, r)
	}
	return output.WriteDocument(s.Out, f, r)
}

func ptr64(v int64) *int64 { return &v }

func liveOf(pf *preflight, group string, tp resetplan.TopicPartition) *int64 {
	if v, ok := pf.live[group][tp]; ok {
		return ptr64(v)
	}
	return nil
}

func fillUnchanged(r *output.ApplyReport, plan *resetplan.Plan, pf *preflight) {
	for _, g := range plan.Groups {
		ag := output.ApplyGroup{Group: g.Group, Result: output.ResultUnchanged}
		for _, pt := range g.Partitions {
			before := liveOf(pf, g.Group, pt.TP())
			ag.Partitions = append(ag.Partitions, output.ApplyPartition{Topic: pt.Topic, Partition: pt.Partition, Before: before, Target: pt.Target, After: before, Result: output.ResultUnchanged})
		}
		r.Groups = append(r.Groups, ag)
	}
}

func notWritten(g resetplan.Group, pf *preflight, why string) output.ApplyGroup {
	ag := output.ApplyGroup{Group: g.Group, Result: output.ResultNotWritten, Error: &why}
	for _, pt := range g.Partitions {
		before := liveOf(pf, g.Group, pt.TP())
		ag.Partitions = append(ag.Partitions, output.ApplyPartition{Topic: pt.Topic, Partition: pt.Partition, Before: before, Target: pt.Target, After: before, Result: output.ResultNotWritten})
	}
	return ag
}

// applyGroup writes one group's pending partitions (commits, and offset
// deletions for rollback entries), reads every partition back and returns
// the group's outcome; the error is set when the group was not fully
// written and verified.
func applyGroup(ctx context.Context, cl *kafkaadmin.Client, g resetplan.Group, pf *preflight, meta string) (output.ApplyGroup, error) {
	ag := output.ApplyGroup{Group: g.Group}
	var commits []kafkaadmin.OffsetToCommit
	var deletes []kafkaadmin.TopicPartition
	for _, w := range pf.pending {
		if w.Group != g.Group {
			continue
		}
		if w.To == nil {
			deletes = append(deletes, w.TP)
		} else {
			commits = append(commits, kafkaadmin.OffsetToCommit{TopicPartition: w.TP, Offset: *w.To, Metadata: meta})
		}
	}
	perr := map[kafkaadmin.TopicPartition]error{}
	var groupErr error
	if len(commits) > 0 {
		res, err := cl.CommitOffsets(ctx, g.Group, commits)
		if err != nil {
			groupErr = err
		}
		for tp, e := range res {
			if e != nil {
				perr[tp] = e
				if groupErr == nil {
					groupErr = e
				}
			}
		}
	}
	if len(deletes) > 0 && groupErr == nil {
		res, err := cl.DeleteOffsets(ctx, g.Group, deletes)
		switch {
		case err != nil:
			groupErr = err
		case res.Err != nil:
			groupErr = res.Err
		}
		for tp, e := range res.Partitions {
			if e != nil {
				perr[tp] = e
				if groupErr == nil {
					groupErr = e
				}
			}
		}
	}

	// Read back: the report states what the broker holds, not what was
	// sent.
	var after map[kafkaadmin.TopicPartition]kafkaadmin.CommittedOffset
	offs, rerr := cl.FetchOffsets(ctx, []string{g.Group})
	if rerr == nil && offs[0].Err != nil {
		rerr = offs[0].Err
	}
	if rerr == nil {
		after = offs[0].Offsets
	}
	nWritten, nFailed := 0, 0
	for _, pt := range g.Partitions {
		tp := adminTP(pt.TP())
		p := output.ApplyPartition{Topic: pt.Topic, Partition: pt.Partition, Before: liveOf(pf, g.Group, pt.TP()), Target: pt.Target}
		if after != nil {
			if c, ok := after[tp]; ok {
				p.After = ptr64(c.Offset)
			}
		}
		target, hasTarget := pt.TargetOffset()
		reached := after != nil && ((hasTarget && p.After != nil && *p.After == target) || (!hasTarget && p.After == nil))
		changed := !sameOffset(p.Before, p.After)
		switch {
		case after == nil:
			p.Result = output.ResultUnknown
			msg := fmt.Sprintf("could not read the offset back: %v", rerr)
			p.Error = &msg
			nFailed++
		case reached && !changed:
			p.Result = output.ResultUnchanged
		case reached:
			p.Result = output.ResultWritten
			nWritten++
		default:
			p.Result = output.ResultNotWritten
			if e := perr[tp]; e != nil {
				msg := oneLine(e.Error())
				p.Error = &msg
			} else if groupErr != nil {
				msg := oneLine(groupErr.Error())
				p.Error = &msg
			} else {
				msg := "the offset read back differs from the target"
				p.Error = &msg
				groupErr = fmt.Errorf("verification failed: %s/%d reads back %s, planned %d", pt.Topic, pt.Partition, offsetText(p.After), target)
			}
			nFailed++
			if changed {
				nWritten++
			}
		}
		ag.Partitions = append(ag.Partitions, p)
	}
	if groupErr == nil && rerr != nil {
		groupErr = fmt.Errorf("reading the offsets back: %w", rerr)
	}
	switch {
	case groupErr == nil:
		ag.Result = output.ResultWritten
	case after == nil:
		ag.Result = output.ResultUnknown
	case nWritten > 0:
		ag.Result = output.ResultPartial
	default:
		ag.Result = output.ResultNotWritten
	}
	if groupErr != nil {
		msg := oneLine(groupErr.Error())
		ag.Error = &msg
	}
	return ag, groupErr
}

func sameOffset(a, b *int64) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func offsetText(v *int64) string {
	if v == nil {
		return "no offset"
	}
	return fmt.Sprint(*v)
}

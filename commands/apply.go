package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/policy"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
	"github.com/urfave/cli/v2"
)

type applyOptions struct {
	path string
	// expectDigest is the reviewed digest, normalized; "" when not given.
	expectDigest string
	force        bool
	// rollbackOut is where the rollback plan goes; "" for beside the plan.
	rollbackOut string
	format      output.Format
	// waitEmpty is --wait-empty: how long the preflight waits for the
	// plan's groups to be empty; 0 refuses active groups at once.
	waitEmpty time.Duration
	// settle is --settle: how long apply watches the offsets it wrote
	// for a consumer that overwrites them (groupops.Settle); 0: not.
	settle time.Duration
	// policies are --policy and the profile's policy: (nil: none).
	policies  *policy.Set
	approvals approvalOptions
	dial      dialFunc
	// connect are the configured Kafka Connect clusters: the plan's
	// connector is reached with the one of its URL (apply_connector.go).
	connect []*connect.Client
}

func applyCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "execute a reviewed plan, after re-checking every precondition",
		ArgsUsage: "PLAN",
		Description: "Refuses (exit 3, nothing written) a plan for another cluster, a group with\n" +
			"active members, a partition whose committed offset moved since planning\n" +
			"(unless --force), a target outside the live log, or a file whose digest is\n" +
			"not --expect-digest. Writes the rollback plan before the first commit,\n" +
			"commits a few groups at a time in plan order, reads every offset back, and\n" +
			"reports per partition. A failed group, or Ctrl-C (exit 130), stops it: the\n" +
			"groups in flight finish and are reported, no other group starts.\n" +
			"It then watches the written offsets for --settle (2s): one that a consumer\n" +
			"outside the group (assign()) overwrites is reported overwritten, exit 4.\n" +
			"With --wait-empty, active groups are waited for (polled every second)\n" +
			"instead of refused; still active when the wait ends: exit 3, nothing written.\n\n" +
			"Before connecting: --policy (and the profile's policy:) refuses a plan its\n" +
			"Rego deny rules deny; --allowed-signers (or the profile's allowedSigners:)\n" +
			"refuses a plan without --min-approvals valid signatures of its exact bytes\n" +
			"(PLAN.sig, or --signature) by principals of that file (docs/approvals.md).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "expect-digest", Usage: "refuse unless the plan's digest is `SHA` (the reviewed one)"},
			&cli.BoolFlag{Name: "force", Usage: "apply even if committed offsets moved since planning"},
			&cli.StringFlag{Name: "rollback-out", Usage: "write the rollback plan to `FILE`, which must not exist (default: beside the plan, PLAN.rollback-TIME.yaml)"},
			&cli.StringFlag{Name: "settle", DefaultText: "2s", Usage: "after writing, watch the written offsets for `DURATION`: one that changes was overwritten by a consumer that commits without joining the group (exit 4); 0 skips the watch"},
			&cli.StringFlag{Name: "wait-empty", Usage: "wait up to `DURATION` (10m) for the plan's groups to have no active members, then re-check and apply at once (without --timeout the deadline is DURATION+30s)"},
			outputFlag("table", "json", "yaml", "markdown"),
			policyFlag(),
		}, append(append(approvalFlags(), connectionFlags()...), connectFlags()...)...),
		Action: action(s, applyOptionsFrom, runApply),
	}
}

func applyOptionsFrom(c *cli.Context) (applyOptions, error) {
	o := applyOptions{force: c.Bool("force"), rollbackOut: c.String("rollback-out")}
	if c.Args().Len() != 1 {
		return o, app.Usagef("apply takes one plan file")
	}
	o.path = c.Args().First()
	if o.rollbackOut == "-" {
		// stdout carries the report; a file named "-" is never meant.
		return o, app.Usagef("--rollback-out -: the rollback plan must be a file (stdout carries the report); name a new file, or leave it out for the default beside the plan")
	}
	if d := c.String("expect-digest"); d != "" {
		o.expectDigest = normalizeDigest(d)
	}
	if w := c.String("wait-empty"); w != "" {
		d, err := app.ParseDuration(w)
		if err != nil || d <= 0 {
			return o, app.Usagef("--wait-empty %q: give how long to wait for the groups to be empty, a positive duration: %s", w, app.DurationForms)
		}
		o.waitEmpty = d
	}
	o.settle = defaultSettle
	if v := c.String("settle"); v != "" {
		d, err := app.ParseDuration(v)
		if err != nil || d < 0 {
			return o, app.Usagef("--settle %q: give how long to watch the written offsets, 0 (do not watch) or a duration: %s", v, app.DurationForms)
		}
		o.settle = d
	}
	var err error
	if o.format, err = formatFrom(c); err != nil {
		return o, err
	}
	prof, err := profileOf(c)
	if err != nil {
		return o, err
	}
	if o.approvals, err = approvalOptionsFrom(c, o.path, prof); err != nil {
		return o, err
	}
	if o.policies, err = loadPolicies(c, prof); err != nil {
		return o, err
	}
	o.dial = applyDial(c, o.waitEmpty)
	o.connect, err = connectClients(c)
	return o, err
}

// applyDial dials the cluster. With --wait-empty and no --timeout, the
// command's deadline is the wait plus the default timeout, so that
// `apply --wait-empty 10m` waits ten minutes and still has the usual time
// to apply; a --timeout given bounds everything, the wait included.
func applyDial(c *cli.Context, waitEmpty time.Duration) dialFunc {
	o, err := connOptions(c)
	if err == nil && waitEmpty > 0 && !c.IsSet("timeout") {
		o.Timeout = waitEmpty + app.DefaultTimeout
	}
	return dialWith(o, err)
}

// defaultSettle is how long apply watches the offsets it wrote without
// --settle (a variable for tests: export_test.go).
var defaultSettle = groupops.DefaultSettle

// normalizeDigest accepts a digest with or without its "sha256:" prefix.
func normalizeDigest(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if !strings.HasPrefix(d, "sha256:") {
		d = "sha256:" + d
	}
	return d
}

// rollbackStampRE is the ".rollback[N]-<stamp>" a default rollback name
// ends with (before its extension); N, the generation, is absent for 1.
var rollbackStampRE = regexp.MustCompile(`\.rollback([0-9]*)-[0-9]{8}T[0-9]{6}Z$`)

// defaultRollbackPath is beside the plan, named for its generation and the
// time of apply: the rollback of X.yaml is X.rollback-T1.yaml, the
// rollback of that (a redo of X) X.rollback2-T2.yaml, then
// X.rollback3-T3.yaml (an undo of X again): odd generations undo X, even
// ones redo it. The name never nests, and a rollback's own rollback never
// has its name, even within one second. An existing file is never
// overwritten (the caller refuses).
func defaultRollbackPath(planPath string, now time.Time) string {
	stamp := now.UTC().Format("20060102T150405Z")
	if planPath == "-" {
		return "kcg-rollback-" + stamp + ".yaml"
	}
	base := strings.TrimSuffix(planPath, filepath.Ext(planPath))
	generation := 1
	if m := rollbackStampRE.FindStringSubmatchIndex(base); m != nil {
		generation = 2
		if m[2] < m[3] {
			n, err := strconv.Atoi(base[m[2]:m[3]])
			if err == nil && n > 0 {
				generation = n + 1
			}
		}
		base = base[:m[0]]
	}
	if generation == 1 {
		return base + ".rollback-" + stamp + ".yaml"
	}
	return base + ".rollback" + strconv.Itoa(generation) + "-" + stamp + ".yaml"
}

func errRollbackExists(path string, given bool) error {
	if given {
		return app.Usagef("--rollback-out %s exists: refusing to overwrite it; name a new file (nothing was written to Kafka)", path)
	}
	return app.Usagef("the rollback plan %s exists: refusing to overwrite it; name a new file with --rollback-out (nothing was written to Kafka)", path)
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
	}{By: app.CreatedBy(), Plan: digest}
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

// beforeGroupCommit, when set (by tests only: export_test.go), runs after
// the preflight and the rollback plan, right before each group's writes:
// the broker-failure tests kill a coordinator there.
var beforeGroupCommit func(group string)

// runApply is kcg apply as its steps: load the plan, preflight it
// against the cluster, write the rollback plan, apply, and the exit code
// of what the apply came to.
func runApply(parent context.Context, s IO, o applyOptions) error {
	r := &applyRun{s: s, o: o, progress: newProgress(s)}
	defer r.progress.done()
	if err := r.loadPlan(parent); err != nil {
		return err
	}
	cl, ctx, done, err := o.dial(parent)
	if err != nil {
		return err
	}
	defer done()
	if r.plan.Connector != nil {
		return r.applyConnector(ctx, cl)
	}
	check, err := r.preflight(ctx, cl)
	if err != nil {
		return err
	}
	if r.o.waitEmpty > 0 && !check.AlreadyApplied() && check.OnlyActiveRefuses(r.o.force) {
		if check, err = r.waitEmpty(ctx, cl, check); err != nil {
			return err
		}
	}
	if check.AlreadyApplied() {
		return r.alreadyApplied(check)
	}
	if err := r.refuse(check); err != nil {
		return err
	}
	rbPath, err := r.writeRollback(check)
	if err != nil {
		return err
	}
	res := r.apply(ctx, parent.Done(), cl, check)
	if err := output.Write(s.Out, o.format, output.NewApplyReportOf(output.ApplyReportOf{Plan: o.path, Digest: r.digest, ClusterID: check.ClusterID, RollbackPlan: rbPath, Result: res, Source: r.plan, Approvals: r.approvals})); err != nil {
		return r.unreported(err, res.Verdict(), check, rbPath)
	}
	return r.exit(res.Verdict(), check, rbPath)
}

// unreported is the error of an apply whose report could not be printed
// (werr: stdout closed or full). Exit 1 would say nothing was written:
// when something was (or may have been), stderr names it and the code is
// ExitUnreported, whatever the apply's own code would have been.
func (r *applyRun) unreported(werr error, v groupops.Verdict, check *groupops.Check, rbPath string) error {
	if len(v.Written) == 0 && len(v.Unknown) == 0 {
		if err := r.exit(v, check, rbPath); err != nil {
			return fmt.Errorf("%w (and the report could not be printed: %v)", err, werr)
		}
		return werr
	}
	failed := ""
	if v.Failed != nil {
		failed = fmt.Sprintf("; it stopped at group %s: %v", v.Failed.Group, v.Failure)
	} else if v.Interrupted {
		failed = "; it was interrupted"
	}
	return app.WithCode(app.ExitUnreported, fmt.Errorf("apply wrote to Kafka but its report could not be printed (%v): written: %s; not written: %s%s%s; rollback plan %s (undo with kcg apply %s)",
		werr, orNone(labels(v.Written)), orNone(v.NotWritten), unknownText(v.Unknown), failed, rbPath, rbPath))
}

// applyRun is one kcg apply, shared by its steps.
type applyRun struct {
	s        IO
	o        applyOptions
	progress *progress
	plan     *resetplan.Plan
	// digest is the plan's digest; while it is "", digestc will deliver
	// it (preflight awaits it).
	digest  string
	digestc chan string
	// approvals are the verified approvals (--allowed-signers), for the
	// report.
	approvals []output.Approval
	// settled is what the watch after the writes saw (--settle).
	settled groupops.SettleResult
}

// loadPlan reads the plan and refuses, before connecting, an existing
// --rollback-out and a digest that is not --expect-digest.
func (r *applyRun) loadPlan(ctx context.Context) error {
	r.progress.say("reading the plan")
	plan, data, err := planfile.ReadBytes(r.o.path, r.s.In)
	if err != nil {
		return err
	}
	r.plan = plan
	// The digest is needed before connecting only to check
	// --expect-digest; otherwise it is computed beside the connection and
	// the preflight (which only read the plan), and awaited after them.
	r.digestc = make(chan string, 1)
	if r.o.expectDigest != "" || r.o.policies != nil || r.o.approvals.allowedSigners != "" {
		r.digest = resetplan.Digest(plan)
	} else {
		go func() { r.digestc <- resetplan.Digest(plan) }()
	}
	// An existing --rollback-out (the plan itself, notes) is refused before
	// connecting; writeRollback refuses again, atomically, before the
	// first commit.
	if r.o.rollbackOut != "" && planfile.Exists(r.o.rollbackOut) {
		return errRollbackExists(r.o.rollbackOut, true)
	}
	if r.o.expectDigest != "" && r.o.expectDigest != r.digest {
		reason := fmt.Sprintf("%s has digest %s, not the reviewed %s: the file changed since review", r.o.path, r.digest, r.o.expectDigest)
		return r.refused("", []string{reason}, app.Refused(errors.New(reason+"; nothing was written")))
	}
	return r.checkReview(ctx, data)
}

// checkReview refuses, before connecting, a plan without the signed
// approvals asked for, or one the policies deny.
func (r *applyRun) checkReview(ctx context.Context, data []byte) error {
	approvals, reasons, err := r.o.approvals.verifyApprovals(r.s, data)
	if err != nil {
		return err
	}
	if len(reasons) > 0 {
		for _, why := range reasons {
			fmt.Fprintf(r.s.Err, "not approved: %s\n", why)
		}
		return r.refused("", reasons, app.Refused(fmt.Errorf("%s is not approved; nothing was written", r.o.path)))
	}
	r.approvals = approvals
	deny, err := policyVerdict(ctx, r.s, r.o.policies, r.plan)
	if err != nil {
		return err
	}
	if len(deny) > 0 {
		reasons := make([]string, 0, len(deny))
		for _, d := range deny {
			reasons = append(reasons, "policy: "+d)
		}
		return r.refused("", reasons, policyRefusal(deny, "nothing was written"))
	}
	return nil
}

// waitEmptyInterval is how often --wait-empty describes the groups; a
// variable for tests (export_test.go).
var waitEmptyInterval = groupops.DefaultWaitInterval

// waitEmpty is the preflight's wait of --wait-empty: once the check's only
// refusal is that groups are active, it polls them until none has members
// (groupops.WaitEmpty), then checks the plan again, since the consumers
// may have committed as they stopped: a plan they made stale is refused
// as any other. Still active when the wait ends (its duration, or the
// command's deadline): refused, exit 3. Ctrl-C: the context's error, 130.
func (r *applyRun) waitEmpty(ctx context.Context, cl *kafkaadmin.Client, check *groupops.Check) (*groupops.Check, error) {
	groups := make([]string, 0, len(check.Active))
	for _, a := range check.Active {
		groups = append(groups, a.Group)
	}
	err := groupops.WaitEmpty(ctx, cl, groups, groupops.WaitOptions{
		Until: time.Now().Add(r.o.waitEmpty), Interval: waitEmptyInterval, Plan: check.Plan,
		Progress: func(active []groupops.ActiveGroup, left time.Duration) {
			names := make([]string, 0, len(active))
			for _, a := range active {
				names = append(names, fmt.Sprintf("%s (%s)", a.Group, vocab.Count(a.Members, "member")))
			}
			r.progress.say(fmt.Sprintf("waiting for %s to be empty, %s left: %s", vocab.Count(len(active), "group"), left.Round(time.Second), strings.Join(names, ", ")))
		},
	})
	r.progress.clear()
	if sa, ok := errors.AsType[*groupops.StillActiveError](err); ok {
		return nil, r.refused(check.ClusterID, sa.Reasons(), app.Refused(sa))
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(r.s.Err, "no group of the plan has active members now: checking the plan again\n")
	return r.preflight(ctx, cl)
}

// preflight checks the plan against the live cluster (groupops.Preflight)
// and awaits its digest.
func (r *applyRun) preflight(ctx context.Context, cl *kafkaadmin.Client) (*groupops.Check, error) {
	r.progress.say("checking " + vocab.Count(len(r.plan.Groups), "group") + " against the cluster")
	check, err := groupops.Preflight(ctx, cl, r.plan)
	if err != nil {
		return nil, err
	}
	if r.digest == "" {
		r.digest = <-r.digestc
	}
	r.progress.clear()
	return check, nil
}

// alreadyApplied reports a plan whose targets all equal the live offsets:
// it has been applied, and re-running apply is safe. It is checked before
// staleness, since an applied plan's currents are by then always "stale".
func (r *applyRun) alreadyApplied(check *groupops.Check) error {
	fmt.Fprintf(r.s.Err, "already applied: every committed offset equals its target; nothing was written\n")
	return output.Write(r.s.Out, r.o.format, output.NewApplyReportOf(output.ApplyReportOf{Plan: r.o.path, Digest: r.digest, ClusterID: check.ClusterID, Result: check.Unchanged(), Source: r.plan, Approvals: r.approvals}))
}

// refuse prints the check's warnings and returns its refusal, nil when
// the apply may go on.
func (r *applyRun) refuse(check *groupops.Check) error {
	warnings, err := check.Refusal(r.o.force)
	for _, w := range warnings {
		fmt.Fprintf(r.s.Err, "warning: %s\n", w)
	}
	if re, ok := errors.AsType[*groupops.RefusedError](err); ok {
		return r.refused(check.ClusterID, re.Reasons, err)
	}
	return err
}

// apply writes the checked plan (groupops.Apply). Ctrl-C (stop, the
// cancelled command context) stops it from starting more groups, but the writes
// in flight and the read-back run on to the end, within --timeout: the
// report must say what the broker holds.
func (r *applyRun) apply(ctx context.Context, stop <-chan struct{}, cl *kafkaadmin.Client, check *groupops.Check) groupops.ApplyResult {
	work, cancelWork := context.WithoutCancel(ctx), func() {}
	if deadline, ok := ctx.Deadline(); ok {
		work, cancelWork = context.WithDeadline(work, deadline)
	}
	defer cancelWork()
	res := groupops.Apply(work, cl, check, groupops.ApplyOptions{
		Metadata: commitMetadata(r.plan, r.digest), BeforeGroup: beforeGroupCommit, Stop: stop,
		Progress: func(sent, total int) {
			r.progress.say(fmt.Sprintf("applying: %d of %s committed", sent, vocab.Count(total, "group")))
		},
		ReadingBack: func(n int) { r.progress.say("reading back " + vocab.Count(n, "group")) },
	})
	if r.o.settle > 0 && !res.Interrupted {
		r.progress.say(fmt.Sprintf("watching the written offsets for %s", r.o.settle))
		r.settled = groupops.Settle(work, cl, check, &res, groupops.SettleOptions{For: r.o.settle, Stop: stop})
	}
	r.progress.done()
	if r.settled.Stopped {
		fmt.Fprintf(r.s.Err, "interrupted: the written offsets were watched for %s of --settle %s\n", r.settled.Watched.Round(10*time.Millisecond), r.o.settle)
	}
	return res
}

// exit is the summary line, or the error (with its exit code) of an apply
// that did not write everything: 130 interrupted, 3 nothing written as
// the group is active, 1 nothing written, 4 part way.
func (r *applyRun) exit(v groupops.Verdict, check *groupops.Check, rbPath string) error {
	switch {
	case v.Interrupted:
		return app.WithCode(app.ExitInterrupted, fmt.Errorf("apply interrupted: the groups in flight finished, no other group was started; written: %s; not written: %s%s; undo with kcg apply %s",
			orNone(labels(v.Written)), orNone(v.NotWritten), unknownText(v.Unknown), rbPath))
	case v.Failed == nil && r.plan.Strategy.Type == resetplan.StrategyDeleteGroup:
		fmt.Fprintf(r.s.Err, "applied %s: %s deleted, with %s; undo with kcg apply %s\n", r.o.path, vocab.Count(len(check.GroupDeletes), "group"), vocab.Count(len(check.Pending), "committed offset"), rbPath)
		return nil
	case v.Failed == nil:
		fmt.Fprintf(r.s.Err, "applied %s: %s written and verified%s\n", r.o.path, vocab.Count(len(check.Pending), "partition"), r.settledText())
		return nil
	case len(v.Overwritten) > 0:
		return app.WithCode(app.ExitPartial, fmt.Errorf("group %s: %v; overwritten: %s; written: %s; not written: %s%s; rollback plan %s",
			v.Failed.Group, v.Failure, strings.Join(v.Overwritten, ", "), orNone(labels(v.Written)), orNone(v.NotWritten), unknownText(v.Unknown), rbPath))
	case v.Status == groupops.StatusFailed:
		if v.GroupActive {
			return app.Refused(fmt.Errorf("group %s: %w; nothing was written", v.Failed.Group, v.Failure))
		}
		return fmt.Errorf("group %s: %w; nothing was written", v.Failed.Group, v.Failure)
	}
	return app.WithCode(app.ExitPartial, fmt.Errorf("apply failed part way at group %s: %v; written: %s; not written: %s%s; undo with kcg apply %s",
		v.Failed.Group, v.Failure, orNone(labels(v.Written)), orNone(v.NotWritten), unknownText(v.Unknown), rbPath))
}

// settledText says, for the summary line, how long the written offsets
// stayed at their targets after the writes (--settle).
func (r *applyRun) settledText() string {
	if r.settled.Watched <= 0 {
		return ""
	}
	return fmt.Sprintf(", and still so %s later", r.settled.Watched.Round(100*time.Millisecond))
}

// labels names the written groups of a verdict, "group (partly)" for a
// group written in part.
func labels(ws []groupops.WrittenGroup) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.Label())
	}
	return out
}

// unknownText names, for the last line of a failed apply, the groups whose
// writes were sent but could not be read back.
func unknownText(unknown []string) string {
	if len(unknown) == 0 {
		return ""
	}
	return fmt.Sprintf("; unknown (sent, not confirmed: check with kcg describe): %s", strings.Join(unknown, ", "))
}

func orNone(groups []string) string {
	if len(groups) == 0 {
		return "none"
	}
	return strings.Join(groups, ", ")
}

// refused returns err, the refusal of the apply, after printing the
// ApplyReport that says why for -o json|yaml|markdown, so that a script
// (or the ticket) reading stdout learns it (the table goes without: the
// reasons are on stderr).
func (r *applyRun) refused(clusterID string, reasons []string, err error) error {
	if r.o.format != output.FormatTable {
		doc := output.NewRefusedApplyReport(r.o.path, r.digest, clusterID, reasons).WithPlan(r.plan)
		if werr := output.Write(r.s.Out, r.o.format, doc); werr != nil {
			return werr
		}
	}
	return err
}

// writeRollback writes the plan that undoes the plan (the live offsets
// of the check) and returns its path: it is on disk before the first
// commit, so an apply that dies half-way can still be undone.
func (r *applyRun) writeRollback(check *groupops.Check) (string, error) {
	r.progress.say("writing the rollback plan")
	now := time.Now()
	rb := resetplan.RollbackOf(r.plan, r.digest, check.Live, now)
	rb.CreatedBy = app.CreatedBy()
	path := r.o.rollbackOut
	if path == "" {
		path = defaultRollbackPath(r.o.path, now)
	}
	data, err := resetplan.Encode(rb, resetplan.FormatForPath(path))
	if err != nil {
		return "", err
	}
	if err := planfile.Write(path, data, false); err != nil {
		if errors.Is(err, os.ErrExist) {
			return "", errRollbackExists(path, r.o.rollbackOut != "")
		}
		return "", fmt.Errorf("writing the rollback plan (nothing was written to Kafka): %w", err)
	}
	r.progress.clear()
	// No digest: digests are for review, and `kcg show ROLLBACK` prints
	// it when the undo is reviewed; after an apply it was noise.
	fmt.Fprintf(r.s.Err, "rollback plan written to %s\n", path)
	return path, nil
}

package groupops

// The reset of a Kafka Connect sink connector's group, as one procedure
// with each step checked (docs/connect.md): preflight (the plan is not
// stale, the connector is the one planned, its group's members are its
// tasks); stop the connector; wait until its tasks are gone and the group
// is Empty; write the rollback plan; write the offsets through Connect
// (PATCH offsets: the connector's alterOffsets hook runs) or, before
// Connect 3.6, to the group; read them back from Connect and from the
// group; resume the connector only if it was RUNNING at plan time. After
// the stop, a failure leaves the connector STOPPED, says what was done,
// and names the one command that resumes it: never a resume over offsets
// not verified.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// ConnectorApplyOptions are what the procedure needs besides the plan.
type ConnectorApplyOptions struct {
	// Connect is the client of the plan's Connect cluster.
	Connect *connect.Client
	// WaitEmpty bounds the wait for the tasks to leave the group
	// (apply --wait-empty; DefaultConnectorWait when zero); Interval is
	// the time between two looks (DefaultWaitInterval when zero).
	WaitEmpty, Interval time.Duration
	// Force applies a stale plan (apply --force).
	Force bool
	// Metadata is the commit metadata of a direct write (before 3.6).
	Metadata string
	// WriteRollback writes the rollback plan of the checked plan and
	// returns its path; it runs after the stop, before any write.
	WriteRollback func(*Check) (string, error)
	// Step is told each step as it ends (stderr lines); may be nil.
	Step func(ConnectorStep)
}

// DefaultConnectorWait is how long apply waits for a stopped connector's
// tasks to leave its group without --wait-empty, when the context has no
// deadline (kcg's --timeout is one).
const DefaultConnectorWait = 2 * time.Minute

// ConnectorStep is one step of the procedure and what it came to.
type ConnectorStep struct {
	Name   string
	Detail string
}

// Write methods of the procedure: through Connect's PATCH offsets (the
// connector's hook runs), or to the group directly (Connect 3.5).
const (
	ViaConnect = "connect"
	ViaGroup   = "group"
)

// ConnectorResult is what the procedure did.
type ConnectorResult struct {
	Connector string
	Steps     []ConnectorStep
	// Check is the preflight after the stop; Apply the read-back of the
	// group's offsets after the write (as a direct apply reports it).
	Check                               *Check
	Apply                               ApplyResult
	Via                                 string
	Stopped, Written, Verified, Resumed bool
	// Rollback is the rollback plan's path ("" before it was written).
	Rollback string
	// State is the connector's state at the end, as Connect last said.
	State string
	// ResumeCommand resumes the connector by hand.
	ResumeCommand string
}

// ConnectorFailedError is a failure after the connector was stopped: it
// is left STOPPED. Its kind is partial when offsets were written (or may
// have been), failed otherwise.
type ConnectorFailedError struct {
	Result *ConnectorResult
	Err    error
}

func (e *ConnectorFailedError) Error() string {
	r := e.Result
	var done []string
	for _, s := range r.Steps {
		done = append(done, s.Name)
	}
	state := "left STOPPED"
	if r.Resumed {
		state = "resumed, and is " + orUnknown(r.State)
	}
	msg := fmt.Sprintf("connector %s %s: %s; done: %s", r.Connector, state, vocab.OneLine(e.Err.Error()), strings.Join(done, ", "))
	switch {
	case !r.Written:
		msg += "; no offset was written"
	case !r.Verified:
		msg += "; offsets written (or possibly written) but not verified"
	}
	if r.Rollback != "" {
		msg += "; rollback plan " + r.Rollback
	}
	if !r.Resumed {
		msg += "; resume it with: " + r.ResumeCommand
	}
	return msg
}

func (e *ConnectorFailedError) Unwrap() error { return e.Err }

// ErrorKind: partial once offsets were (or may have been) written.
// (apply exits 130 with this line for Ctrl-C before any write.)
func (e *ConnectorFailedError) ErrorKind() vocab.Kind {
	if e.Result.Written {
		return vocab.KindPartial
	}
	return vocab.KindFailed
}

type connectorRun struct {
	ctx  context.Context
	cl   *kafkaadmin.Client
	plan *resetplan.Plan
	o    ConnectorApplyOptions
	k    *resetplan.Connector
	ver  connect.Version
	res  *ConnectorResult
}

func (r *connectorRun) step(name, format string, a ...any) {
	s := ConnectorStep{Name: name, Detail: fmt.Sprintf(format, a...)}
	r.res.Steps = append(r.res.Steps, s)
	if r.o.Step != nil {
		r.o.Step(s)
	}
}

// fail is a failure after the stop.
func (r *connectorRun) fail(err error) (*ConnectorResult, error) {
	if r.res.Apply.Groups == nil && r.res.Check != nil {
		// Nothing was sent to the group: each group as it was.
		r.res.Apply = ApplyResult{FailedAt: 0}
		for _, g := range r.res.Check.Plan.Groups {
			r.res.Apply.Groups = append(r.res.Apply.Groups, r.res.Check.untouched(g, NotWritten, vocab.OneLine(err.Error())))
		}
	}
	if st, serr := r.o.Connect.Status(r.ctx, r.k.Name); serr == nil {
		r.res.State = st.State
	}
	return r.res, &ConnectorFailedError{Result: r.res, Err: err}
}

// ApplyConnector runs the procedure for plan, whose Connector is set. An
// error before the stop is a refusal (or the failure of a read) and
// nothing was done; after it, a *ConnectorFailedError.
func ApplyConnector(ctx context.Context, cl *kafkaadmin.Client, plan *resetplan.Plan, o ConnectorApplyOptions) (*ConnectorResult, error) {
	r := &connectorRun{ctx: ctx, cl: cl, plan: plan, o: o, k: plan.Connector,
		res: &ConnectorResult{Connector: plan.Connector.Name, ResumeCommand: o.Connect.ResumeCommand(plan.Connector.Name)}}
	if r.o.WaitEmpty <= 0 {
		r.o.WaitEmpty = DefaultConnectorWait
		if dl, ok := ctx.Deadline(); ok {
			// Without --wait-empty, half the time the command has left.
			r.o.WaitEmpty = time.Until(dl) / 2
		}
	}
	check, err := r.preflight()
	r.res.Check = check
	if err != nil || check.AlreadyApplied() {
		return r.res, err
	}
	if err := o.Connect.Stop(ctx, r.k.Name); err != nil {
		return r.res, fmt.Errorf("stopping connector %s (nothing was done): %w", r.k.Name, err)
	}
	r.res.Stopped = true
	r.step("stopped", "PUT /connectors/%s/stop", r.k.Name)
	if check, err = r.waitStopped(); err != nil {
		return r.fail(err)
	}
	r.res.Check = check
	if r.res.Rollback, err = o.WriteRollback(check); err != nil {
		return r.fail(err)
	}
	r.step("rollback plan written", "%s", r.res.Rollback)
	if err := r.write(check); err != nil {
		return r.fail(err)
	}
	if err := r.verify(check); err != nil {
		return r.fail(err)
	}
	return r.resume()
}

// preflight checks, before anything is done, that the connector is the
// one planned and may be reset, and the plan against the group.
func (r *connectorRun) preflight() (*Check, error) {
	live, err := r.o.Connect.Connector(r.ctx, r.k.Name)
	if connect.IsNotFound(err) {
		return nil, refuseConnector("connector %s is gone from Kafka Connect %s: deleted since the plan; nothing was done", r.k.Name, r.o.Connect.URL())
	}
	if err != nil {
		return nil, err
	}
	if r.ver, err = checkConnector(r.ctx, r.o.Connect, live); err != nil {
		return nil, err
	}
	if live.Class != r.k.Class || connect.ConfigDigest(live.Config) != r.k.ConfigDigest {
		return nil, refuseConnector("connector %s is not the one planned: its %s changed since the plan (deleted and recreated, or reconfigured); make a new plan; nothing was done", r.k.Name, changedWhat(live, r.k))
	}
	group := live.GroupID()
	if len(r.plan.Groups) != 1 || r.plan.Groups[0].Group != group {
		return nil, refuseConnector("connector %s consumes in group %s, which is not the plan's group; make a new plan; nothing was done", r.k.Name, group)
	}
	if err := r.membersAreTasks(live, group); err != nil {
		return nil, err
	}
	check, err := Preflight(r.ctx, r.cl, r.plan)
	if err != nil || check.AlreadyApplied() {
		return check, err
	}
	// Its tasks are the group's members: the stop empties it. Every other
	// reason refuses now.
	check.Active = nil
	if _, err := check.Refusal(r.o.Force); err != nil {
		return nil, err
	}
	r.step("preflight", "connector %s (%s, %s) is the one planned; group %s matches the plan", r.k.Name, r.k.Class, live.State, group)
	return check, nil
}

func changedWhat(live connect.Connector, k *resetplan.Connector) string {
	if live.Class != k.Class {
		return fmt.Sprintf("class (now %s, planned %s)", live.Class, k.Class)
	}
	return "config"
}

// taskClientPrefix is the client id Connect gives a sink task's consumer
// (connector-consumer-NAME-TASK), or the override's.
func taskClientPrefix(k connect.Connector) string {
	if id := strings.TrimSpace(k.Config["consumer.override.client.id"]); id != "" {
		return id
	}
	return "connector-consumer-" + k.Name + "-"
}

// membersAreTasks refuses a group with a member that is not one of the
// connector's task consumers: stopping the connector would not empty it.
func (r *connectorRun) membersAreTasks(k connect.Connector, group string) error {
	gs, err := ReadGroups(r.ctx, r.cl, []string{group})
	if err != nil {
		return err
	}
	prefix := taskClientPrefix(k)
	var strangers []string
	for _, g := range gs {
		for _, m := range g.Desc.Members {
			if !strings.HasPrefix(m.ClientID, prefix) {
				strangers = append(strangers, fmt.Sprintf("%s (client %s on %s)", m.MemberID, m.ClientID, m.ClientHost))
			}
		}
	}
	if len(strangers) > 0 {
		slices.Sort(strangers)
		return refuseConnector("group %s has members that are not connector %s's tasks (their client ids do not start with %s): %s; stopping the connector would not empty the group; nothing was done", group, k.Name, prefix, strings.Join(strangers, ", "))
	}
	return nil
}

// waitStopped waits until Connect says the connector is STOPPED with no
// task and the group has no member, then checks the plan again: the
// tasks commit as they stop.
func (r *connectorRun) waitStopped() (*Check, error) {
	until := time.Now().Add(r.o.WaitEmpty)
	interval := r.o.Interval
	if interval <= 0 {
		interval = DefaultWaitInterval
	}
	for {
		st, err := r.o.Connect.Status(r.ctx, r.k.Name)
		if err != nil {
			return nil, err
		}
		if st.State == connect.StateStopped && len(st.Tasks) == 0 {
			break
		}
		if time.Now().After(until) {
			return nil, fmt.Errorf("connector %s is %s with %s after %s (--wait-empty)", r.k.Name, st.State, vocab.Count(len(st.Tasks), "task"), r.o.WaitEmpty)
		}
		select {
		case <-r.ctx.Done():
			return nil, r.ctx.Err()
		case <-time.After(interval):
		}
	}
	group := r.plan.Groups[0].Group
	err := WaitEmpty(r.ctx, r.cl, []string{group}, WaitOptions{Until: until, Interval: interval, Plan: r.plan})
	if err != nil {
		return nil, err
	}
	r.step("tasks gone", "connector %s is STOPPED with no task; group %s is empty", r.k.Name, group)
	check, err := Preflight(r.ctx, r.cl, r.plan)
	if err != nil {
		return nil, err
	}
	if _, err := check.Refusal(r.o.Force); err != nil {
		return nil, fmt.Errorf("after the stop: %w", err)
	}
	return check, nil
}

// write writes the pending offsets: through Connect from 3.6, else to
// the group (Apply, which reads them back).
func (r *connectorRun) write(check *Check) error {
	if !r.ver.HasAlterOffsets() {
		r.res.Via = ViaGroup
		r.res.Written = true
		r.res.Apply = Apply(r.ctx, r.cl, check, ApplyOptions{Metadata: r.o.Metadata})
		if v := r.res.Apply.Verdict(); v.Failed != nil {
			return fmt.Errorf("writing to group %s directly (Kafka Connect %d.%d has no PATCH offsets): %w", v.Failed.Group, r.ver.Major, r.ver.Minor, v.Failure)
		}
		r.step("offsets written", "to group %s directly: Kafka Connect %d.%d has no PATCH /connectors/NAME/offsets (3.6), so the connector's alterOffsets hook did not run", check.Plan.Groups[0].Group, r.ver.Major, r.ver.Minor)
		return nil
	}
	r.res.Via = ViaConnect
	var offs []connect.AlterOffset
	for _, p := range check.Pending {
		offs = append(offs, connect.AlterOffset{Topic: p.TP.Topic, Partition: p.TP.Partition, Offset: p.To})
	}
	msg, err := r.o.Connect.AlterOffsets(r.ctx, r.k.Name, offs)
	// Connect's own error answer wrote nothing; a lost answer may have.
	var ce *connect.Error
	r.res.Written = err == nil || !errors.As(err, &ce) || ce.Status == 0
	group := check.Plan.Groups[0].Group
	after, rerr := readBack(r.ctx, r.cl, []string{group}, planFamilies(check.Plan))
	r.res.Apply = ApplyResult{FailedAt: -1}
	gr := check.groupResult(check.Plan.Groups[0], sent{started: true, groupErr: err}, false, after, rerr)
	r.res.Apply.Groups = []GroupResult{gr}
	if gr.Err != nil {
		r.res.Apply.FailedAt = 0
	}
	if err != nil {
		return fmt.Errorf("PATCH /connectors/%s/offsets: %w", r.k.Name, err)
	}
	r.step("offsets written", "PATCH /connectors/%s/offsets: %s", r.k.Name, orUnknown(msg))
	return nil
}

// verify reads the offsets back from the group (the write's read-back)
// and from Connect, and compares both with the targets.
func (r *connectorRun) verify(check *Check) error {
	if v := r.res.Apply.Verdict(); v.Failed != nil {
		return fmt.Errorf("read back from group %s: %w", v.Failed.Group, v.Failure)
	}
	offs, err := r.o.Connect.Offsets(r.ctx, r.k.Name)
	if err != nil {
		return fmt.Errorf("reading the offsets back from Kafka Connect: %w", err)
	}
	got := map[TopicPartition]int64{}
	for _, o := range offs {
		got[TopicPartition{Topic: o.Topic, Partition: o.Partition}] = o.Offset
	}
	var bad []string
	for _, p := range check.Pending {
		v, ok := got[p.TP]
		switch {
		case p.To == nil && ok:
			bad = append(bad, fmt.Sprintf("%s: Connect reports %d, want none", p.TP, v))
		case p.To != nil && (!ok || v != *p.To):
			now := "none"
			if ok {
				now = fmt.Sprint(v)
			}
			bad = append(bad, fmt.Sprintf("%s: Connect reports %s, want %d", p.TP, now, *p.To))
		}
	}
	if len(bad) > 0 {
		return errors.New("the offsets read back from Kafka Connect are not the plan's: " + strings.Join(bad, "; "))
	}
	r.res.Verified = true
	r.step("verified", "group %s and Kafka Connect both read the planned offsets (%s)", check.Plan.Groups[0].Group, vocab.Count(len(check.Pending), "partition"))
	return nil
}

// resume resumes the connector if it was RUNNING at plan time and waits
// until Connect says it runs (or failed).
func (r *connectorRun) resume() (*ConnectorResult, error) {
	if r.k.StateAtPlan != connect.StateRunning {
		r.res.State = connect.StateStopped
		r.step("left stopped", "connector %s was %s at plan time: not resumed", r.k.Name, r.k.StateAtPlan)
		return r.res, nil
	}
	if err := r.o.Connect.Resume(r.ctx, r.k.Name); err != nil {
		return r.fail(fmt.Errorf("resuming: %w", err))
	}
	r.res.Resumed = true
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := r.o.Connect.Status(r.ctx, r.k.Name)
		if err != nil {
			return r.fail(fmt.Errorf("reading its status after the resume: %w", err))
		}
		r.res.State = st.State
		if failed := failedTasks(st); st.State == connect.StateFailed || len(failed) > 0 {
			return r.fail(fmt.Errorf("resumed, but connector %s is %s: %s", r.k.Name, st.State, orUnknown(strings.Join(failed, "; "))))
		}
		if st.State == connect.StateRunning && len(st.Tasks) > 0 && allRunning(st.Tasks) {
			r.step("resumed", "connector %s is RUNNING with %s", r.k.Name, vocab.Count(len(st.Tasks), "task"))
			return r.res, nil
		}
		if time.Now().After(deadline) {
			return r.fail(fmt.Errorf("resumed, but connector %s is still %s after 30s", r.k.Name, st.State))
		}
		select {
		case <-r.ctx.Done():
			return r.fail(r.ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func failedTasks(st connect.Connector) []string {
	var out []string
	if st.State == connect.StateFailed && st.Trace != "" {
		out = append(out, "connector: "+firstLine(st.Trace))
	}
	for _, t := range st.Tasks {
		if t.State == connect.StateFailed {
			out = append(out, fmt.Sprintf("task %d FAILED: %s", t.ID, firstLine(t.Trace)))
		}
	}
	return out
}

func allRunning(ts []connect.Task) bool {
	for _, t := range ts {
		if t.State != connect.StateRunning {
			return false
		}
	}
	return true
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// ConnectorRecord reads what a plan records of connector k: its state,
// tasks, config digest and its offsets as Connect reports them.
func ConnectorRecord(ctx context.Context, c *connect.Client, k connect.Connector) (*resetplan.Connector, error) {
	offs, err := c.Offsets(ctx, k.Name)
	if err != nil {
		return nil, err
	}
	rec := &resetplan.Connector{Connect: c.URL(), Name: k.Name, Class: k.Class, StateAtPlan: k.State,
		Tasks: int64(len(k.Tasks)), ConfigDigest: connect.ConfigDigest(k.Config), Offsets: []resetplan.ConnectorOffset{}}
	for _, o := range offs {
		rec.Offsets = append(rec.Offsets, resetplan.ConnectorOffset{Topic: o.Topic, Partition: o.Partition, Offset: o.Offset})
	}
	return rec, nil
}

// ConnectorChanges says how the plan's connector changed since the plan,
// as kcg diff reports it: deleted, another class, another config, another
// state. None: it is as planned.
func ConnectorChanges(ctx context.Context, c *connect.Client, k *resetplan.Connector) ([]string, error) {
	live, err := c.Connector(ctx, k.Name)
	if connect.IsNotFound(err) {
		return []string{fmt.Sprintf("connector %s is gone from Kafka Connect %s: deleted since the plan", k.Name, c.URL())}, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	if live.Class != k.Class {
		out = append(out, fmt.Sprintf("connector %s: class %s, planned %s (recreated)", k.Name, live.Class, k.Class))
	}
	if d := connect.ConfigDigest(live.Config); d != k.ConfigDigest {
		out = append(out, fmt.Sprintf("connector %s: config changed since the plan (%s, planned %s)", k.Name, d, k.ConfigDigest))
	}
	if live.State != k.StateAtPlan {
		out = append(out, fmt.Sprintf("connector %s: %s, planned %s", k.Name, live.State, k.StateAtPlan))
	}
	return out, nil
}

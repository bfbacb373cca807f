package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
)

// connectClientFor is the client of the plan's Connect cluster: the
// configured one with that URL (its TLS and credentials), else a client
// without credentials (a profile's credentials go only to its own URLs).
func connectClientFor(url string, configured []*connect.Client) *connect.Client {
	for _, c := range configured {
		if c.URL() == url {
			return c
		}
	}
	return connect.New(url, connect.Config{})
}

// applyConnector is apply of a plan made with --connector: the
// procedure of groupops.ApplyConnector, each step on stderr, the report
// (with its connector section) on stdout.
func (r *applyRun) applyConnector(ctx context.Context, cl *kafkaadmin.Client) error {
	if r.digest == "" {
		r.digest = <-r.digestc
	}
	k := r.plan.Connector
	client := connectClientFor(k.Connect, r.o.connect)
	res, err := groupops.ApplyConnector(ctx, cl, r.plan, groupops.ConnectorApplyOptions{
		Connect: client, WaitEmpty: r.o.waitEmpty, Interval: waitEmptyInterval, Force: r.o.force,
		Metadata:      commitMetadata(r.plan, r.digest),
		WriteRollback: r.writeRollback,
		Step: func(s groupops.ConnectorStep) {
			if s.Name == "rollback plan written" {
				return // writeRollback has said it
			}
			r.progress.clear()
			fmt.Fprintf(r.s.Err, "connector %s: %s: %s\n", k.Name, s.Name, s.Detail)
		},
	})
	r.progress.done()
	if !res.Stopped {
		if err != nil {
			var re *groupops.RefusedError
			if errors.As(err, &re) {
				return r.refused("", re.Reasons, err)
			}
			return err
		}
		if res.Check != nil && res.Check.AlreadyApplied() {
			return r.alreadyApplied(res.Check)
		}
	}
	clusterID := ""
	if res.Check != nil {
		clusterID = res.Check.ClusterID
	}
	doc := output.NewApplyReportOf(output.ApplyReportOf{Plan: r.o.path, Digest: r.digest, ClusterID: clusterID, RollbackPlan: res.Rollback, Result: res.Apply, Source: r.plan, Approvals: r.approvals})
	doc.Connector = output.NewConnectorApply(client.URL(), res)
	if werr := output.Write(r.s.Out, r.o.format, doc); werr != nil && err == nil {
		if res.Written {
			return app.WithCode(app.ExitUnreported, fmt.Errorf("apply reset connector %s's offsets but its report could not be printed (%v); rollback plan %s", k.Name, werr, res.Rollback))
		}
		return werr
	}
	if err != nil {
		if errors.Is(err, context.Canceled) && !res.Written {
			// Interrupted after the stop: 130, with the line that says
			// where the connector was left.
			// Not "context canceled", and no Canceled in the chain, so
			// this line is printed rather than "kcg: interrupted".
			return app.WithCode(app.ExitInterrupted, errors.New(strings.Replace(err.Error(), context.Canceled.Error(), "interrupted", 1)))
		}
		return err
	}
	end := "left STOPPED, as it was " + k.StateAtPlan + " at plan time (resume with: " + res.ResumeCommand + ")"
	if res.Resumed {
		end = "resumed: " + res.State
	}
	fmt.Fprintf(r.s.Err, "applied %s: connector %s's offsets written (%s) and verified (%s); %s; undo with kcg apply %s\n",
		r.o.path, k.Name, res.Via, countPartitions(res), end, res.Rollback)
	return nil
}

func countPartitions(res *groupops.ConnectorResult) string {
	n := 0
	if res.Check != nil {
		n = len(res.Check.Pending)
	}
	if n == 1 {
		return "1 partition"
	}
	return fmt.Sprintf("%d partitions", n)
}

// connectorChanges is kcg diff's reading of a plan's connector: how it
// changed since the plan (none for a plan without one). Its group's
// members are its tasks, which apply stops: no difference.
func connectorChanges(ctx context.Context, plan *resetplan.Plan, check *groupops.Check, configured []*connect.Client) ([]string, error) {
	if plan.Connector == nil {
		return nil, nil
	}
	check.Active = nil
	return groupops.ConnectorChanges(ctx, connectClientFor(plan.Connector.Connect, configured), plan.Connector)
}

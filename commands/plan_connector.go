package commands

import (
	"context"
	"fmt"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
)

// connectorFlag is plan --connector NAME: the group is the sink
// connector's, and the plan records the connector (docs/connect.md).
func connectorFlag() cli.Flag {
	return &cli.StringFlag{Name: "connector", Usage: "plan the reset of Kafka Connect sink connector `NAME`'s group (needs --connect or a profile's connect:); apply stops, resets, verifies and resumes it"}
}

// planConnector is what plan --connector adds to a plan's options.
type planConnector struct {
	name    string
	clients []*connect.Client
}

// connectorOptionsFrom reads --connector: no groups beside it, a reset
// strategy (not a delete, not a failover), and Kafka Connect configured.
func connectorOptionsFrom(c *cli.Context) (planConnector, error) {
	pc := planConnector{name: c.String("connector")}
	if pc.name == "" {
		return pc, nil
	}
	if len(groupsFromArgs(c)) > 0 || c.Bool("all-groups") {
		return pc, app.Usagef("--connector %s plans the connector's own group (connect-%s unless its config overrides it): drop the groups and --all-groups", pc.name, pc.name)
	}
	for _, f := range []string{"delete", "delete-offsets", "translate-from", "allow-new-group"} {
		if c.IsSet(f) {
			return pc, app.Usagef("--connector plans a reset of the connector's group: drop --%s", f)
		}
	}
	var err error
	if pc.clients, err = connectClients(c); err != nil {
		return pc, err
	}
	if len(pc.clients) == 0 {
		return pc, app.Usagef("--connector %s needs Kafka Connect: give --connect URL, or a profile with connect:", pc.name)
	}
	return pc, nil
}

// resolveConnector finds the connector and returns its group, and the
// connector and client for the record.
func (pc planConnector) resolve(ctx context.Context) (string, *connect.Client, connect.Connector, error) {
	cl, k, _, err := groupops.FindConnector(ctx, pc.clients, pc.name)
	if err != nil {
		return "", nil, k, err
	}
	return k.GroupID(), cl, k, nil
}

// recordConnector puts the connector into the plan (before encoding)
// and says on stderr what apply will do to it.
func recordConnector(ctx context.Context, s IO, plan *resetplan.Plan, cl *connect.Client, k connect.Connector) error {
	rec, err := groupops.ConnectorRecord(ctx, cl, k)
	if err != nil {
		return err
	}
	plan.Connector = rec
	resume := "resume it"
	if rec.StateAtPlan != connect.StateRunning {
		resume = "leave it " + connect.StateStopped + " (it is " + rec.StateAtPlan + " now)"
	}
	fmt.Fprintf(s.Err, "connector %s (%s, %s, %d tasks) owns group %s: apply will stop it, reset its offsets through Kafka Connect, verify them and %s\n",
		rec.Name, rec.Class, rec.StateAtPlan, rec.Tasks, k.GroupID(), resume)
	return nil
}

// foundConnector is the connector plan --connector found.
type foundConnector struct {
	client *connect.Client
	k      connect.Connector
}

// find resolves --connector (nil without it) and makes its group the
// plan's one group.
func (pc planConnector) find(ctx context.Context, scope *groupScope) (*foundConnector, error) {
	if pc.name == "" {
		return nil, nil
	}
	group, cl, k, err := pc.resolve(ctx)
	if err != nil {
		return nil, err
	}
	scope.groups = []string{group}
	return &foundConnector{client: cl, k: k}, nil
}

package groupops

// The owner of a group: the Kafka Connect sink connector whose tasks
// consume in it. It is one more thing the group model carries (Group.Owner),
// read here from the Connect clusters kcg was given, so commands and
// output only render it. docs/connect.md.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kcg-dev/kcg/connect"
	"github.com/kcg-dev/kcg/vocab"
)

// Owner is the sink connector that owns a group.
type Owner struct {
	// Connect is the REST URL of the Connect cluster that runs it.
	Connect   string
	Connector string
	Class     string
	State     string
	// Worker is the worker the connector runs on.
	Worker string
	Tasks  []connect.Task
}

// ownerOf is the Owner view of a sink connector.
func ownerOf(k connect.Connector) *Owner {
	tasks := slices.Clone(k.Tasks)
	slices.SortFunc(tasks, func(a, b connect.Task) int { return a.ID - b.ID })
	return &Owner{Connect: k.URL, Connector: k.Name, Class: k.Class, State: k.State, Worker: k.WorkerID, Tasks: tasks}
}

// Owners reads every sink connector of the Connect clusters and returns
// the owner of each group they consume in, by group id. A cluster that
// cannot be read is an error naming it; the others' owners are returned.
func Owners(ctx context.Context, clients []*connect.Client) (map[string]*Owner, error) {
	out := map[string]*Owner{}
	var errs []error
	for _, c := range clients {
		ks, err := c.Connectors(ctx)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		slices.SortFunc(ks, func(a, b connect.Connector) int { return strings.Compare(a.Name, b.Name) })
		for _, k := range ks {
			if !k.IsSink() {
				continue
			}
			if _, dup := out[k.GroupID()]; !dup {
				out[k.GroupID()] = ownerOf(k)
			}
		}
	}
	return out, errors.Join(errs...)
}

// readOwners sets the owner of each of snap's groups (nil: none) and
// snap.OwnersRead; a Connect cluster that could not be read is
// snap.OwnersErr, and its connectors' groups show no owner.
func readOwners(ctx context.Context, clients []*connect.Client, snap *Snapshot) {
	if len(clients) == 0 {
		return
	}
	owners, err := Owners(ctx, clients)
	snap.OwnersRead = true
	snap.OwnersErr = err
	for i := range snap.Groups {
		snap.Groups[i].Owner = owners[snap.Groups[i].Name()]
	}
}

// ConnectorNotFoundError is plan --connector NAME naming a connector no
// given Connect cluster runs: refused, nothing planned.
type ConnectorNotFoundError struct {
	Name string
	URLs []string
	// Closest are the connectors with the nearest names.
	Closest []string
}

func (e *ConnectorNotFoundError) Error() string {
	msg := fmt.Sprintf("connector %q not found on Kafka Connect %s", e.Name, strings.Join(e.URLs, ", "))
	if len(e.Closest) > 0 {
		msg += " (closest: " + strings.Join(e.Closest, ", ") + ")"
	}
	return msg
}

// ErrorKind: a refusal.
func (e *ConnectorNotFoundError) ErrorKind() vocab.Kind { return vocab.KindRefused }

// ConnectorRefusedError is a connector kcg will not reset: not a sink, a
// Connect too old, a group whose members are not its tasks, a connector
// deleted or recreated since the plan. Nothing was done.
type ConnectorRefusedError struct{ Msg string }

func (e *ConnectorRefusedError) Error() string { return e.Msg }

// ErrorKind: a refusal.
func (e *ConnectorRefusedError) ErrorKind() vocab.Kind { return vocab.KindRefused }

func refuseConnector(format string, a ...any) error {
	return &ConnectorRefusedError{Msg: fmt.Sprintf(format, a...)}
}

// FindConnector finds the connector called name on the Connect clusters,
// in order, and checks it can be reset: a sink, on a worker with the stop
// and offsets endpoints (3.5). It returns the client of its cluster and
// the worker's version.
func FindConnector(ctx context.Context, clients []*connect.Client, name string) (*connect.Client, connect.Connector, connect.Version, error) {
	var urls []string
	for _, c := range clients {
		urls = append(urls, c.URL())
		k, err := c.Connector(ctx, name)
		if connect.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, k, connect.Version{}, err
		}
		v, err := checkConnector(ctx, c, k)
		return c, k, v, err
	}
	var names []string
	for _, c := range clients {
		ks, _ := c.Connectors(ctx) // best effort: only for the suggestion
		for _, k := range ks {
			names = append(names, k.Name)
		}
	}
	return nil, connect.Connector{}, connect.Version{}, &ConnectorNotFoundError{Name: name, URLs: urls, Closest: ClosestNames(name, names, 3)}
}

// checkConnector refuses a connector that is not a sink or runs on a
// Connect without PUT stop and GET offsets.
func checkConnector(ctx context.Context, c *connect.Client, k connect.Connector) (connect.Version, error) {
	if !k.IsSink() {
		return connect.Version{}, refuseConnector("connector %q is a %s connector: kcg resets the consumer group of a sink connector only (a source connector's offsets are not a consumer group's)", k.Name, orUnknown(k.Type))
	}
	info, err := c.Info(ctx)
	if err != nil {
		return connect.Version{}, err
	}
	v, ok := connect.ParseVersion(info.Version)
	if !ok || !v.HasStop() {
		return v, refuseConnector("Kafka Connect %s is version %s: resetting a connector needs PUT /connectors/NAME/stop and its offsets endpoints, Kafka Connect 3.5 or later (3.6 for PATCH offsets)", c.URL(), orUnknown(info.Version))
	}
	return v, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

package resetplan

import (
	"fmt"
	"slices"
)

// Connector is the Kafka Connect sink connector a plan resets (kcg plan
// --connector NAME): what it was at plan time, so apply can tell it is
// the same connector (name, class, config) and resume it only if it was
// running. The plan's one group is the connector's. docs/connect.md.
type Connector struct {
	// Connect is the REST URL of the Connect cluster that runs it.
	Connect string
	Name    string
	Class   string
	// StateAtPlan is the connector's state when the plan was made
	// (RUNNING, PAUSED, STOPPED, FAILED); apply resumes it afterwards
	// only when RUNNING.
	StateAtPlan string
	// Tasks is the number of tasks it had.
	Tasks int64
	// ConfigDigest is connect.ConfigDigest of its config: a connector
	// recreated with another config, or reconfigured, has another.
	ConfigDigest string
	// Offsets are its offsets as Connect reported them at plan time
	// (GET /connectors/NAME/offsets), sorted by topic and partition.
	Offsets []ConnectorOffset
}

// ConnectorOffset is one partition's offset as Connect reports it.
type ConnectorOffset struct {
	Topic     string
	Partition int32
	Offset    int64
}

func sortConnectorOffsets(offs []ConnectorOffset) {
	slices.SortFunc(offs, func(a, b ConnectorOffset) int {
		return TopicPartition{Topic: a.Topic, Partition: a.Partition}.Compare(TopicPartition{Topic: b.Topic, Partition: b.Partition})
	})
}

// connectorTree is the connector: key of the document (after
// annotations), absent when the plan has no connector.
func connectorTree(k *Connector) *ordMap {
	m := &ordMap{}
	m.set("connect", quoted(k.Connect)).set("name", k.Name).set("class", k.Class).
		set("stateAtPlan", k.StateAtPlan).set("tasks", k.Tasks).set("configDigest", quoted(k.ConfigDigest))
	offs := slices.Clone(k.Offsets)
	sortConnectorOffsets(offs)
	list := make([]any, 0, len(offs))
	for _, o := range offs {
		list = append(list, (&ordMap{flow: true}).set("topic", o.Topic).set("partition", int64(o.Partition)).set("offset", o.Offset))
	}
	m.set("offsets", list)
	return m
}

type wireConnector struct {
	Connect      *string               `json:"connect" yaml:"connect"`
	Name         *string               `json:"name" yaml:"name"`
	Class        string                `json:"class" yaml:"class"`
	StateAtPlan  string                `json:"stateAtPlan" yaml:"stateAtPlan"`
	Tasks        int64                 `json:"tasks" yaml:"tasks"`
	ConfigDigest string                `json:"configDigest" yaml:"configDigest"`
	Offsets      []wireConnectorOffset `json:"offsets" yaml:"offsets"`
}

type wireConnectorOffset struct {
	Topic     *string `json:"topic" yaml:"topic"`
	Partition *int32  `json:"partition" yaml:"partition"`
	Offset    *int64  `json:"offset" yaml:"offset"`
}

func connectorFromWire(w *wireConnector) (*Connector, *DecodeError) {
	if w == nil {
		return nil, nil
	}
	if w.Connect == nil || w.Name == nil || *w.Name == "" {
		return nil, &DecodeError{Msg: "connector: connect and name are required"}
	}
	k := &Connector{Connect: *w.Connect, Name: *w.Name, Class: w.Class, StateAtPlan: w.StateAtPlan, Tasks: w.Tasks, ConfigDigest: w.ConfigDigest, Offsets: []ConnectorOffset{}}
	for i, o := range w.Offsets {
		if o.Topic == nil || o.Partition == nil || o.Offset == nil {
			return nil, &DecodeError{Msg: fmt.Sprintf("connector.offsets[%d]: topic, partition and offset are required", i)}
		}
		k.Offsets = append(k.Offsets, ConnectorOffset{Topic: *o.Topic, Partition: *o.Partition, Offset: *o.Offset})
	}
	sortConnectorOffsets(k.Offsets)
	return k, nil
}

// rollbackConnector is the connector record of the rollback of a plan
// applied to it: the same connector, the state it is to be left in (the
// applied plan's: a rollback resumes it only if it was running then), and
// as its offsets the targets the applied plan wrote.
func rollbackConnector(p *Plan) *Connector {
	if p.Connector == nil {
		return nil
	}
	k := *p.Connector
	k.Offsets = []ConnectorOffset{}
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			if pt.Target != nil {
				k.Offsets = append(k.Offsets, ConnectorOffset{Topic: pt.Topic, Partition: pt.Partition, Offset: *pt.Target})
			}
		}
	}
	sortConnectorOffsets(k.Offsets)
	return &k
}

// connectorText is the connector's one-line form, for diff.
func connectorText(k *Connector) (name, state, config string) {
	if k == nil {
		return "", "", ""
	}
	return k.Connect + " " + k.Name + " (" + k.Class + ")", k.StateAtPlan, k.ConfigDigest
}

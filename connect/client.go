// Package connect is kcg's client of the Kafka Connect REST API: what a
// Connect cluster runs (GET /connectors?expand=info&expand=status), one
// connector's config and status, and the KIP-875 endpoints that make a
// sink connector's offsets resettable (PUT stop, PUT resume, GET and
// PATCH offsets). Every error is one line carrying a vocab.Kind, so
// app.ExitCode maps it (errors.go). It knows nothing of groups or plans:
// groupops/connector.go asks it for owners and runs the reset procedure.
package connect

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config is how to reach one or more Connect clusters: their REST URLs,
// the TLS settings for https URLs, and basic auth (empty: none).
type Config struct {
	URLs     []string
	TLS      *tls.Config
	Username string
	Password string
}

// Client talks to one Connect cluster (one REST URL: any worker of a
// distributed cluster forwards what it must to the leader).
type Client struct {
	base       string
	hc         *http.Client
	user, pass string
}

// maxBody bounds what kcg reads of a Connect answer: a listing of
// thousands of connectors with their configs is a few MiB.
const maxBody = 32 << 20

// Clients returns one client per URL of cfg, in order.
func Clients(cfg Config) []*Client {
	out := make([]*Client, 0, len(cfg.URLs))
	for _, u := range cfg.URLs {
		out = append(out, New(u, cfg))
	}
	return out
}

// New returns the client of the Connect cluster at base (http:// or
// https://, no trailing path needed).
func New(base string, cfg Config) *Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.TLS != nil {
		tr.TLSClientConfig = cfg.TLS.Clone()
	}
	return &Client{
		base: strings.TrimRight(base, "/"),
		hc:   &http.Client{Transport: tr, Timeout: 60 * time.Second},
		user: cfg.Username, pass: cfg.Password,
	}
}

// URL is the cluster's REST URL, as given.
func (c *Client) URL() string { return c.base }

// do sends one request and decodes a 2xx JSON answer into out (nil: the
// body is read and dropped). Anything else is an *Error.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return &Error{URL: c.base, Method: method, Path: path, Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.user != "" || c.pass != "" {
		req.SetBasicAuth(c.user, c.pass)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return &Error{URL: c.base, Method: method, Path: path, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return &Error{URL: c.base, Method: method, Path: path, Err: err}
	}
	if resp.StatusCode/100 != 2 {
		return httpError(c.base, method, path, resp.StatusCode, data)
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &Error{URL: c.base, Method: method, Path: path, Status: resp.StatusCode, Message: "the answer is not the JSON Connect sends: " + err.Error()}
	}
	return nil
}

// Info is GET /: the worker's version.
type Info struct {
	Version        string `json:"version"`
	Commit         string `json:"commit"`
	KafkaClusterID string `json:"kafka_cluster_id"`
}

// Info reads the worker's version.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var i Info
	err := c.do(ctx, http.MethodGet, "/", nil, &i)
	return i, err
}

// Task is one task of a connector, from its status.
type Task struct {
	ID       int    `json:"id"`
	State    string `json:"state"`
	WorkerID string `json:"worker_id"`
	Trace    string `json:"trace,omitempty"`
}

// Connector is a connector as Connect describes it: its info (type,
// config) and status (state, worker, tasks). URL is the Connect cluster
// it was read from.
type Connector struct {
	URL      string
	Name     string
	Type     string
	Class    string
	Config   map[string]string
	State    string
	WorkerID string
	Trace    string
	Tasks    []Task
}

// Connector states, as Connect names them.
const (
	StateRunning = "RUNNING"
	StatePaused  = "PAUSED"
	StateStopped = "STOPPED"
	StateFailed  = "FAILED"
)

// IsSink reports whether the connector is a sink (its group is a consumer
// group of Connect's task consumers).
func (k Connector) IsSink() bool { return strings.EqualFold(k.Type, "sink") }

// GroupID is the consumer group of a sink connector: connect-NAME unless
// its config sets consumer.override.group.id.
func (k Connector) GroupID() string {
	if g := strings.TrimSpace(k.Config["consumer.override.group.id"]); g != "" {
		return g
	}
	return "connect-" + k.Name
}

type wireInfo struct {
	Name   string            `json:"name"`
	Type   string            `json:"type"`
	Config map[string]string `json:"config"`
}

type wireStatus struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Connector struct {
		State    string `json:"state"`
		WorkerID string `json:"worker_id"`
		Trace    string `json:"trace"`
	} `json:"connector"`
	Tasks []Task `json:"tasks"`
}

func (c *Client) connectorOf(info wireInfo, st wireStatus) Connector {
	k := Connector{URL: c.base, Name: info.Name, Type: info.Type, Config: info.Config,
		State: st.Connector.State, WorkerID: st.Connector.WorkerID, Trace: st.Connector.Trace, Tasks: st.Tasks}
	if k.Name == "" {
		k.Name = st.Name
	}
	if k.Type == "" {
		k.Type = st.Type
	}
	k.Class = k.Config["connector.class"]
	return k
}

// Connectors lists every connector of the cluster with its info and
// status, in one request.
func (c *Client) Connectors(ctx context.Context) ([]Connector, error) {
	var m map[string]struct {
		Info   *wireInfo   `json:"info"`
		Status *wireStatus `json:"status"`
	}
	if err := c.do(ctx, http.MethodGet, "/connectors?expand=info&expand=status", nil, &m); err != nil {
		return nil, err
	}
	out := make([]Connector, 0, len(m))
	for name, e := range m {
		var info wireInfo
		var st wireStatus
		if e.Info != nil {
			info = *e.Info
		}
		if e.Status != nil {
			st = *e.Status
		}
		if info.Name == "" {
			info.Name = name
		}
		out = append(out, c.connectorOf(info, st))
	}
	return out, nil
}

// Connector reads one connector's info and status.
func (c *Client) Connector(ctx context.Context, name string) (Connector, error) {
	var info wireInfo
	if err := c.do(ctx, http.MethodGet, "/connectors/"+url.PathEscape(name), nil, &info); err != nil {
		return Connector{}, err
	}
	st, err := c.status(ctx, name)
	if err != nil {
		return Connector{}, err
	}
	return c.connectorOf(info, st), nil
}

// Status reads a connector's status only (state, worker, tasks).
func (c *Client) Status(ctx context.Context, name string) (Connector, error) {
	st, err := c.status(ctx, name)
	if err != nil {
		return Connector{}, err
	}
	return c.connectorOf(wireInfo{Name: name}, st), nil
}

func (c *Client) status(ctx context.Context, name string) (wireStatus, error) {
	var st wireStatus
	err := c.do(ctx, http.MethodGet, "/connectors/"+url.PathEscape(name)+"/status", nil, &st)
	return st, err
}

// Stop stops the connector (PUT /connectors/NAME/stop, Kafka 3.5): its
// tasks shut down, its config is kept.
func (c *Client) Stop(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodPut, "/connectors/"+url.PathEscape(name)+"/stop", nil, nil)
}

// Resume resumes a stopped or paused connector.
func (c *Client) Resume(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodPut, "/connectors/"+url.PathEscape(name)+"/resume", nil, nil)
}

// Offset is one partition's offset of a sink connector, as Connect
// reports and takes it.
type Offset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
}

type wireOffsets struct {
	Offsets []wireOffset `json:"offsets"`
}

type wireOffset struct {
	Partition struct {
		Topic     string `json:"kafka_topic"`
		Partition int32  `json:"kafka_partition"`
	} `json:"partition"`
	Offset *struct {
		Offset int64 `json:"kafka_offset"`
	} `json:"offset"`
}

// Offsets reads a sink connector's offsets (GET /connectors/NAME/offsets,
// Kafka 3.5): its consumer group's committed offsets.
func (c *Client) Offsets(ctx context.Context, name string) ([]Offset, error) {
	var w wireOffsets
	if err := c.do(ctx, http.MethodGet, "/connectors/"+url.PathEscape(name)+"/offsets", nil, &w); err != nil {
		return nil, err
	}
	out := make([]Offset, 0, len(w.Offsets))
	for _, o := range w.Offsets {
		if o.Offset == nil {
			continue
		}
		out = append(out, Offset{Topic: o.Partition.Topic, Partition: o.Partition.Partition, Offset: o.Offset.Offset})
	}
	return out, nil
}

// AlterOffsets writes a stopped sink connector's offsets (PATCH
// /connectors/NAME/offsets, Kafka 3.6): Connect runs the connector's
// alterOffsets hook and commits them to its group. A nil offset resets
// (deletes) the partition's offset. It returns Connect's message.
func (c *Client) AlterOffsets(ctx context.Context, name string, offs []AlterOffset) (string, error) {
	body := map[string]any{}
	list := make([]map[string]any, 0, len(offs))
	for _, o := range offs {
		e := map[string]any{"partition": map[string]any{"kafka_topic": o.Topic, "kafka_partition": o.Partition}}
		if o.Offset == nil {
			e["offset"] = nil
		} else {
			e["offset"] = map[string]any{"kafka_offset": *o.Offset}
		}
		list = append(list, e)
	}
	body["offsets"] = list
	var ans struct {
		Message string `json:"message"`
	}
	err := c.do(ctx, http.MethodPatch, "/connectors/"+url.PathEscape(name)+"/offsets", body, &ans)
	return ans.Message, err
}

// AlterOffset is one partition of an AlterOffsets request: Offset nil
// removes the partition's offset.
type AlterOffset struct {
	Topic     string
	Partition int32
	Offset    *int64
}

// ResumeCommand is the one command that resumes the connector by hand.
func (c *Client) ResumeCommand(name string) string {
	return fmt.Sprintf("curl -X PUT %s/connectors/%s/resume", c.base, url.PathEscape(name))
}

package connectfake

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/kcg-dev/kcg/connect"
)

func (f *Fake) route(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/")
	parts := strings.Split(path, "/")
	switch {
	case path == "" && r.Method == http.MethodGet:
		writeJSON(w, 200, map[string]string{"version": f.version(), "commit": "fake", "kafka_cluster_id": "fake"})
	case path == "connectors" && r.Method == http.MethodGet:
		f.list(w)
	case len(parts) >= 2 && parts[0] == "connectors":
		f.connector(w, r, parts[1], strings.Join(parts[2:], "/"))
	default:
		writeErr(w, 404, "HTTP 404 Not Found")
	}
}

func (f *Fake) version() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Version
}

func (c *Connector) info() map[string]any {
	tasks := []map[string]any{}
	for i := 0; i < c.Tasks; i++ {
		tasks = append(tasks, map[string]any{"connector": c.Name, "task": i})
	}
	return map[string]any{"name": c.Name, "type": c.Type, "config": c.Config, "tasks": tasks}
}

func (c *Connector) status() map[string]any {
	tasks := []map[string]any{}
	if c.State != connect.StateStopped {
		for i := 0; i < c.Tasks; i++ {
			ts := c.State
			tasks = append(tasks, map[string]any{"id": i, "state": ts, "worker_id": c.Worker})
		}
	}
	return map[string]any{"name": c.Name, "type": c.Type,
		"connector": map[string]any{"state": c.State, "worker_id": c.Worker}, "tasks": tasks}
}

func (f *Fake) list(w http.ResponseWriter) {
	f.mu.Lock()
	out := map[string]any{}
	for name, c := range f.conns {
		out[name] = map[string]any{"info": c.info(), "status": c.status()}
	}
	f.mu.Unlock()
	writeJSON(w, 200, out)
}

func (f *Fake) connector(w http.ResponseWriter, r *http.Request, name, rest string) {
	f.mu.Lock()
	c, ok := f.conns[name]
	f.mu.Unlock()
	if !ok {
		writeErr(w, 404, "Connector "+name+" not found")
		return
	}
	switch {
	case rest == "" && r.Method == http.MethodGet:
		f.mu.Lock()
		info := c.info()
		f.mu.Unlock()
		writeJSON(w, 200, info)
	case rest == "status" && r.Method == http.MethodGet:
		f.mu.Lock()
		st := c.status()
		f.mu.Unlock()
		writeJSON(w, 200, st)
	case rest == "stop" && r.Method == http.MethodPut:
		f.setState(c, connect.StateStopped)
		if f.OnStop != nil {
			f.OnStop(name)
		}
		w.WriteHeader(http.StatusAccepted)
	case rest == "resume" && r.Method == http.MethodPut:
		state := connect.StateRunning
		if f.OnResume != nil && f.OnResume(name) != nil {
			state = connect.StateFailed
		}
		f.setState(c, state)
		w.WriteHeader(http.StatusAccepted)
	case rest == "offsets" && r.Method == http.MethodGet:
		var offs []connect.Offset
		if f.Offsets != nil {
			offs = f.Offsets(name)
		}
		list := []map[string]any{}
		for _, o := range offs {
			list = append(list, map[string]any{"partition": map[string]any{"kafka_topic": o.Topic, "kafka_partition": o.Partition}, "offset": map[string]any{"kafka_offset": o.Offset}})
		}
		writeJSON(w, 200, map[string]any{"offsets": list})
	case rest == "offsets" && r.Method == http.MethodPatch:
		f.alter(w, r, c)
	default:
		writeErr(w, 405, "HTTP 405 Method Not Allowed")
	}
}

func (f *Fake) setState(c *Connector, s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c.State = s
}

// alter is PATCH offsets: refused unless the connector is STOPPED, as
// Connect refuses it.
func (f *Fake) alter(w http.ResponseWriter, r *http.Request, c *Connector) {
	f.mu.Lock()
	state := c.State
	f.mu.Unlock()
	if state != connect.StateStopped {
		writeErr(w, 400, "Connectors must be in the STOPPED state before their offsets can be modified. This can be done for the specified connector by issuing a 'PUT' request to the '/connectors/"+c.Name+"/stop' endpoint")
		return
	}
	var body struct {
		Offsets []struct {
			Partition struct {
				Topic     string `json:"kafka_topic"`
				Partition int32  `json:"kafka_partition"`
			} `json:"partition"`
			Offset *struct {
				Offset int64 `json:"kafka_offset"`
			} `json:"offset"`
		} `json:"offsets"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeErr(w, 400, "bad body: "+err.Error())
		return
	}
	var offs []connect.Offset
	for _, o := range body.Offsets {
		k := connect.Offset{Topic: o.Partition.Topic, Partition: o.Partition.Partition, Offset: -1}
		if o.Offset != nil {
			k.Offset = o.Offset.Offset
		}
		offs = append(offs, k)
	}
	if f.OnAlter != nil {
		if err := f.OnAlter(c.Name, offs); err != nil {
			writeErr(w, 500, err.Error())
			return
		}
	}
	writeJSON(w, 200, map[string]string{"message": "The offsets for this connector have been altered successfully"})
}

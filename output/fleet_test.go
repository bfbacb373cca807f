package output

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// fleetStatuses are clusters for the fleet documents: one down, names
// and errors with the strings the encoders must escape.
func fleetStatuses(r *rand.Rand) []ClusterStatus {
	cs := []ClusterStatus{{Profile: "down", Error: Ptr("dial tcp 127.0.0.1:1: connect: connection refused")}}
	for i := range 1 + r.IntN(3) {
		c := ClusterStatus{Profile: oddStrings[r.IntN(len(oddStrings))] + string(rune('a'+i))}
		if r.IntN(3) > 0 {
			c.ID = Ptr(oddStrings[r.IntN(len(oddStrings))])
		}
		cs = append(cs, c)
	}
	return cs
}

// The describe document of several clusters is written group by group to
// the bytes of encoding it whole, in JSON and YAML, as one cluster's.
func TestFleetStreamIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 1))
	g := docGen{r}
	for i := range 300 {
		cs := fleetStatuses(r)
		lists := make([]GroupDescriptionList, len(cs))
		for j := range cs[1:] {
			lists[j+1] = g.list()
		}
		doc := NewFleetDescriptionList(cs, lists)
		for _, f := range []struct {
			name          string
			stream, whole func(*bytes.Buffer, any) error
		}{
			{"json", func(b *bytes.Buffer, d any) error { return writeJSON(b, d) }, wholeJSON},
			{"yaml", func(b *bytes.Buffer, d any) error { return writeYAML(b, d) }, wholeYAML},
		} {
			var got, want bytes.Buffer
			if err := f.whole(&want, doc); err != nil {
				t.Fatal(err)
			}
			if err := f.stream(&got, doc); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("doc %d %s differs\n--- got ---\n%s\n--- want ---\n%s", i, f.name, got.String(), want.String())
			}
			if !strings.Contains(got.String(), "clusters") {
				t.Fatalf("doc %d %s has no clusters:\n%s", i, f.name, got.String())
			}
		}
	}
}

// A watch sample of several clusters: appendLagSample writes what
// encoding/json writes, the clusters and each group's cluster included.
func TestFleetLagSampleJSONIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 3))
	for i := range 3000 {
		cs := fleetStatuses(r)
		samples := make([]LagSample, len(cs))
		for j := range cs[1:] {
			samples[j+1] = randomLagSample(r)
		}
		s := NewFleetLagSample(cs, samples, time.Unix(1700000000, 0), i%2 == 0)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got, ok := appendLagSample(nil, s)
		if !ok || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("sample %d (ok %v):\n got %s\nwant %s", i, ok, got, want.Bytes())
		}
	}
}

// One cluster's documents do not change: no clusters, no cluster field,
// no CLUSTER column; several clusters' have them, CLUSTER first.
func TestFleetTablesAndOneCluster(t *testing.T) {
	one := fixtureDescriptions()
	var b bytes.Buffer
	if err := writeJSON(&b, one); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"cluster`) {
		t.Fatalf("one cluster's document has a cluster field:\n%s", b.String())
	}
	cs := []ClusterStatus{{Profile: "eu", ID: Ptr("id-eu")}, {Profile: "us", Error: Ptr("down")}}
	fleet := NewFleetDescriptionList(cs, []GroupDescriptionList{fixtureDescriptions(), {}})
	for _, view := range []View{ViewOffsets, ViewMembers, ViewState} {
		b.Reset()
		if err := (DescribeView{Doc: fleet, View: view}).WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			if line != "" && !strings.HasPrefix(line, "CLUSTER") && !strings.HasPrefix(line, "eu ") {
				t.Fatalf("view %d: a line neither header nor eu's:\n%s", view, b.String())
			}
		}
		b.Reset()
		if err := (DescribeView{Doc: one, View: view}).WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "CLUSTER") {
			t.Fatalf("one cluster's table has CLUSTER:\n%s", b.String())
		}
	}
}

// kcg watch's terminal frame of several clusters: CLUSTER first, the
// title names the clusters down right after the time (a narrow screen
// cuts the rest), and a narrow screen cuts GROUP (not CLUSTER) before it
// drops STATUS.
func TestFleetFrame(t *testing.T) {
	cs := []ClusterStatus{{Profile: "eu", ID: Ptr("x")}, {Profile: "us", Error: Ptr("connection refused")}}
	g := WatchedGroup{Group: "a-very-long-group-name-indeed", State: Ptr("Stable"), Members: 1, Lag: Ptr(int64(5)), Status: "OK"}
	s := NewFleetLagSample(cs, []LagSample{{Groups: []WatchedGroup{g}}, {}}, time.Unix(1700000000, 0), false)
	frame := string(s.Frame(Screen{Width: 40, Height: 10, Interval: 5 * time.Second}))
	for _, want := range []string{"2023-11-14T22:13:20.000Z  DOWN: us  kcg", "CLUSTER   GROUP", "eu        a-very-long-group-na…   OK"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame:\n%s", want, frame)
		}
	}
}

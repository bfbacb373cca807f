package commands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/faultproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// fleetJSON is the part of a document of several clusters the tests read.
type fleetJSON struct {
	Clusters []struct {
		Profile string  `json:"profile"`
		ID      *string `json:"id"`
		Error   *string `json:"error"`
	} `json:"clusters"`
	Groups []struct {
		Cluster *struct {
			Profile string  `json:"profile"`
			ID      *string `json:"id"`
		} `json:"cluster"`
		Group    string  `json:"group"`
		TotalLag *int64  `json:"totalLag"`
		Lag      *int64  `json:"lag"`
		Error    *string `json:"error"`
	} `json:"groups"`
}

func parseFleet(t *testing.T, s string) fleetJSON {
	t.Helper()
	var f fleetJSON
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		t.Fatalf("%v:\n%s", err, s)
	}
	return f
}

// fleetClusters sets up two clusters for the fleet tests: "main" (the
// test cluster: the real broker in CI) and "second" (a kfake cluster of
// its own), with group G on both (lag 4 on main, 0 on second) and group
// only on second; "down" is an address nothing listens on. The config
// file names the three.
func fleetClusters(t *testing.T) (group, only string) {
	t.Helper()
	return seedFleet(t, kafkatest.Cluster(t), kafkatest.FakeBrokers(t, 1))
}

// seedFleet is fleetClusters on the clusters main and second.
func seedFleet(t *testing.T, main, second *kafkatest.Env) (group, only string) {
	t.Helper()
	topic := kafkatest.UniqueName(t, "fleet")
	group, only = kafkatest.UniqueName(t, "fleet-g"), kafkatest.UniqueName(t, "fleet-only")
	main.CreateTopic(t, topic, 1)
	second.CreateTopic(t, topic, 1)
	main.Produce(t, topic, 0, records(5)...)
	second.Produce(t, topic, 0, records(3)...)
	main.Commit(t, group, topic, map[int32]int64{0: 1})
	second.Commit(t, group, topic, map[int32]int64{0: 3})
	second.Commit(t, only, topic, map[int32]int64{0: 2})
	writeConfig(t, fmt.Sprintf("profiles:\n  main:\n    bootstrap: %s\n  second:\n    bootstrap: %s\n  down:\n    bootstrap: 127.0.0.1:1\n",
		main.Bootstrap, second.Bootstrap))
	return group, only
}

func TestFleetDescribe(t *testing.T) {
	group, only := fleetClusters(t)

	r := kcg(t, "describe", group, "--profile", "second,main", "-o", "json").MustCode(t, 0)
	schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, false)
	f := parseFleet(t, r.Stdout)
	if len(f.Clusters) != 2 || f.Clusters[0].Profile != "main" || f.Clusters[1].Profile != "second" ||
		f.Clusters[0].ID == nil || f.Clusters[0].Error != nil {
		t.Fatalf("clusters:\n%s", r.Stdout)
	}
	if len(f.Groups) != 2 || f.Groups[0].Cluster == nil || f.Groups[0].Cluster.Profile != "main" || f.Groups[1].Cluster.Profile != "second" ||
		*f.Groups[0].TotalLag != 4 || *f.Groups[1].TotalLag != 0 || *f.Groups[0].Cluster.ID != *f.Clusters[0].ID {
		t.Fatalf("groups:\n%s", r.Stdout)
	}

	schematest.MustMatch(t, "GroupDescriptionList", kcg(t, "describe", group, "--profile", "second,main", "-o", "yaml").MustCode(t, 0).Stdout, true)

	// The table: CLUSTER first, a row per cluster.
	r = kcg(t, "describe", group, "--profile", "main,second").MustCode(t, 0)
	if !strings.HasPrefix(r.Stdout, "CLUSTER") || len(rows(r.Stdout, "main")) != 2 || len(rows(r.Stdout, "second")) != 2 {
		t.Fatalf("table:\n%s", r.Stdout)
	}

	// Thresholds apply per cluster; the breach names its cluster.
	r = kcg(t, "describe", group, "--profile", "main,second", "--max-lag", "2").MustCode(t, 5)
	if want := "kcg: profile main: group " + group + " breaches: lag 4 > --max-lag 2"; !strings.Contains(r.Stderr, want) || strings.Contains(r.Stderr, "profile second: group") {
		t.Fatalf("stderr %q, want %q only", r.Stderr, want)
	}

	// A group that only one cluster has is shown there, no error.
	r = kcg(t, "describe", only, "--profile", "main,second", "-o", "json").MustCode(t, 0)
	if f = parseFleet(t, r.Stdout); len(f.Groups) != 1 || f.Groups[0].Cluster.Profile != "second" {
		t.Fatalf("group of one cluster:\n%s", r.Stdout)
	}
	// One that no cluster has is the usual error.
	r = kcg(t, "describe", "no-such-fleet-group", "--profile", "main,second").MustCode(t, 1)
	if !strings.Contains(r.Stderr, "no-such-fleet-group") {
		t.Fatalf("stderr: %s", r.Stderr)
	}

	// One cluster down: one line naming it, a null id and its error; the
	// others shown; exit 1.
	r = kcg(t, "describe", group, "--all-profiles", "-o", "json", "--timeout", "5s").MustCode(t, 1)
	if lines := strings.Split(strings.TrimSpace(r.Stderr), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "kcg: profile down: ") {
		t.Fatalf("stderr: %q", r.Stderr)
	}
	schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, false)
	f = parseFleet(t, r.Stdout)
	if len(f.Clusters) != 3 || f.Clusters[0].Profile != "down" || f.Clusters[0].Error == nil || f.Clusters[0].ID != nil || len(f.Groups) != 2 {
		t.Fatalf("partial document:\n%s", r.Stdout)
	}
	// Prometheus: cluster_name on every series, kcg_up 0 for the one down.
	r = kcg(t, "describe", group, "--all-profiles", "-o", "prometheus", "--timeout", "5s").MustCode(t, 1)
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if !strings.HasPrefix(line, "#") && !strings.Contains(line, `cluster_name="`) {
			t.Fatalf("series without cluster_name: %s\n%s", line, r.Stdout)
		}
	}
	for _, want := range []string{`kcg_up{cluster_name="down"} 0`, `kcg_up{cluster_name="main"} 1`,
		`kafka_consumergroup_lag{cluster_name="main",consumergroup="` + group + `",topic=`} {
		if !strings.Contains(r.Stdout, want) {
			t.Fatalf("no %s in:\n%s", want, r.Stdout)
		}
	}
	// watch: the same, each sample; exit 1 when the last lacked one.
	r = kcg(t, "watch", group, "--all-profiles", "-o", "json", "--count", "1", "--timeout", "5s").MustCode(t, 1)
	schematest.MustMatchLines(t, "LagSample", r.Stdout)
	if f = parseFleet(t, r.Stdout); len(f.Clusters) != 3 || f.Clusters[0].Error == nil || len(f.Groups) != 2 ||
		!strings.HasPrefix(r.Stderr, "kcg: profile down: sample failed") || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("watch with a cluster down:\n%s\n%s", r.Stdout, r.Stderr)
	}
	r = kcg(t, "describe", group, "--profile", "down", "--all-profiles", "--timeout", "3s").MustCode(t, 64)
	if !strings.Contains(r.Stderr, "not both") {
		t.Fatalf("--profile with --all-profiles: %s", r.Stderr)
	}
}

func TestFleetList(t *testing.T) {
	group, only := fleetClusters(t)
	r := kcg(t, "list", "--all-profiles", "--timeout", "5s").MustCode(t, 1)
	if !strings.HasPrefix(r.Stdout, "CLUSTER") || len(rows(r.Stdout, "second")) < 2 || len(rows(r.Stdout, "main")) < 1 || len(rows(r.Stdout, "down")) != 0 {
		t.Fatalf("table:\n%s", r.Stdout)
	}
	if !strings.HasPrefix(r.Stderr, "kcg: profile down: ") {
		t.Fatalf("stderr: %s", r.Stderr)
	}
	r = kcg(t, "list", "--profile", "main,second", "-o", "yaml").MustCode(t, 0)
	schematest.MustMatch(t, "GroupList", r.Stdout, true)
	for _, want := range []string{"clusters:\n  - profile: main\n", "  - cluster:\n      profile: second\n", "group: " + only, "group: " + group} {
		if !strings.Contains(r.Stdout, want) {
			t.Fatalf("no %q in:\n%s", want, r.Stdout)
		}
	}
	// One profile: the document of one cluster, as before.
	r = kcg(t, "list", "--profile", "second", "-o", "json").MustCode(t, 0)
	if strings.Contains(r.Stdout, `"cluster`) {
		t.Fatalf("one profile's list has a cluster field:\n%s", r.Stdout)
	}
}

func TestFleetRefusals(t *testing.T) {
	writeConfig(t, "profiles:\n  a:\n    bootstrap: 127.0.0.1:1\n  b:\n    bootstrap: 127.0.0.1:2\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "g", "--to-earliest", "--profile", "a,b"}, "kcg: --profile a,b: a plan is one cluster's change; name one profile (list, describe and watch take several)"},
		{[]string{"apply", "p.json", "--all-profiles"}, "kcg: --all-profiles: a plan is applied to the one cluster it was made for"},
		{[]string{"delete", "g", "--all-profiles", "--yes"}, "kcg: --all-profiles: a delete changes one cluster"},
		{[]string{"describe", "g", "--profile", "a,nope"}, `no profile "nope"`},
		{[]string{"describe", "g", "--profile", "a,b", "-b", "127.0.0.1:1"}, "--bootstrap-server names one cluster"},
		{[]string{"describe", "g", "--all-profiles", "-o", "markdown"}, "-o markdown is a change ticket's view of one cluster"},
		{[]string{"watch", "g", "--all-profiles", "--sandbox"}, "--sandbox"},
		{[]string{"describe", "g", "--all-profiles", "--connect", "http://127.0.0.1:1"}, "kcg: --connect names one cluster's Kafka Connect: give it with one profile (several profiles show no owners)"},
		{[]string{"list", "--profile", "a,b", "--connect", "http://127.0.0.1:1"}, "--connect names one cluster's Kafka Connect"},
	} {
		r := kcg(t, tc.args...).MustCode(t, 64)
		if lines := strings.Split(strings.TrimSpace(r.Stderr), "\n"); len(lines) != 1 || !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("%v: stderr %q, want one line with %q", tc.args, r.Stderr, tc.want)
		}
	}
	// Every cluster down: a line for each, the first one's exit (1), no
	// document.
	r := kcg(t, "describe", "g", "--all-profiles", "-o", "json", "--timeout", "3s").MustCode(t, 1)
	if r.Stdout != "" || !strings.Contains(r.Stderr, "kcg: profile a: ") || !strings.Contains(r.Stderr, "kcg: profile b: ") || strings.Count(r.Stderr, "\n") != 2 {
		t.Fatalf("all down: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

// TestFleetWatch watches two clusters while the second goes down (its
// broker refuses connections, behind a fault proxy) and comes back: the
// samples in between name it down and hold the first's groups; the ones
// after hold both again; stderr says it once each way.
func TestFleetWatch(t *testing.T) {
	main, second := kafkatest.Cluster(t), kafkatest.FakeBrokers(t, 1)
	pc, err := faultproxy.New(second.BrokerAddrs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pc.Close)
	topic, group := kafkatest.UniqueName(t, "fleetw"), kafkatest.UniqueName(t, "fleetw-g")
	main.CreateTopic(t, topic, 1)
	second.CreateTopic(t, topic, 1)
	main.Produce(t, topic, 0, records(5)...)
	second.Produce(t, topic, 0, records(3)...)
	main.Commit(t, group, topic, map[int32]int64{0: 1})
	second.Commit(t, group, topic, map[int32]int64{0: 3})
	writeConfig(t, fmt.Sprintf("profiles:\n  main:\n    bootstrap: %s\n  second:\n    bootstrap: %s\n", main.Bootstrap, pc.Bootstrap()))

	done := make(chan clitest.Result)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done <- clitest.RunContext(ctx, "watch", group, "--all-profiles", "-o", "json", "--count", "9", "--interval", "400ms", "--timeout", "1s")
	}()
	time.Sleep(1100 * time.Millisecond)
	if err := pc.SetAll(faultproxy.Fault{Mode: faultproxy.Refuse}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if err := pc.SetAll(faultproxy.Fault{}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.Code != 0 {
		t.Fatalf("exit %d (the last sample has both clusters: 0)\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	var states []string // per sample: "both", or "down" when second was down
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		f := parseFleet(t, line)
		switch {
		case len(f.Clusters) == 2 && f.Clusters[1].Error == nil && len(f.Groups) == 2 && *f.Groups[0].Lag == 4 && *f.Groups[1].Lag == 0:
			states = append(states, "both")
		case len(f.Clusters) == 2 && f.Clusters[1].Error != nil && len(f.Groups) == 1 && f.Groups[0].Cluster.Profile == "main":
			states = append(states, "down")
		default:
			t.Fatalf("sample: %s", line)
		}
	}
	got := strings.Join(slices.Compact(states), ",")
	if got != "both,down,both" {
		t.Fatalf("samples %v, want both, then down, then both again\n%s", states, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "kcg: profile second: sample failed, shown as down until it answers: ") ||
		!strings.Contains(r.Stderr, "kcg: profile second: answering again") || strings.Count(r.Stderr, "\n") != 2 {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
}

// A watch in which no cluster answers ends as a failed sample does: one
// line naming every profile, exit 1.
func TestFleetWatchAllDown(t *testing.T) {
	writeConfig(t, "profiles:\n  a:\n    bootstrap: 127.0.0.1:1\n  b:\n    bootstrap: 127.0.0.1:2\n")
	r := kcg(t, "watch", "g", "--all-profiles", "--count", "2", "--timeout", "3s").MustCode(t, 1)
	if lines := strings.Split(strings.TrimSpace(r.Stderr), "\n"); len(lines) != 1 ||
		!strings.HasPrefix(lines[0], "kcg: no cluster answered: profile a: ") || !strings.Contains(lines[0], "; profile b: ") {
		t.Fatalf("stderr: %q", r.Stderr)
	}
}

// TestMM2Fleet reads two real clusters at once (the two of .ci/mm2's step;
// skipped elsewhere) and a third that is down: each real cluster's groups
// under its own profile and cluster id, the down one named, exit 1.
func TestMM2Fleet(t *testing.T) {
	src, dst, _ := kafkatest.MM2(t)
	group, only := seedFleet(t, src, dst) // "fleet" topics: not the mm2-.* ones MM2 replicates
	r := kcg(t, "describe", group, only, "--all-profiles", "-o", "json", "--timeout", "10s").MustCode(t, 1)
	schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, false)
	f := parseFleet(t, r.Stdout)
	if len(f.Clusters) != 3 || f.Clusters[0].Error == nil || f.Clusters[1].ID == nil || f.Clusters[2].ID == nil {
		t.Fatalf("clusters (two real ones, each with its id; kafka.sh formats every cluster with the same one):\n%s", r.Stdout)
	}
	var got []string
	for _, g := range f.Groups {
		got = append(got, fmt.Sprintf("%s/%s/%d", g.Cluster.Profile, g.Group, *g.TotalLag))
	}
	want := []string{"main/" + group + "/4", "second/" + group + "/0", "second/" + only + "/1"}
	if !slices.Equal(got, want) {
		t.Fatalf("groups %v, want %v\n%s", got, want, r.Stdout)
	}
	if lines := strings.Split(strings.TrimSpace(r.Stderr), "\n"); !strings.HasPrefix(lines[len(lines)-1], "kcg: profile down: ") {
		t.Fatalf("stderr: %s", r.Stderr)
	}
}

// TestFleetConcurrent: the clusters are read at once, not one after the
// other. Two kfake clusters, each behind a fault proxy that holds every
// response 150 ms (a distant cluster: the time is round trips, not CPU);
// describing on both takes about as long as on the slower one alone, not
// their sum.
func TestFleetConcurrent(t *testing.T) {
	var boots []string
	group, topic := kafkatest.UniqueName(t, "fleetc-g"), kafkatest.UniqueName(t, "fleetc")
	for i := range 2 {
		e := kafkatest.FakeBrokers(t, 1)
		e.CreateTopic(t, topic, 1)
		e.Produce(t, topic, 0, records(3)...)
		e.Commit(t, group, topic, map[int32]int64{0: int64(i)})
		pc, err := faultproxy.New(e.BrokerAddrs())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pc.Close)
		if err := pc.SetAll(faultproxy.Fault{Mode: faultproxy.Delay, Delay: 150 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		boots = append(boots, pc.Bootstrap())
	}
	writeConfig(t, fmt.Sprintf("profiles:\n  a:\n    bootstrap: %s\n  b:\n    bootstrap: %s\n", boots[0], boots[1]))
	took := func(args ...string) time.Duration {
		start := time.Now()
		kcg(t, append([]string{"describe", group, "-o", "json"}, args...)...).MustCode(t, 0)
		return time.Since(start)
	}
	a, b := took("--profile", "a"), took("--profile", "b")
	both := took("--profile", "a,b")
	t.Logf("a %v, b %v, both %v", a, b, both)
	if both > (a+b)*3/4 {
		t.Fatalf("both clusters took %v, one alone %v and %v: read one after the other", both, a, b)
	}
}

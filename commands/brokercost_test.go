package commands_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/faultproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The request cost of describe G, describe --all-groups, plan G and apply
// on a cluster of KCG_TEST_COST_GROUPS groups (e.g. 2000), counted by a
// faultproxy in front of the broker, with each command's wall time:
// docs/compatibility.md's "Request cost" table, measured on a real 2.8.2
// (no batched FindCoordinator or OffsetFetch). Opt-in (it writes that
// many groups); it holds what the table says: a single-group command
// costs the same whatever the number of groups in the cluster.
func TestBrokerRequestCost(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KCG_TEST_COST_GROUPS"))
	if n <= 0 {
		t.Skip("set KCG_TEST_COST_GROUPS=N (e.g. 2000) to measure the request cost per command on a cluster of N groups")
	}
	e := kafkatest.Cluster(t)
	topic, base := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(20)...)
	e.Produce(t, topic, 1, records(20)...)
	groups := make([]string, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range work {
				e.Commit(t, groups[i], topic, map[int32]int64{0: int64(i % 20), 1: 3})
			}
		})
	}
	for i := range n {
		groups[i] = fmt.Sprintf("%s-%05d", base, i)
		work <- i
	}
	close(work)
	wg.Wait()
	pc, err := faultproxy.New(e.BrokerAddrs())
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dir := t.TempDir()
	g := groups[n/2]
	plan, rb := dir+"/p.yaml", dir+"/rb.yaml"
	apis := []kmsg.Key{kmsg.FindCoordinator, kmsg.ListGroups, kmsg.DescribeGroups, kmsg.OffsetFetch, kmsg.ListOffsets, kmsg.Metadata, kmsg.OffsetCommit, kmsg.ApiVersions}
	count := func() map[kmsg.Key]int {
		out := map[kmsg.Key]int{}
		for _, p := range pc.Proxies() {
			for _, k := range apis {
				out[k] += p.Requests(int16(k))
			}
		}
		return out
	}
	single := map[string]int{}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"describe G", []string{"describe", g}},
		{"describe --all-groups", []string{"describe", "--all-groups"}},
		{"plan G", []string{"plan", g, "--all-topics", "--shift-by", "-1", "--out", plan}},
		{"apply (plan of G)", []string{"apply", plan, "--settle", "0", "--rollback-out", rb}},
		{"drop-in --describe --group G", []string{"--describe", "--group", g}},
	} {
		before := count()
		start := time.Now()
		kcg(t, append(c.args, "--bootstrap-server", pc.Bootstrap())...).MustCode(t, 0)
		took := time.Since(start)
		after := count()
		line := ""
		for _, k := range apis {
			if d := after[k] - before[k]; d > 0 {
				line += fmt.Sprintf(" %s %d,", kmsg.NameForKey(int16(k)), d)
			}
		}
		total := 0
		for _, k := range slices.Collect(maps.Keys(after)) {
			total += after[k] - before[k]
		}
		single[c.name] = after[kmsg.FindCoordinator] - before[kmsg.FindCoordinator]
		t.Logf("%s, %d groups: %s: %d requests (%s) in %.2f s", e.Name(), n, c.name, total, line[:max(0, len(line)-1)], took.Seconds())
	}
	for _, name := range []string{"describe G", "plan G", "apply (plan of G)", "drop-in --describe --group G"} {
		if single[name] > 2 {
			t.Errorf("%s: %d FindCoordinator requests on a cluster of %d groups, want at most 2", name, single[name], n)
		}
	}
	for _, p := range pc.Proxies() {
		if errs := p.Errors(); len(errs) > 0 {
			t.Fatalf("faultproxy: %v", errs)
		}
	}
}

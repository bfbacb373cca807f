package commands_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// countRequests counts the requests kfake receives, per API, while run
// runs.
//
// It first waits (up to 3 s) until kfake has handled no request for
// 250 ms: on a loaded machine kfake may still be handling a request that
// the previous command sent just before it closed its connections, and
// that request is not this run's.
func countRequests(t *testing.T, e *kafkatest.Env, run func()) map[string]int {
	t.Helper()
	// The test helpers' kafka-go transport refreshes its metadata every
	// second while it holds a connection (kafkatest's MetadataTTL): close
	// it, so that on a cluster of the test's own (kafkatest.FakeBrokers,
	// privateFake) only kcg asks anything while the count runs. On the
	// shared kfake other tests reopen it; counts there allow for that.
	// (privateFake's Env has no transport: its fixtures used franz-go.)
	if e.Transport != nil {
		e.Transport.CloseIdleConnections()
	}
	var mu sync.Mutex
	last := time.Now()
	e.Kfake.Control(func(kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		mu.Lock()
		last = time.Now()
		mu.Unlock()
		return nil, nil, false
	})
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		quiet := time.Since(last) >= 250*time.Millisecond
		mu.Unlock()
		if quiet {
			break
		}
	}
	e.Kfake.DropControl()
	n := map[string]int{}
	e.Kfake.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		e.Kfake.KeepControl()
		mu.Lock()
		n[kmsg.NameForKey(req.Key())]++
		mu.Unlock()
		return nil, nil, false
	})
	run()
	e.Kfake.DropControl()
	mu.Lock()
	defer mu.Unlock()
	return maps.Clone(n)
}

func countsText(n map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(n)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, n[k]))
	}
	return strings.Join(parts, ", ")
}

// The requests of plan, show, diff and apply come in fixed phases: run at
// 20 and at 90 groups (inside one batch of every batched API), each API
// is asked as often at both sizes, except OffsetCommit, one per group
// (and ApiVersions, one per connection). FindCoordinator is one batched
// request: the commits go to the coordinators the preflight found. The
// counts are in docs/benchmarks.md ("Request phases of plan, show, diff
// and apply"). kfake on both tiers: only it counts requests; a cluster of
// this test's own, where only kcg asks anything once the fixtures are
// written (on the shared kfake, a stray Metadata of the helpers' own
// transport once failed show's "no request" under load).
func TestRequestPhasesFixed(t *testing.T) {
	counts := map[int]map[string]map[string]int{}
	for _, n := range []int{20, 90} {
		e := kafkatest.FakeBrokers(t, 1)
		f := newManyGroups(t, e, n)
		plan := f.path("p.yaml")
		counts[n] = map[string]map[string]int{}
		for _, cmd := range [][]string{
			// Named groups, as a change ticket names them.
			append([]string{"plan", "--all-topics", "--shift-by", "-5", "--out", plan}, f.groups...),
			{"show", plan},
			{"diff", plan},
			{"apply", plan, "--rollback-out", f.path("rb.yaml")},
		} {
			args := cmd
			if cmd[0] != "show" {
				args = append(append([]string{}, cmd...), "--bootstrap-server", e.Bootstrap)
			}
			counts[n][cmd[0]] = countRequests(t, e, func() { kcg(t, args...).MustCode(t, 0) })
			t.Logf("%d groups, %s: %s", n, cmd[0], countsText(counts[n][cmd[0]]))
		}
		e.Kfake.DropControl()
	}
	for _, cmd := range []string{"plan", "show", "diff", "apply"} {
		small, large := counts[20][cmd], counts[90][cmd]
		for _, api := range slices.Sorted(maps.Keys(large)) {
			switch {
			case api == "ApiVersions":
				// One: kafka-go's first connection asks, and its answer
				// gives kcg its versions and answers the ApiVersions of
				// every later connection to the broker (issue 34; it was
				// one per connection, and one more of kcg's own).
				if small[api] != 1 || large[api] != 1 {
					t.Errorf("%s: %d and %d ApiVersions requests at 20 and 90 groups, want 1", cmd, small[api], large[api])
				}
			case api == "Metadata":
				// Timed, not counted: kafkaadmin reuses an answer for 2 s
				// and kafka-go's transport refreshes its own layout, so a
				// slow run (-race, a loaded machine) asks once or twice
				// more; a phase per group would ask 70 more.
				if large[api] > small[api]+3 {
					t.Errorf("%s: Metadata asked %d times at 20 groups, %d at 90", cmd, small[api], large[api])
				}
			case cmd == "apply" && api == "OffsetFetch":
				// The preflight and the read-back are one request each;
				// the settle watch (--settle, 2 s) reads the written
				// offsets on a timer, as often as the machine allows in
				// those 2 s: 7 at 20 groups and 8 at 90 in one idle CI
				// run. A phase per group would ask 70 more.
				if large[api] > small[api]+3 || small[api] > large[api]+3 {
					t.Errorf("apply: OffsetFetch asked %d times at 20 groups, %d at 90: more than the settle watch's timing explains", small[api], large[api])
				}
			case cmd == "apply" && api == "OffsetCommit":
				if small[api] != 20 || large[api] != 90 {
					t.Errorf("apply: %d and %d OffsetCommit requests at 20 and 90 groups, want one per group", small[api], large[api])
				}
			case small[api] != large[api]:
				t.Errorf("%s: %s asked %d times at 20 groups, %d at 90: not a fixed phase", cmd, api, small[api], large[api])
			}
		}
		if cmd == "show" && len(large) != 0 {
			t.Errorf("show sent requests: %s", countsText(large))
		}
	}
}

// describe of one group lists no group: the describe answers tell its
// type (groupops.ClassifyNamed). Each listing held every group of the
// coordinator, about a megabyte at 20,000 groups (docs/benchmarks.md). A
// group no describe knows (here one that does not exist) is looked up in
// its coordinator's listing, once; then, to name the closest groups in
// its "does not exist" line, in the listing of every broker, once each
// (as kcg list). No Metadata request asks for every
// topic of the cluster (kafka-go's transport did, for its broker cache),
// and one Metadata answers both the partitions' leaders and the cluster's
// identity; one ApiVersions serves the whole command. kfake on both
// tiers: only it counts requests; a cluster of this test's own
// (privateFake), where only kcg asks anything.
func TestDescribeOneGroupRequests(t *testing.T) {
	e, group := privateFake(t)
	missing := kafkatest.UniqueName(t, "missing")
	list := countRequests(t, e, func() { kcg(t, "list", "--bootstrap-server", e.Bootstrap).MustCode(t, 0) })
	for _, c := range []struct {
		args      []string
		code      int
		listings  int
		metadatas int
	}{
		{[]string{"describe", group}, 0, 0, 2},
		{[]string{"describe", group, "--time-lag"}, 0, 0, 2},
		{[]string{"describe", missing}, 1, 1 + list["ListGroups"], 2},
	} {
		var mu sync.Mutex
		allTopics := 0
		n := countRequests(t, e, func() {
			e.Kfake.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
				e.Kfake.KeepControl()
				if m, ok := req.(*kmsg.MetadataRequest); ok && m.Topics == nil {
					mu.Lock()
					allTopics++
					mu.Unlock()
				}
				return nil, nil, false
			})
			kcg(t, append(c.args, "--bootstrap-server", e.Bootstrap)...).MustCode(t, c.code)
		})
		if n["ListGroups"] != c.listings {
			t.Errorf("%v: %d ListGroups requests, want %d (%s)", c.args, n["ListGroups"], c.listings, countsText(n))
		}
		// One is kafka-go's own, for its broker cache, when it dials.
		if n["Metadata"] > c.metadatas {
			t.Errorf("%v: %d Metadata requests, want at most %d (%s)", c.args, n["Metadata"], c.metadatas, countsText(n))
		}
		// One ApiVersions, kafka-go's first connection's, for kcg and
		// every connection (issue 34: kcg asked again, and so did each
		// connection kafka-go opened).
		if n["ApiVersions"] != 1 {
			t.Errorf("%v: %d ApiVersions requests, want 1 (%s)", c.args, n["ApiVersions"], countsText(n))
		}
		if allTopics > 0 {
			t.Errorf("%v: %d Metadata requests asked for every topic, want none", c.args, allTopics)
		}
	}
	// --all-groups types its groups from the listing that found them: it
	// lists as often as kcg list (once per broker), not a second time.
	all := countRequests(t, e, func() { kcg(t, "describe", "--all-groups", "--bootstrap-server", e.Bootstrap).MustCode(t, 0) })
	if all["ListGroups"] != list["ListGroups"] {
		t.Errorf("describe --all-groups: %d ListGroups requests, kcg list %d (%s)", all["ListGroups"], list["ListGroups"], countsText(all))
	}
}

// privateFake is a kfake cluster of the calling test alone, with one
// group committed on two partitions of a topic with records, and no
// client left connected: the requests counted on it are kcg's. The shared
// kfake also hears the test helpers' own kafka-go transport, which asks
// Metadata for every topic every second or less.
func privateFake(t *testing.T) (*kafkatest.Env, string) {
	t.Helper()
	return privateFakeOf(t, 1)
}

// privateFakeOf is privateFake with brokers brokers; Bootstrap is the
// first one's address.
func privateFakeOf(t *testing.T, brokers int) (*kafkatest.Env, string) {
	t.Helper()
	topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
	c, err := kfake.NewCluster(kfake.NumBrokers(brokers), kfake.SeedTopics(2, topic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]
	// OffsetCommit v9 names topics (v10 names them by id).
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.MaxVersions(kversion.V3_9_0()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for p := range int32(2) {
		for range 20 {
			if err := cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: p, Value: []byte("v")}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation = group, -1
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = topic
	for p, o := range []int64{10, 3} {
		rp := kmsg.NewOffsetCommitRequestTopicPartition()
		rp.Partition, rp.Offset = int32(p), o
		rt.Partitions = append(rt.Partitions, rp)
	}
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				t.Fatalf("committing %s/%d for %s: %v", topic, rp.Partition, group, err)
			}
		}
	}
	return &kafkatest.Env{Bootstrap: addr, Kfake: c}, group
}

// On a broker before ListGroups v4 (Kafka 2.5 and older: no states in the
// listing) a single-group plan, diff, describe and drop-in --describe
// cost the same at 10 and at 40 groups in the cluster: kcg learns the
// group's type from its coordinator's listing and needs no states, so it
// describes no listed group (issue 32: before the fix the v < 4 branch of
// kafkaadmin's listGroups described every group of the cluster, one
// FindCoordinator each on a broker without batched lookups; 2,094 lookups
// to plan one group on a real 2.5.1). kcg list, which shows states, still
// describes them. kfake on both tiers, pretending to be Apache Kafka 2.5.
func TestOldBrokerSingleGroupRequests(t *testing.T) {
	counts := map[int]map[string]map[string]int{}
	for _, n := range []int{10, 40} {
		e := kafkatest.FakeBrokers(t, 1, kfake.MaxVersions(kversion.V2_5_0()))
		f := newManyGroups(t, e, n)
		g := f.groups[n/2]
		plan := f.path("p.yaml")
		counts[n] = map[string]map[string]int{}
		for _, c := range []struct {
			name string
			args []string
		}{
			{"plan", []string{"plan", "--all-topics", "--shift-by", "-1", "--out", plan, g}},
			{"diff", []string{"diff", plan}},
			{"describe", []string{"describe", g}},
			{"drop-in --describe", []string{"--describe", "--group", g}},
			{"list", []string{"list"}},
		} {
			args := append(append([]string{}, c.args...), "--bootstrap-server", e.Bootstrap)
			counts[n][c.name] = countRequests(t, e, func() { kcg(t, args...).MustCode(t, 0) })
			t.Logf("%d groups, %s: %s", n, c.name, countsText(counts[n][c.name]))
		}
	}
	for _, cmd := range []string{"plan", "diff", "describe", "drop-in --describe"} {
		for _, api := range []string{"FindCoordinator", "DescribeGroups"} {
			if small, large := counts[10][cmd][api], counts[40][cmd][api]; large != small || large > 2 {
				t.Errorf("%s of one group on a 2.5 broker: %d %s requests with 40 groups in the cluster, %d with 10 (want the same, at most 2)", cmd, large, api, small)
			}
		}
	}
	// kcg list shows each group's state: there it describes them all.
	if d := counts[40]["list"]["DescribeGroups"]; d == 0 {
		t.Errorf("kcg list on a 2.5 broker sent no DescribeGroups: it cannot show states")
	}
}

// describe G reads its three ListOffsets phases beside the Metadata of
// the topics on a cluster small enough for every phase to go to every
// broker (kafkaadmin/fanout.go: two brokers, 2 × 3 requests and the
// Metadata within the eight in flight): all six reach the brokers while
// that Metadata is held unanswered. Above that bound (three brokers) none
// is sent before the Metadata answers, and there is one per leader per
// phase, as before the fan-out. The lag shown is the same. kfake on both
// tiers: clusters of this test's own.
func TestDescribeFanOutRequests(t *testing.T) {
	for _, c := range []struct {
		brokers int
		leaders []int32 // of partitions 0, 1, 2
		early   int     // ListOffsets sent before the Metadata answered
		total   int     // ListOffsets in all
	}{{2, []int32{0, 0, 1}, 6, 6}, {3, []int32{0, 0, 0}, 0, 3}} {
		t.Run(fmt.Sprintf("%d brokers", c.brokers), func(t *testing.T) {
			e := kafkatest.FakeBrokers(t, c.brokers)
			topic, group := kafkatest.UniqueName(t, "t"), kafkatest.UniqueName(t, "g")
			e.CreateTopic(t, topic, 3)
			for p, l := range c.leaders {
				e.Produce(t, topic, p, kafkatest.Record{Value: "a"}, kafkatest.Record{Value: "b"}, kafkatest.Record{Value: "c"})
				if err := e.Kfake.MoveTopicPartition(topic, int32(p), l); err != nil {
					t.Fatal(err)
				}
			}
			e.Commit(t, group, topic, map[int32]int64{0: 1, 1: 2, 2: 3})
			var r clitest.Result
			var listed, early atomic.Int64
			early.Store(-1)
			n := countRequests(t, e, func() {
				e.Kfake.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
					e.Kfake.KeepControl()
					listed.Add(1)
					return nil, nil, false
				})
				e.Kfake.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
					e.Kfake.KeepControl()
					if len(req.(*kmsg.MetadataRequest).Topics) > 0 && early.Load() < 0 {
						e.Kfake.SleepControl(func() {
							for end := time.Now().Add(time.Second); listed.Load() < 6 && time.Now().Before(end); {
								time.Sleep(2 * time.Millisecond)
							}
							early.Store(listed.Load())
						})
					}
					return nil, nil, false
				})
				r = kcg(t, "describe", group, "-o", "json", "--bootstrap-server", e.Bootstrap)
			})
			r.MustCode(t, 0)
			if got := early.Load(); got != int64(c.early) || n["ListOffsets"] != c.total {
				t.Errorf("%d ListOffsets requests, %d of them before the Metadata answered; want %d and %d (%s)", n["ListOffsets"], got, c.total, c.early, countsText(n))
			}
			if !strings.Contains(r.Stdout, `"totalLag": 3`) {
				t.Errorf("describe: want a total lag of 3 (2 + 1 + 0):\n%s", r.Stdout)
			}
		})
	}
}

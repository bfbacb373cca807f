package commands_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/faultproxy"
)

// The sequential round trips of the commands an operator runs against a
// remote cluster (issue 34 item 2, docs/benchmarks.md "Round trips over a
// network delay"): each command runs through a faultproxy Latency proxy of
// oneWay each way (the TCP handshake's round trip included) in front of a
// one-broker kfake cluster of the test's own, so a command of N sequential
// round trips takes N round trips plus its own work, and must end within
// N+1. The counts are the commands' minimums as kcg sends them; one more
// round trip on any command's critical path fails it. kfake on both tiers
// (the same numbers were measured on a real 4.4.0 broker with
// bench/latency).
func TestRoundTrips(t *testing.T) {
	const oneWay = 100 * time.Millisecond
	rtt := 2 * oneWay
	e, group := privateFake(t)
	pc := proxied(t, []string{e.Bootstrap})
	plan := filepath.Join(t.TempDir(), "plan.yaml")
	kcg(t, "plan", group, "--all-topics", "--to-earliest", "--out", plan, "--bootstrap-server", pc.Bootstrap()).MustCode(t, 0)
	if err := pc.SetAll(faultproxy.Fault{Mode: faultproxy.Latency, Delay: oneWay}); err != nil {
		t.Fatal(err)
	}
	checkRoundTrips(t, pc.Bootstrap(), rtt, []roundTrips{
		// The first flight (kafkaadmin/firstflight.go) and the Metadata
		// of the committed topics beside the ListOffsets (fanout.go):
		// 7 before them.
		{[]string{"describe", group}, 4},
		{[]string{"describe", "--all-groups"}, 5},
		{[]string{"plan", group, "--all-topics", "--to-earliest", "--out", "-"}, 4},
		// Its writes and their read-back: two more (9 before).
		{[]string{"apply", plan, "--settle", "0"}, 6},
	})
}

// TestRoundTripsThreeBrokers: the same through a proxy per broker of a
// three-broker kfake cluster, all three given as the bootstrap servers, as
// operators give them. The bootstrap probe asks every address at once
// (kafkaadmin/bootstrap.go) and carries the first flight, and kafka-go
// takes the probes' connections (no handshake of its own): the
// coordinator's among them. describe's three log-bound phases to three
// brokers are above the fan-out's bound (its Metadata first: 5); plan's
// two are within it (4).
func TestRoundTripsThreeBrokers(t *testing.T) {
	const oneWay = 100 * time.Millisecond
	rtt := 2 * oneWay
	e, group := privateFakeOf(t, 3)
	pc := proxied(t, e.Kfake.ListenAddrs())
	if err := pc.SetAll(faultproxy.Fault{Mode: faultproxy.Latency, Delay: oneWay}); err != nil {
		t.Fatal(err)
	}
	checkRoundTrips(t, pc.Bootstrap(), rtt, []roundTrips{
		{[]string{"describe", group}, 5},
		{[]string{"plan", group, "--all-topics", "--to-earliest", "--out", "-"}, 4},
	})
}

// roundTrips is a command and its sequential round trips.
type roundTrips struct {
	args  []string
	trips int
}

// checkRoundTrips runs each command against bootstrap, behind a wire of
// rtt, and fails one that takes its round trips plus one or more.
func checkRoundTrips(t *testing.T, bootstrap string, rtt time.Duration, cases []roundTrips) {
	t.Helper()
	for _, c := range cases {
		start := time.Now()
		kcg(t, append(c.args, "--bootstrap-server", bootstrap)...).MustCode(t, 0)
		took := time.Since(start)
		t.Logf("%v: %v, %.1f round trips of %v", c.args, took.Round(time.Millisecond), float64(took)/float64(rtt), rtt)
		if limit := time.Duration(c.trips+1) * rtt; took >= limit {
			t.Errorf("%v took %v at a %v round trip: more than its %d sequential round trips (limit %v)", c.args, took.Round(time.Millisecond), rtt, c.trips, limit)
		}
	}
}

// proxied is a fault proxy in front of each of brokers, closed (and its
// errors reported) when the test ends.
func proxied(t *testing.T, brokers []string) *faultproxy.Cluster {
	t.Helper()
	pc, err := faultproxy.New(brokers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pc.Close()
		if errs := pc.Errors(); len(errs) > 0 {
			t.Errorf("fault proxy errors: %v", errs)
		}
	})
	return pc
}

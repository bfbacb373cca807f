package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/faultproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// The network-fault tests (issue 11 item 4, docs/reliability.md): kcg
// talks to every broker through internal/faultproxy, which refuses,
// black-holes, delays, cuts or slows the traffic; every command must end
// within --timeout + 1 s with one line on stderr and its documented exit
// code, and apply must never leave a write its report does not list.
// They run on a three-broker kfake cluster of their own, or, with
// KCG_TEST_BOOTSTRAP (and KCG_TEST_BOOTSTRAP_SERVERS) set, with the
// proxies in front of the real cluster's brokers.

const (
	faultTimeout = 3 * time.Second
	// faultSlack is what a command may take beyond --timeout: closing
	// connections and printing.
	faultSlack = time.Second
)

type faultRig struct {
	e     *kafkatest.Env
	pc    *faultproxy.Cluster
	topic string
	dir   string
}

func newFaultRig(t *testing.T) *faultRig {
	t.Helper()
	var e *kafkatest.Env
	if os.Getenv(kafkatest.EnvBootstrap) != "" {
		e = kafkatest.Cluster(t)
	} else {
		e = kafkatest.FakeBrokers(t, 3)
	}
	pc, err := faultproxy.New(e.BrokerAddrs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pc.Close()
		if errs := pc.Errors(); len(errs) > 0 {
			t.Errorf("fault proxy errors (the proxy, not kcg, misbehaved): %v", errs)
		}
	})
	r := &faultRig{e: e, pc: pc, topic: kafkatest.UniqueName(t, "t"), dir: t.TempDir()}
	e.CreateTopic(t, r.topic, 3)
	for p := range 3 {
		e.Produce(t, r.topic, p, records(10)...)
	}
	return r
}

func (r *faultRig) path(name string) string { return filepath.Join(r.dir, name) }

// group makes a group with committed offsets 2, 3, 4 on the rig's topic.
func (r *faultRig) group(t *testing.T, prefix string) string {
	t.Helper()
	g := kafkatest.UniqueName(t, prefix)
	r.e.Commit(t, g, r.topic, map[int32]int64{0: 2, 1: 3, 2: 4})
	return g
}

// kcg runs a command through the proxies (every broker's address as
// --bootstrap-server) with the short timeout, and times it.
func (r *faultRig) kcg(t *testing.T, args ...string) (clitest.Result, time.Duration) {
	t.Helper()
	start := time.Now()
	res := kcg(t, append(args, "--bootstrap-server", r.pc.Bootstrap(), "--timeout", faultTimeout.String())...)
	return res, time.Since(start)
}

func (r *faultRig) set(t *testing.T, f faultproxy.Fault) {
	t.Helper()
	if err := r.pc.SetAll(f); err != nil {
		t.Fatal(err)
	}
}

// errLine checks that stderr ends with exactly one error line ("kcg: ..."),
// that apply's rollback notice is the only other line allowed, and that no
// Go stack trace leaked; it returns the error line.
func dropinErrLine(res clitest.Result) (string, error) {
	out := strings.TrimSpace(res.Stdout)
	if res.Stderr != "" || strings.Count(out, "\n") != 0 || !strings.HasPrefix(out, "Error: Executing consumer group command failed due to ") {
		return "", fmt.Errorf("want one Java error line on stdout and nothing on stderr: stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
	return out, nil
}

func errLine(stderr string) (string, error) {
	if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
		return "", fmt.Errorf("stack trace on stderr: %q", stderr)
	}
	var errs []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		switch {
		case strings.HasPrefix(l, "kcg: "):
			errs = append(errs, l)
		case strings.HasPrefix(l, "rollback plan written to "):
		default:
			return "", fmt.Errorf("unexpected stderr line %q in %q", l, stderr)
		}
	}
	if len(errs) != 1 {
		return "", fmt.Errorf("%d error lines, want 1: %q", len(errs), stderr)
	}
	return errs[0], nil
}

// netReport is the part of the ApplyReport the fault tests check against
// the offsets read back after the network heals.
type netReport struct {
	Result string `json:"result"`
	Groups []struct {
		Group      string `json:"group"`
		Result     string `json:"result"`
		Partitions []struct {
			Topic     string `json:"topic"`
			Partition int32  `json:"partition"`
			Before    *int64 `json:"before"`
			Target    *int64 `json:"target"`
			Result    string `json:"result"`
		} `json:"partitions"`
	} `json:"groups"`
}

// checkApplied reads back (directly, not through the proxies) the offsets
// of groups after an apply that printed stdout (its -o json report, or
// nothing), and fails unless every written partition is listed: with no
// report, nothing may have changed from before; with one, written and
// unchanged partitions hold their target, not-written ones their old
// offset, unknown ones either.
func (r *faultRig) checkApplied(t *testing.T, stdout string, before map[string]map[int32]int64) {
	t.Helper()
	live := func(g string) map[int32]int64 {
		got := r.e.Committed(t, g)[r.topic]
		if got == nil {
			got = map[int32]int64{}
		}
		return got
	}
	if strings.TrimSpace(stdout) == "" {
		for g, want := range before {
			if got := live(g); !mapsEqual(got, want) {
				t.Fatalf("no report, but %s holds %v, was %v: a write the report does not list", g, got, want)
			}
		}
		return
	}
	var rep netReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("apply report: %v\n%s", err, stdout)
	}
	seen := map[string]bool{}
	for _, g := range rep.Groups {
		seen[g.Group] = true
		got := live(g.Group)
		for _, p := range g.Partitions {
			old, hadOld := before[g.Group][p.Partition]
			cur, has := got[p.Partition]
			isTarget := p.Target != nil && has && cur == *p.Target
			isOld := hadOld == has && cur == old
			ok := false
			switch p.Result {
			case "written", "unchanged":
				ok = isTarget
			case "not-written":
				ok = isOld
			case "unknown", "partial":
				ok = isTarget || isOld
			}
			if !ok {
				t.Fatalf("%s %s/%d reported %s (target %v) but holds %d (was %d)\nreport: %s",
					g.Group, p.Topic, p.Partition, p.Result, ptrText(p.Target), cur, old, stdout)
			}
		}
	}
	for g, want := range before {
		if !seen[g] && !mapsEqual(live(g), want) {
			t.Fatalf("%s not in the report, but changed", g)
		}
	}
}

func ptrText(v *int64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

func mapsEqual(a, b map[int32]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// netCase is one command of the matrix, set up while the network is
// healthy.
type netCase struct {
	name string
	args []string
	// writes are the groups a write command may change, with their
	// offsets before it runs; apply's are checked against its report.
	writes map[string]map[int32]int64
	apply  bool
	// gone is a group delete may remove.
	gone string
}

func (r *faultRig) cases(t *testing.T) []netCase {
	t.Helper()
	g := r.group(t, "g")
	planned := r.group(t, "planned")
	pres, _ := r.kcg(t, "plan", planned, "--topic", r.topic, "--to-earliest", "--out", r.path("p.yaml"))
	pres.MustCode(t, 0)
	applied := r.group(t, "applied")
	ares, _ := r.kcg(t, "plan", applied, "--topic", r.topic, "--to-latest", "--out", r.path("a.yaml"))
	ares.MustCode(t, 0)
	del := r.group(t, "del")
	delOff := r.group(t, "deloff")
	offs := map[int32]int64{0: 2, 1: 3, 2: 4}
	return []netCase{
		{name: "list", args: []string{"list"}},
		{name: "describe", args: []string{"describe", g}},
		{name: "describe-all", args: []string{"describe", "--all-groups"}},
		{name: "describe-time-lag", args: []string{"describe", g, "--time-lag"}},
		{name: "plan", args: []string{"plan", g, "--topic", r.topic, "--shift-by", "-1", "--out", r.path("new.yaml")}},
		{name: "diff", args: []string{"diff", r.path("p.yaml")}},
		{name: "apply", args: []string{"apply", r.path("a.yaml"), "-o", "json", "--rollback-out", r.path("rb.yaml")},
			writes: map[string]map[int32]int64{applied: offs}, apply: true},
		{name: "delete", args: []string{"delete", del}, gone: del},
		{name: "delete-offsets", args: []string{"delete-offsets", delOff, "--topic", r.topic},
			writes: map[string]map[int32]int64{delOff: offs}},
		{name: "dropin-describe", args: []string{"--describe", "--group", g}},
	}
}

type netResult struct {
	code int
	took time.Duration
	line string
}

// runFault sets fault on every proxy, runs every case at once, heals the
// network and checks each outcome; want is the set of exit codes a case
// may end with under this fault.
func runFault(t *testing.T, fault faultproxy.Fault, want func(c netCase) []int) map[string]netResult {
	r := newFaultRig(t)
	cases := r.cases(t)
	r.set(t, fault)
	results := make([]clitest.Result, len(cases))
	took := make([]time.Duration, len(cases))
	// Two rounds, each all at once: the reads, then the writes, so that
	// describe --all-groups does not race the delete of a group it listed.
	for _, writes := range []bool{false, true} {
		var wg sync.WaitGroup
		for i, c := range cases {
			if (len(c.writes) > 0 || c.gone != "") != writes {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if c.name == "dropin-describe" {
					// The Java tool's own command line: its --timeout is in ms.
					start := time.Now()
					results[i] = kcg(t, append(c.args, "--bootstrap-server", r.pc.Bootstrap(), "--timeout", fmt.Sprint(faultTimeout.Milliseconds()))...)
					took[i] = time.Since(start)
					return
				}
				results[i], took[i] = r.kcg(t, c.args...)
			}()
		}
		wg.Wait()
	}
	r.set(t, faultproxy.Fault{})
	out := map[string]netResult{}
	for i, c := range cases {
		res, d := results[i], took[i]
		t.Logf("%s under %s: exit %d in %v; stderr %q", c.name, fault, res.Code, d.Round(10*time.Millisecond), strings.TrimSpace(res.Stderr))
		if d > faultTimeout+faultSlack {
			t.Errorf("%s under %s took %v, more than --timeout %v + %v", c.name, fault, d, faultTimeout, faultSlack)
		}
		if !slices.Contains(want(c), res.Code) {
			t.Errorf("%s under %s: exit %d, want one of %v\nstdout: %s\nstderr: %s", c.name, fault, res.Code, want(c), res.Stdout, res.Stderr)
		}
		line := ""
		switch {
		case res.Code != 0 && c.name == "dropin-describe":
			// Drop-in mode prints the Java tool's error line on stdout,
			// as the Java tool does (docs/migration.md), and nothing on
			// stderr.
			l, err := dropinErrLine(res)
			if err != nil {
				t.Errorf("%s under %s: %v", c.name, fault, err)
			}
			line = l
		case res.Code != 0:
			l, err := errLine(res.Stderr)
			if err != nil {
				t.Errorf("%s under %s: %v", c.name, fault, err)
			}
			line = l
		}
		out[c.name] = netResult{code: res.Code, took: d, line: line}
		switch {
		case c.apply:
			r.checkApplied(t, res.Stdout, c.writes)
		case c.gone != "" && res.Code != 0:
			// A failed delete is honest only if the group is still
			// there or the error says its fate is unknown.
			if !groupListed(t, r, c.gone) && !strings.Contains(line, "unknown") {
				t.Errorf("delete under %s: exit %d (%q) but %s is gone", fault, res.Code, line, c.gone)
			}
		case len(c.writes) > 0 && res.Code != 0:
			for g, before := range c.writes {
				got := r.e.Committed(t, g)[r.topic]
				if !mapsEqual(got, before) && !strings.Contains(line, "unknown") {
					t.Errorf("%s under %s: exit %d (%q) but %s changed to %v", c.name, fault, res.Code, line, g, got)
				}
			}
		}
	}
	return out
}

func groupListed(t *testing.T, r *faultRig, group string) bool {
	t.Helper()
	res, _ := r.kcg(t, "list", "-o", "json")
	res.MustCode(t, 0)
	var doc struct {
		Groups []struct {
			Group string `json:"group"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(res.Stdout), &doc); err != nil {
		t.Fatalf("list -o json: %v\n%s", err, res.Stdout)
	}
	return slices.ContainsFunc(doc.Groups, func(g struct {
		Group string `json:"group"`
	}) bool {
		return g.Group == group
	})
}

// Under a fault on every broker from the start, every command fails
// within the timeout, with one line and exit 1, and writes nothing it
// does not report.
func TestNetworkFaultMatrix(t *testing.T) {
	one := func(netCase) []int { return []int{1} }
	for _, tc := range []struct {
		fault faultproxy.Fault
		want  func(netCase) []int
	}{
		{faultproxy.Fault{Mode: faultproxy.Refuse}, one},
		{faultproxy.Fault{Mode: faultproxy.BlackHole}, one},
		{faultproxy.Fault{Mode: faultproxy.Delay, Delay: faultTimeout + 2*time.Second}, one},
		{faultproxy.Fault{Mode: faultproxy.Cut}, one},
		// At 1 KB/s a command may still finish inside the timeout; if it
		// does not, it fails like the others. Apply may get part way.
		{faultproxy.Fault{Mode: faultproxy.Slow, Rate: 1024}, func(c netCase) []int {
			switch {
			case c.apply:
				return []int{0, 1, 4}
			}
			return []int{0, 1}
		}},
	} {
		t.Run(tc.fault.Mode.String(), func(t *testing.T) {
			t.Parallel()
			runFault(t, tc.fault, tc.want)
		})
	}
}

// A short delay on every response costs time, not correctness: every
// command succeeds through the proxies, which also shows that the matrix
// above fails for the fault, not for the proxy.
func TestNetworkDelaySucceeds(t *testing.T) {
	runFault(t, faultproxy.Fault{Mode: faultproxy.Delay, Delay: 20 * time.Millisecond}, func(c netCase) []int {
		return []int{0}
	})
}

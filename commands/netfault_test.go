package commands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"

	"github.com/kcg-dev/kcg/commands"
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
	// Every broker a client learns of must be a proxy, or some traffic
	// would bypass the faults: the brokers must advertise the addresses
	// the proxies were made for.
	tr := &kafka.Transport{}
	defer tr.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := (&kafka.Client{Addr: kafka.TCP(pc.Addrs()[0]), Transport: tr}).Metadata(ctx, &kafka.MetadataRequest{})
	if err != nil {
		t.Fatalf("metadata through the proxy: %v", err)
	}
	for _, b := range md.Brokers {
		if a := net.JoinHostPort(b.Host, fmt.Sprint(b.Port)); !slices.Contains(pc.Addrs(), a) {
			t.Fatalf("broker %d is at %s, not behind a proxy: the brokers %v do not advertise the addresses given", b.ID, a, e.BrokerAddrs())
		}
	}
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
	return r.kcgWithin(t, faultTimeout, args...)
}

func (r *faultRig) kcgWithin(t *testing.T, timeout time.Duration, args ...string) (clitest.Result, time.Duration) {
	t.Helper()
	start := time.Now()
	res := kcg(t, append(args, "--bootstrap-server", r.pc.Bootstrap(), "--timeout", timeout.String())...)
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
		case strings.HasPrefix(l, "undo plan written to "):
			// kcg delete and delete-offsets name their undo plan, as
			// apply names its rollback plan.
		default:
			return "", fmt.Errorf("unexpected stderr line %q in %q", l, stderr)
		}
	}
	if len(errs) != 1 {
		return "", fmt.Errorf("%d error lines, want 1: %q", len(errs), stderr)
	}
	return errs[0], nil
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
	var rep applyReport
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
		{name: "delete", args: []string{"delete", "--yes", del}, gone: del},
		{name: "delete-offsets", args: []string{"delete-offsets", "--yes", delOff, "--topic", r.topic},
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
// may end with under this fault (nil: only its time is checked).
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
		if want(c) == nil {
			if strings.Contains(res.Stderr, "goroutine ") || strings.Contains(res.Stderr, "panic") {
				t.Errorf("%s under %s: stack trace on stderr: %q", c.name, fault, res.Stderr)
			}
			continue // time and stack traces checked only, see the caller
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
			if !groupListed(t, r, c.gone) && !strings.Contains(line, "may have reached Kafka") {
				t.Errorf("delete under %s: exit %d (%q) but %s is gone", fault, res.Code, line, c.gone)
			}
		case len(c.writes) > 0 && res.Code != 0:
			for g, before := range c.writes {
				got := r.e.Committed(t, g)[r.topic]
				if !mapsEqual(got, before) && !strings.Contains(line, "may have reached Kafka") {
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
			case c.name == "describe-all" && os.Getenv(kafkatest.EnvBootstrap) != "":
				// Every group of the shared real cluster at 1 KB/s: some
				// may be described, some not, a line each; measured only.
				return nil
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
	real := os.Getenv(kafkatest.EnvBootstrap) != ""
	runFault(t, faultproxy.Fault{Mode: faultproxy.Delay, Delay: 20 * time.Millisecond}, func(c netCase) []int {
		if c.name == "describe-all" && real {
			// The shared real cluster holds every other test's groups,
			// which other tests delete while this one describes them
			// (a line per vanished group): measured, not checked.
			return nil
		}
		return []int{0}
	})
}

// A fault that starts after the preflight, between the first group's
// writes and the second's, on the OffsetCommit requests only (or, for
// refuse, on every connection): apply ends within the timeout with exit
// 4, its report and last line name the groups written, not written and
// unknown, and the offsets read back once the network heals match the
// report.
func TestNetworkFaultDuringApply(t *testing.T) {
	const offsetCommit = 8
	for _, tc := range []struct {
		fault faultproxy.Fault
		codes []int
	}{
		{faultproxy.Fault{Mode: faultproxy.BlackHole, Keys: []int16{offsetCommit}}, []int{4}},
		{faultproxy.Fault{Mode: faultproxy.Cut, Keys: []int16{offsetCommit}}, []int{0, 4}},
		// A delayed or slowed answer still lets the commit land: read
		// back at its target, the group is written (exit 0), or, when the
		// request itself is held up, not (exit 4).
		{faultproxy.Fault{Mode: faultproxy.Delay, Delay: faultTimeout + 2*time.Second, Keys: []int16{offsetCommit}}, []int{0, 4}},
		{faultproxy.Fault{Mode: faultproxy.Slow, Rate: 1, Keys: []int16{offsetCommit}}, []int{0, 4}},
		{faultproxy.Fault{Mode: faultproxy.Refuse}, []int{4}},
	} {
		fault := tc.fault
		t.Run(fault.Mode.String(), func(t *testing.T) {
			// Not parallel: the apply hook is one per process.
			r := newFaultRig(t)
			a, b, c := r.group(t, "a"), r.group(t, "b"), r.group(t, "c")
			res, _ := r.kcg(t, "plan", a, b, c, "--topic", r.topic, "--to-latest", "--out", r.path("p.yaml"))
			res.MustCode(t, 0)
			offs := map[int32]int64{0: 2, 1: 3, 2: 4}
			restore := commands.SetBeforeGroupCommit(func(group string) {
				if group == b {
					// Groups are written several at a time: wait for a's
					// commit to land before the fault starts, so that a is
					// written whatever the fault.
					for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
						if got := r.e.Committed(t, a)[r.topic]; !mapsEqual(got, offs) {
							break
						}
					}
					r.set(t, fault)
				}
			})
			res, took := r.kcg(t, "apply", r.path("p.yaml"), "-o", "json", "--rollback-out", r.path("rb.yaml"))
			restore()
			r.set(t, faultproxy.Fault{})
			t.Logf("apply, %s from group b on: exit %d in %v; stderr %q", fault, res.Code, took.Round(10*time.Millisecond), strings.TrimSpace(res.Stderr))
			if took > faultTimeout+faultSlack {
				t.Errorf("apply took %v, more than --timeout %v + %v", took, faultTimeout, faultSlack)
			}
			if !slices.Contains(tc.codes, res.Code) {
				t.Fatalf("exit %d, want one of %v\nstdout %s\nstderr %s", res.Code, tc.codes, res.Stdout, res.Stderr)
			}
			var rep applyReport
			if err := json.Unmarshal([]byte(res.Stdout), &rep); err != nil {
				t.Fatalf("apply report: %v\n%s", err, res.Stdout)
			}
			if res.Code == 0 {
				for _, g := range rep.Groups {
					if g.Result != "written" {
						t.Fatalf("exit 0 but %s %s: %s", g.Group, g.Result, res.Stdout)
					}
				}
			}
			r.checkApplied(t, res.Stdout, map[string]map[int32]int64{a: offs, b: offs, c: offs})
			t.Logf("after healing: b reported %s, holds %v (was %v)", rep.Groups[1].Result, r.e.Committed(t, b)[r.topic], offs)
			if fault.Mode == faultproxy.Cut && (len(rep.Groups) != 3 || rep.Groups[1].Result != "written") {
				// The cut commit landed and reads back: b is written and
				// verified, not "partly" (groupops.applyGroup).
				t.Fatalf("cut OffsetCommit: b not reported written: %s", res.Stdout)
			}
			if res.Code == 0 {
				return
			}
			line, err := errLine(res.Stderr)
			if err != nil {
				t.Fatal(err)
			}
			// Every group is named in the last line under its result;
			// a is written (its commit landed before the fault), and
			// with several groups in flight b and c may each be written,
			// not written or unknown.
			lists := reportLists(line)
			notAll := false
			for _, g := range rep.Groups {
				key := map[string]string{"written": "written", "partial": "written", "not-written": "not written", "unknown": "unknown"}[g.Result]
				name := g.Group
				if g.Result == "partial" {
					name += " (partly)"
				}
				if !slices.Contains(lists[key], name) {
					t.Fatalf("last line %q does not list %s under %q", line, name, key)
				}
				notAll = notAll || g.Result != "written"
			}
			// Under refuse the read-back at the end cannot reach Kafka
			// either: a, written, is reported unknown (sent, not read
			// back), which the rollback covers.
			aOK := rep.Groups[0].Result == "written" || (fault.Mode == faultproxy.Refuse && rep.Groups[0].Result == "unknown")
			if len(rep.Groups) != 3 || !aOK || !notAll {
				t.Fatalf("report %s", res.Stdout)
			}
			// The rollback plan, written before the first commit, puts
			// every group back.
			res, _ = r.kcg(t, "apply", r.path("rb.yaml"), "--rollback-out", r.path("rb2.yaml"))
			res.MustCode(t, 0)
			for _, g := range []string{a, b, c} {
				if got := r.e.Committed(t, g)[r.topic]; !mapsEqual(got, offs) {
					t.Fatalf("after the rollback %s holds %v, want %v", g, got, offs)
				}
			}
		})
	}
}

// reportLists splits apply's last line ("...; written: a, b; not written:
// c; unknown (...): d; undo with ...") into its group lists.
func reportLists(line string) map[string][]string {
	out := map[string][]string{}
	for _, part := range strings.Split(line, "; ") {
		for _, key := range []string{"written", "not written", "unknown"} {
			rest, ok := strings.CutPrefix(part, key)
			if !ok || (rest == "" || (rest[0] != ':' && rest[0] != ' ')) {
				continue
			}
			if i := strings.LastIndex(rest, ": "); i >= 0 && rest[i+2:] != "none" {
				out[key] = strings.Split(rest[i+2:], ", ")
			}
		}
	}
	return out
}

// deadAddr returns a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// With several --bootstrap-server addresses, one that is down (refusing,
// or black-holed: it accepts and never answers) costs nothing while
// another answers (kafka-go shuffles them, so each command runs several
// times); with all of them down, exit 1 and one line within the timeout.
func TestBootstrapAddressDown(t *testing.T) {
	r := newFaultRig(t)
	g := r.group(t, "g")
	dead := deadAddr(t)
	hole, err := faultproxy.New(r.e.BrokerAddrs()[:1])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hole.Close)
	if err := hole.SetAll(faultproxy.Fault{Mode: faultproxy.BlackHole}); err != nil {
		t.Fatal(err)
	}
	some := strings.Join(append([]string{dead, hole.Addrs()[0]}, r.pc.Addrs()...), ",")
	for range 5 {
		for _, args := range [][]string{{"list"}, {"describe", g, "-o", "json"}} {
			start := time.Now()
			res := kcg(t, append(args, "--bootstrap-server", some, "--timeout", faultTimeout.String())...)
			if res.Code != 0 || time.Since(start) > faultTimeout {
				t.Fatalf("%v with %s down of %s: exit %d in %v\nstderr: %s", args, dead, some, res.Code, time.Since(start), res.Stderr)
			}
		}
	}
	all := strings.Join([]string{dead, deadAddr(t), deadAddr(t)}, ",")
	silent := strings.Join([]string{dead, hole.Addrs()[0]}, ",")
	for _, tc := range []struct {
		boot string
		args []string
	}{{all, []string{"list"}}, {all, []string{"describe", g}}, {silent, []string{"list"}}} {
		args := tc.args
		start := time.Now()
		res := kcg(t, append(args, "--bootstrap-server", tc.boot, "--timeout", faultTimeout.String())...)
		took := time.Since(start)
		t.Logf("%v with every bootstrap address down (%s): exit %d in %v; stderr %q", args, tc.boot, res.Code, took.Round(10*time.Millisecond), strings.TrimSpace(res.Stderr))
		res.MustCode(t, 1)
		if _, err := errLine(res.Stderr); err != nil || took > faultTimeout+faultSlack {
			t.Fatalf("%v: %v, %v", args, err, took)
		}
	}
}

// One of the three brokers unreachable (its proxy refuses). list and
// describe --all-groups ask every broker for its groups, so they fail
// (exit 1, one line naming the broker's address) rather than print a list
// that may lack groups; describe of a group whose coordinator answers
// shows the partitions led by the unreachable broker as unknown (null),
// the rest, exit 1 and one line naming them, within --timeout even when
// it is short; plan refuses those partitions and writes no file.
func TestOneBrokerUnreachable(t *testing.T) {
	r := newFaultRig(t)
	g := r.group(t, "g")
	leaders := r.e.Leaders(t, r.topic)
	coord := r.e.FindCoordinator(t, g)
	brokers := r.e.BrokerAddrs()
	t.Logf("leaders %v, coordinator of g: node %d, brokers %v", leaders, coord, brokers)
	check := func(what string, res clitest.Result, took time.Duration, code int) string {
		t.Helper()
		t.Logf("%s: exit %d in %v; stderr %q", what, res.Code, took.Round(10*time.Millisecond), strings.TrimSpace(res.Stderr))
		if res.Code != code || took > faultTimeout+faultSlack {
			t.Fatalf("%s: exit %d in %v, want %d within %v\nstdout %s\nstderr %s", what, res.Code, took, code, faultTimeout+faultSlack, res.Stdout, res.Stderr)
		}
		line, err := errLine(res.Stderr)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return line
	}
	for i, p := range r.pc.Proxies() {
		if err := p.Set(faultproxy.Fault{Mode: faultproxy.Refuse}); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"list"}, {"describe", "--all-groups"}} {
			res, took := r.kcg(t, args...)
			line := check(fmt.Sprintf("%v, broker %d refused", args, i), res, took, 1)
			if !strings.Contains(line, p.Addr()) || res.Stdout != "" {
				t.Fatalf("%v: line %q does not name the unreachable %s, or stdout %q", args, line, p.Addr(), res.Stdout)
			}
		}
		if err := p.Set(faultproxy.Fault{}); err != nil {
			t.Fatal(err)
		}
	}

	// A broker that leads partitions but is not the coordinator. Node ids
	// are 0..2 on kfake and 1..3 on the real cluster, in the order of
	// BrokerAddrs.
	node := -1
	var led []int
	for idx := range brokers {
		id := idx
		if r.e.Real {
			id = idx + 1
		}
		if id == coord {
			continue
		}
		led = nil
		for part, l := range leaders {
			if l == id {
				led = append(led, part)
			}
		}
		if len(led) > 0 {
			node = idx
			break
		}
	}
	if node < 0 {
		t.Skipf("every partition of %s is led by the coordinator's broker (leaders %v): no broker to fail alone", r.topic, leaders)
	}
	p := r.pc.Proxy(brokers[node])
	if err := p.Set(faultproxy.Fault{Mode: faultproxy.Refuse}); err != nil {
		t.Fatal(err)
	}
	// 2 s is less than the least that listOffsetsRetries' backoff adds up
	// to (about 2.3 s): the retries must stop in time to report
	// (kafkaadmin.retryReserve), not run into the deadline.
	const short = 2 * time.Second
	res, took := r.kcgWithin(t, short, "describe", g, "-o", "json")
	line := check("describe, a leader refused", res, took, 1)
	d := parseDescribe(t, res.Stdout)
	if len(d.Groups) != 1 || len(d.Groups[0].Offsets) != 3 {
		t.Fatalf("describe document %s", res.Stdout)
	}
	for _, o := range d.Groups[0].Offsets {
		part := int(o["partition"].(float64))
		unknown := o["logEndOffset"] == nil
		if unknown != slices.Contains(led, part) {
			t.Fatalf("partition %d: logEndOffset %v, led by the unreachable broker: %v", part, o["logEndOffset"], slices.Contains(led, part))
		}
		if unknown && !strings.Contains(line, fmt.Sprintf("%s/%d", r.topic, part)) {
			t.Fatalf("line %q does not name %s/%d", line, r.topic, part)
		}
	}
	res, took = r.kcgWithin(t, short, "plan", g, "--topic", r.topic, "--to-latest", "--out", r.path("down.yaml"))
	line = check("plan, a leader refused", res, took, 1)
	names := slices.ContainsFunc(led, func(part int) bool { return strings.Contains(line, fmt.Sprintf("%s/%d", r.topic, part)) })
	if _, err := os.Stat(r.path("down.yaml")); err == nil || !names {
		t.Fatalf("plan with %s partitions %v unknown: line %q, file written: %v", r.topic, led, line, err == nil)
	}
}

// delete and delete-offsets whose answer is lost: a cut response (the
// broker did the delete) is read back and reported as done, exit 0; a
// black hole (the request never arrives, the deadline comes first) is
// reported as of unknown outcome, exit 1, and nothing was deleted.
func TestNetworkFaultLosesDeleteAnswer(t *testing.T) {
	const deleteGroups, offsetDelete = 42, 47
	for _, mode := range []faultproxy.Mode{faultproxy.Cut, faultproxy.BlackHole} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			r := newFaultRig(t)
			del, dof := r.group(t, "del"), r.group(t, "dof")
			r.set(t, faultproxy.Fault{Mode: mode, Keys: []int16{deleteGroups, offsetDelete}})
			resDel, tookDel := r.kcg(t, "delete", "--yes", del)
			resDof, tookDof := r.kcg(t, "delete-offsets", "--yes", dof, "--topic", r.topic)
			r.set(t, faultproxy.Fault{})
			t.Logf("delete under %s: exit %d in %v; stderr %q", mode, resDel.Code, tookDel.Round(10*time.Millisecond), strings.TrimSpace(resDel.Stderr))
			t.Logf("delete-offsets under %s: exit %d in %v; stderr %q", mode, resDof.Code, tookDof.Round(10*time.Millisecond), strings.TrimSpace(resDof.Stderr))
			for _, took := range []time.Duration{tookDel, tookDof} {
				if took > faultTimeout+faultSlack {
					t.Fatalf("took %v", took)
				}
			}
			listed, offs := groupListed(t, r, del), r.e.Committed(t, dof)[r.topic]
			if mode == faultproxy.Cut {
				resDel.MustCode(t, 0)
				resDof.MustCode(t, 0)
				if listed || len(offs) != 0 {
					t.Fatalf("reported deleted, but %s listed %v, %s holds %v", del, listed, dof, offs)
				}
				return
			}
			resDel.MustCode(t, 1)
			resDof.MustCode(t, 1)
			for _, res := range []clitest.Result{resDel, resDof} {
				line, err := errLine(res.Stderr)
				if err != nil || !strings.Contains(line, "may have reached Kafka") {
					t.Fatalf("line %q (%v): want the outcome said to be unknown", line, err)
				}
			}
			if !strings.Contains(resDel.Stderr, "may or may not have been deleted") {
				t.Fatalf("delete stderr %q", resDel.Stderr)
			}
			if !listed || len(offs) != 3 {
				t.Fatalf("black hole: %s listed %v, %s holds %v; the requests never arrived", del, listed, dof, offs)
			}
		})
	}
}

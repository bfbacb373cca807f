package commands_test

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// recordsAt are n records, all with CreateTime at.
func recordsAt(n int, at time.Time) []kafkatest.Record {
	rs := records(n)
	for i := range rs {
		rs[i].Time = at
	}
	return rs
}

func flagsOf(o map[string]any) []string {
	var out []string
	for _, f := range o["timeLagFlags"].([]any) {
		out = append(out, f.(string))
	}
	return out
}

// "How many minutes behind is billing?": records written ten minutes ago
// and a commit before them read as ten minutes of time lag; a group at the
// log end as 0; a producer clock ahead as 0, flagged. Without --time-lag
// the fields are there and null.
func TestDescribeTimeLag(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 3)
	tenAgo := time.Now().Add(-10 * time.Minute).Truncate(time.Millisecond)
	e.Produce(t, topic, 0, recordsAt(5, tenAgo)...)
	e.Produce(t, topic, 1, recordsAt(4, tenAgo)...)
	e.Produce(t, topic, 2, recordsAt(2, time.Now().Add(time.Hour))...)
	e.Commit(t, group, topic, map[int32]int64{0: 2, 1: 4, 2: 0})

	r := kcgOn(t, e, "describe", group, "--time-lag", "-o", "json").MustCode(t, 0)
	d := parseDescribe(t, r.Stdout)
	p0 := offsetOf(t, d, group, topic, 0)
	if ms, ok := p0["timeLagMs"].(float64); !ok || ms < 598_000 || ms > 602_000 {
		t.Errorf("p0 timeLagMs = %v, want 600000 ± 2000", p0["timeLagMs"])
	}
	if want := tenAgo.UTC().Format("2006-01-02T15:04:05.000Z"); p0["committedTimestamp"] != want {
		t.Errorf("p0 committedTimestamp = %v, want %s", p0["committedTimestamp"], want)
	}
	if len(flagsOf(p0)) != 0 {
		t.Errorf("p0 flags %v", flagsOf(p0))
	}
	p1 := offsetOf(t, d, group, topic, 1)
	if p1["timeLagMs"] != 0.0 || p1["committedTimestamp"] != nil {
		t.Errorf("caught up: timeLagMs %v committedTimestamp %v, want 0 and null", p1["timeLagMs"], p1["committedTimestamp"])
	}
	p2 := offsetOf(t, d, group, topic, 2)
	if p2["timeLagMs"] != 0.0 || p2["committedTimestamp"] == nil || !slices.Equal(flagsOf(p2), []string{"future-timestamp"}) {
		t.Errorf("future CreateTime: %v", p2)
	}
	if got := d.Groups[0].MaxTimeLagMs; got == nil || *got < 598_000 {
		t.Errorf("maxTimeLagMs = %v", got)
	}

	r = kcgOn(t, e, "describe", group, "--time-lag").MustCode(t, 0)
	got := rows(r.Stdout, group)
	if len(got) != 4 || !regexp.MustCompile(`^(9m5\d|10m)s?`).MatchString(got[0][6]) || got[1][6] != "0s" || got[3][3] != got[0][6] {
		t.Errorf("TIME-LAG column:\n%s", r.Stdout)
	}

	r = kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0)
	d = parseDescribe(t, r.Stdout)
	for p := range 3 {
		o := offsetOf(t, d, group, topic, p)
		if v, ok := o["timeLagMs"]; !ok || v != nil || o["committedTimestamp"] != nil {
			t.Errorf("without --time-lag p%d: timeLagMs %v committedTimestamp %v, want present and null", p, v, o["committedTimestamp"])
		}
	}
	if d.Groups[0].MaxTimeLagMs != nil {
		t.Errorf("without --time-lag maxTimeLagMs = %v", *d.Groups[0].MaxTimeLagMs)
	}
	if r := kcgOn(t, e, "describe", group); regexp.MustCompile(`TIME-LAG`).MatchString(r.Stdout) {
		t.Errorf("TIME-LAG without the flag:\n%s", r.Stdout)
	}
}

// Retention passed the commit: the first record there is tells the time,
// flagged below-log-start.
func TestDescribeTimeLagBelowLogStart(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 1)
	old := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	newer := time.Now().Add(-5 * time.Minute).Truncate(time.Millisecond)
	e.Produce(t, topic, 0, recordsAt(3, old)...)
	e.Produce(t, topic, 0, recordsAt(3, newer)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	e.DeleteRecords(t, topic, map[int32]int64{0: 3})

	d := parseDescribe(t, kcgOn(t, e, "describe", group, "--time-lag", "-o", "json").MustCode(t, 0).Stdout)
	o := offsetOf(t, d, group, topic, 0)
	if o["committedTimestamp"] != newer.UTC().Format("2006-01-02T15:04:05.000Z") || !slices.Equal(flagsOf(o), []string{"below-log-start"}) {
		t.Errorf("below the log start: %v", o)
	}
	if o["retentionHeadroomMs"] != 0.0 {
		t.Errorf("below the log start: retentionHeadroomMs %v, want 0", o["retentionHeadroomMs"])
	}
}

// Transactions: markers and aborted data are skipped (only they left:
// caught up, 0); the first committed record after them is the next to be
// consumed; an open transaction makes the time unknown, flagged.
func TestDescribeTimeLagTransactions(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "ledger")
	markers := kafkatest.UniqueName(t, "markers")
	skipped := kafkatest.UniqueName(t, "skipped")
	open := kafkatest.UniqueName(t, "open")
	e.CreateTopic(t, topic, 1)
	old := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	e.Transaction(t, topic, 0, recordsAt(2, old)...)(true)  // 0, 1, commit marker 2
	e.Transaction(t, topic, 0, recordsAt(2, old)...)(false) // 3, 4, abort marker 5
	e.Commit(t, markers, topic, map[int32]int64{0: 2})      // only markers and aborted data after it
	later := time.Now().Add(-2 * time.Minute).Truncate(time.Millisecond)
	e.Transaction(t, topic, 0, recordsAt(1, later)...)(true) // 6, commit marker 7
	e.Commit(t, skipped, topic, map[int32]int64{0: 2})       // the next record it reads is 6
	e.Transaction(t, topic, 0, recordsAt(1, time.Now())...)  // 8, left open
	e.Commit(t, open, topic, map[int32]int64{0: 8})

	for _, c := range []struct {
		group string
		ms    any
		ts    any
		flags []string
	}{
		{skipped, nil, later.UTC().Format("2006-01-02T15:04:05.000Z"), nil},
		{open, nil, nil, []string{"open-transaction"}},
	} {
		d := parseDescribe(t, kcgOn(t, e, "describe", c.group, "--time-lag", "-o", "json").MustCode(t, 0).Stdout)
		o := offsetOf(t, d, c.group, topic, 0)
		if o["committedTimestamp"] != c.ts || !slices.Equal(flagsOf(o), c.flags) {
			t.Errorf("%s: %v", c.group, o)
		}
		if c.group == open && o["timeLagMs"] != nil {
			t.Errorf("open transaction: timeLagMs %v, want null", o["timeLagMs"])
		}
		if ms, ok := o["timeLagMs"].(float64); c.group == skipped && (!ok || ms < 118_000 || ms > 122_000) {
			t.Errorf("after the aborted data: timeLagMs %v, want 120000 ± 2000", o["timeLagMs"])
		}
	}
	// Only markers and aborted data up to the log end: caught up in time,
	// though the offset lag is 2.
	only := kafkatest.UniqueName(t, "only-markers")
	e.CreateTopic(t, only, 1)
	e.Transaction(t, only, 0, recordsAt(1, old)...)(true)  // 0, marker 1
	e.Transaction(t, only, 0, recordsAt(1, old)...)(false) // 2, marker 3
	e.Commit(t, markers, only, map[int32]int64{0: 1})
	d := parseDescribe(t, kcgOn(t, e, "describe", markers, "--time-lag", "--topic", only, "-o", "json").MustCode(t, 0).Stdout)
	o := offsetOf(t, d, markers, only, 0)
	if o["timeLagMs"] != 0.0 || o["committedTimestamp"] != nil || o["lag"] == 0.0 {
		t.Errorf("only markers and aborted data left: %v, want lag > 0, timeLagMs 0, committedTimestamp null", o)
	}
}

// LogAppendTime topics: the broker's append time, not the producer's.
// (The batch decoding is unit-tested in kafkaadmin; this checks a real
// broker stamps the batches.)
func TestDescribeTimeLagLogAppendTime(t *testing.T) {
	e := kafkatest.Cluster(t)
	e.RequireReal(t, "kfake accepts message.timestamp.type but does not apply it to the topic's batches")
	topic := kafkatest.UniqueName(t, "audit")
	group := kafkatest.UniqueName(t, "auditor")
	e.CreateTopic(t, topic, 1, "message.timestamp.type=LogAppendTime")
	e.Produce(t, topic, 0, recordsAt(3, time.Now().Add(-24*time.Hour))...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	d := parseDescribe(t, kcgOn(t, e, "describe", group, "--time-lag", "-o", "json").MustCode(t, 0).Stdout)
	o := offsetOf(t, d, group, topic, 0)
	if ms, ok := o["timeLagMs"].(float64); !ok || ms > 60_000 || !slices.Equal(flagsOf(o), []string{"log-append-time"}) {
		t.Errorf("LogAppendTime: %v, want a small time lag flagged log-append-time", o)
	}
}

// An open transaction: the last stable offset stays below the log end,
// and --isolation read-committed measures lag against it (smaller than
// the default's, which is the Java tool's). The JSON carries
// lastStableOffset either way.
func TestDescribeIsolationReadCommitted(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "ledger")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(4)...)     // 0-3
	e.Transaction(t, topic, 0, records(3)...) // 4-6, open
	e.Commit(t, group, topic, map[int32]int64{0: 1})

	def := offsetOf(t, parseDescribe(t, kcgOn(t, e, "describe", group, "-o", "json").MustCode(t, 0).Stdout), group, topic, 0)
	rc := offsetOf(t, parseDescribe(t, kcgOn(t, e, "describe", group, "--isolation", "read-committed", "-o", "json").MustCode(t, 0).Stdout), group, topic, 0)
	if def["lastStableOffset"] != 4.0 || def["logEndOffset"] != 7.0 || def["lag"] != 6.0 {
		t.Errorf("default: %v, want lastStableOffset 4, logEndOffset 7, lag 6", def)
	}
	if rc["lastStableOffset"] != 4.0 || rc["lag"] != 3.0 {
		t.Errorf("read-committed: %v, want lag 3 against the last stable offset 4", rc)
	}
	r := kcgOn(t, e, "describe", group, "--isolation", "read-committed").MustCode(t, 0)
	if got := rows(r.Stdout, group); len(got) != 2 || got[0][3] != "1" || got[0][4] != "4" || got[0][5] != "3" || !regexp.MustCompile(`LAST-STABLE-OFFSET`).MatchString(r.Stdout) {
		t.Errorf("read-committed table:\n%s", r.Stdout)
	}
	// Committed at the last stable offset: caught up for a read-committed
	// consumer, in offsets and in time.
	e.Commit(t, group, topic, map[int32]int64{0: 4})
	rc = offsetOf(t, parseDescribe(t, kcgOn(t, e, "describe", group, "--isolation", "read-committed", "--time-lag", "-o", "json").MustCode(t, 0).Stdout), group, topic, 0)
	if rc["lag"] != 0.0 || rc["timeLagMs"] != 0.0 {
		t.Errorf("read-committed at the LSO: %v, want lag 0 and timeLagMs 0", rc)
	}

	r = kcg(t, "describe", group, "--isolation", "serializable", "--bootstrap-server", e.Bootstrap)
	if r.Code != 64 || !regexp.MustCompile(`^kcg: unknown --isolation "serializable": allowed values are read-uncommitted, read-committed\n$`).MatchString(r.Stderr) {
		t.Errorf("bad --isolation: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// Groups committed at the same offset of a partition share one read and
// one computed time lag (groupops.ReadTimeLags keeps one per partition and
// committed offset); each group must still get the time of its own
// commit: two groups at offset 2 see the older records' time, one at 4
// the newer, one at the log end 0, one below the log start the first
// record left, flagged, while another at the same offset as that record
// is not flagged.
func TestDescribeTimeLagSharedCommits(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	e.CreateTopic(t, topic, 2)
	old := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	newer := time.Now().Add(-5 * time.Minute).Truncate(time.Millisecond)
	e.Produce(t, topic, 0, recordsAt(4, old)...)
	e.Produce(t, topic, 0, recordsAt(4, newer)...)
	e.Produce(t, topic, 1, recordsAt(4, old)...)
	e.Produce(t, topic, 1, recordsAt(4, newer)...)
	e.DeleteRecords(t, topic, map[int32]int64{1: 4})
	base := kafkatest.UniqueName(t, "g")
	a, b, c, d, f := base+"-a", base+"-b", base+"-c", base+"-d", base+"-f"
	e.Commit(t, a, topic, map[int32]int64{0: 2, 1: 1})
	e.Commit(t, b, topic, map[int32]int64{0: 2, 1: 4})
	e.Commit(t, c, topic, map[int32]int64{0: 4, 1: 2})
	e.Commit(t, d, topic, map[int32]int64{0: 8, 1: 8})
	e.Commit(t, f, topic, map[int32]int64{0: 2})

	doc := parseDescribe(t, kcgOn(t, e, "describe", a, b, c, d, f, "--time-lag", "-o", "json").MustCode(t, 0).Stdout)
	stamp := func(at time.Time) string { return at.UTC().Format("2006-01-02T15:04:05.000Z") }
	for _, w := range []struct {
		group string
		p     int
		ts    any
		flags []string
	}{
		{a, 0, stamp(old), nil}, {b, 0, stamp(old), nil}, {f, 0, stamp(old), nil},
		{c, 0, stamp(newer), nil}, {d, 0, nil, nil},
		{a, 1, stamp(newer), []string{"below-log-start"}}, {c, 1, stamp(newer), []string{"below-log-start"}},
		{b, 1, stamp(newer), nil}, {d, 1, nil, nil},
	} {
		o := offsetOf(t, doc, w.group, topic, w.p)
		if o["committedTimestamp"] != w.ts || !slices.Equal(flagsOf(o), w.flags) {
			t.Errorf("%s p%d: committedTimestamp %v flags %v, want %v %v", w.group, w.p, o["committedTimestamp"], flagsOf(o), w.ts, w.flags)
		}
		if ms, ok := o["timeLagMs"].(float64); !ok || (w.ts == nil) != (ms == 0) {
			t.Errorf("%s p%d: timeLagMs %v", w.group, w.p, o["timeLagMs"])
		}
	}
	// The sharing must not leak one group's maximum into another's.
	for _, g := range doc.Groups {
		want := map[string]time.Duration{a: time.Since(old), b: time.Since(old), f: time.Since(old), c: time.Since(newer), d: 0}[g.Group]
		if g.MaxTimeLagMs == nil || time.Duration(*g.MaxTimeLagMs)*time.Millisecond > want+time.Minute || time.Duration(*g.MaxTimeLagMs)*time.Millisecond < want-time.Minute {
			t.Errorf("%s maxTimeLagMs %v, want about %v", g.Group, ptrText(g.MaxTimeLagMs), want)
		}
	}
}

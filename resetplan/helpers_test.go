package resetplan

import (
	"strings"
	"testing"
	"time"
)

func TestImpact(t *testing.T) {
	p := samplePlan()
	p.Groups[1].Partitions = append(p.Groups[1].Partitions,
		Partition{Topic: "payments", Partition: 1, Current: i64(1), Target: i64(4), LogEnd: 6, Reason: ReasonResolved},
		Partition{Topic: "payments", Partition: 2, Current: i64(4), Target: i64(4), LogEnd: 6, Reason: ReasonResolved})
	im := ComputeImpact(p)
	if im.Replay != 3+3 || im.Skip != 3 || im.NoCurrent != 1 || len(im.Groups) != 2 {
		t.Fatalf("totals %+v", im)
	}
	a := im.Groups[0] // analytics: 5→2 replays 3, 1→4 skips 3, 4→4 nothing
	if a.Group != "analytics" || a.Replay != 3 || a.Skip != 3 || a.NoCurrent != 0 {
		t.Errorf("analytics %+v", a)
	}
	if pi := a.Partitions[2]; pi.Replay == nil || *pi.Replay != 0 || *pi.Skip != 0 {
		t.Errorf("unchanged partition %+v", pi)
	}
	b := im.Groups[1] // billing: p0 3→0 replays 3; p1 has no current
	if b.Replay != 3 || b.Skip != 0 || b.NoCurrent != 1 || b.Partitions[1].Replay != nil || b.Partitions[1].Skip != nil {
		t.Errorf("billing %+v", b)
	}
	del := Partition{Current: i64(5), Reason: ReasonDeleteOffset}
	if pi := del.Impact(); pi.Replay != nil || pi.Skip != nil {
		t.Errorf("delete-offset impact %+v", pi)
	}
}

func TestDiff(t *testing.T) {
	a := samplePlan()
	if d := Diff(a, samplePlan()); !d.Empty() {
		t.Fatalf("same plan differs: %+v", d)
	}
	later := samplePlan()
	later.CreatedAt = later.CreatedAt.Add(time.Hour)
	later.CreatedBy = "kcg 0.2.0"
	if !Diff(a, later).Empty() {
		t.Error("createdAt/createdBy count as a difference")
	}
	b := samplePlan()
	b.Strategy = Strategy{Type: StrategyToOffset, Offset: i64(0)}
	b.Annotations.Ticket = "CHG-2"
	*b.Groups[0].Partitions[1].Target = 1 // billing payments-0
	b.Groups[0].Partitions[1].Reason = ReasonClampedToStart
	b.Groups[0].Partitions[0].Current = i64(2) // billing payments-1: null → 2
	b.Groups[0].Partitions = append(b.Groups[0].Partitions, Partition{Topic: "refunds", Partition: 0, Target: i64(0), Reason: ReasonResolved})
	b.Groups[1] = Group{Group: "fraud", Type: "classic", StateAtPlan: "Empty", Partitions: []Partition{{Topic: "t", Target: i64(0), Reason: ReasonResolved}}}
	d := Diff(a, b)
	var plan []string
	for _, c := range d.Plan {
		plan = append(plan, c.Field+": "+c.Before+" -> "+c.After)
	}
	if got := strings.Join(plan, "\n"); got != "strategy: to-datetime datetime=2026-11-28T00:00:00Z -> to-offset offset=0\nannotations.ticket: CHG-1234 -> CHG-2" {
		t.Errorf("plan changes:\n%s", got)
	}
	var groups []string
	for _, g := range d.Groups {
		groups = append(groups, g.Group+" "+string(g.Kind))
	}
	if got := strings.Join(groups, ", "); got != "analytics removed, fraud added" {
		t.Errorf("group changes: %s", got)
	}
	var parts []string
	for _, c := range d.Partitions {
		parts = append(parts, c.Group+" "+c.Topic+"-"+itoa(int64(c.Partition))+" "+string(c.Kind)+" "+strings.Join(c.Fields, ","))
	}
	want := strings.Join([]string{
		"analytics payments-0 removed ",
		"billing payments-0 changed target,reason",
		"billing payments-1 changed current",
		"billing refunds-0 added ",
		"fraud t-0 added ",
	}, "\n")
	if got := strings.Join(parts, "\n"); got != want {
		t.Errorf("partition changes:\n%s\nwant\n%s", got, want)
	}
	if c := d.Partitions[1]; c.Before == nil || c.After == nil || *c.Before.Target != 0 || *c.After.Target != 1 {
		t.Errorf("before/after %+v", c)
	}
	st := samplePlan()
	st.Groups[0].StateAtPlan = "Dead"
	if d := Diff(a, st); len(d.Groups) != 1 || d.Groups[0].Kind != Changed || d.Groups[0].Fields[0].Field != "stateAtPlan" {
		t.Errorf("state change %+v", d.Groups)
	}
}

func TestRollback(t *testing.T) {
	p := samplePlan()
	live := LiveOffsets{"billing": {tp("payments", 0): 3}, "analytics": {tp("payments", 0): 5}, "other": {tp("x", 0): 1}}
	rb := Rollback(p, live, testNow)
	if rb.Strategy.Type != StrategyRollback || rb.Strategy.RollbackOf != Digest(p) || !rb.CreatedAt.Equal(testNow.Truncate(time.Second)) {
		t.Errorf("header %+v", rb.Strategy)
	}
	if rb.Annotations == nil || rb.Annotations.Ticket != "CHG-1234" || rb.Annotations == p.Annotations {
		t.Error("annotations not copied")
	}
	b := rb.FindGroup("billing")
	// payments-0: was 3, the plan commits 0 → rollback expects 0, restores 3.
	if pt := b.Partitions[0]; *pt.Current != 0 || *pt.Target != 3 || pt.Reason != ReasonRestore {
		t.Errorf("restore %+v", pt)
	}
	// payments-1: no commit before → rollback deletes it.
	if pt := b.Partitions[1]; *pt.Current != 6 || pt.Target != nil || pt.Reason != ReasonDeleteOffset {
		t.Errorf("delete %+v", pt)
	}
	if rb.FindGroup("other") != nil || rb.FindGroup("nope") != nil {
		t.Error("rollback has a group the plan did not touch")
	}
	// Rolling back the rollback gives the plan's targets again.
	after := LiveOffsets{"billing": {tp("payments", 0): 0, tp("payments", 1): 6}, "analytics": {tp("payments", 0): 2}}
	rr := Rollback(rb, after, testNow)
	if pt := rr.FindGroup("billing").Partitions[1]; pt.Current != nil || *pt.Target != 6 || pt.Reason != ReasonRestore {
		t.Errorf("rollback of rollback %+v", pt)
	}
	if len(FindDrift(rb, after)) != 0 {
		t.Errorf("rollback is stale right after apply: %v", FindDrift(rb, after))
	}
}

func TestFindDrift(t *testing.T) {
	p := samplePlan()
	live := LiveOffsets{"billing": {tp("payments", 0): 3}, "analytics": {tp("payments", 0): 5}}
	if d := FindDrift(p, live); len(d) != 0 {
		t.Fatalf("drift on unchanged state: %v", d)
	}
	live["billing"][tp("payments", 0)] = 7
	live["billing"][tp("payments", 1)] = 1
	delete(live["analytics"], tp("payments", 0))
	var got []string
	for _, d := range FindDrift(p, live) {
		got = append(got, d.String())
	}
	want := "analytics payments/0: planned from 5, now no commit\nbilling payments/0: planned from 3, now 7\nbilling payments/1: planned from no commit, now 1"
	if strings.Join(got, "\n") != want {
		t.Errorf("drift:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

func TestErrorsText(t *testing.T) {
	nf := &NotFoundError{Topics: []string{"a", "b"}}
	if nf.Error() != `topics "a", "b" do not exist` {
		t.Errorf("%q", nf.Error())
	}
	de := &DecodeError{Format: "csv", Line: 3, Msg: "bad"}
	if de.Error() != "CSV line 3: bad" {
		t.Errorf("%q", de.Error())
	}
	if (&DecodeError{Msg: "x"}).Error() != "plan: x" {
		t.Error("plan prefix")
	}
	ae := &ArgError{Msg: "m"}
	if ae.Error() != "m" || ae.JavaMessage() != "m" {
		t.Error("ArgError without option")
	}
}

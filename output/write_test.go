package output

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/golden"
	"github.com/kcg-dev/kcg/resetplan"
)

// writeCase is one document of TestWrite: what Write must print for it in
// each format.
type writeCase struct {
	name string
	doc  Document
	// table is the golden file of its table view.
	table string
	// encoded is what JSON and YAML encode, and how (the documents'
	// writers or the plan file's own encoding).
	json, yaml func(*bytes.Buffer) error
}

func writeCases(t *testing.T) []writeCase {
	a, b := planA(t), decodePlan(t, planB)
	l := fixtureDescriptions()
	enc := func(doc any) (func(*bytes.Buffer) error, func(*bytes.Buffer) error) {
		return func(b *bytes.Buffer) error { return writeJSON(b, doc) },
			func(b *bytes.Buffer) error { return writeYAML(b, doc) }
	}
	var cs []writeCase
	add := func(name string, doc Document, table string, encoded any) {
		j, y := enc(encoded)
		cs = append(cs, writeCase{name, doc, table, j, y})
	}
	add("list", fixtureGroupList(), "list.table", fixtureGroupList())
	for _, v := range []struct {
		view View
		name string
	}{{ViewOffsets, "offsets"}, {ViewMembers, "members"}, {ViewState, "state"}} {
		add("describe-"+v.name, DescribeView{Doc: l, View: v.view}, "describe-"+v.name+".table", l)
		add("describe-"+v.name+"-verbose", DescribeView{Doc: l, View: v.view, Verbose: true}, "describe-"+v.name+"-verbose.table", l)
	}
	add("plan-diff", NewPlanDiff("a.yaml", "b.yaml", resetplan.Diff(a, b)), "plan-diff.table", NewPlanDiff("a.yaml", "b.yaml", resetplan.Diff(a, b)))
	add("plan-diff-equal", NewPlanDiff("a.yaml", "a2.yaml", resetplan.Diff(a, a)), "plan-diff-equal.table", NewPlanDiff("a.yaml", "a2.yaml", resetplan.Diff(a, a)))
	add("plan-status", fixturePlanStatus(), "plan-status.table", fixturePlanStatus())
	add("plan-status-applied", NewPlanStatus("reset.yaml", a, a.Cluster.ID), "plan-status-applied.table", NewPlanStatus("reset.yaml", a, a.Cluster.ID))
	add("apply", fixtureApplyReport(), "apply.table", fixtureApplyReport())
	add("delete", fixtureGroupDeleteResult(), "delete.table", fixtureGroupDeleteResult())
	add("delete-offsets", fixtureOffsetDeleteResult(), "delete-offsets.table", fixtureOffsetDeleteResult())
	cs = append(cs, writeCase{"plan", PlanDocument{Plan: a}, "plan-summary.table",
		func(buf *bytes.Buffer) error { _, err := buf.Write(resetplan.EncodeJSON(a)); return err },
		func(buf *bytes.Buffer) error {
			data, err := resetplan.EncodeYAML(a)
			buf.Write(data)
			return err
		}})
	del := decodePlan(t, planDelete)
	cs = append(cs, writeCase{"plan-delete", PlanDocument{Plan: del}, "plan-delete-summary.table",
		func(buf *bytes.Buffer) error { _, err := buf.Write(resetplan.EncodeJSON(del)); return err },
		func(buf *bytes.Buffer) error {
			data, err := resetplan.EncodeYAML(del)
			buf.Write(data)
			return err
		}})
	return cs
}

// TestWrite pins Write's dispatch for every document and format: the
// table is the document's golden table, JSON and YAML are byte for byte
// what the document's encoders write.
func TestWrite(t *testing.T) {
	for _, c := range writeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			golden.Check(t, c.table, golden.Render(t, func(b *bytes.Buffer) error { return Write(b, FormatTable, c.doc) }))
			for _, f := range []struct {
				format Format
				want   func(*bytes.Buffer) error
			}{{FormatJSON, c.json}, {FormatYAML, c.yaml}} {
				got := golden.Render(t, func(b *bytes.Buffer) error { return Write(b, f.format, c.doc) })
				if want := golden.Render(t, f.want); !bytes.Equal(got, want) {
					t.Errorf("%s differs from the document's encoding\n--- got ---\n%s\n--- want ---\n%s", f.format, got, want)
				}
			}
		})
	}
}

// TestWriteDescribeDocumentIgnoresTheView: the describe document is the
// same whatever table view was asked for, and it is the golden one.
func TestWriteDescribeDocumentIgnoresTheView(t *testing.T) {
	for _, f := range []Format{FormatJSON, FormatYAML} {
		want, err := os.ReadFile(filepath.Join("testdata", "describe."+string(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []View{ViewOffsets, ViewMembers, ViewState} {
			for _, verbose := range []bool{false, true} {
				doc := DescribeView{Doc: fixtureDescriptions(), View: v, Verbose: verbose}
				if got := golden.Render(t, func(b *bytes.Buffer) error { return Write(b, f, doc) }); !bytes.Equal(got, want) {
					t.Errorf("%s of view %d verbose %v is not describe.%s:\n%s", f, v, verbose, f, got)
				}
			}
		}
	}
}

func TestWriteRejectsAnUnknownFormat(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, Format("csv"), fixtureGroupList())
	if err == nil || !strings.Contains(err.Error(), `"csv"`) {
		t.Errorf("err = %v, want an error naming the format", err)
	}
	if b.Len() != 0 {
		t.Errorf("wrote %q for an unknown format", b.String())
	}
}

// TestNewPlanDiff pins the document of `kcg diff A B` built from
// resetplan.Diff: every plan-level, group and partition change, with the
// partitions' entries copied from the plans.
func TestNewPlanDiff(t *testing.T) {
	a, b := planA(t), decodePlan(t, planB)
	d := NewPlanDiff("a.yaml", "b.yaml", resetplan.Diff(a, b))
	golden.Check(t, "plan-diff.json", golden.Render(t, func(buf *bytes.Buffer) error { return writeJSON(buf, d) }))
	golden.Check(t, "plan-diff.yaml", golden.Render(t, func(buf *bytes.Buffer) error { return writeYAML(buf, d) }))
	if d.Equal || len(d.Plan) != 3 || len(d.Groups) != 1 || len(d.Partitions) != 4 {
		t.Fatalf("diff %+v", d)
	}
	if p := d.Partitions[2]; p.Change != "removed" || p.After != nil || p.Before == nil || p.Before.Current != nil || *p.Before.Target != 6 || p.Before.Reason != "no-record-after-time" {
		t.Errorf("removed partition %+v before %+v", p, p.Before)
	}
	if p := d.Partitions[3]; p.Change != "added" || p.Before != nil || p.After == nil || *p.After.Current != 4 {
		t.Errorf("added partition %+v", p)
	}

	same := NewPlanDiff("a.yaml", "a2.yaml", resetplan.Diff(a, a))
	if !same.Equal || same.Plan != nil || same.Groups != nil || same.Partitions != nil {
		t.Errorf("diff of a plan with itself %+v", same)
	}
	golden.Check(t, "plan-diff-equal.json", golden.Render(t, func(buf *bytes.Buffer) error { return writeJSON(buf, same) }))
}

func TestNewPlanStatus(t *testing.T) {
	p := planA(t)
	s := NewPlanStatus("reset.yaml", p, "live-cluster")
	want := PlanStatus{APIVersion: APIVersion, Kind: KindPlanStatus, Plan: "reset.yaml", Digest: resetplan.Digest(p),
		PlanClusterID: "4L6g3nShT-eMCtK--X86sw", ClusterID: "live-cluster", plan: p}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("NewPlanStatus = %+v, want %+v", s, want)
	}
}

package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/internal/schematest"
)

// describe of a share group: type share, its member and assignment, the
// START-OFFSET table; JSON has startOffset where the share-partition is
// initialised and no committed offsets. On the real broker, the start
// offsets the consumer advanced and the lag (describeShareStartOffsets).
func TestDescribeShareGroup(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)

	r := kcgOn(t, f.e, "describe", share, "-o", "json").MustCode(t, 0)
	var doc struct {
		Groups []struct {
			Group   string
			Type    *string
			State   *string
			Members []struct {
				MemberID    string
				Assignments []struct{ Topic string }
			}
			Offsets []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if len(doc.Groups) != 1 || doc.Groups[0].Type == nil || *doc.Groups[0].Type != "share" || len(doc.Groups[0].Members) != 1 {
		t.Fatalf("describe -o json:\n%s", r.Stdout)
	}
	for _, o := range doc.Groups[0].Offsets {
		if o["committedOffset"] != nil {
			t.Fatalf("a share group with a committed offset: %v", o)
		}
	}
	schematest.MustMatch(t, "GroupDescriptionList", r.Stdout, false)
	schematest.MustMatch(t, "GroupDescriptionList", kcgOn(t, f.e, "describe", share, "-o", "yaml").MustCode(t, 0).Stdout, true)
	// Mixed with a consumer group: both tables.
	r = kcgOn(t, f.e, "describe", f.group, share).MustCode(t, 0)
	if !strings.Contains(r.Stdout, "CURRENT-OFFSET") {
		t.Fatalf("describe table:\n%s", r.Stdout)
	}
	r = kcgOn(t, f.e, "describe", share, "--members").MustCode(t, 0)
	if len(rows(r.Stdout, share)) != 1 {
		t.Fatalf("describe --members:\n%s", r.Stdout)
	}
	if f.e.Real {
		// The console share consumer consumes what is produced:
		// startOffset advances to the log end, as franz-go reads it.
		describeShareStartOffsets(t, f.e, share, f.topic)
	}
}

// plan of a share group: the plan file's entry has type share, current
// is the start offset; --to-group is refused (share groups have no
// committed offsets to copy); the delete commands and apply without a
// share branch still refuse it.
func TestPlanShareGroup(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)
	out := f.path("share.yaml")
	r := kcgOn(t, f.e, "plan", share, "--topic", f.topic, "--to-offset", "3", "--out", out).MustCode(t, 0)
	data := readFile(t, out)
	schematest.MustMatch(t, "OffsetResetPlan", data, true)
	if !strings.Contains(data, "type: share") || !strings.Contains(data, "target: 3") {
		t.Fatalf("plan:\n%s\nstderr %s", data, r.Stderr)
	}
	r = kcgOn(t, f.e, "plan", share, "--topic", f.topic, "--to-group", f.group, "--out", f.path("tg.yaml")).MustCode(t, 64)
	oneLine(t, r.Stderr, "share group", "--to-group")
	r = kcgOn(t, f.e, "plan", f.group, "--topic", f.topic, "--to-group", share, "--out", f.path("tg.yaml")).MustCode(t, 64)
	oneLine(t, r.Stderr, "group "+share+" is a share group", "--to-group")
	// --all-groups --type share takes it, and the consumer group not.
	r = kcgOn(t, f.e, "plan", "--all-groups", "--type", "share", "--topic", f.topic, "--to-earliest", "--out", "-").MustCode(t, 0)
	if !strings.Contains(r.Stdout, "group: "+share) || strings.Contains(r.Stdout, "group: "+f.group) {
		t.Fatalf("plan --all-groups --type share:\n%s", r.Stdout)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// apply of a share-group plan while the group has a member: exit 3,
// nothing written (the start offsets read back unchanged).
func TestApplyShareGroupActive(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)
	out := f.path("share.yaml")
	kcgOn(t, f.e, "plan", share, "--topic", f.topic, "--to-offset", "3", "--out", out).MustCode(t, 0)
	before := kcgOn(t, f.e, "describe", share, "-o", "json").MustCode(t, 0).Stdout
	r := kcgOn(t, f.e, "apply", out).MustCode(t, 3)
	oneLine(t, r.Stderr, share)
	after := kcgOn(t, f.e, "describe", share, "-o", "json").MustCode(t, 0).Stdout
	if startOffsets(t, before) != startOffsets(t, after) {
		t.Fatalf("apply refused but the start offsets moved: %s -> %s", startOffsets(t, before), startOffsets(t, after))
	}
}

// startOffsets are a describe document's start offsets, as text.
func startOffsets(t *testing.T, doc string) string {
	t.Helper()
	var d struct {
		Groups []struct {
			Offsets []struct {
				Topic       string
				Partition   int32
				StartOffset *int64
			}
		}
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, g := range d.Groups {
		for _, o := range g.Offsets {
			if o.StartOffset != nil {
				fmt.Fprintf(&b, "%s/%d=%d ", o.Topic, o.Partition, *o.StartOffset)
			}
		}
	}
	return b.String()
}

// kcg delete of a share group with a member: the broker refuses
// (NON_EMPTY_GROUP), the group stays (kfake; the real broker deletes an
// Empty one in TestShareGroupDelete).
func TestDeleteShareGroupActive(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)
	r := kcgOn(t, f.e, "delete", "--yes", share).MustCode(t, 1)
	if !strings.Contains(r.Stdout+r.Stderr, share) {
		t.Fatalf("delete: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if typ := f.e.GroupTypes(t)[share]; typ != "share" {
		t.Fatalf("the share group is gone (type %q)", typ)
	}
}

// delete-offsets of a share group deletes whole topics only: a partition
// list is exit 64 with one line, before any undo plan; nothing deleted.
func TestDeleteOffsetsSharePartitionsRefused(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)
	for _, args := range [][]string{
		{"delete-offsets", "--yes", share, "--topic", f.topic + ":0"},
		{"plan", share, "--delete-offsets", "--topic", f.topic + ":0,1", "--out", f.path("d.yaml")},
	} {
		r := kcgOn(t, f.e, args...).MustCode(t, 64)
		oneLine(t, r.Stderr, "share group", "whole topics only", "--topic "+f.topic+" without partitions")
		if strings.Contains(r.Stderr, "undo plan") {
			t.Fatalf("%q wrote an undo plan: %q", args, r.Stderr)
		}
	}
}

// apply --wait-empty of a share-group plan waits on the share group's
// members as its family describes them (ShareGroupDescribe), as it waits
// on a consumer group's: a member that stays is still active when the
// wait ends, exit 3, nothing written. DescribeGroups, which the wait used
// for every group, does not know share groups' members.
func TestApplyShareGroupWaitEmpty(t *testing.T) {
	f := newResetFixture(t)
	share := kafkatest.UniqueName(t, "share")
	f.e.ShareGroupMember(t, share, f.topic)
	out := f.path("share.yaml")
	kcgOn(t, f.e, "plan", share, "--topic", f.topic, "--to-offset", "3", "--out", out).MustCode(t, 0)
	r := kcgOn(t, f.e, "apply", out, "--wait-empty", "2s").MustCode(t, 3)
	if !strings.Contains(r.Stderr, "still active after waiting") || strings.Contains(r.Stderr, "checking the plan again") {
		t.Fatalf("apply --wait-empty of an active share group: %s; want it to wait on the member, still active", r.Stderr)
	}
}

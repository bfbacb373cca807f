package output

import (
	"os"
	"testing"

	"github.com/kcg-dev/kcg/resetplan"
)

// Fixtures of the documents the plan, diff, apply and delete commands
// print. Between them they cover every kind of row their tables have.

// planA is resetplan's sample plan: two groups, a partition without a
// commit, annotations. planB differs from it in strategy, annotations, a
// target, a group type, and a partition added and one removed.
const planAFile = "../resetplan/testdata/plan-sample.yaml"

const planB = `apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-11-30T08:00:00Z"
createdBy: kcg 0.1.0
cluster: {id: 4L6g3nShT-eMCtK--X86sw, bootstrap: "broker-1:9092"}
strategy: {type: to-offset, offset: 1}
groups:
  - group: analytics
    type: classic
    stateAtPlan: Empty
    partitions:
      - {topic: payments, partition: 0, current: 5, target: 1, logStart: 2, logEnd: 6, reason: clamped-to-start}
  - group: billing
    type: classic
    stateAtPlan: Empty
    partitions:
      - {topic: payments, partition: 0, current: 3, target: 1, logStart: 0, logEnd: 6, reason: resolved}
      - {topic: payments, partition: 2, current: 4, target: 1, logStart: 0, logEnd: 6, reason: resolved}
`

// planDelete is a delete-group plan: a group with two offsets lost, one
// without any commit (it still goes).
const planDelete = `apiVersion: kcg/v1
kind: OffsetResetPlan
createdAt: "2026-11-30T08:00:00Z"
createdBy: kcg 0.1.0
cluster: {id: 4L6g3nShT-eMCtK--X86sw, bootstrap: "broker-1:9092"}
strategy: {type: delete-group}
groups:
  - group: billing
    type: classic
    stateAtPlan: Empty
    partitions:
      - {topic: payments, partition: 0, current: 3, target: null, logStart: 0, logEnd: 6, reason: delete-offset}
      - {topic: payments, partition: 2, current: 6, target: null, logStart: 0, logEnd: 6, reason: delete-offset}
  - group: idle
    type: consumer
    stateAtPlan: Empty
    partitions: []
`

func decodePlan(t *testing.T, text string) *resetplan.Plan {
	t.Helper()
	p, err := resetplan.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func planA(t *testing.T) *resetplan.Plan {
	t.Helper()
	data, err := os.ReadFile(planAFile)
	if err != nil {
		t.Fatal(err)
	}
	return decodePlan(t, string(data))
}

func fixturePlanStatus() PlanStatus {
	return PlanStatus{
		APIVersion: APIVersion, Kind: KindPlanStatus, Plan: "reset.yaml", Digest: "sha256:0123abcd",
		PlanClusterID: "cluster-a", ClusterID: "cluster-b",
		ActiveGroups: []ActiveGroup{{Group: "billing", State: "Stable", Members: 2}},
		Drift: []DriftEntry{
			{Group: "billing", Topic: "payments", Partition: 0, Planned: Ptr[int64](3), Live: Ptr[int64](9)},
			{Group: "billing", Topic: "payments", Partition: 1, Live: Ptr[int64](4)},
		},
		OutOfRange: []RangeEntry{
			{Group: "billing", Topic: "payments", Partition: 0, Target: 0, LogStart: Ptr[int64](2), LogEnd: Ptr[int64](6)},
			{Group: "billing", Topic: "gone", Partition: 3, Target: 5, Error: Ptr("the topic or partition does not exist")},
		},
		WouldWrite: []PendingEntry{
			{Group: "billing", Topic: "payments", Partition: 0, From: Ptr[int64](9), To: Ptr[int64](0)},
			{Group: "billing", Topic: "payments", Partition: 1, To: nil},
		},
	}
}

func fixtureApplyReport() ApplyReport {
	r := NewApplyReport("reset.yaml", "sha256:0123abcd", "cluster-a")
	r.Result = ResultPartial
	r.RollbackPlan = Ptr("reset.rollback.yaml")
	r.Approvals = []Approval{
		{Principal: "alice@example.com", Key: "SHA256:Ad9QpYvJ0mQ3rL7sWc2xKf8gT1bNhE5uZo4iD6yMkVw", Signature: "reset.yaml.sig"},
		{Principal: "bob@example.com,robert@example.com", Key: "SHA256:cbVw2nR8tXq5LmJ1dF7hK3sZ9pY0gA4eU6oI2wBvCxN", Signature: "reset.bob.sig"},
	}
	r.Groups = []ApplyGroup{
		{Group: "analytics", Result: ResultWritten, Partitions: []ApplyPartition{
			{Topic: "payments", Partition: 0, Before: Ptr[int64](5), Target: Ptr[int64](2), After: Ptr[int64](2), Result: ResultWritten},
			{Topic: "payments", Partition: 1, Target: nil, Result: ResultWritten},
		}},
		{Group: "billing", Result: ResultNotWritten, Error: Ptr("the group has active members"), Partitions: []ApplyPartition{
			{Topic: "payments", Partition: 0, Before: Ptr[int64](3), Target: Ptr[int64](0), After: Ptr[int64](3), Result: ResultNotWritten, Error: Ptr("the group has active members")},
		}},
	}
	return r
}

// fixtureOverwrittenApplyReport is an apply whose partition a consumer
// that is no member of the group committed over while apply watched it.
func fixtureOverwrittenApplyReport() ApplyReport {
	r := NewApplyReport("reset.yaml", "sha256:0123abcd", "cluster-a")
	r.Result = ResultPartial
	r.RollbackPlan = Ptr("reset.rollback.yaml")
	why := "overwritten after the write: payments/0 now 3 (target 0): the group has no members, so something commits to it without joining it (a consumer using assign(), a stream processor); stop it, then apply again"
	r.Groups = []ApplyGroup{
		{Group: "billing", Result: ResultOverwritten, Error: Ptr(why), Partitions: []ApplyPartition{
			{Topic: "payments", Partition: 0, Before: Ptr[int64](3), Target: Ptr[int64](0), After: Ptr[int64](3), Result: ResultOverwritten, Error: Ptr("150ms after the write it reads 3, not the target 0")},
			{Topic: "payments", Partition: 1, Before: Ptr[int64](4), Target: Ptr[int64](0), After: Ptr[int64](0), Result: ResultWritten},
		}},
	}
	return r
}

func fixtureGroupDeleteResult() GroupDeleteResult {
	r := NewGroupDeleteResult([]GroupDeletion{
		{Group: "old-app", Deleted: true},
		{Group: "billing", Error: Ptr("the group is not empty: it has active members; stop its consumers first")},
	})
	r.Sort()
	return r
}

func fixtureOffsetDeleteResult() OffsetDeleteResult {
	r := NewOffsetDeleteResult("billing", nil, []OffsetDeletion{
		{Topic: "payments", Partition: Ptr[int32](1), Deleted: true},
		{Topic: "payments", Partition: Ptr[int32](0), Error: Ptr("the group is subscribed to this topic and has active members; stop its consumers first")},
		{Topic: "gone", Error: Ptr("the topic or partition does not exist")},
	})
	r.Sort()
	return r
}

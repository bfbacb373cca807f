package groupops_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// A share group through the operations every family goes through: its
// plan inputs are its start offsets (none yet), its plan to the earliest
// offsets names it a share group, and Preflight finds its member, so
// apply refuses it; --to-group, a delete of single partitions, a delete of
// the group or its offsets while it has a member, and a consumer-group
// describe are refused, each in its own words. kfake on both tiers: on
// kfake a share group keeps its member and has no start offsets (an empty
// one is dropped), so the answers are the same on every run.
func TestGcovShareGroupThroughTheOperations(t *testing.T) {
	e := kafkatest.Fake(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 2)
	share := kafkatest.UniqueName(t, "share")
	e.ShareGroupMember(t, share, topic)

	// Read beside a consumer group: each as its family reads it.
	consumer := kafkatest.UniqueName(t, "consumer")
	e.Commit(t, consumer, topic, map[int32]int64{0: 4})
	info, snaps, err := groupops.ReadForPlan(ctx, cl, []string{share, consumer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(snaps, func(s resetplan.GroupSnapshot) bool { return s.Group == consumer })
	if len(snaps) != 2 || i < 0 || snaps[i].Type == vocab.TypeShare || snaps[i].Committed[groupops.TopicPartition{Topic: topic, Partition: 0}] != 4 {
		t.Fatalf("plan inputs %+v, want %s's commit beside %s", snaps, consumer, share)
	}
	snaps = slices.Delete(snaps, i, i+1)
	if len(snaps) != 1 || snaps[0].Group != share || snaps[0].Type != vocab.TypeShare || snaps[0].State != "Stable" || snaps[0].Members != 1 || len(snaps[0].Committed) != 0 {
		t.Fatalf("plan inputs %+v, want %s, a share group with one member and no start offsets", snaps, share)
	}
	scope, err := resetplan.ParseScope(false, []string{topic})
	if err != nil {
		t.Fatal(err)
	}
	plan, _, err := groupops.BuildPlan(ctx, cl, info, snaps, groupops.PlanRequest{Scope: scope, Strategy: resetplan.StrategySpec{Type: resetplan.StrategyToEarliest}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Groups) != 1 || plan.Groups[0].Type != vocab.TypeShare || len(plan.Groups[0].Partitions) != 2 {
		t.Fatalf("plan %+v, want %s's two partitions", plan.Groups, share)
	}
	for _, pt := range plan.Groups[0].Partitions {
		if pt.Current != nil || pt.Target == nil || *pt.Target != 0 {
			t.Errorf("%s: current %v, target %v; want from none to 0", pt.TP(), gcOffset(pt.Current), gcOffset(pt.Target))
		}
	}

	c, err := groupops.Preflight(ctx, cl, plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Active) != 1 || c.Active[0].Group != share || c.Active[0].Members != 1 || len(c.Pending) != 2 || len(c.Live[share]) != 0 || len(c.Missing) != 0 {
		t.Errorf("preflight: active %+v, pending %+v, live %v, missing %v", c.Active, c.Pending, c.Live, c.Missing)
	}
	if _, err := c.Refusal(false); err == nil || err.Error() != "refusing to apply: group "+share+" has 1 active member (state Stable): stop its consumers first; nothing was written" {
		t.Errorf("refusal: %v", err)
	}

	st := resetplan.StrategySpec{Type: resetplan.StrategyToGroup, Source: share}
	_, _, err = groupops.ReadForPlan(ctx, cl, []string{share}, &st)
	var sse *groupops.ShareStrategyError
	if !errors.As(err, &sse) || err.Error() != "group "+share+" is a share group: --to-group copies committed offsets, and share groups have start offsets instead; use --to-offset, --from-file or another strategy; no plan was written" {
		t.Errorf("--to-group: %v", err)
	}

	_, _, err = groupops.PlanDelete(ctx, cl, []string{share}, resetplan.StrategyDeleteOffsets, []resetplan.TopicSpec{{Topic: topic, Partitions: []int32{0}}}, "kcg test")
	var wte *groupops.ShareWholeTopicsError
	if !errors.As(err, &wte) || err.Error() != "group "+share+" is a share group: its offsets are deleted for whole topics only; give --topic "+topic+" without partitions; nothing was deleted" {
		t.Errorf("delete-offsets of one partition: %v", err)
	}

	const notEmpty = "the group is not empty: it has active members; stop its consumers first"
	r, err := groupops.DeleteOffsets(ctx, cl, share, []resetplan.TopicSpec{{Topic: topic}})
	if err != nil {
		t.Fatal(err)
	}
	if r.GroupErr == nil || !strings.HasSuffix(r.GroupErr.Error(), notEmpty) || len(r.Partitions) != 1 || r.Partitions[0].Name() != topic || r.Partitions[0].Err != r.GroupErr {
		t.Errorf("delete-offsets with a member: %+v, want the group refused for the whole topic", r)
	}
	ds, err := groupops.DeleteGroups(ctx, cl, []string{share})
	if err != nil || len(ds) != 1 || ds[0].Err == nil || !strings.HasSuffix(ds[0].Err.Error(), notEmpty) {
		t.Errorf("delete with a member: %+v, %v", ds, err)
	}
	if missing, _, err := groupops.MissingGroups(ctx, cl, []string{share}); err != nil || len(missing) != 0 {
		t.Errorf("after the refused deletes: missing %v, %v; want %s still there", missing, err, share)
	}

	_, err = groupops.Describe(ctx, cl, []string{share}, groupops.DescribeOptions{})
	var ote *groupops.OtherTypeError
	if !errors.As(err, &ote) || err.Error() != "group "+share+" is a share group, not a consumer group: manage it with kafka-share-groups.sh; nothing was written" {
		t.Errorf("describe as a consumer group: %v", err)
	}
	if names, err := groupops.GroupNames(ctx, cl); err != nil || !slices.Contains(names, share) {
		t.Errorf("GroupNames: %v, want %s among them", err, share)
	}
}

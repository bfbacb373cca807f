package groupops

import (
	"errors"
	"slices"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
)

// The Java tools' questions (tools.go) on the live cluster, with a
// consumer group and a share group: each family's --all-groups and --list
// hold its own groups only, a named group of another family is refused
// in the tool's words, and the family check answers as the cluster's
// APIs do.
func TestJavaToolQuestions(t *testing.T) {
	e := kafkatest.Cluster(t)
	cl, ctx := testClient(t, e)
	topic := kafkatest.UniqueName(t, "t")
	sixRecords(t, e, topic, 1)
	c, sh := kafkatest.UniqueName(t, "c"), kafkatest.UniqueName(t, "sh")
	e.Commit(t, c, topic, map[int32]int64{0: 1})
	e.ShareGroupMember(t, sh, topic)

	for _, f := range []struct {
		family    Family
		own, not  string
		listState []string
	}{
		{FamilyConsumer, c, sh, []string{"Empty"}},
		{FamilyShare, sh, c, []string{"Stable"}},
	} {
		ids, err := FamilyGroupIDs(ctx, cl, f.family)
		if err != nil || !slices.IsSorted(ids) || !slices.Contains(ids, f.own) || slices.Contains(ids, f.not) {
			t.Errorf("FamilyGroupIDs(%s) = %v, %v; want sorted, with %s, without %s", f.family, ids, err, f.own, f.not)
		}
		listed, err := ListFamily(ctx, cl, f.family, f.listState, nil)
		has := func(id string) bool {
			return slices.ContainsFunc(listed, func(g kafkaadmin.GroupListing) bool { return g.Group == id })
		}
		if err != nil || !has(f.own) || has(f.not) {
			t.Errorf("ListFamily(%s, %v) = %v, %v; want %s, not %s", f.family, f.listState, listed, err, f.own, f.not)
		}
		if err := RefuseForeignGroups(ctx, cl, f.family, []string{f.own}); err != nil {
			t.Errorf("RefuseForeignGroups(%s, its own group): %v", f.family, err)
		}
	}

	err := RefuseForeignGroups(ctx, cl, FamilyShare, []string{sh, c})
	var fe *ForeignGroupError
	want := "Group '" + c + "' is not a share group (it is a " + e.GroupTypes(t)[c] + " group: manage it with kcg or kafka-consumer-groups.sh); nothing was written"
	if !errors.As(err, &fe) || err.Error() != want {
		t.Errorf("RefuseForeignGroups(share, consumer group) = %v, want %q", err, want)
	}
	// kafka-consumer-groups' own refusal, and its check before it writes.
	var ote *OtherTypeError
	if err := RefuseForeignGroups(ctx, cl, FamilyConsumer, []string{c, sh}); !errors.As(err, &ote) || ote.Group != sh {
		t.Errorf("RefuseForeignGroups(consumer, share group) = %v, want *OtherTypeError for %s", err, sh)
	}
	if err := RefuseOtherTypesFor(ctx, cl, FamilyConsumer, []string{sh}); !errors.As(err, &ote) {
		t.Errorf("RefuseOtherTypesFor(consumer, share group) = %v, want *OtherTypeError", err)
	}
	if err := RefuseOtherTypesFor(ctx, cl, FamilyShare, []string{sh}); err != nil {
		t.Errorf("RefuseOtherTypesFor(share, share group) = %v", err)
	}

	if err := RequireFamily(ctx, cl, FamilyConsumer); err != nil {
		t.Errorf("RequireFamily(consumer) = %v", err)
	}
	if err := RequireFamily(ctx, cl, FamilyShare); err != nil {
		t.Errorf("RequireFamily(share) = %v", err)
	}
	streams, err := cl.HasStreamsGroups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = RequireFamily(ctx, cl, FamilyStreams)
	var nf *NoFamilyError
	switch {
	case streams && err != nil:
		t.Errorf("RequireFamily(streams) on a cluster with streams groups = %v", err)
	case !streams && (!errors.As(err, &nf) || !errors.Is(err, kafkaadmin.ErrNoStreamsGroups)):
		t.Errorf("RequireFamily(streams) on a cluster without = %v, want *NoFamilyError of ErrNoStreamsGroups", err)
	}
}

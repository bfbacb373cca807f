package groupops

import (
	"errors"
	"slices"
	"testing"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

var dispatchListing = []kafkaadmin.GroupListing{
	{Group: "c", Type: "classic", ProtocolType: "consumer"},
	{Group: "simple", Type: "classic"},
	{Group: "connect", Type: "classic", ProtocolType: "connect"},
	{Group: "k", Type: "consumer"},
	{Group: "old", Type: ""},
	{Group: "sh", Type: "share"},
	{Group: "st", Type: "streams"},
	{Group: "fu", Type: "future"},
}

// --all-groups takes the --type types only: without --type no share or
// streams group, ever; Connect groups and unknown types never.
func TestIDsOfTypes(t *testing.T) {
	for _, c := range []struct {
		types  []string
		ids    []string
		others int
	}{
		{DefaultAllGroupsTypes, []string{"c", "k", "old", "simple"}, 3},
		{[]string{"share"}, []string{"sh"}, 2},
		{[]string{"classic"}, []string{"c", "old", "simple"}, 3},
		{[]string{"consumer", "streams"}, []string{"k", "st"}, 2},
		{ManagedTypes(), []string{"c", "k", "old", "sh", "simple", "st"}, 1},
	} {
		ids, others := idsOfTypes(dispatchListing, c.types)
		if !slices.Equal(ids, c.ids) || others != c.others {
			t.Errorf("types %v: ids %v others %d; want %v %d", c.types, ids, others, c.ids, c.others)
		}
	}
}

func TestParseAllGroupsTypes(t *testing.T) {
	for in, want := range map[string][]string{
		"share":            {"share"},
		"Share, STREAMS":   {"share", "streams"},
		" all ":            ManagedTypes(),
		"classic,consumer": {"classic", "consumer"},
	} {
		got, err := ParseAllGroupsTypes(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "sharee", "share,,streams", "all,share"} {
		if _, err := ParseAllGroupsTypes(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// Classify splits by family and refuses a family without the operation.
func TestClassifyListing(t *testing.T) {
	ids := []string{"new", "c", "k", "old"}
	typed, err := classifyListing(dispatchListing, ids, OpPlan)
	if err != nil || !typed.Only(FamilyConsumer) || !slices.Equal(typed.Of(FamilyConsumer), ids) {
		t.Fatalf("consumer groups: %v %v", typed.Of(FamilyConsumer), err)
	}
	for _, op := range []Op{OpDescribe, OpPlan, OpApply, OpDelete, OpDeleteOffsets} {
		for _, id := range []string{"sh", "st", "fu"} {
			_, err := classifyListing(dispatchListing, []string{"c", id}, op)
			f := FamilyOf(dispatchListing[slices.IndexFunc(dispatchListing, func(g kafkaadmin.GroupListing) bool { return g.Group == id })].Type)
			var ote *OtherTypeError
			if got := errors.As(err, &ote); got == Handles(f, op) {
				t.Errorf("%s of %s (%s): err %v", op, id, f, err)
			}
		}
	}
}

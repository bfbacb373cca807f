package groupops

import (
	"slices"
	"testing"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// Group names are completed for every type kcg manages (classic with the
// consumer protocol, consumer, share, streams) and for no other (a Connect
// group, a type Kafka adds later): kfake has no streams groups, so the
// streams case is here. (Was commands' TestCompletionGroupsOfEveryManagedType:
// completion asks groupops.ManagedGroupNames now.)
func TestCompletionGroupsOfEveryManagedType(t *testing.T) {
	got := managedGroups([]kafkaadmin.GroupListing{
		{Group: "billing", Type: "classic", ProtocolType: "consumer"},
		{Group: "empty-classic", Type: "classic"},
		{Group: "kip848", Type: "consumer", ProtocolType: "consumer"},
		{Group: "orders-share", Type: "share", ProtocolType: "share"},
		{Group: "wordcount", Type: "streams", ProtocolType: "streams"},
		{Group: "connect-cluster", Type: "classic", ProtocolType: "connect"},
		{Group: "future", Type: "someday"},
	})
	want := []string{"billing", "empty-classic", "kip848", "orders-share", "wordcount"}
	if !slices.Equal(got, want) {
		t.Fatalf("completion offers %q, want %q", got, want)
	}
}

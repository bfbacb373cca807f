package groupops

import (
	"errors"
	"slices"
	"testing"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// The refusal over a listing, for the types kfake cannot make (streams)
// and for a type Kafka may add later.
func TestOtherTypeIn(t *testing.T) {
	listing := []kafkaadmin.GroupListing{
		{Group: "c", Type: "classic", ProtocolType: "consumer"},
		{Group: "k", Type: "consumer"},
		{Group: "old", Type: ""},
		{Group: "sh", Type: "share"},
		{Group: "st", Type: "streams"},
		{Group: "fu", Type: "future"},
	}
	cases := []struct {
		ids        []string
		group, typ string
		tool       string
	}{
		{ids: []string{"c", "k", "old", "missing"}},
		{ids: []string{"c", "st", "sh"}, group: "st", typ: "streams", tool: "kafka-streams-groups.sh"},
		{ids: []string{"sh"}, group: "sh", typ: "share", tool: "kafka-share-groups.sh"},
		{ids: []string{"fu"}, group: "fu", typ: "future", tool: "kafka-groups.sh"},
	}
	for _, c := range cases {
		err := otherTypeIn(listing, c.ids)
		var ote *OtherTypeError
		if c.group == "" {
			if err != nil {
				t.Errorf("%v: %v", c.ids, err)
			}
			continue
		}
		if !errors.As(err, &ote) || ote.Group != c.group || ote.Type != c.typ {
			t.Fatalf("%v: err = %v, want %s (%s)", c.ids, err, c.group, c.typ)
		}
		want := "group " + c.group + " is a " + c.typ + " group, not a consumer group: manage it with " + c.tool + "; nothing was written"
		if err.Error() != want {
			t.Errorf("%v: %q, want %q", c.ids, err, want)
		}
	}
}

func TestParseListTypes(t *testing.T) {
	for in, want := range map[string][]string{
		"share":            {"share"},
		"Share, STREAMS":   {"share", "streams"},
		"classic,consumer": {"classic", "consumer"},
		" all ":            {"all"},
	} {
		got, err := ParseListTypes(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseListTypes(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "connect", "all,share", "share,,x"} {
		if _, err := ParseListTypes(bad); err == nil {
			t.Errorf("ParseListTypes(%q) accepted", bad)
		}
	}
	// The drop-in --type stays the Java tool's.
	if _, err := ParseTypes("share"); err == nil {
		t.Error("ParseTypes accepts share, which the Java tool refuses")
	}
}

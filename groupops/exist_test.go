package groupops

import (
	"slices"
	"testing"
)

func TestClosestNames(t *testing.T) {
	groups := []string{"billing", "billing-v2", "payments", "orders", "analytics"}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"biling", []string{"billing"}},
		{"Billing", []string{"billing", "billing-v2"}},
		{"paymnets", []string{"payments"}},
		{"order", []string{"orders"}},
		{"zzz", nil},
	} {
		if got := ClosestNames(c.name, groups, 3); !slices.Equal(got, c.want) {
			t.Errorf("ClosestNames(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance = %d", d)
	}
}

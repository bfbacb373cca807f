package output

import "testing"

func TestStateNotice(t *testing.T) {
	cases := []struct {
		state  *string
		text   string
		stream Stream
		ok     bool
	}{
		{Ptr("Empty"), "Consumer group 'g' has no active members.", Stderr, true},
		{Ptr("Reconciling"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr("Assigning"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr("PreparingRebalance"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr("CompletingRebalance"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr(""), "", Stdout, false},
		{Ptr("Unknown"), "", Stdout, false},
		{Ptr("Dead"), "Error: Consumer group 'g' does not exist.", Stdout, true},
		{nil, "Error: The consumer group 'g' does not exist.", Stdout, true},
		{Ptr("Stable"), "", Stdout, false},
	}
	for _, c := range cases {
		n, ok := StateNotice("g", c.state)
		if ok != c.ok || n.Text != c.text || (ok && n.Stream != c.stream) {
			t.Errorf("StateNotice(%v) = %+v, %v", c.state, n, ok)
		}
	}
}

package groupops

import (
	"errors"
	"slices"
	"testing"

	"github.com/kcg-dev/kcg/resetplan"
)

func TestCheckRefusal(t *testing.T) {
	plan := &resetplan.Plan{Cluster: resetplan.Cluster{ID: "plan-cluster"}}
	drift := []resetplan.Drift{{Group: "billing", Topic: "payments", Partition: 0, Planned: ptr(3), Live: ptr(7)}, {Group: "billing", Topic: "payments", Partition: 1, Planned: nil, Live: ptr(2)}}
	const clusterText = "the plan is for cluster plan-cluster, this is cluster other: a plan applies only to the cluster it was made on (check --bootstrap-server and --profile, or make a new plan against this cluster)"
	const staticText = "a static member stays in the group for its session timeout (session.timeout.ms, 45s by default) after its consumer stops; stop its consumers, and apply with --wait-empty (e.g. --wait-empty 2m) to wait until they time out"
	const driftText = "billing payments/0: planned from 3, now 7; billing payments/1: planned from no commit, now 2"
	pp := TopicPartition{Topic: "payments", Partition: 0}
	cases := []struct {
		name     string
		c        Check
		force    bool
		reasons  []string
		warnings []string
		ready    bool
	}{
		{name: "ready", c: Check{}, ready: true},
		{
			name:    "another cluster",
			c:       Check{ClusterID: "other", ClusterMismatch: true},
			reasons: []string{clusterText},
		},
		{
			// Another cluster's offsets say nothing of the plan, and
			// --force does not apply it there: no "--force" in the
			// reasons, no "--force: applying" warning.
			name:    "another cluster, its offsets moved: no --force suggested",
			c:       Check{ClusterID: "other", ClusterMismatch: true, Drift: drift},
			reasons: []string{clusterText},
		},
		{
			name:    "another cluster, with --force: refused all the same, no warning",
			c:       Check{ClusterID: "other", ClusterMismatch: true, Drift: drift},
			force:   true,
			reasons: []string{clusterText},
		},
		{
			// Stopped static members stay members for their session
			// timeout: say so, and how to wait for it.
			name: "static members",
			c:    Check{Active: []ActiveGroup{{Group: "a", State: "Stable", Members: 2, Static: 2}, {Group: "b", State: "Stable", Members: 3, Static: 1}}},
			reasons: []string{
				"group a has 2 active members (state Stable), all static (group.instance.id): " + staticText,
				"group b has 3 active members (state Stable), 1 of them static (group.instance.id): " + staticText,
			},
		},
		{
			name: "active groups",
			c:    Check{Active: []ActiveGroup{{Group: "a", State: "Stable", Members: 1}, {Group: "b", State: "PreparingRebalance", Members: 3}}},
			reasons: []string{
				"group a has 1 active member (state Stable): stop its consumers first",
				"group b has 3 active members (state PreparingRebalance): stop its consumers first",
			},
		},
		{
			name:    "stale",
			c:       Check{Drift: drift},
			reasons: []string{"the plan is stale: " + driftText + " (re-plan, or --force)"},
		},
		{
			name:     "stale, with --force: a warning",
			c:        Check{Drift: drift},
			force:    true,
			warnings: []string{"--force: applying although offsets moved since planning: " + driftText},
		},
		{
			name: "targets out of range, or bounds unknown",
			c: Check{OutOfRange: []RangeIssue{
				{Group: "g", TP: pp, Target: 9, Start: ptr(0), End: ptr(6)},
				{Group: "g", TP: pp, Target: 1},
				{Group: "g", TP: pp, Target: 1, Err: errors.New("leader not available")},
			}},
			reasons: []string{
				"g payments/0: target 9 is outside the live log [0, 6]",
				"g payments/0: the live log bounds are unknown",
				"g payments/0: leader not available",
			},
		},
		{
			name:     "every reason at once, in order, --force keeps the others",
			c:        Check{Active: []ActiveGroup{{Group: "a", State: "Stable", Members: 2}}, Drift: drift[:1], OutOfRange: []RangeIssue{{Group: "g", TP: pp, Target: 1}}},
			force:    true,
			reasons:  []string{"group a has 2 active members (state Stable): stop its consumers first", "g payments/0: the live log bounds are unknown"},
			warnings: []string{"--force: applying although offsets moved since planning: billing payments/0: planned from 3, now 7"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.c.Plan = plan
			warnings, err := c.c.Refusal(c.force)
			if !slices.Equal(warnings, c.warnings) {
				t.Errorf("warnings %q, want %q", warnings, c.warnings)
			}
			if c.c.Ready() != c.ready {
				t.Errorf("Ready() = %v, want %v", c.c.Ready(), c.ready)
			}
			if c.reasons == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			re, ok := errors.AsType[*RefusedError](err)
			if !ok {
				t.Fatalf("err = %v, want a *RefusedError", err)
			}
			if !slices.Equal(re.Reasons, c.reasons) {
				t.Errorf("reasons %q, want %q", re.Reasons, c.reasons)
			}
			want := "refusing to apply: " + re.Reasons[0]
			for _, r := range re.Reasons[1:] {
				want += "; " + r
			}
			if want += "; nothing was written"; err.Error() != want {
				t.Errorf("%q, want %q", err, want)
			}
		})
	}
}

func TestCheckAlreadyApplied(t *testing.T) {
	for _, c := range []struct {
		c    Check
		want bool
	}{
		{Check{}, true},
		{Check{Pending: []PendingWrite{{Group: "g"}}}, false},
		// Another cluster's offsets say nothing of this plan.
		{Check{ClusterMismatch: true}, false},
	} {
		if got := c.c.AlreadyApplied(); got != c.want {
			t.Errorf("%+v: AlreadyApplied() = %v, want %v", c.c, got, c.want)
		}
	}
}

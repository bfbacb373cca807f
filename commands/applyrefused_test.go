package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A refused apply -o json|yaml prints an ApplyReport saying "refused" and
// why, so a script reading stdout is told; it exits 3, nothing written.
func TestApplyRefusedReport(t *testing.T) {
	f := newResetFixture(t)
	digest := f.plan(t, "p.yaml", f.group, "--topic", f.topic, "--to-earliest")
	f.e.Commit(t, f.group, f.topic, map[int32]int64{0: 7}) // the plan is now stale

	type report struct {
		Kind      string   `json:"kind"`
		Result    string   `json:"result"`
		Reasons   []string `json:"reasons"`
		ClusterID string   `json:"clusterId"`
		Groups    []any    `json:"groups"`
	}
	read := func(r string) report {
		t.Helper()
		var rep report
		if err := json.Unmarshal([]byte(r), &rep); err != nil {
			t.Fatalf("stdout is no JSON document: %v\n%q", err, r)
		}
		if rep.Kind != "ApplyReport" || rep.Result != "refused" || len(rep.Reasons) != 1 || rep.Groups == nil || len(rep.Groups) != 0 {
			t.Fatalf("report %+v", rep)
		}
		return rep
	}

	r := kcgOn(t, f.e, "apply", f.path("p.yaml"), "-o", "json").MustCode(t, 3)
	rep := read(r.Stdout)
	if !strings.Contains(rep.Reasons[0], "the plan is stale") || rep.ClusterID == "" || !strings.Contains(r.Stderr, "refusing to apply") {
		t.Fatalf("stale: %+v\nstderr: %s", rep, r.Stderr)
	}

	bad := "sha256:" + strings.Repeat("0", 64)
	r = kcgOn(t, f.e, "apply", f.path("p.yaml"), "--expect-digest", bad, "-o", "json").MustCode(t, 3)
	rep = read(r.Stdout)
	if !strings.Contains(rep.Reasons[0], "not the reviewed "+bad) || !strings.Contains(rep.Reasons[0], digest) {
		t.Fatalf("digest: %+v", rep)
	}

	// The table keeps stdout for data: the reasons are on stderr only.
	r = kcgOn(t, f.e, "apply", f.path("p.yaml")).MustCode(t, 3)
	if r.Stdout != "" || !strings.Contains(r.Stderr, "the plan is stale") {
		t.Fatalf("table:\nstdout: %q\nstderr: %q", r.Stdout, r.Stderr)
	}
	f.mustCommitted(t, map[int32]int64{0: 7})
}

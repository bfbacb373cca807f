package commands_test

import (
	"encoding/json"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// The runner helpers, shared with dropin's tests (see internal/clitest):
// kcg(t, args...) runs the application with args (without the program
// name); rows picks the lines of a table; records makes test records.
var kcg, rows, records = clitest.Run, clitest.Rows, clitest.Records

// kcgOn runs a command against the test cluster.
func kcgOn(t *testing.T, e *kafkatest.Env, args ...string) clitest.Result {
	t.Helper()
	return kcg(t, append(args, "--bootstrap-server", e.Bootstrap)...)
}

// describeJSON is the part of the GroupDescriptionList the tests read; any
// keeps null distinguishable from 0.
type describeJSON struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Groups     []struct {
		Group        string         `json:"group"`
		State        *string        `json:"state"`
		Type         *string        `json:"type"`
		Error        *string        `json:"error"`
		TotalLag     *int64         `json:"totalLag"`
		MaxTimeLagMs *int64         `json:"maxTimeLagMs"`
		GroupEpoch   *int32         `json:"groupEpoch"`
		Coordinator  map[string]any `json:"coordinator"`
		Members      []struct {
			MemberID    string `json:"memberId"`
			ClientID    string `json:"clientId"`
			MemberEpoch *int32 `json:"memberEpoch"`
			Upgraded    *bool  `json:"upgraded"`
			Assignments []struct {
				Topic      string  `json:"topic"`
				Partitions []int32 `json:"partitions"`
			} `json:"assignments"`
		} `json:"members"`
		Offsets []map[string]any `json:"offsets"`
	} `json:"groups"`
}

// applyReportJSON is the part of the ApplyReport the tests read.
type applyReportJSON struct {
	Kind         string  `json:"kind"`
	Result       string  `json:"result"`
	RollbackPlan *string `json:"rollbackPlan"`
	Groups       []struct {
		Result     string `json:"result"`
		Partitions []struct {
			Partition int32  `json:"partition"`
			Before    *int64 `json:"before"`
			After     *int64 `json:"after"`
			Result    string `json:"result"`
		} `json:"partitions"`
	} `json:"groups"`
}

func parseDescribe(t *testing.T, s string) describeJSON {
	t.Helper()
	var d describeJSON
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatalf("describe JSON: %v\n%s", err, s)
	}
	if d.APIVersion != "kcg/v1" || d.Kind != "GroupDescriptionList" {
		t.Fatalf("document %s/%s", d.APIVersion, d.Kind)
	}
	return d
}

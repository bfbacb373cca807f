package commands_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/commands"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// result is one run of the real application.
type result struct {
	code   int
	stdout string
	stderr string
}

// kcg runs the application with args (without the program name) and
// returns its exit code and output. Environment variables (urfave/cli reads
// KCG_BOOTSTRAP_SERVER and the like from the process) are set with
// t.Setenv.
func kcg(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := commands.Run(ctx, append([]string{"kcg"}, args...), commands.Streams{
		In: strings.NewReader(""), Out: &out, Err: &errb,
	})
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// kcgOn runs a command against the test cluster.
func kcgOn(t *testing.T, e *kafkatest.Env, args ...string) result {
	t.Helper()
	return kcg(t, append(args, "--bootstrap-server", e.Bootstrap)...)
}

func (r result) mustCode(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	return r
}

// rows returns the whitespace-split lines of s that start with prefix.
func rows(s, prefix string) [][]string {
	var out [][]string
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == prefix {
			out = append(out, f)
		}
	}
	return out
}

// describeJSON is the part of the GroupDescriptionList the tests read; any
// keeps null distinguishable from 0.
type describeJSON struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Groups     []struct {
		Group       string         `json:"group"`
		State       *string        `json:"state"`
		Type        *string        `json:"type"`
		Error       *string        `json:"error"`
		TotalLag    *int64         `json:"totalLag"`
		GroupEpoch  *int32         `json:"groupEpoch"`
		Coordinator map[string]any `json:"coordinator"`
		Members     []struct {
			MemberID    string `json:"memberId"`
			ClientID    string `json:"clientId"`
			MemberEpoch *int32 `json:"memberEpoch"`
			Assignments []struct {
				Topic      string  `json:"topic"`
				Partitions []int32 `json:"partitions"`
			} `json:"assignments"`
		} `json:"members"`
		Offsets []map[string]any `json:"offsets"`
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

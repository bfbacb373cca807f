package dropin

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/kafkaadmin"
)

// TestRunnerDialsWithItsDial runs each Java tool's command line with a
// dial that fails, without a network: the runner dials with what its
// caller gave it (the connection options from the tool's flags), and a
// cluster it cannot reach is exit 1 with the Java tool's one error line,
// worded as that tool words it. A usage error never dials.
func TestRunnerDialsWithItsDial(t *testing.T) {
	cases := []struct {
		tool *javaTool
		args []string
		line string
	}{
		{&consumerTool, []string{"kafka-consumer-groups", "--list"}, "Error: Executing consumer group command failed due to dial tcp: lookup broker.invalid: no such host"},
		{&consumerTool, []string{"kafka-consumer-groups", "--describe", "--group", "g"}, "Error: Executing consumer group command failed due to dial tcp: lookup broker.invalid: no such host"},
		{&shareTool, []string{"kafka-share-groups", "--list"}, "Error: Executing share group command failed due to dial tcp: lookup broker.invalid: no such host"},
		{&streamsTool, []string{"kafka-streams-groups", "--describe", "--all-groups"}, "Error: Executing streams group command failed due to dial tcp: lookup broker.invalid: no such host"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var got []connconfig.ConnOptions
			dial := func(_ context.Context, o connconfig.ConnOptions) (*kafkaadmin.Client, context.Context, func(), error) {
				got = append(got, o)
				return nil, nil, nil, errors.New("dial tcp: lookup broker.invalid: no such host")
			}
			var out, errOut bytes.Buffer
			args := append(c.args, "--bootstrap-server", "broker.invalid:9092", "--timeout", "2500")
			code := runner{tool: c.tool, dial: dial}.run(context.Background(), args, app.IO{Out: &out, Err: &errOut})
			if code != app.ExitError {
				t.Errorf("exit %d, want %d", code, app.ExitError)
			}
			if want := "\n" + c.line + "\n"; out.String() != want {
				t.Errorf("stdout %q, want %q", out.String(), want)
			}
			if errOut.Len() != 0 {
				t.Errorf("stderr %q, want nothing", errOut.String())
			}
			if len(got) != 1 || got[0].Bootstrap != "broker.invalid:9092" || got[0].Timeout != 2500*time.Millisecond {
				t.Errorf("dialled %+v, want once with broker.invalid:9092 and 2.5s", got)
			}
		})
	}
	t.Run("usage error", func(t *testing.T) {
		dial := func(context.Context, connconfig.ConnOptions) (*kafkaadmin.Client, context.Context, func(), error) {
			t.Error("dialled on a usage error")
			return nil, nil, nil, errors.New("unreachable")
		}
		var out, errOut bytes.Buffer
		args := []string{"kafka-share-groups", "--bootstrap-server", "h:1", "--list", "--group", "g"}
		if code := (runner{tool: &shareTool, dial: dial}).run(context.Background(), args, app.IO{Out: &out, Err: &errOut}); code != app.ExitUsage {
			t.Errorf("exit %d, want %d", code, app.ExitUsage)
		}
		if first, _, _ := strings.Cut(errOut.String(), "\n"); first != `Option "[group]" can't be used with option "[list]"` {
			t.Errorf("stderr starts %q", first)
		}
	})
}

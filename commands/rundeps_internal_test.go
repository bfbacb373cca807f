package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/resetplan"
)

// The run steps take their dependencies: each options struct carries the
// dial it connects with, so a run is called here without a command line,
// with a dial of the test's own. These tests fail if a run connects any
// other way (the flags, the defaults) than through the dial it is given.

// dialTo is a dial to the test's cluster e that counts its calls: nothing
// else (no flag, no default) names that cluster to the run.
func dialTo(e *kafkatest.Env, calls *int) dialFunc {
	return func(parent context.Context) (*kafkaadmin.Client, context.Context, func(), error) {
		*calls++
		cl, err := kafkaadmin.New(connconfig.Config{Bootstrap: []string{e.Bootstrap}})
		if err != nil {
			return nil, nil, nil, err
		}
		ctx, cancel := context.WithTimeout(parent, 30*time.Second)
		return cl, ctx, func() { cancel(); cl.Close() }, nil
	}
}

var errFakeDial = errors.New("the test's dial refuses")

// failingDial is a dial that fails, counting its calls.
func failingDial(calls *int) dialFunc {
	return func(context.Context) (*kafkaadmin.Client, context.Context, func(), error) {
		*calls++
		return nil, nil, nil, errFakeDial
	}
}

// A read: runDescribe describes the group on the cluster its dial reaches.
func TestRunDescribeReadsThroughItsDial(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, kafkatest.Record{Value: "a"}, kafkatest.Record{Value: "b"}, kafkatest.Record{Value: "c"})
	group := kafkatest.UniqueName(t, "g")
	e.Commit(t, group, topic, map[int32]int64{0: 1})

	calls := 0
	var out, errs bytes.Buffer
	o := describeOptions{scope: groupScope{groups: []string{group}}, view: output.ViewOffsets, format: output.FormatJSON, dial: dialTo(e, &calls)}
	if err := runDescribe(t.Context(), IO{Out: &out, Err: &errs}, o); err != nil {
		t.Fatalf("runDescribe: %v\nstderr:\n%s", err, errs.String())
	}
	if calls != 1 {
		t.Fatalf("the dial was called %d times, want 1", calls)
	}
	var doc output.GroupDescriptionList
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(doc.Groups) != 1 || doc.Groups[0].Group != group || len(doc.Groups[0].Offsets) != 1 {
		t.Fatalf("described %+v, want group %s with one partition\n%s", doc.Groups, group, out.String())
	}
	po := doc.Groups[0].Offsets[0]
	if po.Topic != topic || po.CommittedOffset == nil || *po.CommittedOffset != 1 {
		t.Fatalf("partition %+v, want %s/0 committed at 1", po, topic)
	}
}

// A write: runDelete deletes the group on the cluster its dial reaches.
func TestRunDeleteWritesThroughItsDial(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, kafkatest.Record{Value: "a"})
	group := kafkatest.UniqueName(t, "g")
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	t.Chdir(t.TempDir()) // the undo plan is written in the current directory

	calls := 0
	var out, errs bytes.Buffer
	o := deleteOptions{scope: groupScope{groups: []string{group}}, format: output.FormatJSON, gate: deleteGate{yes: true}, dial: dialTo(e, &calls)}
	if err := runDelete(t.Context(), IO{Out: &out, Err: &errs}, o); err != nil {
		t.Fatalf("runDelete: %v\nstderr:\n%s", err, errs.String())
	}
	if calls != 1 {
		t.Fatalf("the dial was called %d times, want 1", calls)
	}
	var doc output.GroupDeleteResult
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(doc.Groups) != 1 || doc.Groups[0].Group != group || !doc.Groups[0].Deleted {
		t.Fatalf("deleted %+v, want group %s\n%s", doc.Groups, group, out.String())
	}
	if c := e.Committed(t, group); len(c) != 0 {
		t.Fatalf("offsets left after the delete: %v", c)
	}
}

// Every run that talks to Kafka connects only through its dial: given
// one that fails, each returns that dial's error, having dialed once.
func TestRunsConnectThroughTheirDial(t *testing.T) {
	plan, err := filepath.Abs("../resetplan/testdata/plan-from-file.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // nothing may be written; a stray file would land here
	scope := groupScope{groups: []string{"g"}}
	topics := []resetplan.TopicSpec{{Topic: "t"}}
	runs := map[string]func(context.Context, IO, dialFunc) error{
		"describe": func(ctx context.Context, s IO, d dialFunc) error {
			return runDescribe(ctx, s, describeOptions{scope: scope, format: output.FormatJSON, dial: d})
		},
		"list": func(ctx context.Context, s IO, d dialFunc) error {
			return runList(ctx, s, listOptions{format: output.FormatJSON, dial: d})
		},
		"plan": func(ctx context.Context, s IO, d dialFunc) error {
			return runPlan(ctx, s, planOptions{scope: scope, out: "-", dial: d})
		},
		"apply": func(ctx context.Context, s IO, d dialFunc) error {
			return runApply(ctx, s, applyOptions{path: plan, format: output.FormatJSON, dial: d})
		},
		"diff": func(ctx context.Context, s IO, d dialFunc) error {
			return runDiff(ctx, s, diffOptions{paths: []string{plan}, format: output.FormatJSON, dial: d})
		},
		"delete": func(ctx context.Context, s IO, d dialFunc) error {
			return runDelete(ctx, s, deleteOptions{scope: scope, format: output.FormatJSON, gate: deleteGate{yes: true}, dial: d})
		},
		"delete-offsets": func(ctx context.Context, s IO, d dialFunc) error {
			return runDeleteOffsets(ctx, s, deleteOffsetsOptions{group: "g", topics: topics, format: output.FormatJSON, gate: deleteGate{yes: true}, dial: d})
		},
		"watch": func(ctx context.Context, s IO, d dialFunc) error {
			// watch's dial has app.DialEach's shape: a context per sample.
			each := func() (*kafkaadmin.Client, func(context.Context) (context.Context, context.CancelFunc), func(), error) {
				_, _, _, err := d(ctx)
				return nil, nil, nil, err
			}
			return runWatch(ctx, s, watchOptions{scope: scope, interval: time.Second, count: 1, format: output.FormatJSON, dial: each})
		},
	}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			calls := 0
			var out, errs bytes.Buffer
			err := run(t.Context(), IO{In: bytes.NewReader(nil), Out: &out, Err: &errs}, failingDial(&calls))
			if !errors.Is(err, errFakeDial) || calls != 1 {
				t.Fatalf("got %v after %d dials, want the dial's error after 1", err, calls)
			}
			if out.Len() > 0 {
				t.Fatalf("stdout without a cluster:\n%s", out.String())
			}
		})
	}
}

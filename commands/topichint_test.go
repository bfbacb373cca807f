package commands_test

import (
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// A mistyped topic is named with the closest topics of the cluster, as a
// mistyped group is; an empty --topic is a usage error in every native
// command that takes one, before anything is asked of the cluster (issue
// 20 §2.9).
func TestTopicTypoAndEmptyTopic(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "payments")
	group := kafkatest.UniqueName(t, "billing")
	e.CreateTopic(t, topic, 2)
	e.Produce(t, topic, 0, records(3)...)
	e.Commit(t, group, topic, map[int32]int64{0: 1})
	typo := strings.Replace(topic, "payments", "paymnts", 1)
	out := t.TempDir() + "/p.yaml"

	r := kcgOn(t, e, "plan", group, "--topic", typo, "--to-earliest", "--out", out).MustCode(t, 64)
	oneLine(t, r.Stderr, `topic "`+typo+`" does not exist`, "closest", topic)
	r = kcgOn(t, e, "plan", group, "--topic", typo+":0", "--to-earliest", "--out", out).MustCode(t, 64)
	oneLine(t, r.Stderr, "closest", topic)
	// A partition of a topic that exists: no topic to suggest.
	r = kcgOn(t, e, "plan", group, "--topic", topic+":7", "--to-earliest", "--out", out).MustCode(t, 64)
	if strings.Contains(r.Stderr, "closest") {
		t.Fatalf("a missing partition of an existing topic got a topic hint: %q", r.Stderr)
	}

	for _, args := range [][]string{
		{"plan", group, "--topic", "", "--to-earliest", "--out", out},
		{"plan", group, "--topic", ":0", "--to-earliest", "--out", out},
		{"describe", group, "--topic", ""},
		{"delete-offsets", group, "--topic", ""},
	} {
		r := kcg(t, append(args, "--bootstrap-server", "127.0.0.1:1")...).MustCode(t, 64)
		oneLine(t, r.Stderr, "names no topic")
	}
	if c := e.Committed(t, group)[topic]; c[0] != 1 {
		t.Fatalf("committed %v", c)
	}
}

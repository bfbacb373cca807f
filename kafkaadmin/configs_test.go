package kafkaadmin_test

import (
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

// TopicRetentions reads retention.ms and retention.bytes where deletion
// applies, nil for -1 and for a compact-only topic, and an error for a
// topic that does not exist; the others are unaffected.
func TestTopicRetentions(t *testing.T) {
	e := kafkatest.Cluster(t)
	hour := kafkatest.UniqueName(t, "hour")
	forever := kafkatest.UniqueName(t, "forever")
	compact := kafkatest.UniqueName(t, "compact")
	both := kafkatest.UniqueName(t, "both")
	e.CreateTopic(t, hour, 1, "retention.ms=3600000", "retention.bytes=1048576")
	e.CreateTopic(t, forever, 1, "retention.ms=-1")
	e.CreateTopic(t, compact, 1, "cleanup.policy=compact", "retention.ms=3600000")
	e.CreateTopic(t, both, 1, "cleanup.policy=compact,delete", "retention.ms=60000")
	missing := kafkatest.UniqueName(t, "nosuch")
	cl := newClient(t, e)
	got, err := cl.TopicRetentions(ctxFor(t), []string{hour, forever, compact, both, missing, hour})
	if err != nil {
		t.Fatal(err)
	}
	if r := got[hour]; r.Err != nil || r.Ms == nil || *r.Ms != 3600000 || r.Bytes == nil || *r.Bytes != 1048576 {
		t.Errorf("%s: %+v", hour, r)
	}
	if r := got[forever]; r.Err != nil || r.Ms != nil {
		t.Errorf("retention.ms=-1: %+v, want Ms nil", r)
	}
	if r := got[compact]; r.Err != nil || r.Ms != nil || r.Bytes != nil {
		t.Errorf("compact only: %+v, want nothing deleted", r)
	}
	if r := got[both]; r.Err != nil || r.Ms == nil || *r.Ms != 60000 {
		t.Errorf("compact,delete: %+v, want Ms 60000", r)
	}
	if r := got[missing]; r.Err == nil {
		t.Errorf("missing topic: %+v, want an error", r)
	}
}

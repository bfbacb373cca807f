package groupops

import (
	"errors"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

func TestRetentionHeadroom(t *testing.T) {
	now := time.UnixMilli(10_000_000)
	hour := int64(time.Hour / time.Millisecond)
	ts := now.Add(-50 * time.Minute)
	lag := int64(50 * 60 * 1000)
	zero := int64(0)
	r := kafkaadmin.TopicRetention{Ms: &hour}
	for _, c := range []struct {
		name string
		tl   TimeLag
		r    kafkaadmin.TopicRetention
		want *int64
	}{
		{"50 minutes old of 1h", TimeLag{Timestamp: &ts, Millis: &lag}, r, ptr(10 * 60 * 1000)},
		{"older than retention", TimeLag{Timestamp: &ts, Millis: &lag}, kafkaadmin.TopicRetention{Ms: ptr(1000)}, ptr(0)},
		{"below log start", TimeLag{Timestamp: &ts, Millis: &lag, Flags: []string{FlagBelowLogStart}}, r, ptr(0)},
		{"caught up", TimeLag{Millis: &zero}, r, &hour},
		{"no commit", TimeLag{}, r, nil},
		{"unreadable record", TimeLag{Err: errors.New("x")}, r, nil},
		{"retention.ms=-1 or compact", TimeLag{Timestamp: &ts, Millis: &lag}, kafkaadmin.TopicRetention{}, nil},
		{"config unreadable", TimeLag{Timestamp: &ts, Millis: &lag}, kafkaadmin.TopicRetention{Ms: &hour, Err: errors.New("denied")}, nil},
	} {
		got := RetentionHeadroom(c.tl, c.r, now)
		if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
			t.Errorf("%s: got %v, want %v", c.name, deref(got), deref(c.want))
		}
	}
}

func TestAtRisk(t *testing.T) {
	h := int64(60_000)
	lag := int64(100)
	tl := &TimeLag{RetentionHeadroomMs: &h}
	for _, c := range []struct {
		name string
		p    PartitionWatch
		want bool
	}{
		{"eta beyond headroom", PartitionWatch{TimeLag: tl, Lag: &lag, ETASeconds: fptr(61.0)}, true},
		{"eta within headroom", PartitionWatch{TimeLag: tl, Lag: &lag, ETASeconds: fptr(59.0)}, false},
		{"not catching up", PartitionWatch{TimeLag: tl, Lag: &lag, ConsumeRate: fptr(1.0), ProduceRate: fptr(2.0)}, true},
		{"rates unknown yet", PartitionWatch{TimeLag: tl, Lag: &lag}, false},
		{"no lag", PartitionWatch{TimeLag: tl, Lag: ptr(0), ConsumeRate: fptr(0.0), ProduceRate: fptr(0.0)}, false},
		{"already gone", PartitionWatch{TimeLag: &TimeLag{RetentionHeadroomMs: ptr(0)}, Lag: &lag}, true},
		{"no headroom known", PartitionWatch{TimeLag: &TimeLag{}, Lag: &lag, ETASeconds: fptr(1e9)}, false},
	} {
		if got := atRisk(c.p); got != c.want {
			t.Errorf("%s: atRisk %v, want %v", c.name, got, c.want)
		}
	}
}

func fptr(v float64) *float64 { return &v }

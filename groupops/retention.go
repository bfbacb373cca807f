package groupops

import (
	"context"
	"slices"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// ReadRetention adds to every time lag of s (ReadTimeLags must have run)
// its retention headroom (TimeLag.RetentionHeadroomMs), from the topics'
// retention.ms and cleanup.policy: one DescribeConfigs phase for the
// topics the groups committed on. s.Retention keeps what was read.
func ReadRetention(ctx context.Context, cl *kafkaadmin.Client, s *Snapshot) error {
	seen := map[string]bool{}
	var topics []string
	for key := range s.timeLags {
		if !seen[key.TP.Topic] {
			seen[key.TP.Topic] = true
			topics = append(topics, key.TP.Topic)
		}
	}
	rs, err := cl.TopicRetentions(ctx, topics)
	if err != nil {
		return err
	}
	s.Retention = rs
	for key, tl := range s.timeLags {
		tl.RetentionHeadroomMs = RetentionHeadroom(tl, rs[key.TP.Topic], s.Now)
		s.timeLags[key] = tl
	}
	return nil
}

// RetentionHeadroom is how long, at now, until time-based retention may
// delete the record a group with time lag tl will consume next: that
// record's timestamp + retention.ms - now, never below 0. It is 0 when the
// commit is already below the log start (the flag below-log-start), the
// whole retention.ms when the group is caught up (the next record is not
// written yet), and nil when the topic deletes nothing by age
// (retention.ms=-1, compact only), its config could not be read, or the
// record's time is unknown.
//
// Kafka deletes whole segments, once the newest timestamp in a segment is
// older than retention.ms, so the record usually outlives this figure: it
// is the earliest the record can go, the figure to alarm on.
func RetentionHeadroom(tl TimeLag, r kafkaadmin.TopicRetention, now time.Time) *int64 {
	if r.Err != nil || r.Ms == nil {
		return nil
	}
	var h int64
	switch {
	case slices.Contains(tl.Flags, FlagBelowLogStart):
		h = 0
	case tl.Timestamp != nil:
		h = max(tl.Timestamp.UnixMilli()+*r.Ms-now.UnixMilli(), 0)
	case tl.Millis != nil && *tl.Millis == 0 && tl.Err == nil:
		h = *r.Ms // caught up: the next record gets the whole retention
	default:
		return nil
	}
	return &h
}

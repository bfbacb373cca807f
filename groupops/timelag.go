package groupops

import (
	"context"
	"slices"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

// Time-lag flags: what a reader of a time lag should know about how it was
// found.
const (
	// FlagBelowLogStart: the committed offset is below the log start
	// (retention deleted it); the time is the first record's.
	FlagBelowLogStart = "below-log-start"
	// FlagFutureTimestamp: the record's CreateTime is after now (a producer
	// clock ahead); the time lag is 0.
	FlagFutureTimestamp = "future-timestamp"
	// FlagLogAppendTime: the topic stamps records with the broker's append
	// time, not the producer's CreateTime.
	FlagLogAppendTime = "log-append-time"
	// FlagOpenTransaction: an open transaction holds the committed offset
	// back (last stable offset < high watermark), so the record a
	// read-committed consumer waits for cannot be read yet.
	FlagOpenTransaction = "open-transaction"
)

// TimeLag is how far behind in time a group is on one partition.
type TimeLag struct {
	// Timestamp is that of the next record the group will consume; nil
	// when caught up, no commit, or it could not be read.
	Timestamp *time.Time
	// Millis is now - Timestamp in whole milliseconds, 0 when caught up;
	// nil when there is no commit or it is unknown.
	Millis *int64
	Flags  []string
	Err    error
	// RetentionHeadroomMs is how long until retention may delete the
	// record at the commit (RetentionHeadroom); nil unless ReadRetention
	// ran and the topic deletes by age.
	RetentionHeadroomMs *int64
}

// recordOffset is the offset whose record's time describes a commit on a
// partition with bounds b, and whether a read is needed at all: none when
// there is no commit or the commit is at (or past) the log end.
func recordOffset(committed *int64, b LogBounds, readCommitted bool) (int64, bool) {
	end := b.LagEnd(readCommitted)
	if committed == nil || end == nil || *committed >= *end {
		return 0, false
	}
	if b.Start != nil && *committed < *b.Start {
		return *b.Start, true
	}
	return *committed, true
}

// ComputeTimeLag is the time lag of a commit on a partition with bounds b,
// given what RecordTimes read (nil when nothing was read), at now; with
// readCommitted a commit at the last stable offset is caught up.
func ComputeTimeLag(committed *int64, b LogBounds, readCommitted bool, rt *kafkaadmin.RecordTime, now time.Time) TimeLag {
	var tl TimeLag
	if committed == nil {
		return tl
	}
	if end := b.LagEnd(readCommitted); end != nil && *committed >= *end {
		zero := int64(0)
		tl.Millis = &zero
		return tl
	}
	if b.Start != nil && *committed < *b.Start {
		tl.Flags = append(tl.Flags, FlagBelowLogStart)
	}
	if rt == nil {
		return tl
	}
	if rt.Err != nil {
		tl.Err = rt.Err
		return tl
	}
	if rt.FromLogStart && !slices.Contains(tl.Flags, FlagBelowLogStart) {
		tl.Flags = append(tl.Flags, FlagBelowLogStart)
	}
	if !rt.Found {
		if rt.LastStableOffset >= 0 && rt.LastStableOffset < rt.HighWatermark {
			tl.Flags = append(tl.Flags, FlagOpenTransaction)
			return tl
		}
		// Only transaction markers (or aborted data) up to the log end:
		// the group has nothing left to consume.
		zero := int64(0)
		tl.Millis = &zero
		return tl
	}
	ts := time.UnixMilli(rt.Timestamp).UTC()
	tl.Timestamp = &ts
	if rt.LogAppendTime {
		tl.Flags = append(tl.Flags, FlagLogAppendTime)
	}
	ms := now.Sub(ts).Milliseconds()
	if ms < 0 {
		ms = 0
		tl.Flags = append(tl.Flags, FlagFutureTimestamp)
	}
	tl.Millis = &ms
	return tl
}

// ReadTimeLags adds the time lag of every committed partition to s (see
// Snapshot.TimeLagAt): one Fetch phase (see kafkaadmin.RecordTimes) for
// the commits behind the log end, none for the rest. s.Now is the time the
// lags are measured at.
//
// A time lag depends only on the partition and the committed offset, and
// at --all-groups sizes most groups share their commits (the same offset
// of the same partition): each distinct (partition, committed offset) is
// asked, computed and kept once, not once per group.
func ReadTimeLags(ctx context.Context, cl *kafkaadmin.Client, s *Snapshot) error {
	lags := map[kafkaadmin.RecordAt]TimeLag{}
	var commits, qs []kafkaadmin.RecordAt
	asked := map[kafkaadmin.RecordAt]bool{}
	for _, g := range s.Groups {
		if !g.Commits() {
			continue // a share group's start offsets have no commit time
		}
		for tp, c := range g.Offsets {
			key := kafkaadmin.RecordAt{TP: tp, Offset: c.Offset}
			if _, ok := lags[key]; ok {
				continue
			}
			lags[key] = TimeLag{}
			commits = append(commits, key)
			if off, ok := recordOffset(&c.Offset, s.Bounds[tp], s.ReadCommitted); ok {
				if q := (kafkaadmin.RecordAt{TP: tp, Offset: off}); !asked[q] {
					asked[q] = true
					qs = append(qs, q)
				}
			}
		}
	}
	rts, err := cl.RecordTimes(ctx, qs)
	if err != nil {
		return err
	}
	s.Now = time.Now()
	for _, key := range commits {
		b := s.Bounds[key.TP]
		var rt *kafkaadmin.RecordTime
		if off, ok := recordOffset(&key.Offset, b, s.ReadCommitted); ok {
			r := rts[kafkaadmin.RecordAt{TP: key.TP, Offset: off}]
			rt = &r
		}
		lags[key] = ComputeTimeLag(&key.Offset, b, s.ReadCommitted, rt, s.Now)
	}
	s.timeLags = lags
	return nil
}

// TimeLagAt is the time lag of a commit at offset committed on tp, and
// false unless ReadTimeLags ran and some group has that commit. Groups
// committed at the same offset get the same TimeLag, pointers included:
// read it, never write through them.
func (s *Snapshot) TimeLagAt(tp TopicPartition, committed int64) (TimeLag, bool) {
	tl, ok := s.timeLags[kafkaadmin.RecordAt{TP: tp, Offset: committed}]
	return tl, ok
}

// TimeLagErrors are the partitions whose record could not be read, each
// with the error of its lowest such commit.
func (s *Snapshot) TimeLagErrors() map[TopicPartition]error {
	out := map[TopicPartition]error{}
	low := map[TopicPartition]int64{}
	for key, tl := range s.timeLags {
		if tl.Err == nil {
			continue
		}
		if o, ok := low[key.TP]; !ok || key.Offset < o {
			low[key.TP], out[key.TP] = key.Offset, tl.Err
		}
	}
	return out
}

// GroupPartition names one partition of one group.
type GroupPartition struct {
	Group string
	TP    TopicPartition
}

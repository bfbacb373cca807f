package groupops

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/kafkaadmin"
)

func TestComputeTimeLag(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	p := func(v int64) *int64 { return &v }
	bounds := LogBounds{Start: p(100), End: p(200)}
	found := func(ts time.Time) *kafkaadmin.RecordTime {
		return &kafkaadmin.RecordTime{Found: true, Offset: 150, Timestamp: ts.UnixMilli(), HighWatermark: 200, LastStableOffset: 200}
	}
	for _, tc := range []struct {
		name      string
		committed *int64
		b         LogBounds
		rt        *kafkaadmin.RecordTime
		wantMs    *int64
		wantTS    bool
		wantFlags []string
		wantErr   bool
	}{
		{"no commit", nil, bounds, nil, nil, false, nil, false},
		{"caught up", p(200), bounds, nil, p(0), false, nil, false},
		{"commit past the log end", p(250), bounds, nil, p(0), false, nil, false},
		{"idle partition, ten minutes behind", p(150), bounds, found(now.Add(-10 * time.Minute)), p(600_000), true, nil, false},
		{"below the log start", p(50), bounds, found(now.Add(-time.Second)), p(1000), true, []string{FlagBelowLogStart}, false},
		{"log start moved during the read", p(150), bounds, &kafkaadmin.RecordTime{Found: true, Timestamp: now.Add(-2 * time.Second).UnixMilli(), FromLogStart: true}, p(2000), true, []string{FlagBelowLogStart}, false},
		{"CreateTime in the future", p(150), bounds, found(now.Add(time.Minute)), p(0), true, []string{FlagFutureTimestamp}, false},
		{"LogAppendTime", p(150), bounds, &kafkaadmin.RecordTime{Found: true, Timestamp: now.Add(-3 * time.Second).UnixMilli(), LogAppendTime: true}, p(3000), true, []string{FlagLogAppendTime}, false},
		{"only markers left", p(199), bounds, &kafkaadmin.RecordTime{HighWatermark: 200, LastStableOffset: 200}, p(0), false, nil, false},
		{"open transaction", p(150), bounds, &kafkaadmin.RecordTime{HighWatermark: 200, LastStableOffset: 150}, nil, false, []string{FlagOpenTransaction}, false},
		{"read failed", p(150), bounds, &kafkaadmin.RecordTime{Err: errors.New("boom")}, nil, false, nil, true},
		{"log end unknown", p(150), LogBounds{}, nil, nil, false, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ComputeTimeLag(tc.committed, tc.b, false, tc.rt, now)
			switch {
			case (got.Millis == nil) != (tc.wantMs == nil), got.Millis != nil && *got.Millis != *tc.wantMs:
				t.Errorf("Millis = %v, want %v", deref(got.Millis), deref(tc.wantMs))
			}
			if (got.Timestamp != nil) != tc.wantTS {
				t.Errorf("Timestamp = %v, want set %v", got.Timestamp, tc.wantTS)
			}
			if !slices.Equal(got.Flags, tc.wantFlags) {
				t.Errorf("Flags = %v, want %v", got.Flags, tc.wantFlags)
			}
			if (got.Err != nil) != tc.wantErr {
				t.Errorf("Err = %v", got.Err)
			}
		})
	}
}

func TestComputeTimeLagWholeMillis(t *testing.T) {
	ts := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	now := ts.Add(1001*time.Millisecond + 700*time.Microsecond)
	ten := int64(10)
	end := int64(20)
	got := ComputeTimeLag(&ten, LogBounds{End: &end}, false, &kafkaadmin.RecordTime{Found: true, Timestamp: ts.UnixMilli()}, now)
	if got.Millis == nil || *got.Millis != 1001 {
		t.Fatalf("Millis = %v, want 1001 (whole milliseconds, truncated)", deref(got.Millis))
	}
}

func TestComputeTimeLagReadCommitted(t *testing.T) {
	p := func(v int64) *int64 { return &v }
	b := LogBounds{Start: p(0), End: p(20), Stable: p(15)}
	// At the last stable offset a read-committed consumer has nothing to
	// read: caught up, although the high watermark is ahead.
	if got := ComputeTimeLag(p(15), b, true, nil, time.Now()); got.Millis == nil || *got.Millis != 0 {
		t.Errorf("read committed at the LSO: %v, want 0", deref(got.Millis))
	}
	if _, ok := recordOffset(p(15), b, true); ok {
		t.Error("read committed at the LSO: nothing to read")
	}
	if _, ok := recordOffset(p(15), b, false); !ok {
		t.Error("read uncommitted below the high watermark: a read")
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestRecordOffset(t *testing.T) {
	p := func(v int64) *int64 { return &v }
	b := LogBounds{Start: p(10), End: p(20)}
	if off, ok := recordOffset(p(5), b, false); !ok || off != 10 {
		t.Errorf("below the log start: %d %v, want the log start", off, ok)
	}
	if off, ok := recordOffset(p(15), b, false); !ok || off != 15 {
		t.Errorf("inside: %d %v", off, ok)
	}
	if _, ok := recordOffset(p(20), b, false); ok {
		t.Error("at the log end: nothing to read")
	}
	if _, ok := recordOffset(nil, b, false); ok {
		t.Error("no commit: nothing to read")
	}
}

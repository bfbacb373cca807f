package groupops

import (
	"slices"
	"time"

	"github.com/kcg-dev/kcg/vocab"
)

// WatchWindow is K, the number of samples the statuses of watch judge:
// the current one and the K-1 before it.
const WatchWindow = 5

// The statuses of watch, after Burrow's.
const (
	StatusOK      = "OK"
	StatusWarn    = "WARN"
	StatusStall   = "STALL"
	StatusStop    = "STOP"
	StatusRewind  = "REWIND"
	StatusUnknown = "UNKNOWN"
)

// statusRank orders statuses from the least to the most alarming; a
// group's status is its worst partition's.
var statusRank = []string{StatusOK, StatusUnknown, StatusWarn, StatusStall, StatusStop, StatusRewind}

// StatusRank orders the statuses from the least alarming (0, OK) to the
// most (REWIND); an unknown status ranks as UNKNOWN.
func StatusRank(status string) int {
	if i := slices.Index(statusRank, status); i >= 0 {
		return i
	}
	return slices.Index(statusRank, StatusUnknown)
}

// point is one sample of one partition of one group.
type point struct {
	at                  time.Time
	committed, end, lag *int64
}

// Watcher keeps the last WatchWindow samples of every group's partitions
// and turns each new snapshot into rates, an ETA and a status.
type Watcher struct {
	history map[GroupPartition][]point
	lags    map[string][]*int64 // per group: total lag per sample, for the trend
}

// NewWatcher returns a Watcher with no samples.
func NewWatcher() *Watcher {
	return &Watcher{history: map[GroupPartition][]point{}, lags: map[string][]*int64{}}
}

// PartitionWatch is one partition of a group in a sample.
type PartitionWatch struct {
	TP                       TopicPartition
	Committed, End, Lag      *int64
	TimeLag                  *TimeLag
	ConsumeRate, ProduceRate *float64 // records/s since the previous sample
	ETASeconds               *float64
	Status                   string
}

// GroupWatch is one group in a sample.
type GroupWatch struct {
	Group                    Group
	TotalLag                 *int64
	ConsumeRate, ProduceRate *float64
	ETASeconds               *float64
	Status                   string
	Trend                    []*int64 // total lag over the window, oldest first
	Partitions               []PartitionWatch
}

// Add records s, taken at now, and returns every group of it, in s's
// order.
func (w *Watcher) Add(s *Snapshot, now time.Time) []GroupWatch {
	var out []GroupWatch
	for _, g := range s.Groups {
		gw := GroupWatch{Group: g}
		var consume, produce float64
		rates := false
		for _, tp := range vocab.SortedPartitions(g.Partitions()) {
			p := PartitionWatch{TP: tp, End: s.Bounds[tp].LagEnd(s.ReadCommitted)}
			if c, ok := g.Offsets[tp]; ok {
				p.Committed = &c.Offset
			}
			if p.Committed != nil && p.End != nil {
				l := *p.End - *p.Committed
				p.Lag = &l
			}
			if tl, ok := s.TimeLags[GroupPartition{Group: g.Name(), TP: tp}]; ok {
				p.TimeLag = &tl
			}
			key := GroupPartition{Group: g.Name(), TP: tp}
			h := append(w.history[key], point{at: now, committed: p.Committed, end: p.End, lag: p.Lag})
			if len(h) > WatchWindow {
				h = h[len(h)-WatchWindow:]
			}
			w.history[key] = h
			if len(h) >= 2 {
				prev, cur := h[len(h)-2], h[len(h)-1]
				p.ConsumeRate = rate(prev.committed, cur.committed, cur.at.Sub(prev.at))
				p.ProduceRate = rate(prev.end, cur.end, cur.at.Sub(prev.at))
			}
			p.ETASeconds = eta(p.Lag, p.ConsumeRate, p.ProduceRate)
			p.Status = status(h, len(g.Desc.Members) > 0)
			if p.ConsumeRate != nil && p.ProduceRate != nil {
				consume += *p.ConsumeRate
				produce += *p.ProduceRate
				rates = true
			}
			if p.Lag != nil {
				gw.TotalLag = addPtr(gw.TotalLag, *p.Lag)
			}
			if slices.Index(statusRank, p.Status) > slices.Index(statusRank, gw.Status) {
				gw.Status = p.Status
			}
			gw.Partitions = append(gw.Partitions, p)
		}
		if gw.Status == "" {
			gw.Status = StatusUnknown
			if len(w.lags[g.Name()]) >= 1 {
				gw.Status = StatusOK // nothing to consume, for two samples now
			}
		}
		if rates {
			gw.ConsumeRate, gw.ProduceRate = &consume, &produce
		}
		gw.ETASeconds = eta(gw.TotalLag, gw.ConsumeRate, gw.ProduceRate)
		trend := append(w.lags[g.Name()], gw.TotalLag)
		if len(trend) > WatchWindow {
			trend = trend[len(trend)-WatchWindow:]
		}
		w.lags[g.Name()] = trend
		gw.Trend = slices.Clone(trend)
		out = append(out, gw)
	}
	return out
}

func addPtr(p *int64, v int64) *int64 {
	if p == nil {
		return &v
	}
	s := *p + v
	return &s
}

// rate is (b - a) per second over d; nil when either is unknown or d is 0.
func rate(a, b *int64, d time.Duration) *float64 {
	if a == nil || b == nil || d <= 0 {
		return nil
	}
	r := float64(*b-*a) / d.Seconds()
	return &r
}

// eta is the time to consume lag at the net rate consume - produce; 0
// when there is no lag, nil when the lag does not shrink or is unknown.
func eta(lag *int64, consume, produce *float64) *float64 {
	if lag == nil {
		return nil
	}
	if *lag <= 0 {
		zero := 0.0
		return &zero
	}
	if consume == nil || produce == nil || *consume-*produce <= 0 {
		return nil
	}
	s := float64(*lag) / (*consume - *produce)
	return &s
}

// status judges the window h (oldest first) of one partition:
//
//   - UNKNOWN: fewer than two samples, or the lag is unknown;
//   - REWIND: the committed offset moved backwards between two samples;
//   - OK: the lag is 0 (or less) now;
//   - STALL / STOP: lag > 0 and the committed offset did not move over the
//     window; STALL when the group has active members, STOP when not;
//   - WARN: commits advance but the lag grew over the window (last > first);
//   - OK otherwise: commits advance and the lag did not grow.
func status(h []point, active bool) string {
	if len(h) < 2 {
		return StatusUnknown
	}
	for i := 1; i < len(h); i++ {
		a, b := h[i-1].committed, h[i].committed
		if a != nil && b != nil && *b < *a {
			return StatusRewind
		}
	}
	first, last := h[0], h[len(h)-1]
	if last.lag == nil {
		return StatusUnknown
	}
	if *last.lag <= 0 {
		return StatusOK
	}
	if first.committed == nil || *first.committed == *last.committed {
		if active {
			return StatusStall
		}
		return StatusStop
	}
	if first.lag != nil && *last.lag > *first.lag {
		return StatusWarn
	}
	return StatusOK
}

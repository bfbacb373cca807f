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
	StatusOK   = "OK"
	StatusWarn = "WARN"
	// StatusAtRisk: the ETA to catch up (infinite when not catching up)
	// exceeds the retention headroom; needs --time-lag.
	StatusAtRisk  = "AT-RISK"
	StatusStall   = "STALL"
	StatusStop    = "STOP"
	StatusRewind  = "REWIND"
	StatusUnknown = "UNKNOWN"
)

// statusRank orders statuses from the least to the most alarming; a
// group's status is its worst partition's.
var statusRank = []string{StatusOK, StatusUnknown, StatusWarn, StatusAtRisk, StatusStall, StatusStop, StatusRewind}

// StatusRank orders the statuses from the least alarming (0, OK) to the
// most (REWIND); an unknown status ranks as UNKNOWN.
func StatusRank(status string) int {
	if i := slices.Index(statusRank, status); i >= 0 {
		return i
	}
	return slices.Index(statusRank, StatusUnknown)
}

// point is one sample of one partition of one group. It holds no pointer,
// so the history of 100,000 partitions costs the garbage collector
// nothing to scan.
type point struct {
	at                  time.Duration // since the Watcher's first sample (monotonic)
	committed, end, lag int64
	known               uint8 // hasCommitted | hasEnd | hasLag
}

const (
	hasCommitted uint8 = 1 << iota
	hasEnd
	hasLag
)

// window is the last WatchWindow points of one partition of one group,
// oldest first, kept in place: a new sample allocates nothing.
type window struct {
	pts  [WatchWindow]point
	n    int
	seen uint64 // the last sample this partition was in
}

func (w *window) push(p point) {
	if w.n == WatchWindow {
		copy(w.pts[:], w.pts[1:])
		w.n--
	}
	w.pts[w.n] = p
	w.n++
}

// Watcher keeps the last WatchWindow samples of every group's partitions
// and turns each new snapshot into rates, an ETA and a status. A partition
// or group missing from a sample (a deleted group, a group --all-groups no
// longer lists) is forgotten, so a long watch of a changing cluster does
// not grow.
type Watcher struct {
	history map[GroupPartition]*window
	lags    map[string][]*int64 // per group: total lag per sample, for the trend
	start   time.Time
	samples uint64
}

// NewWatcher returns a Watcher with no samples.
func NewWatcher() *Watcher {
	return &Watcher{history: map[GroupPartition]*window{}, lags: map[string][]*int64{}}
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
	if w.samples == 0 {
		w.start = now
	}
	w.samples++
	at := now.Sub(w.start)
	out := make([]GroupWatch, 0, len(s.Groups))
	seenGroups := make(map[string]bool, len(s.Groups))
	for i := range s.Groups {
		g := &s.Groups[i]
		seenGroups[g.Name()] = true
		out = append(out, w.addGroup(s, g, at))
	}
	w.forget(seenGroups)
	return out
}

// watchValues holds the committed, end and lag values and the rates of
// one group's partitions: one allocation for each kind rather than one per
// value. Its slices are made with the capacity of every value the group
// can have, so the pointers it hands out stay valid.
type watchValues struct {
	ints   []int64
	floats []float64
}

func newWatchValues(partitions int) watchValues {
	return watchValues{ints: make([]int64, 0, 3*partitions), floats: make([]float64, 0, 3*partitions)}
}

func (v *watchValues) int(x int64) *int64 {
	v.ints = append(v.ints, x)
	return &v.ints[len(v.ints)-1]
}

func (v *watchValues) float(x float64) *float64 {
	v.floats = append(v.floats, x)
	return &v.floats[len(v.floats)-1]
}

// addGroup records the group g of the sample s, taken at at, and returns
// it with its partitions, totals, ETA, status and lag trend.
func (w *Watcher) addGroup(s *Snapshot, g *Group, at time.Duration) GroupWatch {
	gw := GroupWatch{Group: *g}
	var consume, produce float64
	var total int64
	rates, anyLag := false, false
	tps := vocab.SortedPartitions(g.Partitions())
	vals := newWatchValues(len(tps))
	gw.Partitions = make([]PartitionWatch, 0, len(tps))
	for _, tp := range tps {
		p := w.addPartition(s, g, tp, at, &vals)
		if p.ConsumeRate != nil && p.ProduceRate != nil {
			consume += *p.ConsumeRate
			produce += *p.ProduceRate
			rates = true
		}
		if p.Lag != nil {
			total, anyLag = total+*p.Lag, true
		}
		if StatusRank(p.Status) > StatusRank(gw.Status) || gw.Status == "" {
			gw.Status = p.Status
		}
		gw.Partitions = append(gw.Partitions, p)
	}
	if anyLag {
		gw.TotalLag = &total
	}
	if gw.Status == "" {
		gw.Status = StatusUnknown
		// A group that does not exist has nothing to judge: UNKNOWN, never
		// OK (its entry carries the error).
		if len(w.lags[g.Name()]) >= 1 && g.Err == nil && g.Desc.Exists {
			gw.Status = StatusOK // nothing to consume, for two samples now
		}
	}
	if rates {
		gw.ConsumeRate, gw.ProduceRate = &consume, &produce
	}
	if e, ok := eta(gw.TotalLag, gw.ConsumeRate, gw.ProduceRate); ok {
		gw.ETASeconds = &e
	}
	trend := append(w.lags[g.Name()], gw.TotalLag)
	if len(trend) > WatchWindow {
		trend = trend[len(trend)-WatchWindow:]
	}
	w.lags[g.Name()] = trend
	gw.Trend = slices.Clone(trend)
	return gw
}

// addPartition pushes the point of partition tp of group g in the sample
// s, taken at at, onto its window and returns it with its rates since the
// previous sample, its ETA and its status.
func (w *Watcher) addPartition(s *Snapshot, g *Group, tp TopicPartition, at time.Duration, vals *watchValues) PartitionWatch {
	p := PartitionWatch{TP: tp}
	cur := point{at: at}
	if e := s.Bounds[tp].LagEnd(s.ReadCommitted); e != nil {
		cur.end, cur.known = *e, cur.known|hasEnd
		p.End = vals.int(*e)
	}
	if c, ok := g.Offsets[tp]; ok {
		cur.committed, cur.known = c.Offset, cur.known|hasCommitted
		p.Committed = vals.int(c.Offset)
		if tl, ok := s.TimeLagAt(tp, c.Offset); ok {
			v := tl // only a found one escapes, not every lookup
			p.TimeLag = &v
		}
	}
	if cur.known&(hasCommitted|hasEnd) == hasCommitted|hasEnd {
		cur.lag, cur.known = cur.end-cur.committed, cur.known|hasLag
		p.Lag = vals.int(cur.lag)
	}
	key := GroupPartition{Group: g.Name(), TP: tp}
	win := w.history[key]
	if win == nil {
		win = &window{}
		w.history[key] = win
	}
	win.push(cur)
	win.seen = w.samples
	h := win.pts[:win.n]
	if len(h) >= 2 {
		prev := h[len(h)-2]
		d := cur.at - prev.at
		if r, ok := rate(prev.committed, cur.committed, prev.known&cur.known&hasCommitted != 0, d); ok {
			p.ConsumeRate = vals.float(r)
		}
		if r, ok := rate(prev.end, cur.end, prev.known&cur.known&hasEnd != 0, d); ok {
			p.ProduceRate = vals.float(r)
		}
	}
	if e, ok := eta(p.Lag, p.ConsumeRate, p.ProduceRate); ok {
		p.ETASeconds = vals.float(e)
	}
	p.Status = status(h, len(g.Desc.Members) > 0)
	if atRisk(p) && StatusRank(p.Status) < StatusRank(StatusAtRisk) {
		p.Status = StatusAtRisk
	}
	return p
}

// atRisk reports whether p will not catch up before retention may delete
// the record at its commit: lag > 0, a known retention headroom, and an
// ETA beyond it, or known rates that do not catch up at all.
func atRisk(p PartitionWatch) bool {
	if p.TimeLag == nil || p.TimeLag.RetentionHeadroomMs == nil || p.Lag == nil || *p.Lag <= 0 {
		return false
	}
	h := float64(*p.TimeLag.RetentionHeadroomMs)
	if p.ETASeconds != nil {
		return *p.ETASeconds*1000 > h
	}
	return h == 0 || (p.ConsumeRate != nil && p.ProduceRate != nil)
}

// forget drops the partitions that were not in the last sample and the
// groups not in seen.
func (w *Watcher) forget(seen map[string]bool) {
	for key, win := range w.history {
		if win.seen != w.samples {
			delete(w.history, key)
		}
	}
	for g := range w.lags {
		if !seen[g] {
			delete(w.lags, g)
		}
	}
}

// rate is (b - a) per second over d; not ok when either is unknown or d
// is not positive.
func rate(a, b int64, known bool, d time.Duration) (float64, bool) {
	if !known || d <= 0 {
		return 0, false
	}
	return float64(b-a) / d.Seconds(), true
}

// eta is the time to consume lag at the net rate consume - produce; 0
// when there is no lag, not ok when the lag does not shrink or is unknown.
func eta(lag *int64, consume, produce *float64) (float64, bool) {
	if lag == nil {
		return 0, false
	}
	if *lag <= 0 {
		return 0, true
	}
	if consume == nil || produce == nil || *consume-*produce <= 0 {
		return 0, false
	}
	return float64(*lag) / (*consume - *produce), true
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
		a, b := h[i-1], h[i]
		if a.known&b.known&hasCommitted != 0 && b.committed < a.committed {
			return StatusRewind
		}
	}
	first, last := h[0], h[len(h)-1]
	if last.known&hasLag == 0 {
		return StatusUnknown
	}
	if last.lag <= 0 {
		return StatusOK
	}
	if first.known&hasCommitted == 0 || first.committed == last.committed {
		if active {
			return StatusStall
		}
		return StatusStop
	}
	if first.known&hasLag != 0 && last.lag > first.lag {
		return StatusWarn
	}
	return StatusOK
}

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

// counts are the records a partition committed and received since the
// previous sample, d before it; rated when both are known.
type counts struct {
	consumed, produced wide
	d                  time.Duration
	rated              bool
}

// GroupWatch is one group in a sample, of any family (a share group's
// start offsets are watched as committed offsets, and its lag is the
// broker's, as describe shows it).
type GroupWatch struct {
	Group                    Group
	TotalLag                 *int64
	ConsumeRate, ProduceRate *float64
	ETASeconds               *float64
	Status                   string
	Trend                    []*int64 // total lag over the window, oldest first
	Partitions               []PartitionWatch
}

// Name is the group's id.
func (g GroupWatch) Name() string { return g.Group.Name() }

// State is the group's state; exists is false for a group the cluster
// does not have.
func (g GroupWatch) State() (state string, exists bool) {
	return g.Group.Desc.State, g.Group.Desc.Exists
}

// Members is the number of the group's members.
func (g GroupWatch) Members() int { return len(g.Group.Desc.Members) }

// Err is why the group could not be read, nil when it was.
func (g GroupWatch) Err() error { return g.Group.Err }

// Add records s, taken at now, and returns every group of it, in s's
// order: each partition as the group's family gives it (family.watchIn).
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
		gw := GroupWatch{Group: *g}
		f := familyOf(g.Family)
		in := func(tp TopicPartition) partitionIn { return f.watchIn(s, g, tp) }
		w.addGroup(&gw, vocab.SortedPartitions(g.Partitions()), len(g.Desc.Members) > 0, g.Err == nil && g.Desc.Exists, at, in)
		out = append(out, gw)
	}
	w.forget(seenGroups)
	return out
}

// partitionIn is what a sample says of one partition of a group: its
// committed (or share-partition start) offset and its log end offset (in
// known: hasCommitted, hasEnd); with lagGiven its lag as the broker gives
// it (a share group's; hasLag when it does), else end − committed; and its
// time lag, nil without one.
type partitionIn struct {
	committed, end, lag int64
	known               uint8
	lagGiven            bool
	timeLag             *TimeLag
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

// addGroup records the partitions tps (sorted) of the group gw, as in
// gives them, at at, and fills gw's partitions, totals, ETA, status and
// lag trend. active is whether the group has members; exists whether it
// was read and the cluster has it.
func (w *Watcher) addGroup(gw *GroupWatch, tps []TopicPartition, active, exists bool, at time.Duration, in func(TopicPartition) partitionIn) {
	name := gw.Name()
	var consumed, produced, total wide
	var d time.Duration
	rated, anyLag := false, false
	vals := newWatchValues(len(tps))
	gw.Partitions = make([]PartitionWatch, 0, len(tps))
	for _, tp := range tps {
		p, n := w.addPartition(name, tp, in(tp), active, at, &vals)
		if n.rated {
			// Every partition with rates has the same d: a partition is
			// forgotten as soon as a sample lacks it (forget), so its
			// previous point is the previous sample's.
			consumed, produced, d, rated = consumed.add(n.consumed), produced.add(n.produced), n.d, true
		}
		if p.Lag != nil {
			total, anyLag = total.add(wideOf(*p.Lag)), true
		}
		if StatusRank(p.Status) > StatusRank(gw.Status) || gw.Status == "" {
			gw.Status = p.Status
		}
		gw.Partitions = append(gw.Partitions, p)
	}
	if anyLag {
		t, _ := total.int64() // a sum beyond int64 (no real log has one) is clamped
		gw.TotalLag = &t
	}
	if gw.Status == "" {
		gw.Status = StatusUnknown
		// A group that does not exist has nothing to judge: UNKNOWN, never
		// OK (its entry carries the error).
		if len(w.lags[name]) >= 1 && exists {
			gw.Status = StatusOK // nothing to consume, for two samples now
		}
	}
	if rated {
		c, p := perSecond(consumed, d), perSecond(produced, d)
		gw.ConsumeRate, gw.ProduceRate = &c, &p
	}
	if e, ok := etaOf(gw.TotalLag, consumed, produced, rated, d); ok {
		gw.ETASeconds = &e
	}
	trend := append(w.lags[name], gw.TotalLag)
	if len(trend) > WatchWindow {
		trend = trend[len(trend)-WatchWindow:]
	}
	w.lags[name] = trend
	gw.Trend = slices.Clone(trend)
}

// addPartition pushes the point of partition tp of group, as in gives it
// at at, onto its window and returns it with its rates since the previous
// sample, its ETA and its status, and the counts of those rates.
func (w *Watcher) addPartition(group string, tp TopicPartition, in partitionIn, active bool, at time.Duration, vals *watchValues) (p PartitionWatch, n counts) {
	p = PartitionWatch{TP: tp, TimeLag: in.timeLag}
	cur := point{at: at, committed: in.committed, end: in.end, lag: in.lag, known: in.known}
	if !in.lagGiven {
		cur.known &^= hasLag
		if cur.known&(hasCommitted|hasEnd) == hasCommitted|hasEnd {
			// Only offsets no Kafka log has (negative ones) make end −
			// committed overflow: then the lag is unknown.
			if l, ok := diff(cur.committed, cur.end).int64(); ok {
				cur.lag, cur.known = l, cur.known|hasLag
			}
		}
	}
	if cur.known&hasEnd != 0 {
		p.End = vals.int(cur.end)
	}
	if cur.known&hasCommitted != 0 {
		p.Committed = vals.int(cur.committed)
	}
	if cur.known&hasLag != 0 {
		p.Lag = vals.int(cur.lag)
	}
	key := GroupPartition{Group: group, TP: tp}
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
		if n.d = cur.at - prev.at; n.d > 0 {
			if prev.known&cur.known&hasCommitted != 0 {
				n.consumed = diff(prev.committed, cur.committed)
				p.ConsumeRate = vals.float(perSecond(n.consumed, n.d))
			}
			if prev.known&cur.known&hasEnd != 0 {
				n.produced = diff(prev.end, cur.end)
				p.ProduceRate = vals.float(perSecond(n.produced, n.d))
			}
			n.rated = p.ConsumeRate != nil && p.ProduceRate != nil
		}
	}
	if e, ok := etaOf(p.Lag, n.consumed, n.produced, n.rated, n.d); ok {
		p.ETASeconds = vals.float(e)
	}
	p.Status = status(h, active)
	if atRisk(p) && StatusRank(p.Status) < StatusRank(StatusAtRisk) {
		p.Status = StatusAtRisk
	}
	return p, n
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

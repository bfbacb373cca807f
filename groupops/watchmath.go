package groupops

import (
	"math"
	"math/bits"
	"time"
)

// The arithmetic of watch's rates and ETAs. Offsets are int64s: their
// differences and sums are kept exact in a 128-bit integer (wide) and
// turned into floats only for a rate or an ETA, so that
//
//   - a group whose consumers commit as many records as its producers
//     write has a net rate of exactly 0, and no ETA (summing per-partition
//     float rates left a rounding step of a difference, and an ETA of
//     lag / 2^-43 s, issue 30);
//   - no offset, lag, rate or ETA overflows, whatever int64s the cluster
//     sends (FuzzWatchMath).

// wide is a 128-bit two's-complement integer: the sum of up to 2^62
// differences of int64s fits in it.
type wide struct {
	hi int64
	lo uint64
}

func wideOf(v int64) wide { return wide{hi: v >> 63, lo: uint64(v)} }

func (a wide) add(b wide) wide {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	return wide{hi: a.hi + b.hi + int64(carry), lo: lo}
}

func (a wide) sub(b wide) wide {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	return wide{hi: a.hi - b.hi - int64(borrow), lo: lo}
}

// sign is -1, 0 or 1.
func (a wide) sign() int {
	switch {
	case a.hi < 0:
		return -1
	case a.hi == 0 && a.lo == 0:
		return 0
	}
	return 1
}

// float is a as a float64, within a rounding step of each half.
func (a wide) float() float64 {
	if a.hi < 0 {
		return -wide{}.sub(a).float()
	}
	return float64(a.hi)*0x1p64 + float64(a.lo)
}

// int64 is a clamped to the int64 range; ok is false when it was clamped.
func (a wide) int64() (v int64, ok bool) {
	if a.hi == int64(a.lo)>>63 { // the high half only extends the low half's sign: it fits
		return int64(a.lo), true
	}
	if a.hi < 0 {
		return math.MinInt64, false
	}
	return math.MaxInt64, false
}

// diff is b − a, exact.
func diff(a, b int64) wide { return wideOf(b).sub(wideOf(a)) }

// perSecond is n records over d (> 0) in records per second.
func perSecond(n wide, d time.Duration) float64 {
	return n.float() / d.Seconds()
}

// etaOf is the time to consume lag while consumers commit consumed records
// and producers write produced, both over d: lag ÷ (consume rate − produce
// rate). 0 when there is no lag; not ok when the lag is unknown, the
// counts are not (known false) or d is not positive, or consumers do not
// gain on producers — exactly: equal counts have no ETA. The result is
// finite, at most 2^63 × d in seconds.
func etaOf(lag *int64, consumed, produced wide, known bool, d time.Duration) (float64, bool) {
	if lag == nil {
		return 0, false
	}
	if *lag <= 0 {
		return 0, true
	}
	net := consumed.sub(produced)
	if !known || d <= 0 || net.sign() <= 0 {
		return 0, false
	}
	return float64(*lag) * d.Seconds() / net.float(), true
}

package output

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/kafkaadmin"
)

// Issue 30 item 3: HumanMillis wrote a negative duration as '-' and the
// duration negated, and math.MinInt64 negated is itself: it recursed until
// the stack overflowed (an ETA too large for int64 milliseconds converted
// to MinInt64).
func TestHumanMillisExtremes(t *testing.T) {
	for ms, want := range map[int64]string{
		math.MinInt64:     "-106751991167d7h",
		math.MinInt64 + 1: "-106751991167d7h",
		math.MaxInt64:     "106751991167d7h",
		-1:                "-1ms",
	} {
		if got := HumanMillis(ms); got != want {
			t.Errorf("HumanMillis(%d) = %q, want %q", ms, got, want)
		}
	}
}

// The watch table writes any ETA: the one of the report (686095255732224
// s), ones beyond int64 milliseconds, which int64() turned into MinInt64,
// and a trend at both ends of int64, which overflowed the sparkline's
// scaling.
func TestWatchTableExtremeValues(t *testing.T) {
	for _, tc := range []struct {
		eta  float64
		want string
	}{
		{686095255732224, "7940917311d17h"},
		{1e16, "106751991167d7h"},
		{1e300, "106751991167d7h"},
		{math.Inf(1), "106751991167d7h"},
		{-1e300, "-106751991167d7h"},
		{math.NaN(), "-"},
		{42.5, "42s"},
	} {
		s := LagSample{APIVersion: APIVersion, Kind: KindLagSample, Time: "2026-12-01T12:00:00.000Z", Groups: []WatchedGroup{{
			Group: "g", State: Ptr("Stable"), Lag: Ptr(int64(78)), ConsumeRate: Ptr(586.64), ProduceRate: Ptr(586.64), EtaSeconds: Ptr(tc.eta), Status: "OK",
			Trend: []*int64{Ptr(int64(math.MinInt64)), nil, Ptr(int64(0)), Ptr(int64(math.MaxInt64)), Ptr(int64(math.MaxInt64 - 1))},
		}}}
		var b bytes.Buffer
		if err := s.WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		row := strings.Fields(strings.Split(b.String(), "\n")[1])
		if len(row) < 9 || row[6] != tc.want || row[8] != "▁" {
			t.Errorf("ETA %v: row %q, want ETA %s and a trend ▁ ▃▇▅", tc.eta, row, tc.want)
		}
		if !strings.Contains(b.String(), "▁ ▃▇▅") {
			t.Errorf("trend of %q, want ▁ ▃▇▅", b.String())
		}
		s.Frame(Screen{Width: 40, Height: 5})
	}
}

// FuzzWatchMath feeds a watch any int64 offsets, lags and times (three
// samples of a consumer group of two partitions and of a share group of
// one, any of them unknown) and checks what it makes of them: no panic and
// no overflow in the rates, ETAs, totals, table, frame or JSON; rates and
// ETAs finite, ETAs not negative; a total lag that is the exact sum
// (saturated at int64's ends); and an ETA exactly when consumers gain on
// producers and there is lag.
func FuzzWatchMath(f *testing.F) {
	// The report of issue 30: 2,933 records committed and written over
	// 4.999698426 s, lag 78.
	f.Add(int64(1000), int64(1012), int64(2000), int64(2026), int64(1281), int64(1307), int64(4357), int64(4383), int64(1281), int64(1307), int64(4357), int64(4383),
		int64(0), int64(5), int64(4999698426), int64(5e9), uint16(0xffff))
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), int64(1), int64(math.MaxInt64), int64(0), int64(0), int64(0), int64(0),
		int64(math.MaxInt64), int64(math.MinInt64), int64(1), int64(math.MaxInt64), uint16(0xfff0))
	f.Fuzz(func(t *testing.T, c0a, e0a, c1a, e1a, c0b, e0b, c1b, e1b, c0c, e0c, c1c, e1c, shareLag, shareLag2, d1, d2 int64, known uint16) {
		t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		offs := [3][4]int64{{c0a, e0a, c1a, e1a}, {c0b, e0b, c1b, e1b}, {c0c, e0c, c1c, e1c}}
		// Times go forward or not at all: Watcher's are monotonic.
		at := [3]time.Time{t0, t0.Add(time.Duration(d1 & math.MaxInt64 >> 2)), {}}
		at[2] = at[1].Add(time.Duration(d2 & math.MaxInt64 >> 2))
		w := groupops.NewWatcher()
		type counts struct{ consumed, produced *big.Int }
		prev := map[int]*[2]*int64{} // partition → committed, end of the sample before
		for i := range 3 {
			s := fuzzSample(offs[i], known>>(4*i), shareLag, shareLag2, i)
			gs := w.Add(s, at[i])
			if len(gs) != 2 {
				t.Fatalf("%d groups, want 2", len(gs))
			}
			checkWatch(t, gs)
			// The consumer group's totals, from the offsets, in big integers.
			g := gs[0]
			sum, anyLag := new(big.Int), false
			rated := i > 0 && at[i].After(at[i-1])
			net := counts{new(big.Int), new(big.Int)}
			cur := map[int]*[2]*int64{}
			for _, p := range g.Partitions {
				cur[int(p.TP.Partition)] = &[2]*int64{p.Committed, p.End}
				if p.Lag != nil {
					sum.Add(sum, big.NewInt(*p.Lag))
					anyLag = true
				}
				q := prev[int(p.TP.Partition)]
				if q == nil || q[0] == nil || q[1] == nil || p.Committed == nil || p.End == nil {
					if p.ConsumeRate != nil && p.ProduceRate != nil {
						t.Fatalf("sample %d: rates of a partition without two known samples", i)
					}
					continue
				}
				if rated {
					net.consumed.Add(net.consumed, new(big.Int).Sub(big.NewInt(*p.Committed), big.NewInt(*q[0])))
					net.produced.Add(net.produced, new(big.Int).Sub(big.NewInt(*p.End), big.NewInt(*q[1])))
				}
			}
			prev = cur
			if anyLag != (g.TotalLag != nil) {
				t.Fatalf("sample %d: total lag %v with known lags %v", i, g.TotalLag, anyLag)
			}
			if anyLag {
				want := sum
				if want.Cmp(big.NewInt(math.MaxInt64)) > 0 {
					want = big.NewInt(math.MaxInt64)
				} else if want.Cmp(big.NewInt(math.MinInt64)) < 0 {
					want = big.NewInt(math.MinInt64)
				}
				if *g.TotalLag != want.Int64() {
					t.Fatalf("sample %d: total lag %d, want %s", i, *g.TotalLag, want)
				}
			}
			if g.TotalLag != nil && *g.TotalLag > 0 && g.ConsumeRate != nil {
				gains := net.consumed.Cmp(net.produced) > 0
				if gains != (g.ETASeconds != nil) {
					t.Fatalf("sample %d: consumed %s, produced %s, lag %d: ETA %v", i, net.consumed, net.produced, *g.TotalLag, g.ETASeconds)
				}
			}
		}
	})
}

// fuzzSample is sample i of FuzzWatchMath: a consumer group of partitions
// 0 and 1 (offs: committed and end of each), each offset known when its
// bit of known is set, and a share group of partition 0 whose lag is the
// broker's.
func fuzzSample(offs [4]int64, known uint16, shareLag, shareLag2 int64, i int) *groupops.Snapshot {
	g := groupops.Group{Desc: kafkaadmin.GroupDescription{Group: "c", Exists: true, State: "Stable"}, Offsets: map[groupops.TopicPartition]kafkaadmin.CommittedOffset{}}
	s := &groupops.Snapshot{Bounds: map[groupops.TopicPartition]groupops.LogBounds{}}
	for p := range 2 {
		tp := groupops.TopicPartition{Topic: "t", Partition: int32(p)}
		if known&(1<<(2*p)) != 0 {
			g.Offsets[tp] = kafkaadmin.CommittedOffset{Offset: offs[2*p]}
		} else {
			g.Invalid = append(g.Invalid, tp)
		}
		b := groupops.LogBounds{}
		if known&(2<<(2*p)) != 0 {
			b.End = &offs[2*p+1]
		}
		s.Bounds[tp] = b
	}
	s.Groups = []groupops.Group{g}
	tp := groupops.TopicPartition{Topic: "t", Partition: 0}
	lag := []*int64{&shareLag, &shareLag2, nil}[i]
	sg := groupops.Group{Family: groupops.FamilyShare, Desc: kafkaadmin.GroupDescription{Group: "s", Exists: true, State: "Stable", Type: "share"},
		Offsets: map[groupops.TopicPartition]kafkaadmin.CommittedOffset{tp: {Offset: offs[0]}},
		Share:   &groupops.ShareDetail{Offsets: map[groupops.TopicPartition]kafkaadmin.ShareOffset{tp: {StartOffset: offs[0], Lag: lag}}}}
	s.Groups = append(s.Groups, sg)
	return s
}

// checkWatch renders gs as watch does, in every format, and checks that
// every rate and ETA is finite and no ETA negative.
func checkWatch(t *testing.T, gs []groupops.GroupWatch) {
	t.Helper()
	finite := func(what string, v *float64) {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			t.Fatalf("%s %v", what, *v)
		}
	}
	for _, g := range gs {
		finite("consume rate", g.ConsumeRate)
		finite("produce rate", g.ProduceRate)
		finite("ETA", g.ETASeconds)
		if g.ETASeconds != nil && *g.ETASeconds < 0 {
			t.Fatalf("group %s: ETA %v", g.Name(), *g.ETASeconds)
		}
		for _, p := range g.Partitions {
			finite("consume rate", p.ConsumeRate)
			finite("produce rate", p.ProduceRate)
			finite("ETA", p.ETASeconds)
			if p.ETASeconds != nil && *p.ETASeconds < 0 {
				t.Fatalf("group %s partition %d: ETA %v", g.Name(), p.TP.Partition, *p.ETASeconds)
			}
		}
	}
	doc := NewLagSampleOf(gs, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), false)
	var b bytes.Buffer
	if err := WriteJSONLine(&b, doc); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	var back struct {
		Groups []struct {
			EtaSeconds *float64 `json:"etaSeconds"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("JSON %s: %v", b.String(), err)
	}
	for i, g := range doc.Groups {
		if (g.EtaSeconds == nil) != (back.Groups[i].EtaSeconds == nil) {
			t.Fatalf("group %s: etaSeconds %v in JSON, %v in the sample", g.Group, back.Groups[i].EtaSeconds, g.EtaSeconds)
		}
	}
	b.Reset()
	if err := doc.WriteTable(&b); err != nil {
		t.Fatalf("table: %v", err)
	}
	doc.Frame(Screen{Width: 60, Height: 10, Color: true})
}

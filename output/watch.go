package output

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/vocab"
)

// KindLagSample is the kind of one `kcg watch -o json` line.
const KindLagSample = "LagSample"

// LagSample is one sample of `kcg watch`: written as one JSON line.
type LagSample struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	Time       string `json:"time" yaml:"time"`
	// Clusters are the clusters watched, only with several (--profile
	// a,b, --all-profiles): absent otherwise. One that could not be read
	// in this sample has its error and no groups.
	Clusters []ClusterStatus `json:"clusters,omitempty" yaml:"clusters,omitempty"`
	Groups   []WatchedGroup  `json:"groups" yaml:"groups"`
	// timeLag adds TIME-LAG to the table.
	timeLag bool
}

// WatchedGroup is one group of a sample.
type WatchedGroup struct {
	// Cluster is as in describe's groups: only with several clusters.
	Cluster      *ClusterRef `json:"cluster,omitempty" yaml:"cluster,omitempty"`
	Group        string      `json:"group" yaml:"group"`
	State        *string     `json:"state" yaml:"state"`
	Members      int         `json:"members" yaml:"members"`
	Lag          *int64      `json:"lag" yaml:"lag"`
	MaxTimeLagMs *int64      `json:"maxTimeLagMs" yaml:"maxTimeLagMs"`
	// MinRetentionHeadroomMs is the smallest retention headroom of its
	// partitions; nil when none is known or without --time-lag.
	MinRetentionHeadroomMs *int64 `json:"minRetentionHeadroomMs" yaml:"minRetentionHeadroomMs"`
	// ConsumeRate and ProduceRate are committed-offset and log-end records
	// per second since the previous sample; nil on the first.
	ConsumeRate *float64 `json:"consumeRate" yaml:"consumeRate"`
	ProduceRate *float64 `json:"produceRate" yaml:"produceRate"`
	// EtaSeconds is the time to catch up at the current net rate; 0 with
	// no lag, nil when not catching up.
	EtaSeconds *float64           `json:"etaSeconds" yaml:"etaSeconds"`
	Status     string             `json:"status" yaml:"status"`
	Trend      []*int64           `json:"trend" yaml:"trend"`
	Partitions []WatchedPartition `json:"partitions" yaml:"partitions"`
	Error      *string            `json:"error" yaml:"error"`
}

// WatchedPartition is one partition of a watched group.
type WatchedPartition struct {
	Topic           string `json:"topic" yaml:"topic"`
	Partition       int32  `json:"partition" yaml:"partition"`
	CommittedOffset *int64 `json:"committedOffset" yaml:"committedOffset"`
	EndOffset       *int64 `json:"endOffset" yaml:"endOffset"`
	Lag             *int64 `json:"lag" yaml:"lag"`
	TimeLagMs       *int64 `json:"timeLagMs" yaml:"timeLagMs"`
	// RetentionHeadroomMs is as in describe's offsets; nil without
	// --time-lag.
	RetentionHeadroomMs *int64   `json:"retentionHeadroomMs" yaml:"retentionHeadroomMs"`
	ConsumeRate         *float64 `json:"consumeRate" yaml:"consumeRate"`
	ProduceRate         *float64 `json:"produceRate" yaml:"produceRate"`
	EtaSeconds          *float64 `json:"etaSeconds" yaml:"etaSeconds"`
	Status              string   `json:"status" yaml:"status"`
}

// NewLagSampleOf is the sample document of gs, taken at at.
func NewLagSampleOf(gs []groupops.GroupWatch, at time.Time, timeLag bool) LagSample {
	doc := LagSample{APIVersion: APIVersion, Kind: KindLagSample, Time: at.UTC().Format(TimestampFormat), Groups: []WatchedGroup{}, timeLag: timeLag}
	for _, gw := range sortedWatches(gs) {
		wg := WatchedGroup{Group: gw.Name(), Members: gw.Members(), Lag: gw.TotalLag, ConsumeRate: round(gw.ConsumeRate), ProduceRate: round(gw.ProduceRate),
			EtaSeconds: round(gw.ETASeconds), Status: gw.Status, Trend: gw.Trend, Partitions: []WatchedPartition{}, Error: errText(gw.Err())}
		if state, exists := gw.State(); exists {
			wg.State = Ptr(state)
		} else if gw.Err() == nil {
			// As describe: a group that does not exist carries the error.
			wg.Error = Ptr(vocab.ErrGroupNotFound.Error())
		}
		for _, p := range gw.Partitions {
			wp := WatchedPartition{Topic: p.TP.Topic, Partition: p.TP.Partition, CommittedOffset: p.Committed, EndOffset: p.End, Lag: p.Lag,
				ConsumeRate: round(p.ConsumeRate), ProduceRate: round(p.ProduceRate), EtaSeconds: round(p.ETASeconds), Status: p.Status}
			if p.TimeLag != nil {
				wp.TimeLagMs = p.TimeLag.Millis
				wp.RetentionHeadroomMs = p.TimeLag.RetentionHeadroomMs
			}
			wg.Partitions = append(wg.Partitions, wp)
		}
		wg.MaxTimeLagMs = maxKnown(wg.Partitions, func(p WatchedPartition) *int64 { return p.TimeLagMs })
		for _, p := range wg.Partitions {
			if h := p.RetentionHeadroomMs; h != nil && (wg.MinRetentionHeadroomMs == nil || *h < *wg.MinRetentionHeadroomMs) {
				wg.MinRetentionHeadroomMs = h
			}
		}
		doc.Groups = append(doc.Groups, wg)
	}
	return doc
}

func sortedWatches(gs []groupops.GroupWatch) []groupops.GroupWatch {
	return slices.SortedStableFunc(slices.Values(gs), func(a, b groupops.GroupWatch) int { return cmp.Compare(a.Name(), b.Name()) })
}

// round keeps rates and ETAs to two decimals: more is noise.
func round(v *float64) *float64 {
	if v == nil {
		return nil
	}
	return Ptr(math.Round(*v*100) / 100)
}

// lagSampleBuf keeps the buffer of the last sample for the next: a watch
// writes samples of the same size again and again.
var lagSampleBuf = sync.Pool{New: func() any { return new([]byte) }}

// WriteJSONLine writes doc as one line of JSON (no HTML escaping), for a
// stream of samples that `jq` and log shippers read one line at a time.
func WriteJSONLine(w io.Writer, doc any) error {
	if s, ok := doc.(LagSample); ok {
		buf := lagSampleBuf.Get().(*[]byte)
		defer lagSampleBuf.Put(buf)
		b, ok := appendLagSample((*buf)[:0], s)
		*buf = b
		if ok {
			_, err := w.Write(b)
			return err
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(prepare(doc)); err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteTable writes one row per group: GROUP STATE MEMBERS LAG [TIME-LAG RETENTION]
// CONSUME/S PRODUCE/S ETA STATUS TREND.
func (s LagSample) WriteTable(w io.Writer) error {
	header, rows := s.cells()
	return renderTable(w, header, rows)
}

// cells is the table of WriteTable, one row per group in s.Groups' order;
// Frame lays out the same cells for a terminal.
func (s LagSample) cells() (header []string, rows [][]string) {
	header = withCluster(len(s.Clusters) > 0, "GROUP", "STATE", "MEMBERS", "LAG")
	if s.timeLag {
		header = append(header, "TIME-LAG", "RETENTION")
	}
	header = append(header, "CONSUME/S", "PRODUCE/S", "ETA", "STATUS", "TREND")
	rows = make([][]string, 0, len(s.Groups))
	for _, g := range s.Groups {
		r := append(lead(len(header), g.Cluster, g.Group), StringCell(g.State), strconv.Itoa(g.Members), IntCell(g.Lag))
		if s.timeLag {
			r = append(r, DurationCell(g.MaxTimeLagMs), DurationCell(g.MinRetentionHeadroomMs))
		}
		r = append(r, rateCell(g.ConsumeRate), rateCell(g.ProduceRate), secondsCell(g.EtaSeconds), g.Status, Sparkline(g.Trend))
		rows = append(rows, r)
	}
	return header, rows
}

// secondsCell is a table cell for a duration in seconds, as HumanMillis
// writes it, "-" for nil or NaN. A duration beyond int64 milliseconds
// (292 million years) is written as that much: a conversion that
// overflowed would be a negative duration.
func secondsCell(s *float64) string {
	if s == nil || math.IsNaN(*s) {
		return missing
	}
	ms := *s * 1000
	switch {
	case ms >= math.MaxInt64: // 2^63 as a float64: no int64 holds it
		return HumanMillis(math.MaxInt64)
	case ms <= math.MinInt64:
		return HumanMillis(math.MinInt64)
	}
	return HumanMillis(int64(ms))
}

func rateCell(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 1, 64)
}

// Sparkline draws values as bars ▁▂▃▅▇ scaled between their minimum and
// maximum; an unknown value is a blank.
func Sparkline(vs []*int64) string {
	bars := []rune("▁▂▃▅▇")
	var lo, hi *int64
	for _, v := range vs {
		if v == nil {
			continue
		}
		if lo == nil || *v < *lo {
			lo = Ptr(*v)
		}
		if hi == nil || *v > *hi {
			hi = Ptr(*v)
		}
	}
	out := make([]rune, 0, len(vs))
	for _, v := range vs {
		switch {
		case v == nil:
			out = append(out, ' ')
		case *hi == *lo:
			out = append(out, bars[0])
		default:
			// (v − lo) × 4 ÷ (hi − lo) in unsigned 128-bit arithmetic: lags
			// near 2^63 of both signs neither overflow nor index out of
			// bars. The differences are exact as uint64s, lo ≤ v ≤ hi.
			x, span := uint64(*v)-uint64(*lo), uint64(*hi)-uint64(*lo)
			h, l := bits.Mul64(x, uint64(len(bars)-1))
			q, _ := bits.Div64(h, l, span) // h < span: x ≤ span
			out = append(out, bars[q])
		}
	}
	return string(out)
}

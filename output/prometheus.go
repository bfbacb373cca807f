package output

import (
	"bufio"
	"cmp"
	"io"
	"math"
	"slices"
	"strconv"
	"time"
)

// Metrics is `kcg describe -o prometheus` and what `kcg watch
// --metrics-listen` serves at /metrics: one describe document as the
// Prometheus text exposition format (version 0.0.4), under the names and
// labels of kafka_exporter (kafka_consumergroup_*, kafka_topic_partition_*)
// and, with TimeLag, kafka-lag-exporter's
// kafka_consumergroup_group_lag_seconds, so the dashboards written for
// them read kcg unchanged; kcg's own additions are under kcg_
// (docs/output.md has the table).
//
// The text is written directly, as prometheus/common's expfmt writes it
// (TestWritePrometheusIsExpfmtText holds it to that, byte for byte):
// building client_model's MetricFamily for expfmt cost about four
// allocations per series, a second of CPU per sample of kcg watch at
// 2,000 groups × 64 partitions (docs/benchmarks.md).
type Metrics struct {
	Doc GroupDescriptionList
	// Cluster is the cluster_name label of the kafka-lag-exporter metric.
	Cluster string
	// ClusterName, in the metrics of several clusters (FleetMetrics), is
	// the profile: every series then starts with a cluster_name label of
	// this value (kafka-lag-exporter's label for its configured name),
	// which the lag-seconds series uses instead of Cluster.
	ClusterName string
	// TimeLag adds the time-lag and retention-headroom families.
	TimeLag bool
	// Up is false when the last sample failed: the values are then the
	// last good sample's (kcg watch), and kcg_up is 0.
	Up bool
	// Took is how long the sample took (kcg_scrape_duration_seconds).
	Took time.Duration
	// At is when the sample was taken (kcg_last_sample_timestamp_seconds);
	// zero: left out.
	At time.Time
}

// PrometheusContentType is the Content-Type of the text format.
const PrometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

// family is one metric family being built: its samples as text lines.
type family struct {
	name, help string
	// lead is the label every sample starts with (cluster_name="eu",
	// escaped), empty for one cluster.
	lead  []byte
	n     int    // samples
	lines []byte // name{label="value",...} value\n, one per sample
}

func newFamily(name, help string) *family {
	return &family{name: name, help: help}
}

// add appends one sample with labels given as name, value pairs.
func (f *family) add(v float64, labels ...string) {
	f.n++
	b := append(f.lines, f.name...)
	if len(labels) > 0 || len(f.lead) > 0 {
		b = append(b, '{')
		b = append(b, f.lead...)
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 || len(f.lead) > 0 {
				b = append(b, ',')
			}
			b = append(b, labels[i]...)
			b = append(b, '=', '"')
			b = appendEscaped(b, labels[i+1], true)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	b = append(b, ' ')
	b = appendFloat(b, v)
	f.lines = append(b, '\n')
}

// appendEscaped appends s escaped as the text format escapes HELP text
// (backslash and newline) and, with quote, label values (also the double
// quote).
func appendEscaped(b []byte, s string, quote bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '"' && quote:
			b = append(b, '\\', '"')
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendFloat appends v as the text format writes a sample value: the
// shortest representation that reads back the same ('g'), and NaN, +Inf,
// -Inf.
func appendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, +1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// The metric families, in the order they are written.
type metricSet struct {
	current, lag, currentSum, lagSum, members       *family
	topicCurrent, topicOldest                       *family
	lagSeconds, headroom, belowStart, state, grpErr *family
	up, took, at                                    *family
}

func newMetricSet() *metricSet {
	return &metricSet{
		current:      newFamily("kafka_consumergroup_current_offset", "Current Offset of a ConsumerGroup at Topic/Partition"),
		lag:          newFamily("kafka_consumergroup_lag", "Current Approximate Lag of a ConsumerGroup at Topic/Partition"),
		currentSum:   newFamily("kafka_consumergroup_current_offset_sum", "Current Offset of a ConsumerGroup at Topic for all partitions"),
		lagSum:       newFamily("kafka_consumergroup_lag_sum", "Current Approximate Lag of a ConsumerGroup at Topic for all partitions"),
		members:      newFamily("kafka_consumergroup_members", "Amount of members in a consumer group"),
		topicCurrent: newFamily("kafka_topic_partition_current_offset", "Current Offset of a Broker at Topic/Partition"),
		topicOldest:  newFamily("kafka_topic_partition_oldest_offset", "Oldest Offset of a Broker at Topic/Partition"),
		lagSeconds:   newFamily("kafka_consumergroup_group_lag_seconds", "Group offset lag of a partition in seconds: now minus the timestamp of the next record the group will consume (read, not extrapolated)"),
		headroom:     newFamily("kcg_consumergroup_retention_headroom_seconds", "Seconds until time-based retention may delete the record at the group's committed offset (0: already below the log start)"),
		belowStart:   newFamily("kcg_consumergroup_below_log_start", "1 when the group's committed offset is below the partition's log start: retention deleted records it had not consumed"),
		state:        newFamily("kcg_consumergroup_state", "The group's state: 1 for the current state, one sample per group"),
		grpErr:       newFamily("kcg_consumergroup_error", "1 when the group could not be described in the last sample"),
		up:           newFamily("kcg_up", "1 when the last sample of the cluster succeeded, 0 when it failed (the other values are then the last good sample's)"),
		took:         newFamily("kcg_scrape_duration_seconds", "How long the last good sample of the cluster took"),
		at:           newFamily("kcg_last_sample_timestamp_seconds", "Unix time of the last good sample"),
	}
}

// setLead starts every sample added from now on with the cluster_name
// label of name ("": none).
func (s *metricSet) setLead(name string) {
	var lead []byte
	if name != "" {
		lead = append([]byte(`cluster_name="`), appendEscaped(nil, name, true)...)
		lead = append(lead, '"')
	}
	for _, f := range s.all() {
		f.lead = lead
	}
}

func (s *metricSet) all() []*family {
	return []*family{s.current, s.lag, s.currentSum, s.lagSum, s.members, s.topicCurrent, s.topicOldest,
		s.lagSeconds, s.headroom, s.belowStart, s.state, s.grpErr, s.up, s.took, s.at}
}

// WritePrometheus writes m in the text format to w. Every family is a
// gauge.
func (m Metrics) WritePrometheus(w io.Writer) error { return FleetMetrics{m}.WritePrometheus(w) }

// FleetMetrics are the metrics of several clusters in one exposition
// (describe -o prometheus and watch --metrics-listen with --profile a,b or
// --all-profiles): each family once, with the samples of every cluster,
// each labelled with its ClusterName; kcg_up is per cluster.
type FleetMetrics []Metrics

// WritePrometheus writes the metrics of every cluster in the text format.
func (ms FleetMetrics) WritePrometheus(w io.Writer) error {
	s := newMetricSet()
	n := 0
	for _, m := range ms {
		n += m.partitions()
	}
	s.grow(n, len(ms) > 0 && ms[0].TimeLag)
	for _, m := range ms {
		s.setLead(m.ClusterName)
		m.addTo(s)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, f := range s.all() {
		if f.n == 0 {
			continue // no HELP/TYPE without a sample: kafka_exporter's way too
		}
		head := append([]byte("# HELP "), f.name...)
		head = append(head, ' ')
		head = appendEscaped(head, f.help, false)
		head = append(head, "\n# TYPE "...)
		head = append(head, f.name...)
		head = append(head, " gauge\n"...)
		if _, err := bw.Write(head); err != nil {
			return err
		}
		if _, err := bw.Write(f.lines); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteTable makes Metrics a Document; its table is its text.
func (m Metrics) WriteTable(w io.Writer) error { return m.WritePrometheus(w) }

// partitions is how many offsets m's document holds.
func (m Metrics) partitions() int {
	n := 0
	for _, g := range m.Doc.Groups {
		n += len(g.Offsets)
	}
	return n
}

// grow sizes the per-partition families for n partitions: a line per
// committed partition, their buffers are then not copied as they grow.
func (s *metricSet) grow(n int, timeLag bool) {
	perPartition := []*family{s.current, s.lag}
	if timeLag {
		perPartition = append(perPartition, s.lagSeconds, s.headroom, s.belowStart)
	}
	for _, f := range perPartition {
		f.lines = make([]byte, 0, n*(len(f.name)+80))
	}
}

// addTo adds m's samples to s.
func (m Metrics) addTo(s *metricSet) {
	type tpKey struct {
		topic     string
		partition int32
	}
	seen := map[tpKey]bool{}
	var tps []PartitionOffset // one per partition, in document order
	for _, g := range m.Doc.Groups {
		if g.Error != nil {
			s.grpErr.add(1, "consumergroup", g.Group)
			continue
		}
		s.grpErr.add(0, "consumergroup", g.Group)
		if g.State != nil {
			s.state.add(1, "consumergroup", g.Group, "state", *g.State)
		}
		s.members.add(float64(len(g.Members)), "consumergroup", g.Group)
		m.groupOffsets(s, g)
		for _, o := range g.Offsets {
			if k := (tpKey{o.Topic, o.Partition}); !seen[k] {
				seen[k] = true
				tps = append(tps, o)
			}
		}
	}
	sortPartitionOffsets(tps)
	for _, o := range tps {
		p := strconv.Itoa(int(o.Partition))
		if o.LogEndOffset != nil {
			s.topicCurrent.add(float64(*o.LogEndOffset), "topic", o.Topic, "partition", p)
		}
		if o.LogStartOffset != nil {
			s.topicOldest.add(float64(*o.LogStartOffset), "topic", o.Topic, "partition", p)
		}
	}
	up := 0.0
	if m.Up {
		up = 1
	}
	s.up.add(up)
	s.took.add(m.Took.Seconds())
	if !m.At.IsZero() {
		s.at.add(float64(m.At.UnixMilli()) / 1000)
	}
}

// groupOffsets adds one group's per-partition and per-topic samples. A
// share group's position is its start offset (Position). A partition
// without a position has no current_offset, lag or time-lag sample
// (docs/output.md says why).
func (m Metrics) groupOffsets(s *metricSet, g GroupDescription) {
	type sums struct {
		current, lag int64
		anyCurrent   bool
		anyLag       bool
	}
	var order []string
	byTopic := map[string]*sums{}
	for _, o := range g.Offsets {
		t := byTopic[o.Topic]
		if t == nil {
			t = &sums{}
			byTopic[o.Topic] = t
			order = append(order, o.Topic)
		}
		p := strconv.Itoa(int(o.Partition))
		pos := o.Position()
		if pos == nil {
			continue
		}
		s.current.add(float64(*pos), "consumergroup", g.Group, "topic", o.Topic, "partition", p)
		t.current += *pos
		t.anyCurrent = true
		if o.Lag != nil {
			s.lag.add(float64(*o.Lag), "consumergroup", g.Group, "topic", o.Topic, "partition", p)
			t.lag += *o.Lag
			t.anyLag = true
		}
		if !m.TimeLag {
			continue
		}
		if o.TimeLagMs != nil {
			labels := []string{"cluster_name", m.Cluster, "group", g.Group, "topic", o.Topic, "partition", p,
				"member_host", deref(o.Host), "consumer_id", deref(o.MemberID), "client_id", deref(o.ClientID)}
			if m.ClusterName != "" {
				labels = labels[2:] // the lead label is the cluster_name
			}
			s.lagSeconds.add(float64(*o.TimeLagMs)/1000, labels...)
		}
		if o.RetentionHeadroomMs != nil {
			s.headroom.add(float64(*o.RetentionHeadroomMs)/1000, "consumergroup", g.Group, "topic", o.Topic, "partition", p)
		}
		below := 0.0
		if o.LogStartOffset != nil && *pos < *o.LogStartOffset {
			below = 1
		}
		s.belowStart.add(below, "consumergroup", g.Group, "topic", o.Topic, "partition", p)
	}
	for _, topic := range order {
		t := byTopic[topic]
		if t.anyCurrent {
			s.currentSum.add(float64(t.current), "consumergroup", g.Group, "topic", topic)
		}
		if t.anyLag {
			s.lagSum.add(float64(t.lag), "consumergroup", g.Group, "topic", topic)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func sortPartitionOffsets(os []PartitionOffset) {
	slices.SortFunc(os, func(a, b PartitionOffset) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
}

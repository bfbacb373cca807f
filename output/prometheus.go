package output

import (
	"bufio"
	"cmp"
	"io"
	"slices"
	"strconv"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
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
// The text is encoded by prometheus/common's expfmt from client_model's
// MetricFamily: escaping of label values and HELP text, and the float
// format, are Prometheus's own.
type Metrics struct {
	Doc GroupDescriptionList
	// Cluster is the cluster_name label of the kafka-lag-exporter metric.
	Cluster string
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

// family is one metric family being built.
type family struct {
	mf *dto.MetricFamily
}

func newFamily(name, help string, t dto.MetricType) *family {
	return &family{mf: &dto.MetricFamily{Name: proto.String(name), Help: proto.String(help), Type: t.Enum()}}
}

// add appends one sample with labels given as name, value pairs.
func (f *family) add(v float64, labels ...string) {
	m := &dto.Metric{}
	for i := 0; i+1 < len(labels); i += 2 {
		m.Label = append(m.Label, &dto.LabelPair{Name: proto.String(labels[i]), Value: proto.String(labels[i+1])})
	}
	if f.mf.GetType() == dto.MetricType_COUNTER {
		m.Counter = &dto.Counter{Value: proto.Float64(v)}
	} else {
		m.Gauge = &dto.Gauge{Value: proto.Float64(v)}
	}
	f.mf.Metric = append(f.mf.Metric, m)
}

// The metric families, in the order they are written.
type metricSet struct {
	current, lag, currentSum, lagSum, members       *family
	topicCurrent, topicOldest                       *family
	lagSeconds, headroom, belowStart, state, grpErr *family
	up, took, at                                    *family
}

func newMetricSet() *metricSet {
	g := dto.MetricType_GAUGE
	return &metricSet{
		current:      newFamily("kafka_consumergroup_current_offset", "Current Offset of a ConsumerGroup at Topic/Partition", g),
		lag:          newFamily("kafka_consumergroup_lag", "Current Approximate Lag of a ConsumerGroup at Topic/Partition", g),
		currentSum:   newFamily("kafka_consumergroup_current_offset_sum", "Current Offset of a ConsumerGroup at Topic for all partitions", g),
		lagSum:       newFamily("kafka_consumergroup_lag_sum", "Current Approximate Lag of a ConsumerGroup at Topic for all partitions", g),
		members:      newFamily("kafka_consumergroup_members", "Amount of members in a consumer group", g),
		topicCurrent: newFamily("kafka_topic_partition_current_offset", "Current Offset of a Broker at Topic/Partition", g),
		topicOldest:  newFamily("kafka_topic_partition_oldest_offset", "Oldest Offset of a Broker at Topic/Partition", g),
		lagSeconds:   newFamily("kafka_consumergroup_group_lag_seconds", "Group offset lag of a partition in seconds: now minus the timestamp of the next record the group will consume (read, not extrapolated)", g),
		headroom:     newFamily("kcg_consumergroup_retention_headroom_seconds", "Seconds until time-based retention may delete the record at the group's committed offset (0: already below the log start)", g),
		belowStart:   newFamily("kcg_consumergroup_below_log_start", "1 when the group's committed offset is below the partition's log start: retention deleted records it had not consumed", g),
		state:        newFamily("kcg_consumergroup_state", "The group's state: 1 for the current state, one sample per group", g),
		grpErr:       newFamily("kcg_consumergroup_error", "1 when the group could not be described in the last sample", g),
		up:           newFamily("kcg_up", "1 when the last sample of the cluster succeeded, 0 when it failed (the other values are then the last good sample's)", g),
		took:         newFamily("kcg_scrape_duration_seconds", "How long the last good sample of the cluster took", g),
		at:           newFamily("kcg_last_sample_timestamp_seconds", "Unix time of the last good sample", g),
	}
}

func (s *metricSet) all() []*family {
	return []*family{s.current, s.lag, s.currentSum, s.lagSum, s.members, s.topicCurrent, s.topicOldest,
		s.lagSeconds, s.headroom, s.belowStart, s.state, s.grpErr, s.up, s.took, s.at}
}

// WritePrometheus writes m in the text format to w.
func (m Metrics) WritePrometheus(w io.Writer) error {
	s := m.families()
	bw := bufio.NewWriter(w)
	for _, f := range s.all() {
		if len(f.mf.Metric) == 0 {
			continue // no HELP/TYPE without a sample: kafka_exporter's way too
		}
		if _, err := expfmt.MetricFamilyToText(bw, f.mf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteTable makes Metrics a Document; its table is its text.
func (m Metrics) WriteTable(w io.Writer) error { return m.WritePrometheus(w) }

func (m Metrics) families() *metricSet {
	s := newMetricSet()
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
	return s
}

// groupOffsets adds one group's per-partition and per-topic samples. A
// partition without a committed offset has no current_offset, lag or
// time-lag sample (docs/output.md says why).
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
		if o.CommittedOffset == nil {
			continue
		}
		s.current.add(float64(*o.CommittedOffset), "consumergroup", g.Group, "topic", o.Topic, "partition", p)
		t.current += *o.CommittedOffset
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
			s.lagSeconds.add(float64(*o.TimeLagMs)/1000, "cluster_name", m.Cluster, "group", g.Group, "topic", o.Topic, "partition", p,
				"member_host", deref(o.Host), "consumer_id", deref(o.MemberID), "client_id", deref(o.ClientID))
		}
		if o.RetentionHeadroomMs != nil {
			s.headroom.add(float64(*o.RetentionHeadroomMs)/1000, "consumergroup", g.Group, "topic", o.Topic, "partition", p)
		}
		below := 0.0
		if o.LogStartOffset != nil && *o.CommittedOffset < *o.LogStartOffset {
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

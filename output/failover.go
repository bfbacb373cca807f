package output

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/kcg-dev/kcg/resetplan"
	"github.com/kcg-dev/kcg/vocab"
)

// FailoverSource is what kcg show read on the source cluster of a
// translate-from plan: per planned partition (keyed by group and the
// plan's remote topic-partition), the source group's committed offset and
// the records between the checkpoint's upstream offset and that commit.
type FailoverSource struct {
	// Cluster names the source as given (profile or bootstrap).
	Cluster    string
	Partitions map[FailoverKey]SourcePartition
}

// FailoverKey names one partition of a translate-from plan.
type FailoverKey struct {
	Group string
	TP    vocab.TopicPartition
}

// SourcePartition is the source cluster's side of one planned partition.
type SourcePartition struct {
	// SourceTopic is the topic on the source (the remote name less the
	// alias prefix).
	SourceTopic string
	// Committed is the source group's committed offset; nil: none (or
	// Err says why it is unknown).
	Committed *int64
	// Span is the time between the record at the upstream offset and the
	// last one the source group committed past it; nil when unknown.
	Span *time.Duration
	Err  error
}

// writeFailover is the failover section of a translate-from plan's table:
// per partition the checkpoint (upstream offset, when it was written and
// how old it was at plan time) and, with the source read, how far the
// source group had committed past the checkpoint: the records the
// failed-over group consumes a second time. Then the warnings a reviewer
// must see: stale checkpoints and rewinds.
func writeFailover(w io.Writer, p *resetplan.Plan, src *FailoverSource, maxAge time.Duration) error {
	if maxAge <= 0 {
		maxAge = 5 * time.Minute
	}
	fmt.Fprintln(w)
	if src == nil {
		fmt.Fprintln(w, "failover: records consumed twice after failover: unknown (give --source-profile P or --source-bootstrap-server B to read the source group's commits)")
	} else {
		fmt.Fprintf(w, "failover: the source cluster %s read now; DUPLICATES are the records the source group committed past the checkpoint (consumed again on the target)\n", src.Cluster)
	}
	header := []string{"GROUP", "TOPIC", "PARTITION", "UPSTREAM", "CHECKPOINT-TIME", "AGE-AT-PLAN", "SOURCE-COMMITTED", "DUPLICATES", "SPAN"}
	var rows [][]string
	var stale, rewinds []string
	for _, g := range p.Groups {
		for _, pt := range g.Partitions {
			age := p.CreatedAt.Sub(pt.CheckpointTime).Truncate(time.Second)
			row := []string{g.Group, pt.Topic, strconv.Itoa(int(pt.Partition)), IntCell(pt.Upstream),
				pt.CheckpointTime.UTC().Format("2006-01-02T15:04:05.000Z"), age.String()}
			row = append(row, sourceCells(src, g.Group, pt)...)
			rows = append(rows, row)
			if age > maxAge {
				stale = append(stale, g.Group+" "+pt.TP().KafkaName())
			}
			if pt.Current != nil && pt.Target != nil && *pt.Current > *pt.Target {
				rewinds = append(rewinds, g.Group+" "+pt.TP().KafkaName())
			}
		}
	}
	if err := renderTable(w, header, rows); err != nil {
		return err
	}
	if len(stale) > 0 {
		fmt.Fprintf(w, "warning: %s had a checkpoint older than %s when the plan was made (MirrorMaker 2 down or behind, or the group idle; the source side tells): %s\n", vocab.Count(len(stale), "partition"), maxAge, joinNames(stale))
	}
	if len(rewinds) > 0 {
		fmt.Fprintf(w, "warning: the plan moves %s back from a commit already made on the target (a rewind): %s\n", vocab.Count(len(rewinds), "partition"), joinNames(rewinds))
	}
	return nil
}

// sourceCells are SOURCE-COMMITTED, DUPLICATES and SPAN.
func sourceCells(src *FailoverSource, group string, pt resetplan.Partition) []string {
	if src == nil {
		return []string{missing, "unknown", missing}
	}
	sp, ok := src.Partitions[FailoverKey{Group: group, TP: pt.TP()}]
	switch {
	case !ok || sp.Err != nil:
		return []string{"error", "unknown", missing}
	case sp.Committed == nil:
		return []string{"none", "unknown", missing}
	}
	dup := *sp.Committed - *pt.Upstream
	span := missing
	if sp.Span != nil {
		span = sp.Span.Truncate(time.Millisecond).String()
	}
	if dup < 0 {
		// The source group moved back after the checkpoint (a reset).
		return []string{strconv.FormatInt(*sp.Committed, 10), "0 (source behind the checkpoint)", missing}
	}
	return []string{strconv.FormatInt(*sp.Committed, 10), strconv.FormatInt(dup, 10), span}
}

func joinNames(names []string) string {
	const most = 10
	s := ""
	for i, n := range names {
		if i == most {
			return s + fmt.Sprintf(", and %d more", len(names)-most)
		}
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

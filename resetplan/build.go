package resetplan

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/kcg-dev/kcg/vocab"
)

// Request is everything Build needs besides the cluster.
type Request struct {
	// Groups are the groups to plan, as seen now (order and duplicates do
	// not matter; the plan is sorted).
	Groups   []GroupSnapshot
	Scope    Scope
	Strategy StrategySpec
	// Cluster, CreatedBy and Annotations are copied into the plan.
	Cluster     Cluster
	CreatedBy   string
	Annotations *Annotations
	// Now is the planning instant (createdAt, and --by-duration's "now").
	// Zero means time.Now(); tests inject it.
	Now time.Time
}

// WarningKind classifies a Warning.
type WarningKind string

// The warning kinds. Message holds the Java tool's exact text where it has
// one; where Java prints it is noted, for drop-in mode.
const (
	// WarnClampedToStart: "New offset (-7) is lower than earliest offset
	// for topic partition t-0. Value will be set to 0." (Java: a log4j
	// WARN line on stderr).
	WarnClampedToStart WarningKind = "clamped-to-start"
	// WarnClampedToEnd: "New offset (16) is higher than latest offset for
	// topic partition t-0. Value will be set to 6." (stderr, as above).
	WarnClampedToEnd WarningKind = "clamped-to-end"
	// WarnNoRecordAfterTime: "Partition 0 from topic t is empty. Falling
	// back to latest known offset." (Java: stdout, prefixed "\nWarn: ").
	WarnNoRecordAfterTime WarningKind = "no-record-after-time"
	// WarnNoPlanForGroup: "No reset plan for group g found." (Java:
	// stdout, prefixed "\nError: "); the group is planned with no
	// partitions.
	WarnNoPlanForGroup WarningKind = "no-plan-for-group"
	// WarnGroupActive: "Assignments can only be reset if the group 'g' is
	// inactive, but the current state is Stable." (Java: stdout, prefixed
	// "\nError: ", and the group is skipped). kcg plans it anyway; apply
	// refuses while it is active.
	WarnGroupActive WarningKind = "group-active"
	// WarnPartitionGone: --all-topics found a committed offset for a
	// partition that no longer exists (deleted topic); kcg leaves it out of
	// the plan, where Java 4.2+ fails the whole command (KAFKA-17218).
	WarnPartitionGone WarningKind = "partition-gone"
)

// Warning is something the operator should see about a plan; it is not
// stored in the plan file.
type Warning struct {
	Kind      WarningKind
	Group     string
	Topic     string
	Partition int32
	// Requested is the offset asked for, before clamping.
	Requested int64
	// Message is the Java tool's text (without its "WARN"/"Warn: "/
	// "Error: " prefix) or, for kcg-only warnings, kcg's.
	Message string
}

// Build resolves a reset into a plan with the Java tool's semantics
// (kafka-cgc.md §2.2): it computes each group's partitions from the scope
// (or the file), reads the log bounds of all of them with one StartOffsets
// and one EndOffsets call (plus one OffsetsForTime for time strategies),
// and sets every target with its reason. Clamping: above the log end →
// the end, below the start → the start; exactly the end is allowed.
//
// Errors: *ArgError (no scope, unknown strategy), *NotFoundError (scoped
// or file partitions that do not exist), *NoCommitError (--shift-by on a
// partition without a commit; the whole plan fails, as in Java), and
// lookup failures wrapped with context.
func Build(ctx context.Context, lookup Lookup, req Request) (*Plan, []Warning, error) {
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	st := req.Strategy
	if st.Type == "" {
		return nil, nil, &ArgError{Msg: "no reset strategy given; want one of --to-earliest, --to-latest, --to-current, --to-offset, --shift-by, --to-datetime, --by-duration, --from-file",
			Java: ScenarioMissingMessage}
	}
	if st.Type == StrategyRollback || !knownStrategy(st.Type) {
		return nil, nil, &ArgError{Msg: fmt.Sprintf("unknown reset strategy %q", st.Type)}
	}
	fromFile := st.Type == StrategyFromFile
	if !fromFile && req.Scope.IsZero() {
		return nil, nil, &ArgError{Msg: NoScopeMessage, Java: NoScopeMessage}
	}

	groups := dedupeGroups(req.Groups)

	// One Partitions call for every topic the plan can touch: it gives
	// "--topic t" its partitions and checks that everything named exists.
	topicSet := map[string]bool{}
	if req.Scope.AllTopics {
		for _, g := range groups {
			for _, tp := range g.allTopicsScope() {
				topicSet[tp.Topic] = true
			}
		}
	} else {
		for _, ts := range req.Scope.Topics {
			topicSet[ts.Topic] = true
		}
	}
	if fromFile {
		for _, g := range groups {
			for tp := range st.Targets[g.Group] {
				topicSet[tp.Topic] = true
			}
		}
	}
	existing := map[string][]int32{}
	if len(topicSet) > 0 {
		var err error
		existing, err = lookup.Partitions(ctx, sortedKeys(topicSet))
		if err != nil {
			return nil, nil, fmt.Errorf("reading topic metadata: %w", err)
		}
	}
	exists := func(tp TopicPartition) bool {
		for _, p := range existing[tp.Topic] {
			if p == tp.Partition {
				return true
			}
		}
		return false
	}

	// Everything the operator named must exist (Java 4.2+:
	// checkAllTopicPartitionsValid). --all-topics wins over --topic, so
	// with it the --topic values are not looked at, as in Java.
	nf := &NotFoundError{}
	missing := map[TopicPartition]bool{}
	if !req.Scope.AllTopics {
		for _, ts := range req.Scope.Topics {
			if _, ok := existing[ts.Topic]; !ok && ts.Partitions == nil {
				nf.Topics = appendUnique(nf.Topics, ts.Topic)
				continue
			}
			for _, p := range ts.Partitions {
				if tp := (TopicPartition{Topic: ts.Topic, Partition: p}); !exists(tp) {
					missing[tp] = true
				}
			}
		}
	}
	if fromFile {
		for _, g := range groups {
			for tp := range st.Targets[g.Group] {
				if !exists(tp) {
					missing[tp] = true
				}
			}
		}
	}
	for tp := range missing {
		nf.Partitions = append(nf.Partitions, tp)
	}
	if len(nf.Topics) > 0 || len(nf.Partitions) > 0 {
		sort.Strings(nf.Topics)
		vocab.SortPartitions(nf.Partitions)
		return nil, nil, nf
	}

	var warnings []Warning
	perGroup := make([][]TopicPartition, len(groups))
	all := map[TopicPartition]bool{}
	for i, g := range groups {
		if !g.Inactive() {
			warnings = append(warnings, Warning{Kind: WarnGroupActive, Group: g.Group,
				Message: fmt.Sprintf("Assignments can only be reset if the group '%s' is inactive, but the current state is %s.", g.Group, g.State)})
		}
		set := map[TopicPartition]bool{}
		switch {
		case fromFile:
			rows, ok := st.Targets[g.Group]
			if !ok {
				warnings = append(warnings, Warning{Kind: WarnNoPlanForGroup, Group: g.Group,
					Message: fmt.Sprintf("No reset plan for group %s found.", g.Group)})
			}
			for tp := range rows {
				set[tp] = true
			}
		case req.Scope.AllTopics:
			for _, tp := range g.allTopicsScope() {
				if !exists(tp) {
					warnings = append(warnings, Warning{Kind: WarnPartitionGone, Group: g.Group, Topic: tp.Topic, Partition: tp.Partition,
						Message: fmt.Sprintf("Group %s has a committed offset for partition %s, which no longer exists; it is left out of the plan.", g.Group, tp.KafkaName())})
					continue
				}
				set[tp] = true
			}
		default:
			for _, ts := range req.Scope.Topics {
				ps := ts.Partitions
				if ps == nil {
					ps = existing[ts.Topic]
				}
				for _, p := range ps {
					set[TopicPartition{Topic: ts.Topic, Partition: p}] = true
				}
			}
		}
		tps := make([]TopicPartition, 0, len(set))
		for tp := range set {
			tps = append(tps, tp)
			all[tp] = true
		}
		vocab.SortPartitions(tps)
		perGroup[i] = tps
	}

	// The Java tool refuses --shift-by before touching anything when a
	// partition has no commit; name the first in plan order.
	if st.Type == StrategyShiftBy {
		for i, g := range groups {
			for _, tp := range perGroup[i] {
				if _, ok := g.Committed[tp]; !ok {
					return nil, nil, &NoCommitError{Group: g.Group, TopicPartition: tp}
				}
			}
		}
	}

	allTPs := make([]TopicPartition, 0, len(all))
	for tp := range all {
		allTPs = append(allTPs, tp)
	}
	vocab.SortPartitions(allTPs)
	var starts, ends map[TopicPartition]int64
	var times map[TopicPartition]TimeOffset
	timeBased := st.Type == StrategyToDatetime || st.Type == StrategyByDuration
	if len(allTPs) > 0 {
		var err error
		if starts, err = lookup.StartOffsets(ctx, allTPs); err != nil {
			return nil, nil, fmt.Errorf("listing log start offsets: %w", err)
		}
		if ends, err = lookup.EndOffsets(ctx, allTPs); err != nil {
			return nil, nil, fmt.Errorf("listing log end offsets: %w", err)
		}
		if timeBased {
			ms := st.timeMillis(now)
			if times, err = lookup.OffsetsForTime(ctx, allTPs, ms); err != nil {
				return nil, nil, fmt.Errorf("listing offsets for time %s: %w", formatTime(time.UnixMilli(ms)), err)
			}
		}
	}

	plan := &Plan{
		APIVersion: APIVersion,
		Kind:       Kind,
		CreatedAt:  now.UTC().Truncate(time.Second),
		CreatedBy:  req.CreatedBy,
		Cluster:    req.Cluster,
		Strategy:   st.record(now),
		Groups:     make([]Group, 0, len(groups)),
	}
	if !req.Annotations.IsZero() {
		a := *req.Annotations
		plan.Annotations = &a
	}
	for i, g := range groups {
		pg := Group{Group: g.Group, Type: g.Type, StateAtPlan: g.State, Partitions: make([]Partition, 0, len(perGroup[i]))}
		for _, tp := range perGroup[i] {
			start, ok := starts[tp]
			if !ok {
				return nil, nil, fmt.Errorf("Error getting starting offset of topic partition: %s", tp.KafkaName())
			}
			end, ok := ends[tp]
			if !ok {
				return nil, nil, fmt.Errorf("Error getting ending offset of topic partition: %s", tp.KafkaName())
			}
			p := Partition{Topic: tp.Topic, Partition: tp.Partition, LogStart: start, LogEnd: end, Reason: ReasonResolved}
			cur, hasCur := g.Committed[tp]
			if hasCur {
				p.Current = i64(cur)
			}
			var target int64
			clampTo := func(req int64) {
				var w *Warning
				target, p.Reason, w = clamp(req, start, end, tp)
				if w != nil {
					w.Group = g.Group
					warnings = append(warnings, *w)
				}
			}
			switch st.Type {
			case StrategyToEarliest:
				target = start
			case StrategyToLatest:
				target = end
			case StrategyToCurrent:
				// Not clamped: a commit below the log start stays, as in Java.
				if hasCur {
					target = cur
				} else {
					target, p.Reason = end, ReasonNoCommitUsedEnd
				}
			case StrategyToOffset:
				clampTo(st.Offset)
			case StrategyShiftBy:
				clampTo(saturatingAdd(cur, st.Offset))
			case StrategyToDatetime, StrategyByDuration:
				to, ok := times[tp]
				if !ok {
					return nil, nil, fmt.Errorf("Error getting offset by timestamp of topic partition: %s", tp.KafkaName())
				}
				if to.Found {
					target = to.Offset
				} else {
					// Java's text says "empty" even when the partition only
					// lacks a newer record; kept for drop-in mode.
					target, p.Reason = end, ReasonNoRecordAfterTime
					warnings = append(warnings, Warning{Kind: WarnNoRecordAfterTime, Group: g.Group, Topic: tp.Topic, Partition: tp.Partition, Requested: end,
						Message: fmt.Sprintf("Partition %d from topic %s is empty. Falling back to latest known offset.", tp.Partition, tp.Topic)})
				}
			case StrategyFromFile:
				clampTo(st.Targets[g.Group][tp])
				if p.Reason == ReasonResolved {
					p.Reason = ReasonFromFile
				}
			}
			p.Target = i64(target)
			pg.Partitions = append(pg.Partitions, p)
		}
		plan.Groups = append(plan.Groups, pg)
	}
	return plan, warnings, nil
}

// clamp is the Java tool's checkOffsetsRange: above the end → end, else
// below the start → start; the end itself is a valid target (consume from
// the next record written).
func clamp(req, start, end int64, tp TopicPartition) (int64, Reason, *Warning) {
	switch {
	case req > end:
		return end, ReasonClampedToEnd, &Warning{Kind: WarnClampedToEnd, Topic: tp.Topic, Partition: tp.Partition, Requested: req,
			Message: fmt.Sprintf("New offset (%d) is higher than latest offset for topic partition %s. Value will be set to %d.", req, tp.KafkaName(), end)}
	case req < start:
		return start, ReasonClampedToStart, &Warning{Kind: WarnClampedToStart, Topic: tp.Topic, Partition: tp.Partition, Requested: req,
			Message: fmt.Sprintf("New offset (%d) is lower than earliest offset for topic partition %s. Value will be set to %d.", req, tp.KafkaName(), start)}
	}
	return req, ReasonResolved, nil
}

// saturatingAdd adds without wrapping: a huge --shift-by clamps to the log
// end instead of wrapping to a negative offset.
func saturatingAdd(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	if b < 0 && a < math.MinInt64-b {
		return math.MinInt64
	}
	return a + b
}

// dedupeGroups sorts groups by id and keeps the first of duplicates
// (--group g --group g is one group, as in Java's map).
func dedupeGroups(gs []GroupSnapshot) []GroupSnapshot {
	seen := map[string]bool{}
	out := make([]GroupSnapshot, 0, len(gs))
	for _, g := range gs {
		if !seen[g.Group] {
			seen[g.Group] = true
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Group < out[j].Group })
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

package resetplan

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
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
	// WarnNotInSource: --to-group's SOURCE never committed some partitions
	// of the group's scope; they are left out of the plan (one warning per
	// group, naming them all).
	WarnNotInSource WarningKind = "not-in-source"
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
	// LogStart is a WarnNoRecordAfterTime partition's log start (its log
	// end is Requested): equal, the partition is empty; below, it holds
	// records, all older than the time asked, which Java's text does not
	// say.
	LogStart int64
	// Message is the Java tool's text (without its "WARN"/"Warn: "/
	// "Error: " prefix) or, for kcg-only warnings, kcg's.
	Message string
	// partitions are a WarnNotInSource warning's partitions.
	partitions []TopicPartition
}

// Build resolves a reset into a plan with the Java tool's semantics (see
// docs/plan-format.md, "How the targets are resolved"): it computes each
// group's partitions from the scope (or the file), reads the log bounds of
// all of them with one StartOffsets and one EndOffsets call (plus one
// OffsetsForTime for time strategies), and sets every target with its
// reason. Clamping: above the log end → the end, below the start → the
// start; exactly the end is allowed.
//
// Errors: *ArgError (no scope, unknown strategy), *NotFoundError (scoped
// or file partitions that do not exist), *NoCommitError (--shift-by on a
// partition without a commit; the whole plan fails, as in Java),
// *NoSourceCommitError (--to-group whose SOURCE committed none of the
// scope), and lookup failures wrapped with context.
func Build(ctx context.Context, lookup Lookup, req Request) (*Plan, []Warning, error) {
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	if err := checkRequest(req); err != nil {
		return nil, nil, err
	}
	if req.Strategy.Type == StrategyDeleteGroup {
		// A group goes with every offset it has committed.
		req.Scope = Scope{AllTopics: true}
	}
	groups := dedupeGroups(req.Groups)
	existing, err := readPartitions(ctx, lookup, topicsToCheck(req, groups))
	if err != nil {
		return nil, nil, err
	}
	if err := checkNamedPartitionsExist(req, groups, existing); err != nil {
		return nil, nil, err
	}
	perGroup, warnings := resolveGroupPartitions(req, groups, existing)
	if req.Strategy.Type == StrategyToGroup {
		if err := requireSourceCommits(req.Strategy, perGroup, warnings); err != nil {
			return nil, nil, err
		}
	}
	if req.Strategy.Type == StrategyTranslateFrom {
		if err := requireCheckpoints(req, groups, perGroup); err != nil {
			return nil, nil, err
		}
	}
	if req.Strategy.Type == StrategyShiftBy {
		if err := requireCommits(groups, perGroup); err != nil {
			return nil, nil, err
		}
	}
	b, err := readBounds(ctx, lookup, req.Strategy, now, vocab.SortedPartitions(slices.Concat(perGroup...)))
	if err != nil {
		return nil, nil, err
	}
	plan := newPlan(now, req.CreatedBy, req.Cluster, req.Strategy.record(now), req.Annotations, len(groups))
	for i, g := range groups {
		pg, ws, err := planGroup(g, perGroup[i], req.Strategy, b)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, ws...)
		if req.Strategy.Type == StrategyTranslateFrom {
			warnings = append(warnings, translateWarnings(req.Strategy, g, pg, now)...)
		}
		plan.Groups = append(plan.Groups, pg)
	}
	return plan, warnings, nil
}

// checkRequest refuses, before any request to the cluster, a reset the
// Java tool would refuse from its arguments alone.
func checkRequest(req Request) error {
	st := req.Strategy
	if st.Type == "" {
		return &ArgError{Msg: "no reset strategy given; want one of --to-earliest, --to-latest, --to-current, --to-offset, --shift-by, --to-datetime, --by-duration, --from-file",
			Java: ScenarioMissingMessage}
	}
	if st.Type == StrategyRollback || !knownStrategy(st.Type) {
		return &ArgError{Msg: fmt.Sprintf("unknown reset strategy %q", st.Type)}
	}
	if st.Type == StrategyDeleteGroup && !req.Scope.IsZero() {
		return &ArgError{Msg: "delete-group deletes every offset of the group: it takes no scope (delete-offsets does)"}
	}
	if st.Type == StrategyTranslateFrom && st.Alias == "" {
		return &ArgError{Option: string(st.Type), Msg: "a source cluster alias is required"}
	}
	if st.Type != StrategyFromFile && st.Type != StrategyDeleteGroup && st.Type != StrategyTranslateFrom && req.Scope.IsZero() {
		return &ArgError{Msg: NoScopeMessage, Java: NoScopeMessage}
	}
	if st.Type == StrategyToGroup {
		if st.Source == "" {
			return &ArgError{Option: string(st.Type), Value: st.Source, Msg: "a source group id is required"}
		}
		for _, g := range req.Groups {
			if g.Group == st.Source {
				return &ArgError{Option: string(st.Type), Value: st.Source, Msg: "the source group is also a group to reset; copy to another group"}
			}
		}
	}
	return nil
}

// topicsToCheck returns every topic the plan can touch, sorted: one
// Partitions call for all of them gives "--topic t" its partitions and
// checks that everything named exists.
func topicsToCheck(req Request, groups []GroupSnapshot) []string {
	topics := map[string]bool{}
	if req.Scope.AllTopics {
		for _, g := range groups {
			for _, tp := range g.allTopicsScope() {
				topics[tp.Topic] = true
			}
		}
	} else {
		for _, ts := range req.Scope.Topics {
			topics[ts.Topic] = true
		}
	}
	if req.Strategy.Type == StrategyFromFile {
		for _, g := range groups {
			for tp := range req.Strategy.Targets[g.Group] {
				topics[tp.Topic] = true
			}
		}
	}
	if req.Strategy.Type == StrategyTranslateFrom {
		checkpointTopics(req.Strategy, groups, topics)
	}
	return slices.Sorted(maps.Keys(topics))
}

// topicPartitions are the partition numbers of each existing topic, as
// Lookup.Partitions answers; a topic that does not exist has no key.
type topicPartitions map[string][]int32

func (e topicPartitions) has(tp TopicPartition) bool {
	return slices.Contains(e[tp.Topic], tp.Partition)
}

// readPartitions asks the cluster once, and not at all when there is no
// topic to ask about.
func readPartitions(ctx context.Context, lookup Lookup, topics []string) (topicPartitions, error) {
	if len(topics) == 0 {
		return topicPartitions{}, nil
	}
	existing, err := lookup.Partitions(ctx, topics)
	if err != nil {
		return nil, fmt.Errorf("reading topic metadata: %w", err)
	}
	return existing, nil
}

// checkNamedPartitionsExist refuses the plan when anything the operator
// named does not exist (Java 4.2+: checkAllTopicPartitionsValid), naming
// all of it at once. --all-topics wins over --topic, so with it the
// --topic values are not looked at, as in Java.
func checkNamedPartitionsExist(req Request, groups []GroupSnapshot, existing topicPartitions) error {
	nf := &NotFoundError{}
	missing := map[TopicPartition]bool{}
	if !req.Scope.AllTopics {
		for _, ts := range req.Scope.Topics {
			if _, ok := existing[ts.Topic]; !ok && ts.Partitions == nil {
				if !slices.Contains(nf.Topics, ts.Topic) {
					nf.Topics = append(nf.Topics, ts.Topic)
				}
				continue
			}
			for _, p := range ts.Partitions {
				if tp := (TopicPartition{Topic: ts.Topic, Partition: p}); !existing.has(tp) {
					missing[tp] = true
				}
			}
		}
	}
	if req.Strategy.Type == StrategyFromFile {
		for _, g := range groups {
			for tp := range req.Strategy.Targets[g.Group] {
				if !existing.has(tp) {
					missing[tp] = true
				}
			}
		}
	}
	if len(nf.Topics) == 0 && len(missing) == 0 {
		return nil
	}
	slices.Sort(nf.Topics)
	nf.Partitions = slices.SortedFunc(maps.Keys(missing), TopicPartition.Compare)
	return nf
}

// resolveGroupPartitions returns each group's partitions, sorted, and the
// warnings about the groups themselves, group by group.
func resolveGroupPartitions(req Request, groups []GroupSnapshot, existing topicPartitions) ([][]TopicPartition, []Warning) {
	var warnings []Warning
	perGroup := make([][]TopicPartition, len(groups))
	for i, g := range groups {
		if !g.Inactive() {
			warnings = append(warnings, Warning{Kind: WarnGroupActive, Group: g.Group,
				Message: fmt.Sprintf("Assignments can only be reset if the group '%s' is inactive, but the current state is %s.", g.Group, g.State)})
		}
		var ws []Warning
		perGroup[i], ws = groupPartitions(req, g, existing)
		warnings = append(warnings, ws...)
	}
	return perGroup, warnings
}

// groupPartitions is one group's part of the scope: the file's rows for
// it, its committed partitions that still exist (--all-topics), or the
// --topic partitions.
func groupPartitions(req Request, g GroupSnapshot, existing topicPartitions) ([]TopicPartition, []Warning) {
	var tps []TopicPartition
	var warnings []Warning
	switch {
	case req.Strategy.Type == StrategyTranslateFrom:
		return checkpointPartitions(req, g, existing)
	case req.Strategy.Type == StrategyFromFile:
		rows, ok := req.Strategy.Targets[g.Group]
		if !ok {
			warnings = append(warnings, Warning{Kind: WarnNoPlanForGroup, Group: g.Group,
				Message: fmt.Sprintf("No reset plan for group %s found.", g.Group)})
		}
		tps = slices.AppendSeq(tps, maps.Keys(rows))
	case req.Scope.AllTopics:
		// allTopicsScope's slice is this call's own: filtered in place.
		tps = slices.DeleteFunc(g.allTopicsScope(), func(tp TopicPartition) bool {
			if existing.has(tp) {
				return false
			}
			warnings = append(warnings, Warning{Kind: WarnPartitionGone, Group: g.Group, Topic: tp.Topic, Partition: tp.Partition,
				Message: fmt.Sprintf("Group %s has a committed offset for partition %s, which no longer exists; it is left out of the plan.", g.Group, tp.KafkaName())})
			return true
		})
	default:
		for _, ts := range req.Scope.Topics {
			ps := ts.Partitions
			if ps == nil {
				ps = existing[ts.Topic]
			}
			for _, p := range ps {
				tps = append(tps, TopicPartition{Topic: ts.Topic, Partition: p})
			}
		}
	}
	// tps is this call's own slice (plan-sized at --all-topics): sorted
	// in place rather than copied.
	vocab.SortPartitions(tps)
	tps = slices.Compact(tps)
	if req.Strategy.Type.IsDelete() {
		// A delete plan lists what is lost: only partitions with a commit.
		tps = slices.DeleteFunc(tps, func(tp TopicPartition) bool {
			_, ok := g.Committed[tp]
			return !ok
		})
	}
	if req.Strategy.Type == StrategyToGroup {
		var w *Warning
		tps, w = splitBySource(req.Strategy, g.Group, tps)
		if w != nil {
			warnings = append(warnings, *w)
		}
	}
	return tps, warnings
}

// splitBySource keeps the partitions --to-group's SOURCE has committed and
// warns, naming them, about the ones it never committed: they are left out
// of the plan rather than guessed.
func splitBySource(st StrategySpec, group string, tps []TopicPartition) ([]TopicPartition, *Warning) {
	kept := tps[:0:0]
	var left []TopicPartition
	for _, tp := range tps {
		if _, ok := st.SourceCommits[tp]; ok {
			kept = append(kept, tp)
		} else {
			left = append(left, tp)
		}
	}
	if len(left) == 0 {
		return kept, nil
	}
	return kept, &Warning{Kind: WarnNotInSource, Group: group, partitions: left,
		Message: fmt.Sprintf("%s has no committed offset on %s: left out of the plan for group %s", st.Source, partitionNames(left), group)}
}

// requireSourceCommits refuses a --to-group plan that would copy nothing
// because SOURCE never committed any partition of the scope; it names the
// partitions (those the warnings left out).
func requireSourceCommits(st StrategySpec, perGroup [][]TopicPartition, warnings []Warning) error {
	for _, tps := range perGroup {
		if len(tps) > 0 {
			return nil
		}
	}
	var missing []TopicPartition
	for _, w := range warnings {
		if w.Kind == WarnNotInSource {
			missing = append(missing, w.partitions...)
		}
	}
	if len(missing) == 0 {
		// Nothing was in scope at all: the caller's "nothing to reset".
		return nil
	}
	return &NoSourceCommitError{Source: st.Source, Partitions: vocab.SortedPartitions(missing)}
}

// requireCommits is the Java tool's refusal of --shift-by, before touching
// anything, when a partition has no commit; it names the first in plan
// order.
func requireCommits(groups []GroupSnapshot, perGroup [][]TopicPartition) error {
	for i, g := range groups {
		for _, tp := range perGroup[i] {
			if _, ok := g.Committed[tp]; !ok {
				return &NoCommitError{Group: g.Group, TopicPartition: tp}
			}
		}
	}
	return nil
}

// logBounds is what the cluster said about the plan's partitions; times
// is only read for the time strategies.
type logBounds struct {
	starts, ends map[TopicPartition]int64
	times        map[TopicPartition]TimeOffset
}

// readBounds asks for the bounds of every partition of every group at
// once, so a plan costs the same few requests whatever its size, and asks
// nothing when the plan has no partition. The questions (log starts, log
// ends, and the offsets for a time for the time strategies) are
// independent, so they are asked together: one round trip to each leader,
// not two or three in a row (issue 34). Their errors are reported in that
// order.
func readBounds(ctx context.Context, lookup Lookup, st StrategySpec, now time.Time, tps []TopicPartition) (logBounds, error) {
	var b logBounds
	if len(tps) == 0 {
		return b, nil
	}
	var startErr, endErr, timeErr error
	var wg sync.WaitGroup
	wg.Go(func() { b.starts, startErr = lookup.StartOffsets(ctx, tps) })
	wg.Go(func() { b.ends, endErr = lookup.EndOffsets(ctx, tps) })
	var ms int64
	if st.Type == StrategyToDatetime || st.Type == StrategyByDuration {
		ms = st.timeMillis(now)
		wg.Go(func() { b.times, timeErr = lookup.OffsetsForTime(ctx, tps, ms) })
	}
	wg.Wait()
	switch {
	case startErr != nil:
		return b, fmt.Errorf("listing log start offsets: %w", startErr)
	case endErr != nil:
		return b, fmt.Errorf("listing log end offsets: %w", endErr)
	case timeErr != nil:
		return b, fmt.Errorf("listing offsets for time %s: %w", formatTime(time.UnixMilli(ms)), timeErr)
	}
	return b, nil
}

// newPlan is a plan's header, as Build and Rollback make it, with room for
// n groups. createdAt is whole seconds, the precision the file shows; the
// annotations are copied so the new plan never shares them with its
// source, and empty ones are left out of the file.
func newPlan(now time.Time, createdBy string, cluster Cluster, st Strategy, ann *Annotations, n int) *Plan {
	plan := &Plan{
		APIVersion: APIVersion,
		Kind:       Kind,
		CreatedAt:  now.UTC().Truncate(time.Second),
		CreatedBy:  createdBy,
		Cluster:    cluster,
		Strategy:   st,
		Groups:     make([]Group, 0, n),
	}
	if !ann.IsZero() {
		a := *ann
		plan.Annotations = &a
	}
	return plan
}

// planGroup sets the target of each of the group's partitions.
func planGroup(g GroupSnapshot, tps []TopicPartition, st StrategySpec, b logBounds) (Group, []Warning, error) {
	pg := Group{Group: g.Group, Type: g.Type, StateAtPlan: g.State, Partitions: make([]Partition, 0, len(tps))}
	var warnings []Warning
	for _, tp := range tps {
		p, w, err := planPartition(g, tp, st, b)
		if err != nil {
			return Group{}, nil, err
		}
		if w != nil {
			w.Group = g.Group
			warnings = append(warnings, *w)
		}
		pg.Partitions = append(pg.Partitions, p)
	}
	return pg, warnings, nil
}

// planPartition resolves one partition's target. A partition the cluster
// gave no bound for fails the plan with the Java tool's text.
func planPartition(g GroupSnapshot, tp TopicPartition, st StrategySpec, b logBounds) (Partition, *Warning, error) {
	start, ok := b.starts[tp]
	if !ok {
		return Partition{}, nil, fmt.Errorf("Error getting starting offset of topic partition: %s", tp.KafkaName())
	}
	end, ok := b.ends[tp]
	if !ok {
		return Partition{}, nil, fmt.Errorf("Error getting ending offset of topic partition: %s", tp.KafkaName())
	}
	p := Partition{Topic: tp.Topic, Partition: tp.Partition, LogStart: start, LogEnd: end}
	if cur, ok := g.Committed[tp]; ok {
		p.Current = i64(cur)
	}
	if st.Type.IsDelete() {
		// Target null: apply deletes the offset; Current is what is lost.
		p.Reason = ReasonDeleteOffset
		return p, nil, nil
	}
	target, reason, w, err := strategyTarget(st, g.Group, p, b.times)
	if err != nil {
		return Partition{}, nil, err
	}
	if st.Type == StrategyTranslateFrom {
		cp := st.Checkpoints[g.Group][tp]
		p.Upstream, p.CheckpointTime = i64(cp.Upstream), cp.Time.UTC()
	}
	p.Target, p.Reason = i64(target), reason
	return p, w, nil
}

// strategyTarget is st's rule for one partition whose bounds and commit
// are known.
func strategyTarget(st StrategySpec, group string, p Partition, times map[TopicPartition]TimeOffset) (int64, Reason, *Warning, error) {
	tp := p.TP()
	switch st.Type {
	case StrategyToEarliest:
		return p.LogStart, ReasonResolved, nil, nil
	case StrategyToLatest:
		return p.LogEnd, ReasonResolved, nil, nil
	case StrategyToCurrent:
		// Not clamped: a commit below the log start stays, as in Java.
		if p.Current != nil {
			return *p.Current, ReasonResolved, nil, nil
		}
		return p.LogEnd, ReasonNoCommitUsedEnd, nil, nil
	case StrategyToOffset:
		target, reason, w := clamp(st.Offset, p.LogStart, p.LogEnd, tp)
		return target, reason, w, nil
	case StrategyShiftBy:
		// requireCommits has made sure there is a current offset.
		target, reason, w := clamp(saturatingAdd(*p.Current, st.Offset), p.LogStart, p.LogEnd, tp)
		return target, reason, w, nil
	case StrategyToDatetime, StrategyByDuration:
		to, ok := times[tp]
		if !ok {
			return 0, "", nil, fmt.Errorf("Error getting offset by timestamp of topic partition: %s", tp.KafkaName())
		}
		if to.Found {
			return to.Offset, ReasonResolved, nil, nil
		}
		// Java's text says "empty" even when the partition only lacks a
		// newer record; kept for drop-in mode.
		return p.LogEnd, ReasonNoRecordAfterTime, &Warning{Kind: WarnNoRecordAfterTime, Topic: tp.Topic, Partition: tp.Partition, Requested: p.LogEnd, LogStart: p.LogStart,
			Message: fmt.Sprintf("Partition %d from topic %s is empty. Falling back to latest known offset.", tp.Partition, tp.Topic)}, nil
	case StrategyFromFile:
		target, reason, w := clamp(st.Targets[group][tp], p.LogStart, p.LogEnd, tp)
		if reason == ReasonResolved {
			reason = ReasonFromFile
		}
		return target, reason, w, nil
	case StrategyToGroup:
		// splitBySource has kept only partitions SOURCE committed.
		target, reason, w := clamp(st.SourceCommits[tp], p.LogStart, p.LogEnd, tp)
		if reason == ReasonResolved {
			reason = ReasonCopiedFromGroup
		}
		return target, reason, w, nil
	case StrategyTranslateFrom:
		// checkpointPartitions has kept only partitions with a checkpoint.
		target, reason, w := clamp(st.Checkpoints[group][tp].Downstream, p.LogStart, p.LogEnd, tp)
		if reason == ReasonResolved {
			reason = ReasonTranslated
		}
		return target, reason, w, nil
	}
	// checkRequest lets no other strategy through.
	return 0, ReasonResolved, nil, nil
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
	slices.SortStableFunc(out, func(a, b GroupSnapshot) int { return cmp.Compare(a.Group, b.Group) })
	return out
}

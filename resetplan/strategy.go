package resetplan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// StrategySpec is a strategy as the operator asked for it, parsed but not
// yet resolved against the cluster. Build turns it into targets and into
// the plan's Strategy record.
type StrategySpec struct {
	Type StrategyType
	// Offset is --to-offset's N or --shift-by's N.
	Offset int64
	// Time is --to-datetime's instant (full precision; Build rounds up to
	// the millisecond).
	Time time.Time
	// Duration and DurationText are --by-duration's value and its text as
	// typed (recorded in the plan).
	Duration     time.Duration
	DurationText string
	// File is --from-file's path as given (recorded in the plan); Targets
	// are the offsets read from it with ParseResetFile.
	File    string
	Targets FileTargets
	// Source is --to-group's SOURCE; SourceCommits are its committed
	// offsets, read by the caller in the same offset-fetch phase as the
	// targets' (groupops.ReadForPlan). A partition without a key was never
	// committed by SOURCE.
	Source        string
	SourceCommits map[TopicPartition]int64
	// Alias is --translate-from's ALIAS; CheckpointsTopic the topic read
	// (ALIAS.checkpoints.internal by default). Checkpoints are the newest
	// checkpoint of each group and partition of the target cluster, read
	// by the caller (groupops.ReadCheckpoints). MaxCheckpointAge is
	// --max-checkpoint-age: older checkpoints are warned about (0: no
	// warning).
	Alias            string
	CheckpointsTopic string
	Checkpoints      map[string]map[TopicPartition]Checkpoint
	MaxCheckpointAge time.Duration
}

// Checkpoint is MirrorMaker 2's newest checkpoint for one group and
// partition: the group's commit on the source (Upstream), its translation
// on the target (Downstream), and when the checkpoint was written.
type Checkpoint struct {
	Upstream, Downstream int64
	Time                 time.Time
}

// DefaultCheckpointsTopic is the topic MirrorMaker 2's default (and
// identity) replication policy writes alias's checkpoints to.
func DefaultCheckpointsTopic(alias string) string { return alias + ".checkpoints.internal" }

// ParseStrategy parses one strategy option: name is the option with or
// without dashes ("to-offset", "--to-offset"), value its argument ("" for
// the flag-only strategies). For from-file, value is the path; the caller
// reads the file and sets Targets with ParseResetFile, since this package
// does no IO.
func ParseStrategy(name, value string) (StrategySpec, error) {
	t := StrategyType(strings.TrimLeft(name, "-"))
	spec := StrategySpec{Type: t}
	switch t {
	case StrategyToEarliest, StrategyToLatest, StrategyToCurrent:
		return spec, nil
	case StrategyToOffset, StrategyShiftBy:
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			msg := "not a whole number"
			if errors.Is(err, strconv.ErrRange) {
				msg = "out of range: a whole number from -9223372036854775808 to 9223372036854775807"
			}
			return spec, &ArgError{Option: string(t), Value: value, Msg: msg,
				Java: fmt.Sprintf("Cannot parse argument '%s' of option %s", value, t)}
		}
		spec.Offset = n
		return spec, nil
	case StrategyToDatetime:
		ts, err := ParseDateTime(value)
		if err != nil {
			return spec, err
		}
		spec.Time = ts
		return spec, nil
	case StrategyByDuration:
		d, err := ParseDuration(value)
		if err != nil {
			return spec, err
		}
		spec.Duration, spec.DurationText = d, value
		return spec, nil
	case StrategyFromFile:
		if value == "" {
			return spec, &ArgError{Option: string(t), Value: value, Msg: "a file name is required"}
		}
		spec.File = value
		return spec, nil
	case StrategyToGroup:
		if strings.TrimSpace(value) == "" {
			return spec, &ArgError{Option: string(t), Value: value, Msg: "a source group id is required"}
		}
		spec.Source = value
		return spec, nil
	case StrategyTranslateFrom:
		if strings.TrimSpace(value) == "" {
			return spec, &ArgError{Option: string(t), Value: value, Msg: "a source cluster alias is required (the alias MirrorMaker 2 knows it by)"}
		}
		spec.Alias, spec.CheckpointsTopic = value, DefaultCheckpointsTopic(value)
		return spec, nil
	}
	names := make([]string, len(strategyTypes))
	for i, s := range strategyTypes {
		names[i] = "--" + string(s)
	}
	return spec, &ArgError{Msg: fmt.Sprintf("unknown strategy %q; want one of %s", name, strings.Join(names, ", "))}
}

// ScenarioMissingMessage is the Java tool's text when no strategy is given,
// with kcg's fixed order where Java prints a HashSet's random one.
const ScenarioMissingMessage = "Option '[reset-offsets]' requires one of the following scenarios: " +
	"[[to-offset], [to-datetime], [by-duration], [to-earliest], [to-latest], [to-current], [shift-by], [from-file]]"

// timeMillis returns the ListOffsets timestamp for a time-based strategy
// and records the instant in the plan's Strategy. A negative timestamp
// (before 1970, or a duration longer than the epoch) would be one of
// ListOffsets' sentinel values (-1 latest, -2 earliest, ...), which the
// Java tool sends unchecked; kcg uses 0, the first record with a
// timestamp.
func (s StrategySpec) timeMillis(now time.Time) int64 {
	var ms int64
	switch s.Type {
	case StrategyToDatetime:
		ms = ceilMillis(s.Time)
	case StrategyByDuration:
		// Java: Instant.now().minus(d).toEpochMilli(), which floors.
		ms = now.Add(-s.Duration).UnixMilli()
	}
	if ms < 0 {
		ms = 0
	}
	return ms
}

// record returns the plan's Strategy for this spec.
func (s StrategySpec) record(now time.Time) Strategy {
	st := Strategy{Type: s.Type}
	switch s.Type {
	case StrategyToOffset:
		st.Offset = i64(s.Offset)
	case StrategyShiftBy:
		st.ShiftBy = i64(s.Offset)
	case StrategyToDatetime:
		st.Datetime = time.UnixMilli(s.timeMillis(now)).UTC()
	case StrategyByDuration:
		st.Duration = s.DurationText
		st.ResolvedTime = time.UnixMilli(s.timeMillis(now)).UTC()
	case StrategyFromFile:
		st.File = s.File
	case StrategyToGroup:
		st.Group = s.Source
	case StrategyTranslateFrom:
		st.Alias, st.CheckpointsTopic = s.Alias, s.CheckpointsTopic
	}
	return st
}

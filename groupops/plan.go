package groupops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
)

// FromFileError means a --from-file could not be read (Read) or is not a
// reset file; it is bad input.
type FromFileError struct {
	Path string
	Read bool
	Err  error
}

func (e *FromFileError) Error() string {
	if e.Read {
		return "--from-file: " + e.Err.Error()
	}
	return fmt.Sprintf("--from-file %s: %v", e.Path, e.Err)
}

func (e *FromFileError) Unwrap() error { return e.Err }

// ResolveStrategy parses the strategy flag name with its value and, for
// --from-file, reads and parses the file (singleGroup is the group a CSV
// without a group column belongs to, "" when several were named). A bad
// value is ParseStrategy's error; a bad file a *FromFileError.
func ResolveStrategy(name, value, singleGroup string) (resetplan.StrategySpec, error) {
	spec, err := resetplan.ParseStrategy(name, value)
	if err != nil || spec.Type != resetplan.StrategyFromFile {
		return spec, err
	}
	data, err := readFileLimited(value, resetplan.MaxResetFileBytes)
	var tl *resetplan.TooLargeError
	if errors.As(err, &tl) {
		return spec, &FromFileError{Path: value, Err: err}
	}
	if err != nil {
		return spec, &FromFileError{Path: value, Read: true, Err: err}
	}
	if spec.Targets, _, err = resetplan.ParseResetFile(data, singleGroup); err != nil {
		return spec, &FromFileError{Path: value, Err: err}
	}
	return spec, nil
}

// readFileLimited reads a file of at most limit bytes; a larger one is
// refused at the limit (resetplan.ReadLimited), not read into memory.
func readFileLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return resetplan.ReadLimited(f, limit, "--from-file")
}

// PlanRequest is a reset to plan, besides the groups.
type PlanRequest struct {
	Scope       resetplan.Scope
	Strategy    resetplan.StrategySpec
	CreatedBy   string
	Annotations *resetplan.Annotations
}

// SourceMissingError is a --to-group SOURCE the cluster does not have: no
// group and no committed offset by that id. Exit 3.
type SourceMissingError struct {
	Group string
}

func (e *SourceMissingError) Error() string {
	return fmt.Sprintf("source group %q does not exist: --to-group copies the committed offsets of an existing group; check the name; no plan was written", e.Group)
}

// ReadForPlan reads the cluster and groups a plan is built from: one
// metadata, the types (ClassifyNamed: the describe answers, a listing
// only for the groups no describe knew; a group of no registered family
// is refused with *OtherTypeError), and each family's read of its groups
// (consumer and streams groups: one describe and one offset-fetch phase,
// the one that typed them).
// For --to-group it reads SOURCE in the same describe and offset-fetch
// phases as the targets and sets strategy.SourceCommits; a SOURCE that
// does not exist is a *SourceMissingError.
func ReadForPlan(ctx context.Context, cl *kafkaadmin.Client, groups []string, strategy *resetplan.StrategySpec) (kafkaadmin.ClusterInfo, []resetplan.GroupSnapshot, error) {
	// Their coordinators then come with the cluster's first answer.
	cl.ExpectGroups(groups)
	info, err := cl.Cluster(ctx)
	if err != nil {
		return info, nil, err
	}
	read := groups
	toGroup := strategy != nil && strategy.Type == resetplan.StrategyToGroup
	if toGroup {
		read = append(slices.Clip(groups), strategy.Source)
	}
	typed, err := ClassifyNamed(ctx, cl, read, planOp(strategy))
	if err != nil {
		return info, nil, err
	}
	if strategy != nil {
		for _, id := range read {
			if err := familyOf(typed.FamilyOf(id)).refuseStrategy(id, strategy.Type); err != nil {
				return info, nil, err
			}
		}
	}
	gs, err := readFamilies(ctx, cl, read, typed.FamilyOf, typed.readAs(typed.FamilyOf))
	if err != nil {
		return info, nil, err
	}
	if toGroup {
		src := gs[len(gs)-1]
		gs = gs[:len(gs)-1]
		if strategy.SourceCommits, err = sourceCommits(src); err != nil {
			return info, nil, err
		}
	}
	snaps, err := planInputs(gs)
	return info, snaps, err
}

// ReadForPlanChecked is ReadForPlan with check (when not nil: plan's
// missing-group check, which only reads too) asked at the same time, one
// round trip fewer on a remote cluster (issue 34); the groups'
// coordinators are looked up once, first, for both. check's error comes
// first, as when it was asked before the read.
func ReadForPlanChecked(ctx context.Context, cl *kafkaadmin.Client, groups []string, strategy *resetplan.StrategySpec, check func() error) (kafkaadmin.ClusterInfo, []resetplan.GroupSnapshot, error) {
	if check == nil {
		return ReadForPlan(ctx, cl, groups, strategy)
	}
	if err := cl.LookUpCoordinators(ctx, groups); err != nil {
		return kafkaadmin.ClusterInfo{}, nil, err
	}
	var checkErr error
	var wg sync.WaitGroup
	wg.Go(func() { checkErr = check() })
	info, snaps, err := ReadForPlan(ctx, cl, groups, strategy)
	wg.Wait()
	if checkErr != nil {
		return info, nil, checkErr
	}
	return info, snaps, err
}

// planOp is the dispatch operation of a plan of strategy: a reset, or
// one of the deletes.
func planOp(strategy *resetplan.StrategySpec) Op {
	switch {
	case strategy == nil:
		return OpPlan
	case strategy.Type == resetplan.StrategyDeleteGroup:
		return OpDelete
	case strategy.Type == resetplan.StrategyDeleteOffsets:
		return OpDeleteOffsets
	}
	return OpPlan
}

// sourceCommits are --to-group SOURCE's committed offsets. A group with
// only committed offsets (no members ever, "simple") exists too.
func sourceCommits(src Group) (map[TopicPartition]int64, error) {
	if src.Err != nil {
		return nil, fmt.Errorf("source group %s: %w", src.Name(), src.Err)
	}
	if !src.Desc.Exists && len(src.Offsets) == 0 && len(src.Invalid) == 0 {
		return nil, &SourceMissingError{Group: src.Name()}
	}
	commits := make(map[TopicPartition]int64, len(src.Offsets))
	for tp, c := range src.Offsets {
		commits[tp] = c.Offset
	}
	return commits, nil
}

// BuildPlan resolves r for groups with the Java tool's semantics
// (resetplan.Build), reading the log offsets it needs in batched phases
// (with --all-topics on a small cluster, beside the Metadata of their
// topics: prefetchBounds).
func BuildPlan(ctx context.Context, cl *kafkaadmin.Client, info kafkaadmin.ClusterInfo, groups []resetplan.GroupSnapshot, r PlanRequest) (*resetplan.Plan, []resetplan.Warning, error) {
	lookup := prefetchBounds(ctx, cl, groups, r)
	if lookup == nil {
		lookup = Lookup{cl}
	}
	return resetplan.Build(ctx, lookup, resetplan.Request{
		Groups:      groups,
		Scope:       r.Scope,
		Strategy:    r.Strategy,
		Cluster:     resetplan.Cluster{ID: info.ClusterID, Bootstrap: cl.Bootstrap()},
		CreatedBy:   r.CreatedBy,
		Annotations: r.Annotations,
	})
}

// PlanDelete is the delete plan of the shortcuts (kcg delete, kcg
// delete-offsets and drop-in's --delete, --delete-offsets), made right
// before they delete so that its undo (resetplan.UndoOfDelete) can be
// written first. typ is resetplan.StrategyDeleteGroup or
// StrategyDeleteOffsets; for the latter, specs are the --topic arguments:
// the plan is built over every committed partition and narrowed to them
// (resetplan.KeepCovered), so a topic that does not exist is no planning
// error here: the delete itself reports it.
func PlanDelete(ctx context.Context, cl *kafkaadmin.Client, groups []string, typ resetplan.StrategyType, specs []resetplan.TopicSpec, createdBy string) (*resetplan.Plan, []resetplan.Warning, error) {
	st := resetplan.StrategySpec{Type: typ}
	info, snaps, err := ReadForPlan(ctx, cl, groups, &st)
	if err != nil {
		return nil, nil, err
	}
	r := PlanRequest{Strategy: st, CreatedBy: createdBy}
	if typ == resetplan.StrategyDeleteOffsets {
		r.Scope = resetplan.Scope{AllTopics: true}
	}
	if typ == resetplan.StrategyDeleteOffsets {
		if err := WholeTopicsOnly(snaps, specs); err != nil {
			return nil, nil, err
		}
	}
	plan, warnings, err := BuildPlan(ctx, cl, info, snaps, r)
	if err != nil {
		return nil, nil, err
	}
	if typ == resetplan.StrategyDeleteOffsets {
		resetplan.KeepCovered(plan, specs)
	}
	return plan, warnings, nil
}

package groupops

import (
	"context"
	"errors"
	"fmt"
	"os"

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

// ReadForPlan reads the cluster and groups a plan is built from: one
// metadata, one describe and one offset-fetch phase.
func ReadForPlan(ctx context.Context, cl *kafkaadmin.Client, groups []string) (kafkaadmin.ClusterInfo, []resetplan.GroupSnapshot, error) {
	info, err := cl.Cluster(ctx)
	if err != nil {
		return info, nil, err
	}
	gs, err := ReadGroups(ctx, cl, groups)
	if err != nil {
		return info, nil, err
	}
	snaps, err := PlanInputs(gs)
	return info, snaps, err
}

// BuildPlan resolves r for groups with the Java tool's semantics
// (resetplan.Build), reading the log offsets it needs in batched phases.
func BuildPlan(ctx context.Context, cl *kafkaadmin.Client, info kafkaadmin.ClusterInfo, groups []resetplan.GroupSnapshot, r PlanRequest) (*resetplan.Plan, []resetplan.Warning, error) {
	return resetplan.Build(ctx, Lookup{cl}, resetplan.Request{
		Groups:      groups,
		Scope:       r.Scope,
		Strategy:    r.Strategy,
		Cluster:     resetplan.Cluster{ID: info.ClusterID, Bootstrap: cl.Bootstrap()},
		CreatedBy:   r.CreatedBy,
		Annotations: r.Annotations,
	})
}

package commands

import "time"

// SetBeforeGroupCommit makes apply call f with each group's name between
// its preflight (and the rollback plan) and that group's writes, until the
// returned restore is called. Tests only; not safe for parallel applies.
func SetBeforeGroupCommit(f func(group string)) (restore func()) {
	old := beforeGroupCommit
	beforeGroupCommit = f
	return func() { beforeGroupCommit = old }
}

// SetProgressDelay makes progress appear after d instead of
// progressDelay, until the returned restore is called. Tests only.
func SetProgressDelay(d time.Duration) (restore func()) {
	old := progressDelay
	progressDelay = d
	return func() { progressDelay = old }
}

// SetWaitEmptyInterval makes apply --wait-empty describe the groups every
// d, until the returned restore is called. Tests only.
func SetWaitEmptyInterval(d time.Duration) (restore func()) {
	old := waitEmptyInterval
	waitEmptyInterval = d
	return func() { waitEmptyInterval = old }
}

// SetDefaultSettle makes apply watch its writes for d without --settle,
// until the returned restore is called. Tests only (TestMain).
func SetDefaultSettle(d time.Duration) (restore func()) {
	old := defaultSettle
	defaultSettle = d
	return func() { defaultSettle = old }
}

package dropin

import "time"

// SetSettle makes --execute watch its writes for d, until the returned
// restore is called. Tests only (TestMain).
func SetSettle(d time.Duration) (restore func()) {
	old := settleFor
	settleFor = d
	return func() { settleFor = old }
}

//go:build !unix

package commands_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }

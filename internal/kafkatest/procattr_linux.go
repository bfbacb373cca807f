package kafkatest

import "syscall"

// childProcAttr makes Java processes die with the test binary (e.g. when
// go test kills it on timeout), so no console consumer outlives a run.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

//go:build !linux

package kafkatest

import "syscall"

func childProcAttr() *syscall.SysProcAttr { return nil }

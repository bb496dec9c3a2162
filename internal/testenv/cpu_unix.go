//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time the test process has used, all threads (0
// where it is not measured).
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

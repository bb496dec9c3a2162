//go:build unix

package search

import "syscall"

// processCPU is the CPU time the process has used (user and system), in
// seconds, for benchmarks that report it: on a shared machine the wall
// time a benchmark measures is mostly the others' load.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

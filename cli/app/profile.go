package app

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// CPUProfileEnv names a file the app writes a CPU profile of its whole
// run to (from opening to quitting), for `go tool pprof`: how the
// start-up and the idle app are measured (docs/PERFORMANCE.md, "Opening
// the app"). Unset, nothing is profiled. Hidden on purpose: it is a
// developer's tool, not an option.
const CPUProfileEnv = "MEMSCOPE_CPUPROFILE"

// AllocProfileEnv names a file the app writes, when it quits, the
// allocations of its whole run to (`go tool pprof -sample_index=alloc_space`):
// what the garbage collector of a start works through. Hidden, as
// CPUProfileEnv is.
const AllocProfileEnv = "MEMSCOPE_ALLOCPROFILE"

// startProfile starts the CPU profile getenv(CPUProfileEnv) names and
// returns what stops it (and closes the file), and writes the
// allocation profile getenv(AllocProfileEnv) names then; a no-op when
// both are unset. A profile that cannot be written is reported on stderr
// and the app runs without it.
func startProfile(getenv func(string) string) func() {
	path, alloc := "", ""
	if getenv != nil {
		path, alloc = getenv(CPUProfileEnv), getenv(AllocProfileEnv)
	}
	stopCPU := startCPUProfile(path)
	return func() {
		stopCPU()
		writeAllocProfile(alloc)
	}
}

// writeAllocProfile writes the allocation profile to path ("" : none).
func writeAllocProfile(path string) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "memscope: %s %s: %v\n", AllocProfileEnv, path, err)
	}
}

// startCPUProfile starts a CPU profile into path and returns what stops
// it ("" : a no-op).
func startCPUProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "memscope: %s: %v\n", CPUProfileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "memscope: %s %s: %v\n", CPUProfileEnv, path, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

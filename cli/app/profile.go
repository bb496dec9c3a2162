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

// startProfile starts the CPU profile getenv(CPUProfileEnv) names and
// returns what stops it (and closes the file); a no-op when unset. A
// profile that cannot start is reported on stderr and the app runs
// without it.
func startProfile(getenv func(string) string) func() {
	path := ""
	if getenv != nil {
		path = getenv(CPUProfileEnv)
	}
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

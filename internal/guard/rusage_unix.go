//go:build unix

package guard

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is the kernel's peak resident memory of an exited process, in
// bytes (0 when unknown).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) << 10 // KiB elsewhere
}

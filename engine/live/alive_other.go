//go:build !unix

package live

import "os"

// ProcessAlive reports whether a process with pid exists, as far as the
// platform can tell without signals.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

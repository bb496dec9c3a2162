//go:build unix

package live

import (
	"errors"
	"syscall"
)

// ProcessAlive reports whether a process with pid exists: signal 0
// checks without sending anything; EPERM means it exists but belongs to
// another user.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

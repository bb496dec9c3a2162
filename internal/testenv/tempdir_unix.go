//go:build unix

package testenv

import (
	"errors"
	"os"
	"syscall"
)

// gone says no process has this id.
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// ownedByMe says this user owns the file at p.
func ownedByMe(p string) bool {
	info, err := os.Lstat(p)
	if err != nil {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

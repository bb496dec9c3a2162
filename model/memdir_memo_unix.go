//go:build linux || darwin

package model

import (
	"io/fs"
	"syscall"
)

// fileIdentity is the device and inode info (from the operating system)
// names; ok is false when info does not come from it.
func fileIdentity(info fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}

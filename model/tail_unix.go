//go:build unix

package model

import (
	"io/fs"
	"syscall"
)

// FileIDOf returns the device and inode of the file info describes, when
// it comes from the operating system.
func FileIDOf(info fs.FileInfo) FileID {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st != nil {
		return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Known: true}
	}
	return FileID{}
}

package model

import (
	"io/fs"
	"syscall"
)

// changeTimeOf is the file's status change time in nanoseconds (0 when
// info does not come from the operating system).
func changeTimeOf(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st != nil {
		return st.Ctimespec.Nano()
	}
	return 0
}

//go:build linux && (amd64 || arm64)

package vault

import (
	"io"
	"io/fs"
	"syscall"
)

// canAdvise: the prefetcher can ask the kernel to read a file ahead.
const canAdvise = true

// fadvWillNeed is POSIX_FADV_WILLNEED.
const fadvWillNeed = 3

// adviseWillNeed asks the kernel to read the whole of f into the page
// cache in the background (posix_fadvise WILLNEED), and says whether it
// could ask: f is an *os.File (a syscall.Conn) or a file a listed home
// opened by name from a held folder (model.ListOnce: its WillNeed). Any
// other file, or an error, is let be (the read just waits for the disk).
func adviseWillNeed(f fs.File) bool {
	if w, ok := f.(interface{ WillNeed() error }); ok {
		return w.WillNeed() == nil
	}
	sc, ok := f.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall6(syscall.SYS_FADVISE64, fd, 0, 0, fadvWillNeed, 0, 0)
	}); err != nil {
		return false
	}
	return errno == 0
}

// syncFileRangeWrite is SYNC_FILE_RANGE_WRITE.
const syncFileRangeWrite = 2

// startWriteback asks the kernel to start writing n bytes of w from off
// to the disk without waiting (sync_file_range WRITE), when w is an
// *os.File (a syscall.Conn): the fsync that follows then waits for less.
// Any other writer, or an error, is let be (the fsync writes it all).
func startWriteback(w io.Writer, off, n int64) {
	sc, ok := w.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, fd, uintptr(off), uintptr(n), syncFileRangeWrite, 0, 0)
	})
}

//go:build linux && (amd64 || arm64)

package vault

import (
	"io/fs"
	"syscall"
)

// canAdvise: the prefetcher can ask the kernel to read a file ahead.
const canAdvise = true

// fadvWillNeed is POSIX_FADV_WILLNEED.
const fadvWillNeed = 3

// adviseWillNeed asks the kernel to read the whole of f into the page
// cache in the background (posix_fadvise WILLNEED); a file that is not
// an *os.File, or an error, is ignored (the read just waits for the
// disk, as before).
func adviseWillNeed(f fs.File) {
	sc, ok := f.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall6(syscall.SYS_FADVISE64, fd, 0, 0, fadvWillNeed, 0, 0)
	})
}

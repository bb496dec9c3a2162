//go:build linux

package model

import (
	"errors"
	"runtime"

	"golang.org/x/sys/unix"
)

// Cached reports whether the page of the file holding offset off is in
// the page cache, asked without waiting for a disk (a read of one byte
// with preadv2's RWF_NOWAIT: it fails with EAGAIN when the byte is not
// in memory). known is false when the system cannot tell (a file
// system without RWF_NOWAIT reads, such as tmpfs; an offset past the
// end; any other error): the caller then does as for a page not cached.
func (f *heldFile) Cached(off int64) (cached, known bool) {
	defer runtime.KeepAlive(f)
	return fdCached(f.fd, off)
}

// fdCached is Cached of the descriptor fd.
func fdCached(fd int, off int64) (cached, known bool) {
	var b [1]byte
	for {
		n, err := unix.Preadv2(fd, [][]byte{b[:]}, off, unix.RWF_NOWAIT)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN):
			return false, true
		case err != nil || n != 1:
			return false, false
		}
		return true, true
	}
}

// FDCached is Cached of the descriptor fd (an *os.File's).
func FDCached(fd uintptr, off int64) (cached, known bool) { return fdCached(int(fd), off) }

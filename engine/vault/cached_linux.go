//go:build linux && (amd64 || arm64)

package vault

import (
	"io/fs"
	"syscall"

	"github.com/memscope/memscope/model"
)

// pagesCached reports whether the first and the last page of f (size
// bytes) are in the page cache, asked without waiting for the disk
// (model's Cached: a one-byte read with RWF_NOWAIT): false when either
// is not, or the system cannot tell (tmpfs, whose pages are in memory
// anyway and whose read-ahead advice costs nothing). The prefetcher
// does not advise such a file: on a warm cache, posix_fadvise WILLNEED
// of a large file walks every page of it to find each there already
// (~45 µs a file over 1 MiB here, 5 of the 7.5 ms a first sync of the
// bench home spent advising), against ~2 µs for the two reads. The
// first page is asked first, then the last (a transcript's end, just
// written, is the likelier to be in memory when its start is not).
func pagesCached(f fs.File, size int64) bool {
	cached := func(off int64) bool { return false }
	switch c := f.(type) {
	case interface{ Cached(int64) (bool, bool) }:
		cached = func(off int64) bool { in, known := c.Cached(off); return in && known }
	case syscall.Conn:
		rc, err := c.SyscallConn()
		if err != nil {
			return false
		}
		cached = func(off int64) bool {
			var in, known bool
			if rc.Control(func(fd uintptr) { in, known = model.FDCached(fd, off) }) != nil {
				return false
			}
			return in && known
		}
	}
	if size <= 0 || !cached(0) {
		return false
	}
	return size <= pageSize || cached(size-1)
}

// pageSize is the page the first and last bytes are asked of (a file
// within one page is asked once).
const pageSize = 4096

package model

import (
	"io/fs"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// MapFile maps n bytes of f from off into memory, read-only (mmap(2),
// MAP_SHARED: the page cache's own pages, not a copy), for a reader that
// scans a large file once: read(2) copies every byte out of the page
// cache first. f is a file a listed home opened from a held folder or an
// *os.File; ok is false for any other file or when the mapping fails
// (the caller reads it instead). The bytes are the file's as it changes:
// a file cut shorter while mapped faults on the pages past its end
// (SIGBUS), which a reader turns into a panic it recovers from with
// debug.SetPanicOnFault. UnmapFile releases the mapping.
func MapFile(f fs.File, off, n int64) (data []byte, ok bool) {
	if off < 0 || n <= 0 || int64(int(n)) != n {
		return nil, false
	}
	var err error
	switch t := f.(type) {
	case *heldFile:
		data, err = mapRange(t.fd, off, n)
		runtime.KeepAlive(t)
	case syscall.Conn:
		rc, cerr := t.SyscallConn()
		if cerr != nil {
			return nil, false
		}
		if cerr := rc.Control(func(d uintptr) { data, err = mapRange(int(d), off, n) }); cerr != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return data, err == nil
}

// mapRange maps n bytes of fd from off (the mapping starts at the page
// that holds off).
func mapRange(fd int, off, n int64) ([]byte, error) {
	page := int64(unix.Getpagesize())
	start := off &^ (page - 1)
	length := uintptr(n + off - start)
	p, err := unix.MmapPtr(fd, start, nil, length, unix.PROT_READ, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(unsafe.Add(p, off-start)), n), nil
}

// UnmapFile releases a mapping MapFile made (data as it gave it).
func UnmapFile(data []byte) {
	if len(data) == 0 {
		return
	}
	page := uintptr(unix.Getpagesize())
	p := unsafe.Pointer(unsafe.SliceData(data))
	in := uintptr(p) & (page - 1)
	_ = unix.MunmapPtr(unsafe.Add(p, -int(in)), in+uintptr(len(data)))
}

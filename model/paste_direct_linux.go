//go:build linux

package model

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pasteDirectOpens counts the pastes checkDirect opened (the tests').
var pasteDirectOpens atomic.Int64

// pasteFolder is a path descriptor of a held home's paste-cache folder,
// resolved beneath the home (its links followed while they stay inside,
// as every name of the home), for the inventory to open its pastes by
// their bare names: one openat a paste, instead of the home's name
// resolved again and the file reopened through /proc (a cold stat checks
// some 8 600 pastes).
type pasteFolder struct {
	fd  int
	dir string // the folder's full path, for errors
}

// openPasteDir is the paste-cache folder of c's home when the home is
// held (HoldHome) and its verdicts check the files (an inventory); ok is
// false otherwise, and every paste is checked by Check.
func (c *PasteCache) openPasteDir() (d pasteFolder, ok bool) {
	h, isHome := c.fsys.(dirFS)
	if !isHome || !h.inside || c.verdicts == nil || !homeHeld(h.dir) {
		return d, false
	}
	fd, ok, err := openPathBeneath("open", h.dir, PasteCacheDir)
	if !ok || err != nil {
		return d, false
	}
	return pasteFolder{fd: fd, dir: filepath.Join(h.dir, PasteCacheDir)}, true
}

func (d pasteFolder) close() { unix.Close(d.fd) }

// checkDirect is Check(h) for the paste-cache file f that List found:
// the name is opened from the folder's descriptor with O_NOFOLLOW (one
// name, so beneath the folder, and the folder beneath the home), without
// blocking, and kept only when the descriptor's fstat says it is a
// regular file. ok is false when this does not answer (the name is a
// link, or is gone, or became a pipe or a device since List looked, any
// error): Check then looks again the usual way, and says why. A name
// List saw as a regular file that became a device since is opened
// (O_NONBLOCK, O_NOCTTY) but never read, as the usual way's os.Stat then
// os.OpenFile would for a home the kernel cannot resolve beneath.
func (c *PasteCache) checkDirect(d pasteFolder, h PasteHash, f PasteFile) (res PasteResolution, ok bool) {
	name := string(h) + pasteCacheExt
	var fd int
	var err error
	for {
		fd, err = unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return res, false
	}
	defer unix.Close(fd)
	pasteDirectOpens.Add(1)
	info := &statInfo{name: path.Base(f.Path)}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return res, false
	}
	info.sys = *(*syscall.Stat_t)(unsafe.Pointer(&st))
	res = PasteResolution{Hash: h, Status: PasteMissing, Source: PasteSourceCache, Path: f.Path}
	c.verdicts.checkRead(info, fdReader{fd: fd, name: filepath.Join(d.dir, name)}, &res)
	return res, true
}

// fdReader reads a descriptor with read(2) and no *os.File around it
// (whose making costs an fcntl, and for a descriptor opened O_NONBLOCK a
// try at the poller).
type fdReader struct {
	fd   int
	name string
}

func (r fdReader) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(r.fd, p)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: r.name, Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

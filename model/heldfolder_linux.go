//go:build linux

package model

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// heldFolderOpens counts the files heldFolder.open opened (the tests').
var heldFolderOpens atomic.Int64

// heldFolder is a path descriptor of a folder of a held home, resolved
// beneath the home (its links followed while they stay inside, as every
// name of the home), for a reader that lists it to open its files by
// their bare names: one openat a file, instead of the home's name
// resolved again and the file reopened through /proc (a cold stat reads
// some 8 600 pastes and 2 400 memory files).
type heldFolder struct {
	fd  int
	dir string // the folder's full path, for errors
	// listed is the listed home that holds fd (its listedHold), kept
	// alive until close; nil when close closes fd.
	listed *listedFS
}

// openHeldFolder is the folder dir of the home fsys when fsys is a
// home's file system (HomeFS) and the home is held (HoldHome), or a
// listed home (ListOnce of one: the folder it holds, or the one beneath
// when that home is held); ok is false otherwise, and its files are
// opened the usual way.
func openHeldFolder(fsys fs.FS, dir string) (d heldFolder, ok bool) {
	if l, listed := fsys.(*listedFS); listed {
		if l.held == nil {
			return openHeldFolder(l.fsys, dir)
		}
		if dir == "." || !fs.ValidPath(dir) {
			return d, false
		}
		fd, ok := l.held.folder(dir)
		if !ok {
			return d, false
		}
		return heldFolder{fd: fd, dir: filepath.Join(l.held.dir, filepath.FromSlash(dir)), listed: l}, true
	}
	h, isHome := fsys.(dirFS)
	if !isHome || !h.inside || !homeHeld(h.dir) || !fs.ValidPath(dir) || dir == "." {
		return d, false
	}
	fd, ok, err := openPathBeneath("open", h.dir, dir)
	if !ok || err != nil {
		return d, false
	}
	return heldFolder{fd: fd, dir: filepath.Join(h.dir, filepath.FromSlash(dir))}, true
}

func (d heldFolder) close() {
	if d.listed != nil {
		runtime.KeepAlive(d.listed) // the listed home closes it
		return
	}
	unix.Close(d.fd)
}

// open opens name, one name of the folder, from the folder's descriptor
// with O_NOFOLLOW (so beneath the folder, and the folder beneath the
// home), without blocking, and keeps it only when the descriptor's fstat
// says it is a regular file: the file, read with read(2), and that
// fstat's answer. ok is false when this does not answer (the name is a
// link, or is gone, or became a pipe or a device since the caller listed
// it, any error): the caller then opens it the usual way, which says
// why. A name listed as a regular file that became a device since is
// opened (O_NONBLOCK, O_NOCTTY) but never read, as the usual way's
// os.Stat then os.OpenFile would for a home the kernel cannot resolve
// beneath. The caller closes the file.
func (d heldFolder) open(name string) (r fdReader, info fs.FileInfo, ok bool) {
	if name == "" || name == "." || name == ".." || strings.Contains(name, "/") {
		return r, nil, false
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return r, nil, false
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		unix.Close(fd)
		return r, nil, false
	}
	heldFolderOpens.Add(1)
	info = &statInfo{name: name, sys: st}
	return fdReader{fd: fd, name: filepath.Join(d.dir, name)}, info, true
}

// fdReader reads a descriptor with read(2) and no *os.File around it
// (whose making costs an fcntl, and for a descriptor opened O_NONBLOCK a
// try at the poller).
type fdReader struct {
	fd   int
	name string
}

func (r fdReader) Read(p []byte) (int, error) {
	n, err := readRetry(r.fd, p)
	if err != nil && err != io.EOF {
		return 0, &fs.PathError{Op: "read", Path: r.name, Err: err}
	}
	return n, err
}

// readRetry is read(2) of fd into p, asked again while a signal
// interrupts it: io.EOF at the end, else the system's error as it is.
func readRetry(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Close closes the descriptor.
func (r fdReader) Close() error { return unix.Close(r.fd) }

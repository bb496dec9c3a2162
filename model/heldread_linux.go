//go:build linux

package model

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// HeldRead is one regular file at a time of a listed home (ListOnce of
// a home's file system) opened by its bare name from its held folder,
// for a reader that reads it at once and closes it: what
// OpenRegular's heldFile is (openat with O_NOFOLLOW, then an fstat that
// must say regular file), without its allocations (the file, its
// cleanup, its information, its joined path: some 11 500 pastes,
// backups and memory files at a cold start's secrets count). A reader
// keeps one and opens file after file into it (Open, Read, Close); it
// must close each file it opened (no cleanup does).
type HeldRead struct {
	fd   int
	open bool
	l    *listedFS
	name string // the file's name in the home
	st   syscall.Stat_t
}

// Open opens name of fsys into r (r must hold no open file); false when
// fsys is no listed home holding its folder, or the open does not
// answer (a link, a name gone, no regular file, any error): the caller
// then opens it the usual way (OpenRegular), which says why.
func (r *HeldRead) Open(fsys fs.FS, name string) bool {
	l, ok := fsys.(*listedFS)
	if !ok || l.held == nil || r.open {
		return false
	}
	dir, base, valid := splitName(name)
	if !valid || base == "" || base == "." || base == ".." {
		return false
	}
	d, held := l.held.folder(dir)
	if !held {
		return false
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat(d, base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	runtime.KeepAlive(l)
	if err != nil {
		return false
	}
	if syscall.Fstat(fd, &r.st) != nil || r.st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		unix.Close(fd)
		return false
	}
	heldFolderOpens.Add(1)
	listedOpens.Add(1)
	r.fd, r.open, r.l, r.name = fd, true, l, name
	l.seenStat(name, &r.st)
	return true
}

// Size is the file's size at its open.
func (r *HeldRead) Size() int64 { return r.st.Size }

// Stamp is the file's stamp at its open, without a head hash (StampOf
// of its fstat).
func (r *HeldRead) Stamp() FileStamp { return stampOfStat(&r.st) }

// StampNow is the open file's stamp as it is now, without a head hash
// (an fstat of its descriptor: a reader's check after its read that the
// file was not written meanwhile, diskcache.Checking).
func (r *HeldRead) StampNow() (FileStamp, error) {
	if !r.open {
		return FileStamp{}, &fs.PathError{Op: "stat", Path: r.path(), Err: fs.ErrClosed}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(r.fd, &st); err != nil {
		return FileStamp{}, &fs.PathError{Op: "stat", Path: r.path(), Err: err}
	}
	return stampOfStat(&st), nil
}

// stampOfStat is StampOf of the information st.
func stampOfStat(st *syscall.Stat_t) FileStamp {
	return FileStamp{Size: st.Size, ModTime: st.Mtim.Nano(), ChangeTime: st.Ctim.Nano(),
		ID: FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Known: true}}
}

// Stat is the file's information at its open (OpenedInfo's answer).
func (r *HeldRead) Stat() (fs.FileInfo, error) {
	return &statInfo{name: path.Base(r.name), sys: r.st}, nil
}

// Read reads with read(2), as an *os.File would (io.EOF at the end).
func (r *HeldRead) Read(p []byte) (int, error) {
	if !r.open {
		return 0, &fs.PathError{Op: "read", Path: r.path(), Err: fs.ErrClosed}
	}
	n, err := readRetry(r.fd, p)
	if err != nil && err != io.EOF {
		return 0, &fs.PathError{Op: "read", Path: r.path(), Err: err}
	}
	return n, err
}

// Close closes the file (once).
func (r *HeldRead) Close() error {
	if !r.open {
		return &fs.PathError{Op: "close", Path: r.path(), Err: fs.ErrClosed}
	}
	r.open = false
	r.l = nil
	return unix.Close(r.fd)
}

// path is the file's full path, for errors.
func (r *HeldRead) path() string {
	if r.l == nil {
		return r.name
	}
	return filepath.Join(r.l.held.dir, filepath.FromSlash(r.name))
}

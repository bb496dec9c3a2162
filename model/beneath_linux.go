//go:build linux

package model

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel refuses openat2 (before Linux 5.6,
// or a sandbox that filters it): every name is then resolved by
// ResolveInside.
var noOpenat2 atomic.Bool

// statBeneath asks the kernel whether name, read from the folder dir
// with its symbolic links followed, stays under dir (openat2 with
// RESOLVE_BENEATH: an absolute link or a ".." above dir fails it), and
// returns what name leads to, as fs.Stat would. It opens only a path
// descriptor, so a pipe or a device is looked at, not opened. This is
// the home's link rule (ResolveInside) in one call instead of an Lstat
// per name on the way.
//
// ok is false when the kernel does not say yes: a link leaves dir, or
// has an absolute target (which ResolveInside may still place inside),
// too many links, no openat2, any other error. The caller then resolves
// name with ResolveInside, which names the link it refuses. A name that
// does not exist, with every link on its way inside, is the op's
// fs.ErrNotExist.
func statBeneath(op, dir, name string) (info fs.FileInfo, ok bool, err error) {
	fd, ok, err := openPathBeneath(op, dir, name)
	if !ok || err != nil {
		return nil, ok, err
	}
	defer unix.Close(fd)
	// An fstat of the descriptor, not an *os.File's Stat: making the
	// *os.File asks fcntl first (issue 28).
	si := &statInfo{name: path.Base(name)}
	if syscall.Fstat(fd, &si.sys) != nil {
		return nil, false, nil
	}
	return si, true, nil
}

// openPathBeneath is statBeneath's question: a path descriptor of what
// name leads to, ok and err as statBeneath's.
func openPathBeneath(op, dir, name string) (fd int, ok bool, err error) {
	if noOpenat2.Load() {
		return -1, false, nil
	}
	root, held, err := openRoot(dir)
	if err != nil {
		return -1, false, nil
	}
	defer closeRoot(root, held)
	return openPathFrom(op, root, name)
}

// openPathFrom is openPathBeneath from root, a path descriptor of the
// folder already open.
func openPathFrom(op string, root int, name string) (fd int, ok bool, err error) {
	if noOpenat2.Load() {
		return -1, false, nil
	}
	fd, err = unix.Openat2(root, name, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch {
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
		noOpenat2.Store(true)
		return -1, false, nil
	case errors.Is(err, unix.ENOENT):
		return -1, true, &fs.PathError{Op: op, Path: name, Err: syscall.ENOENT}
	case err != nil:
		return -1, false, nil
	}
	return fd, true, nil
}

// reopenBeneath opens name, read from the folder dir, when the kernel
// resolves it inside dir (statBeneath's rule) to a regular file, or a
// folder when dirOK: the path descriptor the kernel resolved is opened
// again through /proc/self/fd, so what is read is the very file that was
// looked at (no second walk of the path a link could be put in, and no
// O_NONBLOCK, since it is known not to be a pipe). full names the file
// returned. ok is false when this cannot answer (no openat2, no /proc,
// a name that is not a regular file or a folder, any other error): the
// caller then takes identBeneath's way, which says why. A name that does
// not exist is statBeneath's fs.ErrNotExist.
//
// The file returned keeps that fstat's answer for OpenedInfo.
func reopenBeneath(dir, name, full string, dirOK bool) (f fs.File, ok bool, err error) {
	fd, ok, err := openPathBeneath("open", dir, name)
	if !ok || err != nil {
		return nil, ok, err
	}
	if f, ok = reopenPath(fd, full, dirOK); !ok {
		return nil, false, nil
	}
	return f, true, nil
}

// reopenPath is reopenBeneath's open of fd, the path descriptor the
// kernel resolved, which it closes. A regular file is a heldFile (read
// with read(2), no *os.File around it, whose making asked fcntl once a
// file: some 4 000 a cold start), a folder a heldDir (listed with
// getdents64 from its descriptor).
func reopenPath(fd int, full string, dirOK bool) (f fs.File, ok bool) {
	defer unix.Close(fd)
	info := &statInfo{name: filepath.Base(full)}
	if syscall.Fstat(fd, &info.sys) != nil {
		return nil, false
	}
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	switch typ := info.sys.Mode & syscall.S_IFMT; {
	case typ == syscall.S_IFREG:
	case typ == syscall.S_IFDIR && dirOK:
		flags |= unix.O_DIRECTORY
	default:
		return nil, false
	}
	rfd, err := reopenFD(fd, flags)
	if err != nil {
		return nil, false
	}
	reopenedHeld.Add(1)
	f = newHeldFile(fdReader{fd: rfd, name: full}, info)
	if info.sys.Mode&syscall.S_IFMT == syscall.S_IFDIR {
		f = &heldDir{heldFile: f.(*heldFile)}
	}
	return f, true
}

// reopenedHeld counts the files and folders reopenPath opened as a
// heldFile or heldDir (the tests').
var reopenedHeld atomic.Int64

// statInfo is an fstat's answer as os.File.Stat gives it (its Sys a
// *syscall.Stat_t), for reopenBeneath's file.
type statInfo struct {
	name string
	sys  syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.sys.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.sys.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.sys }

// Mode is os's reading of the mode bits (os.fillFileStatFromSys).
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.sys.Mode & 0o777)
	switch s.sys.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.sys.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.sys.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.sys.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// procFD is a path descriptor of /proc/self/fd, opened at the first
// reopen and held for the process's life (its folder lists the one
// descriptor table all the process's threads share), so a reopen looks
// up one name, the descriptor's number, instead of walking
// /proc/self/fd/N from the root with the /proc/self link on the way: a
// cold stat reopens some 11 000 files. procFDErr is its open's error;
// procFDOpens counts its opens (the tests'). The magic link at the end
// is resolved as before: the file the path descriptor is.
var (
	procFDOnce  sync.Once
	procFD      int
	procFDErr   error
	procFDOpens atomic.Int32
	// reopens counts reopenFD's calls (the tests').
	reopens atomic.Int64
)

// reopenFD opens again, with flags, the file the descriptor fd is.
func reopenFD(fd, flags int) (int, error) {
	reopens.Add(1)
	procFDOnce.Do(func() {
		procFDOpens.Add(1)
		procFD, procFDErr = unix.Open("/proc/self/fd", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if procFDErr != nil {
		return unix.Open("/proc/self/fd/"+strconv.Itoa(fd), flags, 0)
	}
	return unix.Openat(procFD, strconv.Itoa(fd), flags, 0)
}

// beneathID is what openBeneath needs of statBeneath's answer: whether
// it is a regular file or a folder, and which file it is.
type beneathID struct {
	regular, dir bool
	dev, ino     uint64
}

// identBeneath is statBeneath for openBeneath: the kernel's answer read
// with one fstat on the path descriptor, without making an *os.File of
// it (an fcntl, an allocation and a finalizer an open: a cold start
// opens some 70 000 files). ok and err are statBeneath's.
func identBeneath(op, dir, name string) (id beneathID, ok bool, err error) {
	fd, ok, err := openPathBeneath(op, dir, name)
	if !ok || err != nil {
		return id, ok, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return id, false, nil
	}
	typ := st.Mode & unix.S_IFMT
	return beneathID{regular: typ == unix.S_IFREG, dir: typ == unix.S_IFDIR, dev: uint64(st.Dev), ino: st.Ino}, true, nil
}

// is says info (of a file opened) is the file id is.
func (id beneathID) is(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Dev) == id.dev && st.Ino == id.ino
}

// heldHomes are the folders HoldHome holds open, by path.
var heldHomes struct {
	sync.Mutex
	m map[string]*heldHome
}

// heldHome is a folder's path descriptor, opened once for the holds
// not yet released, and the questions using it now (closed when both
// are none).
type heldHome struct {
	fd           int
	holds, users int
}

// HoldHome makes every name beneath dir resolved, until release, from
// one path descriptor of dir opened now, instead of dir opened by its
// path again for each name: the home a command started with is the home
// it reads to its end. That was two of the ten system calls of each file
// a command opens, the open a walk of the home's whole path (search on
// W opens some 900 files, a cold stat 11 000). A command holds its home
// for its run (search, stat); the app does not, so a home renamed away
// and put back is read anew. HoldHome on a folder it cannot open holds
// nothing. release may be called more than once.
func HoldHome(dir string) (release func()) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return func() {}
	}
	heldHomes.Lock()
	if heldHomes.m == nil {
		heldHomes.m = map[string]*heldHome{}
	}
	h := heldHomes.m[dir]
	if h == nil {
		h = &heldHome{fd: fd}
		heldHomes.m[dir] = h
	} else {
		unix.Close(fd) // held already: the first descriptor serves
	}
	h.holds++
	heldHomes.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			heldHomes.Lock()
			defer heldHomes.Unlock()
			h.holds--
			if h.holds == 0 {
				delete(heldHomes.m, dir)
				if h.users == 0 {
					unix.Close(h.fd)
				}
			}
		})
	}
}

// openRoot is a path descriptor of dir: the one HoldHome holds (held,
// in use until closeRoot), else dir opened now.
func openRoot(dir string) (fd int, held *heldHome, err error) {
	heldHomes.Lock()
	if h := heldHomes.m[dir]; h != nil {
		h.users++
		heldHomes.Unlock()
		return h.fd, h, nil
	}
	heldHomes.Unlock()
	rootOpens.Add(1)
	fd, err = unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	return fd, nil, err
}

// rootOpens counts openRoot's opens of a folder not held (the tests').
var rootOpens atomic.Int64

// closeRoot is done with openRoot's descriptor.
func closeRoot(fd int, held *heldHome) {
	if held == nil {
		unix.Close(fd)
		return
	}
	heldHomes.Lock()
	defer heldHomes.Unlock()
	held.users--
	if held.holds == 0 && held.users == 0 {
		unix.Close(held.fd)
	}
}

// The kernel's stat and x/sys/unix's are one struct, field for field.
var _ = [1]struct{}{}[unsafe.Sizeof(unix.Stat_t{})-unsafe.Sizeof(syscall.Stat_t{})]

// lstatHeld is what name (slash-separated, inside the folder dir) is,
// itself and not what it links to, asked from the descriptor HoldHome
// holds for dir: the lookup walks name's own components only, not dir's
// whole path again. ok is false when dir is not held or the question
// fails (the caller then asks by the whole path, whose error it reports).
func lstatHeld(dir, name string) (info fs.FileInfo, ok bool) {
	heldHomes.Lock()
	h := heldHomes.m[dir]
	if h == nil {
		heldHomes.Unlock()
		return nil, false
	}
	h.users++
	heldHomes.Unlock()
	defer closeRoot(h.fd, h)
	var st unix.Stat_t
	if unix.Fstatat(h.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return nil, false
	}
	return &statInfo{name: path.Base(name), sys: *(*syscall.Stat_t)(unsafe.Pointer(&st))}, true
}

// homeHeld says HoldHome holds dir now.
func homeHeld(dir string) bool {
	heldHomes.Lock()
	defer heldHomes.Unlock()
	return heldHomes.m[dir] != nil
}

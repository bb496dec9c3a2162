//go:build linux

package model

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// listedHold is what a listed home (ListOnce of a home's file system)
// holds open for its moment: a path descriptor of the home, and one of
// each folder it read from (resolved beneath the home, its links
// followed while they stay inside, as every name of the home), so that
// a file is opened by its bare name from its folder (openat with
// O_NOFOLLOW, then an fstat that must say regular file), a folder is
// listed from its own descriptor and its entries looked at from it,
// instead of the home's path walked again and the whole name resolved
// again from it for each (the app's Overview opens some 40 000 files of
// W for its first count). A name this does not answer (a link, a name
// gone, a pipe or a device, any error) goes the home's usual way, which
// says why. The descriptors are closed when the listed home is no
// longer used (a cleanup; each use keeps it alive).
type listedHold struct {
	dir      string
	rootOnce sync.Once
	root     int // -1: none
	mu       sync.Mutex
	folders  map[string]int // by folder name; -1: could not be held
	closed   bool
}

// heldFolderCap bounds the folders the listed homes of the process
// hold between them (a home of W has some 650; a listed home lives until
// the collector finds it unused, so a few may overlap): an eighth of the
// descriptors the process may open, at most 1024. Past it, names are
// resolved from the home's descriptor. heldFolders counts them.
var (
	heldFolderCap = func() int64 {
		var lim unix.Rlimit
		if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil {
			return 64
		}
		return int64(min(1024, lim.Cur/8))
	}()
	heldFolders atomic.Int64
)

// listedOpens counts the files and folders a listed home opened by
// name from a folder it holds (the tests').
var listedOpens atomic.Int64

// newListedHold is the hold of fsys when it is a home's file system
// (HomeFS) on a kernel with openat2; nil otherwise.
func newListedHold(fsys fs.FS) *listedHold {
	d, ok := fsys.(dirFS)
	if !ok || !d.inside || d.dir == "" || noOpenat2.Load() {
		return nil
	}
	return &listedHold{dir: d.dir, root: -1, folders: map[string]int{}}
}

// rootFD is the home's descriptor, opened at the first use.
func (h *listedHold) rootFD() (int, bool) {
	h.rootOnce.Do(func() {
		fd, err := unix.Open(h.dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == nil {
			h.root = fd
		}
	})
	return h.root, h.root >= 0
}

// folder is the held descriptor of the home's folder dir ("" or "." for
// the home), opened at its first use beneath the home.
func (h *listedHold) folder(dir string) (int, bool) {
	root, ok := h.rootFD()
	if !ok {
		return -1, false
	}
	if dir == "" || dir == "." {
		return root, true
	}
	h.mu.Lock()
	fd, known := h.folders[dir]
	h.mu.Unlock()
	full := heldFolders.Load() >= heldFolderCap
	if known {
		return fd, fd >= 0
	}
	if full || !fs.ValidPath(dir) {
		return -1, false
	}
	fd, ok, err := openPathFrom("open", root, dir)
	if ok && err == nil {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			unix.Close(fd)
			fd = -1
		}
	} else {
		fd = -1
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if had, known := h.folders[dir]; known || h.closed {
		// Another caller held it meanwhile (or the hold ended).
		if fd >= 0 {
			unix.Close(fd)
		}
		return had, known && had >= 0
	}
	h.folders[dir] = fd
	if fd >= 0 {
		heldFolders.Add(1)
	}
	return fd, fd >= 0
}

// canHold says a folder not held yet may be (h is a hold, and the
// process holds fewer folders than heldFolderCap): its listing then
// has its stamp (readDirStamp).
func (h *listedHold) canHold() bool {
	return h != nil && heldFolders.Load() < heldFolderCap
}

// close closes every descriptor held (the listed home's cleanup).
func (h *listedHold) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, fd := range h.folders {
		if fd >= 0 {
			unix.Close(fd)
			heldFolders.Add(-1)
		}
	}
	h.folders = nil
	if h.root >= 0 {
		unix.Close(h.root)
		h.root = -1
	}
}

// split is name's folder and last element, ok false for a name this
// does not open by its bare name.
func splitName(name string) (dir, base string, ok bool) {
	if name == "." || !fs.ValidPath(name) {
		return "", "", false
	}
	dir, base = path.Split(name)
	return strings.TrimSuffix(dir, "/"), base, true
}

// open opens name: a regular file by its bare name from its held folder
// (a heldFile), else what the kernel resolves from the home's
// descriptor (reopenBeneath's rule: a regular file, or a folder when
// dirOK). ok is false when neither answers: the caller then opens name
// the home's usual way.
func (h *listedHold) open(name string, dirOK bool) (f fs.File, ok bool, err error) {
	dir, base, valid := splitName(name)
	if !valid {
		return nil, false, nil
	}
	if d, held := h.folder(dir); held {
		if r, info, ok := (heldFolder{fd: d, dir: filepath.Join(h.dir, filepath.FromSlash(dir))}).open(base); ok {
			listedOpens.Add(1)
			return newHeldFile(r, info.(*statInfo)), true, nil
		}
	}
	root, held := h.rootFD()
	if !held {
		return nil, false, nil
	}
	fd, ok, err := openPathFrom("open", root, name)
	if !ok || err != nil {
		return nil, ok, err
	}
	o, ok := reopenPath(fd, filepath.Join(h.dir, filepath.FromSlash(name)), dirOK)
	if !ok {
		return nil, false, nil
	}
	return o, true, nil
}

// stat is name's information asked from its held folder (fstatat with
// AT_SYMLINK_NOFOLLOW); ok is false for a link unless links (Lstat's
// question; Stat's follows it the home's usual way), or any error.
func (h *listedHold) stat(name string, links bool) (fs.FileInfo, bool) {
	dir, base, valid := splitName(name)
	if !valid {
		return nil, false
	}
	d, held := h.folder(dir)
	if !held {
		return nil, false
	}
	info := &statInfo{name: base}
	if fstatatRetry(d, base, &info.sys) != nil || !links && info.sys.Mode&syscall.S_IFMT == syscall.S_IFLNK {
		return nil, false
	}
	return info, true
}

// fstatatRetry is fstatat of name in the folder fd, not following a
// link, asked again while a signal interrupts it.
func fstatatRetry(fd int, name string, st *syscall.Stat_t) error {
	for {
		var ust unix.Stat_t
		err := unix.Fstatat(fd, name, &ust, unix.AT_SYMLINK_NOFOLLOW)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err == nil {
			*st = *(*syscall.Stat_t)(unsafe.Pointer(&ust))
		}
		return err
	}
}

// readDir lists the folder name from its held descriptor, its entries'
// Info asked from it too; ok is false when the folder is not held.
func (h *listedHold) readDir(l *listedFS, name string) ([]fs.DirEntry, bool) {
	return h.readDirStamp(l, name, nil)
}

// readDirStamp is readDir that, when pre is not nil, sets it to the
// folder's stamp before its listing (an fstat of the descriptor it is
// listed from; zero when that fails): what a reader keeping a folder's
// listing by its stamp needs (ListedFolder).
func (h *listedHold) readDirStamp(l *listedFS, name string, pre *FileStamp) ([]fs.DirEntry, bool) {
	d, held := h.folder(name)
	if !held {
		return nil, false
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat(d, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, false
	}
	listedOpens.Add(1)
	if pre != nil {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) == nil {
			*pre = stampOfStat(&st)
		}
	}
	ents, err := readDirFD(fd, filepath.Join(h.dir, filepath.FromSlash(name)))
	unix.Close(fd)
	if err != nil {
		return nil, false
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = &heldDirEntry{DirEntry: e, l: l, name: path.Join(name, e.Name())}
	}
	return out, true
}

// heldDirEntry is an entry of a folder a listed home holds: its Info is
// asked from the folder's descriptor (its own Info when that fails,
// which reports the error). It keeps the listed home, whose cleanup
// closes the descriptors, alive.
type heldDirEntry struct {
	fs.DirEntry
	l    *listedFS
	name string
}

func (e *heldDirEntry) Info() (fs.FileInfo, error) {
	info, ok := e.l.held.stat(e.name, false)
	runtime.KeepAlive(e.l)
	if ok {
		return info, nil
	}
	return e.DirEntry.Info()
}

// heldFile is a regular file a listed home opened by its bare name from
// its held folder: read with read(2) and pread(2), no *os.File around
// it. info is the fstat of its open (OpenedInfo). Like an *os.File, a
// file its reader drops without closing is closed by a cleanup (done
// says Close closed it, so the cleanup does not close a number reused).
type heldFile struct {
	fdReader
	info *statInfo
	done *atomic.Bool
}

func newHeldFile(r fdReader, info *statInfo) *heldFile {
	f := &heldFile{fdReader: r, info: info, done: new(atomic.Bool)}
	runtime.AddCleanup(f, func(c heldCleanup) {
		if !c.done.Load() {
			unix.Close(c.fd)
		}
	}, heldCleanup{fd: r.fd, done: f.done})
	return f
}

// heldCleanup is what a heldFile's cleanup needs of it.
type heldCleanup struct {
	fd   int
	done *atomic.Bool
}

// Close closes the file once.
func (f *heldFile) Close() error {
	if f.done.Swap(true) {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	err := f.fdReader.Close()
	runtime.KeepAlive(f)
	return err
}

func (f *heldFile) Stat() (fs.FileInfo, error) {
	info := &statInfo{name: f.info.name}
	err := syscall.Fstat(f.fd, &info.sys)
	runtime.KeepAlive(f)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
	}
	return info, nil
}

// ReadDir fails as an *os.File's of a regular file does (a heldFile is
// one): the error a reader that lists a name it opened gets either way.
func (f *heldFile) ReadDir(int) ([]fs.DirEntry, error) {
	return nil, &fs.PathError{Op: "readdirent", Path: f.name, Err: syscall.ENOTDIR}
}

// WillNeed asks the kernel to read the whole file into the page cache
// in the background (posix_fadvise POSIX_FADV_WILLNEED), as a reader
// about to read it whole would for an *os.File (the vault's first
// sync reads ahead this way; a held file is no syscall.Conn).
func (f *heldFile) WillNeed() error {
	err := unix.Fadvise(f.fd, 0, 0, unix.FADV_WILLNEED)
	runtime.KeepAlive(f)
	return err
}

func (f *heldFile) Read(p []byte) (int, error) {
	n, err := f.fdReader.Read(p)
	runtime.KeepAlive(f)
	return n, err
}

func (f *heldFile) ReadAt(p []byte, off int64) (int, error) {
	defer runtime.KeepAlive(f)
	if off < 0 {
		return 0, &fs.PathError{Op: "readat", Path: f.name, Err: errors.New("negative offset")}
	}
	n := 0
	for n < len(p) {
		m, err := unix.Pread(f.fd, p[n:], off+int64(n))
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return n, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case m == 0:
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

func (f *heldFile) Seek(offset int64, whence int) (int64, error) {
	off, err := unix.Seek(f.fd, offset, whence)
	runtime.KeepAlive(f)
	if err != nil {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: err}
	}
	return off, nil
}

// seenStat gives the listed entry of name (a regular file, by its
// folder's listing, done already) the information st of its open (the
// fstat an open from a held folder makes to check the file is regular),
// when no reader has asked its Info yet: the listing's readers then
// share that one look instead of an lstat of the name more. A cold start
// opens each of W's 8 631 pastes for the secrets count before the paste
// inventory asks each one's information (an fstatat each). The entry
// then says what the file was at its open, as a later lstat of it would
// have (a file changed since is the home of the listed moment's, as a
// listing's first Info is).
func (l *listedFS) seenStat(name string, st *syscall.Stat_t) {
	_, base, ok := splitName(name)
	if !ok {
		return
	}
	ent, found := l.entryOf(name)
	if !found || !ent.Type().IsRegular() {
		return
	}
	fill := func() (fs.FileInfo, error) { return &statInfo{name: base, sys: *st}, nil }
	switch e := ent.(type) {
	case *listedEntry:
		e.once.Do(func() { e.info, e.err = fill() })
	case *listedKept:
		e.once.Do(func() { e.info, e.err = fill() })
	}
}

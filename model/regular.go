package model

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Every file memscope reads as data (MEMORY.md, memory files, settings,
// history, transcripts, pastes, CLAUDE.md, the journal, backups) must be
// a regular file. Opening a named pipe blocks until a writer comes, and a
// link to /dev/zero or /dev/urandom never ends: either hangs a command or
// grows its memory without bound. So the home is read through DirFS,
// whose Open never blocks (O_NONBLOCK) and checks the opened descriptor
// (fstat, so a swap between a check and the open cannot slip a pipe in),
// and readers open files through OpenRegular.

// NotRegularError says a file memscope expected to be regular is
// something else. It is the Err of an fs.PathError naming the file.
type NotRegularError struct {
	// Kind is what the file is: "named pipe", "character device", ….
	Kind string
}

func (e *NotRegularError) Error() string {
	return "is a " + e.Kind + ", not a regular file"
}

// FileKind names the type of a file mode for people: "named pipe",
// "character device", "block device", "socket", "symbolic link",
// "folder", "regular file" or "irregular file".
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "folder"
	case m.IsRegular():
		return "regular file"
	}
	return "irregular file"
}

// NotRegularReason is a problem's reason for a file of mode m that
// memscope does not read: "is a named pipe, not a regular file".
func NotRegularReason(m fs.FileMode) string {
	return (&NotRegularError{Kind: FileKind(m)}).Error()
}

// notRegular is the error for name, whose mode is m.
func notRegular(op, name string, m fs.FileMode) error {
	return &fs.PathError{Op: op, Path: name, Err: &NotRegularError{Kind: FileKind(m)}}
}

// IsNotRegular reports whether err says a file is not a regular file.
func IsNotRegular(err error) bool {
	var nr *NotRegularError
	return errors.As(err, &nr)
}

// RegularOpener is an fs.FS that can open a regular file without ever
// blocking on another kind of file. DirFS and MountFS are.
type RegularOpener interface {
	// OpenRegular opens name when it is a regular file (following
	// symbolic links) and fails with a NotRegularError otherwise.
	OpenRegular(name string) (fs.File, error)
}

// OpenRegular opens name of fsys for reading, refusing anything but a
// regular file with an fs.PathError whose Err is a *NotRegularError. An
// fsys that is a RegularOpener (DirFS, MountFS) opens without blocking
// and checks the opened file; any other is checked with fs.Stat before
// the open and with the file's own Stat after.
func OpenRegular(fsys fs.FS, name string) (fs.File, error) {
	if r, ok := fsys.(RegularOpener); ok {
		return r.OpenRegular(name)
	}
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular("open", name, info.Mode())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(f, name); err != nil {
		return nil, err
	}
	return f, nil
}

// checkRegular closes f and fails unless it is a regular file.
func checkRegular(f fs.File, name string) error {
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = notRegular("open", name, info.Mode())
	}
	if err != nil {
		f.Close()
		return err
	}
	return nil
}

// TooLargeError says a file is larger than a reader's limit; nothing of
// it was kept.
type TooLargeError struct {
	// Size is the file's size, or 0 when it is not known (a file that
	// grew while it was read, a device).
	Size, Max int64
}

func (e *TooLargeError) Error() string {
	if e.Size <= 0 {
		return fmt.Sprintf("is more than the %s memscope reads", sizeText(e.Max))
	}
	return fmt.Sprintf("is %s, more than the %s memscope reads", sizeText(e.Size), sizeText(e.Max))
}

// sizeText is n bytes for people: "512 bytes", "3.0 MiB".
func sizeText(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	f, u := float64(n)/1024, 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

// ReadFileBounded reads the regular file name of fsys (see OpenRegular)
// when it holds at most max bytes, and fails with an fs.PathError whose
// Err is a *TooLargeError otherwise: a file that grows while it is read
// never takes more than max+1 bytes of memory.
func ReadFileBounded(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, name, max)
}

// readBounded reads f (name) whole when it holds at most max bytes.
func readBounded(f fs.File, name string, limit int64) ([]byte, error) {
	var size int64
	if info, err := OpenedInfo(f); err == nil {
		size = info.Size()
	}
	return readBoundedSized(f, name, limit, size)
}

// readBoundedSized is readBounded for a file whose size the caller has
// just asked f (its Stat): size sizes the buffer and refuses a file
// larger than limit at once; the read still stops at limit+1 bytes.
func readBoundedSized(f io.Reader, name string, limit, size int64) ([]byte, error) {
	if size > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Size: size, Max: limit}}
	}
	buf := make([]byte, 0, size+1)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(len(buf), 512))
		}
		// Never read past limit+1: one byte more than the limit is
		// enough to know the file is too large.
		n, err := f.Read(buf[len(buf):min(int64(cap(buf)), limit+1)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Max: limit}}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadRegularFile is ReadFileBounded for a path of the operating system
// (a project's file, an archive given on the command line).
func ReadRegularFile(name string, max int64) ([]byte, error) {
	return ReadFileBounded(DirFS(filepath.Dir(name)), filepath.Base(name), max)
}

// OpenRegularFile is OpenRegular for a path of the operating system.
func OpenRegularFile(name string) (*os.File, error) {
	f, err := DirFS(filepath.Dir(name)).(RegularOpener).OpenRegular(filepath.Base(name))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name
		}
		return nil, err
	}
	of, _ := osFile(f)
	return of, nil
}

// DirFS is os.DirFS(dir) for files memscope reads: Open never blocks
// (named pipes open with O_NONBLOCK) and refuses, by the opened
// descriptor's type, anything but a regular file or a folder, so neither
// fs.ReadFile nor a walk can hang on a pipe or read a device forever. It
// implements fs.ReadFileFS, fs.ReadDirFS, fs.StatFS, fs.ReadLinkFS and
// RegularOpener.
func DirFS(dir string) fs.FS {
	return dirFS{base: os.DirFS(dir), dir: dir}
}

type dirFS struct {
	base fs.FS
	dir  string
	// inside makes it a home's file system (HomeFS): names reached
	// through a symbolic link out of the folder are refused.
	inside bool
	// trust lists its folders by the trusted folders' rule
	// (TrustingFS); nil: every folder is listed.
	trust *TrustedFolders
}

// HomeFS is DirFS for a Claude home: every name is resolved with
// ResolveInside first, so a symbolic link that leads out of the home
// (history.jsonl -> /etc/passwd, todos -> /) is refused with a *LinkError
// naming it, by every reader, instead of read through: the same rule a
// walk of the home follows (StatInside, ReadDirFollow). Lstat and
// ReadLink still show the link itself.
func HomeFS(dir string) fs.FS {
	return dirFS{base: os.DirFS(dir), dir: dir, inside: true}
}

// resolve is name as opened: for a home, with its links resolved inside
// it (or the *LinkError of one that leaves it).
func (d dirFS) resolve(op, name string) (string, error) {
	if !d.inside || name == "." {
		return name, nil
	}
	r, err := ResolveInside(d, name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = op
		}
		return "", err
	}
	return r, nil
}

// join is os.DirFS's name check and join.
func (d dirFS) join(op, name string) (string, error) {
	if !fs.ValidPath(name) || runtime.GOOS == "windows" && strings.ContainsAny(name, `\:`) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if d.dir == "" {
		return "", &fs.PathError{Op: op, Path: name, Err: errors.New("DirFS with empty root")}
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

// open opens name without blocking; it keeps a regular file, and a
// folder when dirOK.
func (d dirFS) open(name string, dirOK bool) (fs.File, error) {
	if f, ok, err := d.openBeneath(name, dirOK); ok {
		return f, err
	}
	resolved, err := d.resolve("open", name)
	if err != nil {
		return nil, err
	}
	full, err := d.join("open", resolved)
	if err != nil {
		return nil, err
	}
	// Look first: a socket cannot be opened at all, and a device need
	// not be. The descriptor is checked again below.
	if info, err := os.Stat(full); err == nil && !info.Mode().IsRegular() && !(dirOK && info.IsDir()) {
		return nil, notRegular("open", name, info.Mode())
	}
	f, err := os.OpenFile(full, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name
		}
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() && !(dirOK && info.IsDir()) {
		f.Close()
		return nil, notRegular("open", name, info.Mode())
	}
	return f, nil
}

// openBeneath is open for a home's name the kernel resolves inside it:
// the file the kernel resolved, opened again through /proc
// (reopenBeneath); else (identBeneath) the name opened again by its full
// path, and kept only when that is the file the kernel resolved inside:
// a link put in between is not read through. ok is false when open must
// resolve name itself.
func (d dirFS) openBeneath(name string, dirOK bool) (fs.File, bool, error) {
	if !d.inside || name == "." || !fs.ValidPath(name) {
		return nil, false, nil
	}
	full, joinErr := d.join("open", name)
	if joinErr == nil {
		switch f, ok, err := reopenBeneath(d.dir, name, full, dirOK); {
		case ok && err != nil:
			return nil, true, err
		case ok:
			return f, true, nil
		}
	}
	id, ok, err := identBeneath("open", d.dir, name)
	switch {
	case !ok:
		return nil, false, nil
	case err != nil:
		return nil, true, err
	case !id.regular && !(dirOK && id.dir):
		// Rare: asked again for the mode the error names.
		if info, ok, err := statBeneath("open", d.dir, name); ok && err == nil && !info.Mode().IsRegular() && !(dirOK && info.IsDir()) {
			return nil, true, notRegular("open", name, info.Mode())
		}
		return nil, false, nil
	}
	if joinErr != nil {
		return nil, true, joinErr
	}
	f, err := os.OpenFile(full, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, false, nil
	}
	if opened, err := f.Stat(); err != nil || !id.is(opened) {
		f.Close()
		return nil, false, nil
	}
	return f, true, nil
}

func (d dirFS) Open(name string) (fs.File, error) { return d.open(name, true) }

func (d dirFS) OpenRegular(name string) (fs.File, error) { return d.open(name, false) }

func (d dirFS) ReadFile(name string) ([]byte, error) {
	f, err := d.open(name, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, name, 1<<62)
}

func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if d.trust == nil {
		return d.readDir(name)
	}
	return d.trustedReadDir(name, nil)
}

// readDirStamped is ReadDir by the trusted folders' rule, the folder's
// stamp taken from info (stampedReadDir); ok false when d trusts none.
func (d dirFS) readDirStamped(name string, info fs.FileInfo) ([]fs.DirEntry, error, bool) {
	if d.trust == nil {
		return nil, nil, false
	}
	ents, err := d.trustedReadDir(name, info)
	return ents, err, true
}

// trustedReadDir is ReadDir by d.trust's rule (readDir's info).
func (d dirFS) trustedReadDir(name string, info fs.FileInfo) ([]fs.DirEntry, error) {
	return d.trust.readDir(name, info, func() ([]fs.DirEntry, error) { return d.readDir(name) }, func(n string, dir bool) fs.DirEntry {
		return &keptEntry{keptName: keptName{n, dir}, fsys: d, parent: name}
	})
}

// keptInfo is the information of the entry n of the folder name, from a
// kept listing (keptEntry.Info): asked from the held home's descriptor
// when the home is held, else by Lstat.
func (d dirFS) keptInfo(name, n string) (fs.FileInfo, error) {
	p := path.Join(name, n)
	if d.inside && homeHeld(d.dir) {
		if info, ok := lstatHeld(d.dir, p); ok {
			return info, nil
		}
	}
	return d.Lstat(p)
}

// readDir is ReadDir with every folder listed.
func (d dirFS) readDir(name string) ([]fs.DirEntry, error) {
	f, err := d.open(name, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not implemented")}
	}
	entries, err := rd.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if d.inside && homeHeld(d.dir) {
		for i, e := range entries {
			entries[i] = heldEntry{DirEntry: e, dir: d.dir, name: path.Join(name, e.Name())}
		}
	}
	return entries, err
}

// heldEntry is an entry of a folder of a held home (HoldHome): its Info
// is asked from the home's descriptor (lstatHeld), a walk of the names
// inside the home, instead of the folder's whole path (a cold stat looks
// at some 13 000 entries, every paste and memory file). When that
// cannot answer, the entry's own Info answers, and reports its error.
type heldEntry struct {
	fs.DirEntry
	dir, name string
}

func (e heldEntry) Info() (fs.FileInfo, error) {
	if info, ok := lstatHeld(e.dir, e.name); ok {
		return info, nil
	}
	return e.DirEntry.Info()
}

func (d dirFS) Stat(name string) (fs.FileInfo, error) {
	if d.inside && name != "." && fs.ValidPath(name) {
		if info, ok, err := statBeneath("stat", d.dir, name); ok {
			return info, err
		}
	}
	resolved, err := d.resolve("stat", name)
	if err != nil {
		return nil, err
	}
	info, err := fs.Stat(d.base, resolved)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name
		}
	}
	return info, err
}

func (d dirFS) ReadLink(name string) (string, error) { return fs.ReadLink(d.base, name) }

func (d dirFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(d.base, name) }

// OpenRegular makes a mounted tree a RegularOpener.
func (m mountFS) OpenRegular(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if rel, ok := m.rel(name); ok {
		return OpenRegular(m.sub, rel)
	}
	return OpenRegular(orEmpty(m.root), name)
}

// MemoryFS is the file system a memory folder dir is read through. A
// folder inside the home follows the home's rule (HomeFS): links are
// followed while they stay inside the home and refused with a *LinkError
// naming them when they leave it, the folder itself included when it is
// a link out. A folder outside the home (autoMemoryDirectory, a remote
// or agent memory folder elsewhere) is its own boundary. home "" means
// the folder has no home around it.
func MemoryFS(home, dir string) fs.FS {
	if home != "" {
		if rel, err := filepath.Rel(filepath.Clean(home), filepath.Clean(dir)); err == nil && rel != "." && filepath.IsLocal(rel) {
			return subHomeFS{home: dirFS{base: os.DirFS(home), dir: home, inside: true}, prefix: filepath.ToSlash(rel)}
		}
	}
	return HomeFS(dir)
}

// subHomeFS is the folder prefix of a home's file system, read with the
// home's link rule: a name is the home's prefix/name, and an error names
// it as the folder's name again.
type subHomeFS struct {
	home   dirFS
	prefix string
}

// subCall is call on the home's name of the folder's name, with an
// error naming the folder's name again.
func subCall[T any](s subHomeFS, op, name string, call func(string) (T, error)) (T, error) {
	if !fs.ValidPath(name) {
		var zero T
		return zero, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	v, err := call(path.Join(s.prefix, name))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if pe.Path == s.prefix {
			pe.Path = "."
		} else if rest, ok := strings.CutPrefix(pe.Path, s.prefix+"/"); ok {
			pe.Path = rest
		}
	}
	return v, err
}

func (s subHomeFS) Open(name string) (fs.File, error) { return subCall(s, "open", name, s.home.Open) }

func (s subHomeFS) OpenRegular(name string) (fs.File, error) {
	return subCall(s, "open", name, s.home.OpenRegular)
}

func (s subHomeFS) ReadFile(name string) ([]byte, error) {
	return subCall(s, "read", name, s.home.ReadFile)
}

func (s subHomeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return subCall(s, "readdir", name, s.home.ReadDir)
}

func (s subHomeFS) Stat(name string) (fs.FileInfo, error) {
	return subCall(s, "stat", name, s.home.Stat)
}

func (s subHomeFS) Lstat(name string) (fs.FileInfo, error) {
	return subCall(s, "lstat", name, s.home.Lstat)
}

func (s subHomeFS) ReadLink(name string) (string, error) {
	return subCall(s, "readlink", name, s.home.ReadLink)
}

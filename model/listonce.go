package model

import (
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// ListOnce returns fsys with each folder listed once: the first ReadDir
// of a folder (and the first Info of each of its entries) is kept, and
// every later one answers from it; so is each file's first StampFile.
// Everything else (Open, OpenRegular, Stat, Lstat, ReadLink, ReadFile)
// goes to fsys as it is, so a file is still opened and read as it is
// now, and Unchanged (a cache's check after a read) sees a file written
// since its stamp.
//
// It is for the passes of one moment that each walk the home by their
// own rule: the Overview's lines (secrets, stat, the cleanup forecast,
// the shared pass, the .replaced copies) each listed projects/, every
// session folder and the paste cache (an lstat an entry), and stamped
// every transcript against its own cache, on their own. Given
// one ListOnce of the home, they list and stamp it once between them,
// and each keeps its rule (the CLI's `stat`, `secrets` and `cleanup`
// run the same code over the home itself). What was listed is what the
// home held then: a caller drops it when the home changes.
func ListOnce(fsys fs.FS) fs.FS {
	if l, ok := fsys.(*listedFS); ok {
		return l
	}
	l := &listedFS{fsys: fsys, dirs: map[string]*listedDir{}, stamps: map[string]*listedStamp{}}
	if h := newListedHold(fsys); h != nil {
		l.held = h
		runtime.AddCleanup(l, (*listedHold).close, h)
	}
	return l
}

// listedFS is ListOnce's file system.
type listedFS struct {
	fsys   fs.FS
	mu     sync.Mutex
	dirs   map[string]*listedDir
	stamps map[string]*listedStamp
	// held, for a home's file system, opens, lists and looks at names
	// from descriptors of the home and its folders held for the listed
	// home's life (listedHold); nil otherwise. A method using it keeps
	// l alive past its use (the cleanup closes them).
	held *listedHold
	// found is FindSessionFiles' answer, walked once.
	found struct {
		once  sync.Once
		sf    SessionFiles
		probs []Problem
	}
}

// sessionFiles is FindSessionFiles of l, walked at the first call: each
// call gets its own copy of the answer (a caller may sort or append to
// its slices).
func (l *listedFS) sessionFiles() (SessionFiles, []Problem) {
	f := &l.found
	f.once.Do(func() { f.sf, f.probs = findSessionFilesAll(l) })
	return SessionFiles{
		Transcripts:  slices.Clone(f.sf.Transcripts),
		Replaced:     slices.Clone(f.sf.Replaced),
		ToolResults:  slices.Clone(f.sf.ToolResults),
		SubagentMeta: slices.Clone(f.sf.SubagentMeta),
	}, slices.Clone(f.probs)
}

// firstOf is m's entry for name, made on the first call: the callers
// then wait on its once, so every caller of a name shares one answer.
func firstOf[T any](mu *sync.Mutex, m map[string]*T, name string) *T {
	mu.Lock()
	defer mu.Unlock()
	v, ok := m[name]
	if !ok {
		v = new(T)
		m[name] = v
	}
	return v
}

// listedStamp is one file's first stamp (StampFile).
type listedStamp struct {
	once sync.Once
	st   FileStamp
	err  error
}

// stamp is StampFile of name, taken once.
func (l *listedFS) stamp(name string) (FileStamp, error) {
	s := firstOf(&l.mu, l.stamps, name)
	s.once.Do(func() { s.st, s.err = stampFile(l, name) })
	return s.st, s.err
}

// listedDir is one folder's first listing; once makes the lines asking
// for it at the same moment wait for that one.
type listedDir struct {
	once sync.Once
	ents []fs.DirEntry
	err  error
	// done is set once ents is read (ListedInfo looks without waiting).
	done atomic.Bool
	// pre is the folder's stamp before it was listed from its held
	// descriptor (zero: not known, or not so listed).
	pre FileStamp
}

// ReadDir is the folder's first listing (a copy: a caller may sort it).
func (l *listedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return l.readDirInfo(name, nil)
}

// readDirStamped is ReadDir, the folder's stamp for the trusted folders'
// rule taken from info (stampedReadDir); ok false when l trusts none.
func (l *listedFS) readDirStamped(name string, info fs.FileInfo) ([]fs.DirEntry, error, bool) {
	if trustOf(l.fsys) == nil {
		return nil, nil, false
	}
	ents, err := l.readDirInfo(name, info)
	return ents, err, true
}

// readDirInfo is ReadDir (info as TrustedFolders.readDir's).
func (l *listedFS) readDirInfo(name string, info fs.FileInfo) ([]fs.DirEntry, error) {
	d := firstOf(&l.mu, l.dirs, name)
	d.once.Do(func() {
		list := func() ([]fs.DirEntry, error) {
			if l.held != nil {
				ents, ok := l.held.readDirStamp(l, name, &d.pre)
				runtime.KeepAlive(l)
				if ok {
					return ents, nil
				}
			}
			return fs.ReadDir(untrusted(l.fsys), name)
		}
		var ents []fs.DirEntry
		if t := trustOf(l.fsys); t != nil {
			ents, d.err = t.readDir(name, info, list, func(n string, dir bool) fs.DirEntry {
				return &listedKept{keptName: keptName{n, dir}, l: l, parent: name}
			})
		} else {
			ents, d.err = list()
		}
		d.ents = make([]fs.DirEntry, len(ents))
		for i, e := range ents {
			if k, ok := e.(*listedKept); ok {
				d.ents[i] = k // its Info is had once already
			} else {
				d.ents[i] = &listedEntry{DirEntry: e}
			}
		}
		d.done.Store(true)
	})
	return slices.Clone(d.ents), d.err
}

// open is name opened from the held descriptors (listedHold.open); ok
// false when they do not answer.
func (l *listedFS) open(name string, dirOK bool) (f fs.File, ok bool, err error) {
	if l.held == nil {
		return nil, false, nil
	}
	f, ok, err = l.held.open(name, dirOK)
	runtime.KeepAlive(l)
	return f, ok, err
}

func (l *listedFS) Open(name string) (fs.File, error) {
	if f, ok, err := l.open(name, true); ok {
		return f, err
	}
	return l.fsys.Open(name)
}

// OpenRegular keeps fsys's RegularOpener (OpenRegular checks it).
func (l *listedFS) OpenRegular(name string) (fs.File, error) {
	if f, ok, err := l.open(name, false); ok {
		return f, err
	}
	return OpenRegular(l.fsys, name)
}

// stat is name's information from the held descriptors
// (listedHold.stat).
func (l *listedFS) stat(name string, links bool) (fs.FileInfo, bool) {
	if l.held == nil {
		return nil, false
	}
	info, ok := l.held.stat(name, links)
	runtime.KeepAlive(l)
	return info, ok
}

func (l *listedFS) Stat(name string) (fs.FileInfo, error) {
	if info, ok := l.stat(name, false); ok {
		return info, nil
	}
	return fs.Stat(l.fsys, name)
}

func (l *listedFS) Lstat(name string) (fs.FileInfo, error) {
	if info, ok := l.stat(name, true); ok {
		return info, nil
	}
	return fs.Lstat(l.fsys, name)
}

func (l *listedFS) ReadLink(name string) (string, error) { return fs.ReadLink(l.fsys, name) }

func (l *listedFS) ReadFile(name string) ([]byte, error) {
	if f, ok, err := l.open(name, false); ok {
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readBounded(f, name, 1<<62)
	}
	return fs.ReadFile(l.fsys, name)
}

// rootDirs keeps fsys's folder on disk (ResolveInside places absolute
// link targets by it).
func (l *listedFS) rootDirs() []string {
	if r, ok := l.fsys.(rootDirer); ok {
		return r.rootDirs()
	}
	return nil
}

// listedKept is an entry of a kept listing read through l (the folder
// parent's): its name and type from the listing, its information asked
// of l once, when wanted (a keptEntry in a listedEntry, in one
// allocation and with its path joined only then).
type listedKept struct {
	keptName
	l      *listedFS
	parent string
	once   sync.Once
	info   fs.FileInfo
	err    error
}

func (e *listedKept) Info() (fs.FileInfo, error) {
	e.once.Do(func() { e.info, e.err = e.l.Lstat(path.Join(e.parent, e.name)) })
	return e.info, e.err
}

// listedEntry is a folder entry whose Info is asked of the system once.
type listedEntry struct {
	fs.DirEntry
	once sync.Once
	info fs.FileInfo
	err  error
}

func (e *listedEntry) Info() (fs.FileInfo, error) {
	e.once.Do(func() { e.info, e.err = e.DirEntry.Info() })
	return e.info, e.err
}

// ListedOnce is a copy of h read through ListOnce(h.FS); h is unchanged.
func (h *Home) ListedOnce() *Home {
	c := *h
	c.FS = ListOnce(h.FS)
	return &c
}

// ListedInfo is name's information as fsys's listing of its folder has
// it, when fsys is a ListOnce whose folder was listed already and name
// is a regular file there: the one stat of that entry its readers share
// (the listing's walk asked it, or the first reader that wanted it).
// A warm start's readers that check a file by its information alone
// (diskcache's settled entries) took it again each, some 500 stats of
// W's transcripts. ok is false otherwise (not listed, not there, a link
// or not a regular file, an error): the caller then asks the system.
// Like the listing and the kept stamps, it is the home of the listed
// moment; a check after a read (Unchanged) asks the system.
func ListedInfo(fsys fs.FS, name string) (fs.FileInfo, bool) {
	l, ok := fsys.(*listedFS)
	if !ok {
		return nil, false
	}
	e, found := l.entryOf(name)
	if !found {
		return nil, false
	}
	info, err := e.Info()
	if err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	return info, true
}

// ListedFolder is the folder name as fsys, a ListOnce of a home, lists
// it (listed now when no reader has yet), with the folder's stamp taken
// just before that listing: a reader that keeps a folder's listing by
// its stamp (the leftover walk of the whole home) takes this listing
// instead of its own when the folder's stamp now is that one (nothing
// was added, removed or renamed in it since). ok is false when fsys is
// not a listed home, the listing failed, or its stamp is not known (the
// folder not listed from a held descriptor: a kept listing, another
// system).
func ListedFolder(fsys fs.FS, name string) ([]fs.DirEntry, FileStamp, bool) {
	l, ok := fsys.(*listedFS)
	if !ok {
		return nil, FileStamp{}, false
	}
	l.mu.Lock()
	_, listed := l.dirs[name]
	l.mu.Unlock()
	if !listed && !l.held.canHold() {
		// Its listing now would have no stamp: the caller lists it.
		return nil, FileStamp{}, false
	}
	ents, err := l.ReadDir(name)
	if err != nil {
		return nil, FileStamp{}, false
	}
	l.mu.Lock()
	d := l.dirs[name]
	l.mu.Unlock()
	if d == nil || !d.pre.Known() {
		return nil, FileStamp{}, false
	}
	return ents, d.pre, true
}

// entryOf is name's entry in the listing of its folder l has made
// already (none while it is being made, or when it failed).
func (l *listedFS) entryOf(name string) (fs.DirEntry, bool) {
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	l.mu.Lock()
	d := l.dirs[dir]
	l.mu.Unlock()
	if d == nil || !d.done.Load() || d.err != nil {
		return nil, false
	}
	i, found := slices.BinarySearchFunc(d.ents, base, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !found {
		return nil, false
	}
	return d.ents[i], true
}

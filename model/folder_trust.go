package model

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// TrustedFolders is the one rule by which a start trusts the listings a
// run before it kept (the trusted folders): a folder of the home whose
// own stamp (identity, modification and change time) is the one kept
// with its listing, and whose modification time is WriteOnceSettle old,
// lists the names and types kept, without being opened or read. Entries
// do not appear, disappear or get renamed in a folder without moving its
// modification time, so the names hold; what the entries hold is not
// kept (a transcript grows without moving its folder's time), so an
// entry's information is still asked of the system when a reader wants
// it. The nets are the write-once rule's: a folder stamped while it was
// written to (younger than WriteOnceSettle) is listed again next time,
// and once WriteOnceFull has passed since the kept listings were all
// taken anew, one run lists every folder again.
//
// It applies to a home's file system given it (TrustingFS) and to
// ListOnce of that: ReadDir of a trusted folder costs one stat of the
// folder (by its path: the stamp says whether it is the folder listed
// before, beneath the home) instead of the opens, reads and closes of a
// listing (the app's start lists projects/ and every session folder's
// subagents, tool-results and before-cleanup folders in five passes). A
// folder with an entry that is neither a regular file nor a folder (a
// link, which a walk follows, a socket) is not kept.
type TrustedFolders struct {
	home  string
	now   time.Time
	full  bool // this run lists every folder anew
	saved KeptFolders

	mu   sync.Mutex
	next map[string]KeptFolder
	// drop are the folders listed in this run that are not to be kept
	// (too young, or with an entry of another type).
	drop map[string]bool

	// hits and listed count the folders answered from a kept listing and
	// those listed (the tests').
	hits, listed atomic.Int64
	// stamped counts the stats of folders asked for their stamp (the
	// tests').
	stamped atomic.Int64
}

// KeptFolders is what TrustedFolders keeps across runs: the folders'
// listings, by their name in the home, and when they were last all
// taken anew.
type KeptFolders struct {
	Full time.Time
	Dirs map[string]KeptFolder
}

// KeptFolder is one folder's listing and the folder's stamp when it was
// taken (before the listing: an entry added after the stamp moves the
// folder's time again).
type KeptFolder struct {
	ID                  FileID
	ModTime, ChangeTime int64
	// Names are the entries in name order; Dirs says which are folders
	// (the others are regular files).
	Names []string
	Dirs  []bool
}

// NewTrustedFolders is the trust of the home at dir for a run at now,
// from saved (the zero KeptFolders: none).
func NewTrustedFolders(dir string, saved KeptFolders, now time.Time) *TrustedFolders {
	t := &TrustedFolders{home: dir, now: now, saved: saved, next: map[string]KeptFolder{}, drop: map[string]bool{}}
	t.full = saved.Full.IsZero() || now.Before(saved.Full) || now.Sub(saved.Full) >= WriteOnceFull
	return t
}

// Kept is what to keep for the next run: the listings taken or trusted
// in this one, over the saved ones this run did not ask for (a run that
// lists fewer folders does not drop the others; a folder gone is dropped
// at the next full pass, which keeps only what it listed), and whether
// they differ from the saved ones (a caller writes them only then).
func (t *TrustedFolders) Kept() (KeptFolders, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := KeptFolders{Full: t.saved.Full, Dirs: make(map[string]KeptFolder, len(t.next))}
	if t.full {
		k.Full = t.now
	} else {
		for d, f := range t.saved.Dirs {
			k.Dirs[d] = f
		}
	}
	for d, f := range t.next {
		k.Dirs[d] = f
	}
	for d := range t.drop {
		delete(k.Dirs, d)
	}
	return k, !k.equal(t.saved)
}

// Counts are the folders answered from a kept listing and those listed
// so far.
func (t *TrustedFolders) Counts() (trusted, listed int) {
	return int(t.hits.Load()), int(t.listed.Load())
}

func (k KeptFolders) equal(o KeptFolders) bool {
	if !k.Full.Equal(o.Full) || len(k.Dirs) != len(o.Dirs) {
		return false
	}
	for d, f := range k.Dirs {
		g, ok := o.Dirs[d]
		if !ok || f.ID != g.ID || f.ModTime != g.ModTime || f.ChangeTime != g.ChangeTime ||
			!slices.Equal(f.Names, g.Names) || !slices.Equal(f.Dirs, g.Dirs) {
			return false
		}
	}
	return true
}

// stampOf is the folder name's stamp, asked by its path (it follows a
// link, as the listing does); ok false when it is not a folder or has no
// identity.
func (t *TrustedFolders) stampOf(name string) (KeptFolder, bool, error) {
	t.stamped.Add(1)
	info, err := os.Stat(filepath.Join(t.home, filepath.FromSlash(name)))
	if err != nil {
		return KeptFolder{}, false, err
	}
	k, ok := stampFromInfo(info)
	return k, ok, nil
}

// stampFromInfo is the stamp of a folder whose information (a stat of
// its path, following a link) is info; ok false when it is not a folder
// or has no identity.
func stampFromInfo(info fs.FileInfo) (KeptFolder, bool) {
	k := KeptFolder{ID: FileIDOf(info), ModTime: info.ModTime().UnixNano(), ChangeTime: changeTimeOf(info)}
	return k, info.IsDir() && k.ID.Known
}

// settled says a folder stamped st may be trusted at t.now.
func (t *TrustedFolders) settled(st KeptFolder) bool {
	return t.now.Sub(time.Unix(0, st.ModTime)) >= WriteOnceSettle && t.now.Sub(time.Unix(0, st.ChangeTime)) >= WriteOnceSettle
}

// readDir is the listing of the folder name: the kept one when the
// folder is as it was kept, else list's, kept for next time when it can
// be. A folder that does not exist is not listed (its error is the
// stat's, a fs.ErrNotExist). info, when not nil, is the folder's
// information a caller had just before (a stat of its path, or the
// entry's in its parent's listing, a link followed): the stamp is taken
// from it, with no stat of the folder's own (taken before the listing,
// as the stat would be).
func (t *TrustedFolders) readDir(name string, info fs.FileInfo, list func() ([]fs.DirEntry, error), entry func(name string, dir bool) fs.DirEntry) ([]fs.DirEntry, error) {
	if name == "" || name == "." || !fs.ValidPath(name) {
		return list()
	}
	var st KeptFolder
	var ok bool
	var err error
	if info != nil {
		st, ok = stampFromInfo(info)
	}
	if !ok {
		st, ok, err = t.stampOf(name)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// As an open of it says (the system's error, the name asked).
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if err != nil || !ok {
		return list()
	}
	settled := t.settled(st)
	if kept, ok := t.saved.Dirs[name]; ok && settled && !t.full &&
		kept.ID == st.ID && kept.ModTime == st.ModTime && kept.ChangeTime == st.ChangeTime {
		t.hits.Add(1)
		t.keep(name, kept)
		out := make([]fs.DirEntry, len(kept.Names))
		for i, n := range kept.Names {
			out[i] = entry(n, kept.Dirs[i])
		}
		return out, nil
	}
	t.listed.Add(1)
	ents, err := list()
	if err != nil || !settled {
		t.forget(name)
		return ents, err
	}
	st.Names = make([]string, len(ents))
	st.Dirs = make([]bool, len(ents))
	for i, e := range ents {
		switch typ := e.Type(); {
		case typ.IsDir():
			st.Dirs[i] = true
		case !typ.IsRegular():
			t.forget(name)
			return ents, err
		}
		st.Names[i] = e.Name()
	}
	t.keep(name, st)
	return ents, err
}

// keep puts the folder's listing in what the next run is given.
func (t *TrustedFolders) keep(name string, k KeptFolder) {
	t.mu.Lock()
	t.next[name] = k
	delete(t.drop, name)
	t.mu.Unlock()
}

// forget keeps no listing of the folder for the next run.
func (t *TrustedFolders) forget(name string) {
	t.mu.Lock()
	delete(t.next, name)
	t.drop[name] = true
	t.mu.Unlock()
}

// TrustingFS is the home's file system fsys (HomeFS) with its folders
// listed by t's rule; any other fsys, or a nil t, is returned as it is.
func TrustingFS(fsys fs.FS, t *TrustedFolders) fs.FS {
	d, ok := fsys.(dirFS)
	if !ok || !d.inside || t == nil || d.dir != t.home {
		return fsys
	}
	d.trust = t
	return d
}

// stampedReadDir is fs.ReadDir of the folder name of fsys, whose
// information a caller had just before is info (TrustedFolders.readDir):
// a file system trusting kept listings (TrustingFS, ListOnce of it)
// answers a settled folder as kept with no stat of its own. ok false
// when fsys trusts none (a caller lists as it would).
func stampedReadDir(fsys fs.FS, name string, info fs.FileInfo) ([]fs.DirEntry, error, bool) {
	if s, ok := fsys.(interface {
		readDirStamped(name string, info fs.FileInfo) ([]fs.DirEntry, error, bool)
	}); ok && info != nil {
		return s.readDirStamped(name, info)
	}
	return nil, nil, false
}

// trustOf is the trust a file system was given (TrustingFS), or nil.
func trustOf(fsys fs.FS) *TrustedFolders {
	if d, ok := fsys.(dirFS); ok {
		return d.trust
	}
	return nil
}

// keptEntry is an entry of a kept listing: its name and type from the
// listing, its information asked of the system (Lstat of its path in
// the home, fsys.keptInfo) when wanted. Its path is joined only then:
// most entries of a kept listing (the paste cache's thousands) are
// never asked, and an entry is one allocation, not three.
type keptEntry struct {
	keptName
	fsys   dirFS
	parent string
}

func (e *keptEntry) Info() (fs.FileInfo, error) { return e.fsys.keptInfo(e.parent, e.name) }

// keptName is a kept listing entry's name and type (a folder or a
// regular file), the part keptEntry and listedKept share; each adds
// where its information comes from.
type keptName struct {
	name string
	dir  bool
}

func (e *keptName) Name() string { return e.name }
func (e *keptName) IsDir() bool  { return e.dir }
func (e *keptName) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}

// untrusted is fsys listing every folder itself.
func untrusted(fsys fs.FS) fs.FS {
	if d, ok := fsys.(dirFS); ok && d.trust != nil {
		d.trust = nil
		return d
	}
	return fsys
}

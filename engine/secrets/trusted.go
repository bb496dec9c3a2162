package secrets

import (
	"io/fs"
	"maps"
	"path"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// listingsKind names the file of the stamps of the write-once folders
// as Counts last listed them (trustedFolders).
const listingsKind = "secrets-listings.1"

// trustedFolders are the last folders (model.WriteOnceFolder: the paste
// cache, each session's file history) whose listing a warm Counts takes
// from its cache instead of listing them again. A folder is trusted when
// its stamp (size, modification and change times, identity: Same) is the
// one it had just before a run listed it, that run's
// diskcache.PerFileFolders kept its stamp (every file of it has an
// entry, the folder settled, its modification time and identity those
// of the listing), the entries the cache has in it are as many as that
// stamp counts, and the run is not the day's full one
// (diskcache.FolderFull). A file added, removed or renamed over moves
// the folder's change time, which no program sets back; a file changed
// in place is the write-once rule's own net (diskcache.PerFileFolders
// does not open it either). Such a folder's files are then answered by
// their entries without being opened: the folder is neither listed nor
// its files looked at (on W, 8 631 pastes and 2 626 backups).
type trustedFolders struct {
	fsys fs.FS
	now  time.Time
	// full: nothing is trusted (diskcache.FolderFull), every folder is
	// listed.
	full   bool
	stamps map[string]diskcache.FolderStamp
	kept   map[string]model.FileStamp
	names  map[string][]string
	// listed is each folder's stamp this run, taken before its listing
	// (or trusted): the stamps to keep (keep).
	listed map[string]model.FileStamp
}

// newTrustedFolders trusts the folders of folders and listings (the last
// run's), listing their files from kept.
func newTrustedFolders(fsys fs.FS, kept map[string]diskcache.Entry[counted], folders diskcache.Folders, listings map[string]model.FileStamp, now time.Time) *trustedFolders {
	t := &trustedFolders{fsys: fsys, now: now, stamps: folders.Stamps, kept: listings, names: map[string][]string{}, listed: map[string]model.FileStamp{}}
	t.full = folders.Full.IsZero() || now.Sub(folders.Full) >= diskcache.FolderFull || now.Before(folders.Full)
	if t.full || len(listings) == 0 {
		return t
	}
	// The names go into one slab, each folder's a part of it sized by a
	// first count (appended folder by folder, W's 11 000 names in some
	// 700 folders were 1.6 MB of slices grown by doubling a warm start).
	count := map[string]int{}
	total := 0
	for name := range kept {
		if d := path.Dir(name); t.kept[d].ID.Known {
			count[d]++
			total++
		}
	}
	slab := make([]string, 0, total)
	t.names = make(map[string][]string, len(count))
	for d, n := range count {
		t.names[d] = slab[len(slab) : len(slab) : len(slab)+n]
		slab = slab[:len(slab)+n]
	}
	for name := range kept {
		if d := path.Dir(name); t.kept[d].ID.Known {
			t.names[d] = append(t.names[d], name)
		}
	}
	for _, names := range t.names {
		slices.Sort(names)
	}
	return t
}

// list is the files of the last folder dir as the cache knows them, in
// name order; ok false when dir is not trusted: the caller lists it
// (its stamp, taken first, noted for the next run).
func (t *trustedFolders) list(dir string) (names []string, ok bool) {
	if t == nil {
		return nil, false
	}
	info, err := fs.Stat(t.fsys, dir)
	if err != nil || !info.IsDir() {
		return nil, false
	}
	cur := model.StampOf(info)
	t.listed[dir] = cur
	if t.full {
		return nil, false
	}
	st, ok := t.stamps[dir]
	names = t.names[dir]
	if !ok || len(names) != st.Files || !cur.Known() || !cur.ID.Known || !cur.Same(t.kept[dir]) ||
		st.ID != cur.ID || st.ModTime != cur.ModTime || t.now.Sub(info.ModTime()) < diskcache.FolderSettle {
		return nil, false
	}
	return names, true
}

// keep is the listings to keep after a run whose PerFileFolders kept
// folders: each folder listed (or trusted) this run whose stamp kept is
// that of its listing.
func (t *trustedFolders) keep(folders diskcache.Folders) map[string]model.FileStamp {
	out := map[string]model.FileStamp{}
	for d, fst := range folders.Stamps {
		if c, ok := t.listed[d]; ok && c.ID.Known && c.ID == fst.ID && c.ModTime == fst.ModTime {
			out[d] = c
		}
	}
	return out
}

// distrust is folders without the stamps of the folders this run found
// changed since their last listing (their change time moved, though
// their modification time, identity and number of files may be as
// stamped: a paste renamed over, the folder's time set back), so
// diskcache.PerFileFolders looks at each of their files.
func (t *trustedFolders) distrust(folders diskcache.Folders) diskcache.Folders {
	out := folders
	for d, cur := range t.listed {
		if k, ok := t.kept[d]; ok && !cur.Same(k) {
			if _, stamped := folders.Stamps[d]; stamped {
				if len(out.Stamps) == len(folders.Stamps) {
					out.Stamps = maps.Clone(folders.Stamps)
				}
				delete(out.Stamps, d)
			}
		}
	}
	return out
}

// changed says the listings to keep differ from those loaded.
func (t *trustedFolders) changed(next map[string]model.FileStamp) bool {
	return !maps.Equal(t.kept, next)
}

// trustedEntry is a file of a trusted folder, not listed (its size is
// the open's that scans it, unit.sized): every such file's entry is
// trustedEnt, one value (no allocation a file). It has no name of its
// own; Info says nothing (a caller looks at the file by its name:
// settledHits).
type trustedEntry struct{}

var trustedEnt fs.DirEntry = trustedEntry{}

func (trustedEntry) Name() string               { return "" }
func (trustedEntry) IsDir() bool                { return false }
func (trustedEntry) Type() fs.FileMode          { return 0 }
func (trustedEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

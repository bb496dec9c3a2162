package leftover

import (
	"io/fs"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// WalkKind is the on-disk cache of the walk of the whole home
// (NewWalkCacheOn): every folder the walk listed, stamped, and what it
// found. A start whose folders are all as stamped (size, modification and
// change times, inode: a name added, removed or renamed in a folder
// changes its times) takes what was found without listing the home.
const WalkKind = "leftover-walk.1"

// diskWalk is one walk as kept on disk.
type diskWalk struct {
	// Key is walkKey's: the home and the folders skipped.
	Key string
	// Dirs are the folders listed (RootNames) with their stamps taken
	// before they were listed.
	Dirs []dirMark
	// Hits are the hidden copies found (their folder and name; their
	// information is asked again on use), Probs the folders unread.
	Hits  []diskHit
	Probs []model.Problem
}

type dirMark struct {
	Name  string
	Stamp model.FileStamp
}

// diskHit is a walkHit without its information: Dir is the folder's
// path on the machine.
type diskHit struct{ Dir, Name string }

// settled is how long before now a folder's last change must be for its
// stamp to vouch for its listing: a change time moves by the kernel
// clock's tick (engine/loads and engine/live keep the same rule).
const settled = time.Second

// NewWalkCacheOn is NewWalkCache keeping the walk in store too (kind
// WalkKind; nil store: memory only), so a new process's first Find lists
// no folder of the home when none changed.
func NewWalkCacheOn(store *diskcache.Store) *WalkCache {
	c := NewWalkCache()
	c.disk, c.wall = store, time.Now
	return c
}

// fromDisk is the walk kept on disk for key, when every folder it listed
// is as stamped; ok false otherwise.
func (c *WalkCache) fromDisk(root fs.FS, home, key string) (hits []walkHit, probs []model.Problem, ok bool) {
	if c == nil || c.disk == nil {
		return nil, nil, false
	}
	d, ok := diskcache.Load[diskWalk](c.disk, WalkKind, diskcache.Name(WalkKind, home))
	if !ok || d.Key != key || len(d.Dirs) == 0 {
		return nil, nil, false
	}
	for _, m := range d.Dirs {
		info, err := fs.Lstat(root, m.Name)
		if err != nil || !model.StampOf(info).Same(m.Stamp) {
			return nil, nil, false
		}
	}
	for _, h := range d.Hits {
		info, err := fs.Lstat(root, model.RootName(filepath.ToSlash(filepath.Join(h.Dir, h.Name))))
		if err != nil {
			return nil, nil, false
		}
		hits = append(hits, walkHit{dir: h.Dir, name: h.Name, info: info})
	}
	return hits, d.Probs, true
}

// toDisk keeps a walk whose folders (stamped before they were listed)
// are still as stamped and settled.
func (c *WalkCache) toDisk(root fs.FS, home, key string, hits []walkHit, probs []model.Problem, dirs []dirMark) {
	if c == nil || c.disk == nil || len(dirs) == 0 {
		return
	}
	now := c.wall()
	for _, m := range dirs {
		info, err := fs.Lstat(root, m.Name)
		if !m.Stamp.Known() || err != nil || !model.StampOf(info).Same(m.Stamp) || now.Sub(time.Unix(0, m.Stamp.ChangeTime)) < settled {
			return
		}
	}
	d := diskWalk{Key: key, Dirs: dirs, Probs: probs}
	for _, h := range hits {
		d.Hits = append(d.Hits, diskHit{Dir: h.dir, Name: h.name})
	}
	// A cache not written costs the next start its walk only.
	_ = diskcache.Save(c.disk, WalkKind, diskcache.Name(WalkKind, home), d)
}

package leftover

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// WalkKind is the on-disk cache of the walk of the whole home
// (NewWalkCacheOn): each folder the walk listed, stamped before it was
// listed, with what its listing gave the walk (its folders and hidden
// copies, in order). A start lists again only the folders no longer as
// stamped (size, modification and change times, inode: a name added,
// removed or renamed in a folder changes its times; the app's probe of
// the home's writability changes the home's own), and takes every other
// folder's listing from the cache.
const WalkKind = "leftover-walk.2"

// diskWalk is one walk as kept on disk: Key is walkKey's (the home and
// the folders skipped), Dirs the folders by RootName.
type diskWalk struct {
	Key  string
	Dirs map[string]dirMark
}

// dirMark is one folder's listing: its stamp before it was listed (zero:
// not to be trusted), its folders and hidden copies in the listing's
// order, and the problem reading it (nil: none).
type dirMark struct {
	Stamp    model.FileStamp
	Children []dirChild
	Problem  *model.Problem
}

type dirChild struct {
	Name string
	Dir  bool
}

// settled is how long before a folder was stamped its last change must
// be for the stamp to vouch for its listing: a change time moves by the
// kernel clock's tick (engine/loads and engine/live keep the same rule).
const settled = time.Second

// NewWalkCacheOn is NewWalkCache keeping the walk in store too (kind
// WalkKind; nil store: memory only), so a new process's first Find lists
// only the home's folders that changed since the last.
func NewWalkCacheOn(store *diskcache.Store) *WalkCache {
	c := NewWalkCache()
	c.disk, c.wall = store, time.Now
	return c
}

// walkOnDisk is walkHome with the walk kept on disk: the folders as
// stamped answer from the cache, the others are listed; the walk made is
// kept for the next process. The hits and problems are walkHome's, in
// its order.
//
// listed, when not nil, is the home listed once (Input.Listed): a folder
// of the home to list whose stamp is the one it had when listed there is
// taken from that listing.
func (c *WalkCache) walkOnDisk(fsys, listed fs.FS, home, root, key string, searched map[string]bool) (hits []walkHit, probs []model.Problem) {
	name := diskcache.Name(WalkKind, home)
	old, ok := diskcache.Load[diskWalk](c.disk, WalkKind, name)
	if !ok || old.Key != key {
		old = diskWalk{}
	}
	next := diskWalk{Key: key, Dirs: map[string]dirMark{}}
	changed := len(old.Dirs) == 0
	now := c.wall()
	var walk func(p string)
	walk = func(p string) {
		var st model.FileStamp
		if info, err := fs.Lstat(fsys, p); err == nil && info.IsDir() {
			st = model.StampOf(info)
		}
		m, hit := old.Dirs[p]
		if !hit || !st.Known() || !m.Stamp.Same(st) {
			if ents, pre, ok := listedAt(listed, p, root); ok && st.Known() && pre.Same(st) {
				m = marks(ents, p, searched)
			} else {
				m = listDir(fsys, p, root, searched)
			}
			changed = true
			m.Stamp = st
			if !st.Known() || now.Sub(time.Unix(0, st.ChangeTime)) < settled {
				m.Stamp = model.FileStamp{}
			}
		}
		next.Dirs[p] = m
		if m.Problem != nil {
			probs = append(probs, *m.Problem)
		}
		for _, ch := range m.Children {
			cp := path.Join(p, ch.Name)
			if ch.Dir {
				walk(cp)
				continue
			}
			info, err := fs.Lstat(fsys, cp)
			if err != nil {
				changed = true
				continue
			}
			hits = append(hits, walkHit{dir: filepath.Dir(model.RootPath(cp)), name: ch.Name, info: info})
		}
	}
	walk(root)
	if changed || len(next.Dirs) != len(old.Dirs) {
		// A folder changed after its stamp (while or after it was
		// listed) is not looked at again here: the change moved its
		// change time past the stamp, taken at least settled after its
		// last change, so the next walk's stamp differs and lists it
		// again (the walk used to lstat every folder of the home a
		// second time, 648 of W a cold start).
		// A cache not written costs the next start its walk only.
		_ = diskcache.Save(c.disk, WalkKind, name, next)
	}
	return hits, probs
}

// listDir lists the folder p as walkHome's WalkDir does: its folders
// (those searched left out) and hidden copies in name order, and the
// problem reading it (none for the home itself).
func listDir(fsys fs.FS, p, root string, searched map[string]bool) dirMark {
	ents, err := fs.ReadDir(fsys, p)
	m := marks(ents, p, searched)
	if err != nil && p != root {
		m.Problem = &model.Problem{File: model.RootPath(p), Kind: model.ProblemUnreadable, Reason: err.Error()}
	}
	return m
}

// listedAt is the folder p (a RootName beneath the home's, root) as the
// listed home lists it, with its stamp before that listing
// (model.ListedFolder); ok false without a listed home or that stamp.
func listedAt(listed fs.FS, p, root string) ([]fs.DirEntry, model.FileStamp, bool) {
	if listed == nil {
		return nil, model.FileStamp{}, false
	}
	rel := "."
	if p != root {
		r, ok := strings.CutPrefix(p, root+"/")
		if !ok {
			return nil, model.FileStamp{}, false
		}
		rel = r
	}
	return model.ListedFolder(listed, rel)
}

// marks is the folder p's entries ents as listDir keeps them: its
// folders (those searched left out) and hidden copies, in name order.
func marks(ents []fs.DirEntry, p string, searched map[string]bool) dirMark {
	var m dirMark
	for _, e := range ents {
		cp := path.Join(p, e.Name())
		switch {
		case e.IsDir():
			if !searched[filepath.FromSlash(model.RootPath(cp))] {
				m.Children = append(m.Children, dirChild{Name: e.Name(), Dir: true})
			}
		default:
			if _, own := model.ParseOwnCopy(e.Name()); own {
				m.Children = append(m.Children, dirChild{Name: e.Name()})
			}
		}
	}
	return m
}

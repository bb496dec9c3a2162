package leftover

import (
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// WalkCache keeps what Find's walk of the whole home saw (the hidden
// copies outside the memory folders, and the folders it could not read),
// so the next Find over the same home walks it again only when a file
// changed that can matter to the walk. The walk lists every transcript of
// every project (49 ms at 10 000 transcripts), and the terminal app runs
// Find on every load of the open project, that is after every memory
// write: a memory write, or a transcript appended, does not change what
// the walk finds, so it is not walked again.
//
// What the walk found is judged again on every Find (whether its writer
// still runs, LegacyAge), as are the memory folders, the restore journals
// and what they name: only the listing is kept. A WalkCache is safe for
// use by several goroutines.
type WalkCache struct {
	mu sync.Mutex
	// of is the home and the memory folders the walk skipped; ok says
	// hits and probs hold its last walk.
	of string
	ok bool
	// gen counts Invalidate calls, so a walk that ran across one is not
	// kept.
	gen   int
	hits  []walkHit
	probs []model.Problem
	// changed are the home's files named by change events since (slash-
	// separated, relative to the home), judged at the next Find.
	changed map[string]bool
	// disk keeps the walk across processes (NewWalkCacheOn; nil: none);
	// wall is the machine's clock, for its settle rule.
	disk *diskcache.Store
	wall func() time.Time
}

// walkHit is one hidden copy the walk saw.
type walkHit struct {
	dir, name string
	info      fs.FileInfo
}

// maxWalkChanged bounds the names kept between two Finds: past it the
// next Find walks again.
const maxWalkChanged = 4096

// NewWalkCache returns a cache holding nothing: its first Find walks. A
// nil *WalkCache keeps nothing (every Find walks).
func NewWalkCache() *WalkCache { return &WalkCache{changed: map[string]bool{}} }

// Invalidate makes the next Find walk the home again (a reload asked
// for, or events that could not be named).
func (c *WalkCache) Invalidate() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ok = false
	c.gen++
	clear(c.changed)
}

// Changed notes files change events named in the home (slash-separated,
// relative to it); all says the events could not be named. Nothing is
// read here: the next Find looks at the names.
func (c *WalkCache) Changed(names map[string]bool, all bool) {
	if c == nil {
		return
	}
	if all {
		c.Invalidate()
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.changed)+len(names) > maxWalkChanged {
		c.ok = false
		c.gen++
		clear(c.changed)
		return
	}
	for n := range names {
		c.changed[n] = true
	}
}

// key names a walk: the home and the folders it skipped.
func walkKey(home string, searched map[string]bool) string {
	return home + "\x00" + strings.Join(slices.Sorted(func(yield func(string) bool) {
		for d := range searched {
			if !yield(d) {
				return
			}
		}
	}), "\x00")
}

// cached returns the last walk of home skipping searched, if nothing
// changed since that can matter to it: a file inside a skipped folder
// never does; elsewhere, a changed file that is still a regular file and
// not named as a hidden copy does not (a transcript appended); anything
// else (a copy, a folder, a file gone, a link) does.
// On a miss it returns the generation to hand keep with the new walk.
func (c *WalkCache) cached(root fs.FS, home string, searched map[string]bool) (hits []walkHit, probs []model.Problem, gen int, ok bool) {
	if c == nil {
		return nil, nil, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ok = c.ok && c.of == walkKey(home, searched)
	for n := range c.changed {
		if !ok {
			break
		}
		ok = !walkMatters(root, home, n, searched)
	}
	// Names noted from here on are judged against the walk about to run
	// (on a miss) or the one kept.
	clear(c.changed)
	if !ok {
		c.ok = false
		return nil, nil, c.gen, false
	}
	return c.hits, c.probs, c.gen, true
}

// walkMatters reports whether a change to rel (in home) can change what
// the walk finds.
func walkMatters(root fs.FS, home, rel string, searched map[string]bool) bool {
	abs := filepath.Join(home, filepath.FromSlash(rel))
	for d := abs; d != home && d != filepath.Dir(d); d = filepath.Dir(d) {
		if searched[d] {
			return false
		}
	}
	if _, own := model.ParseOwnCopy(path.Base(rel)); own {
		return true
	}
	st, err := fs.Lstat(root, model.RootName(filepath.ToSlash(abs)))
	return err != nil || !st.Mode().IsRegular()
}

// keep stores a walk's listing, begun at generation gen (a walk that
// ran across an Invalidate is not kept).
func (c *WalkCache) keep(gen int, home string, searched map[string]bool, hits []walkHit, probs []model.Problem) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	c.of, c.ok, c.hits, c.probs = walkKey(home, searched), true, hits, probs
}

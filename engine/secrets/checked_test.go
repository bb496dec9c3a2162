package secrets

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// statFS counts, by name, the regular files opened and stat'ed through
// it. A generic file system's model.OpenRegular stats each file before
// opening it (a home's listed file system does not); a stat more than
// the opens of a name is a stat after the read (model.Unchanged).
type statFS struct {
	fs.FS
	mu           sync.Mutex
	opens, stats map[string]int
}

func newStatFS(fsys fs.FS) *statFS {
	return &statFS{FS: fsys, opens: map[string]int{}, stats: map[string]int{}}
}

func (c *statFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

func (c *statFS) Stat(name string) (fs.FileInfo, error) {
	info, err := fs.Stat(c.FS, name)
	if err == nil && info.Mode().IsRegular() {
		c.mu.Lock()
		c.stats[name]++
		c.mu.Unlock()
	}
	return info, err
}

// after is the number of stats more than opens, by name, of the files
// in the home's folders (the listing stats the files it names at the
// home's top, settings.json and CLAUDE.md, for their size), and resets.
func (c *statFS) after() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for name, k := range c.stats {
		if strings.Contains(name, "/") {
			n += max(0, k-c.opens[name])
		}
	}
	clear(c.stats)
	clear(c.opens)
	return n
}

// A cold count with a cache checks each file it read after the read
// from the descriptor it read (diskcache.Checking), not by a stat of
// its name: no file is stat'ed by its name (before, each kept file was:
// model.Unchanged), and the counts are the same, and the next run's
// from the cache too.
func TestColdCountsStatNoFileByName(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	want := Counts(Options{Home: h}, nil)
	pastes, _ := fs.ReadDir(h.FS, model.PasteCacheDir)
	if len(pastes) == 0 {
		t.Fatal("the planted home has no paste: the test proves nothing")
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	sf := newStatFS(h.FS)
	ch := *h
	ch.FS = sf
	first := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(first.Stores, want.Stores) {
		t.Fatalf("cold cached counts %+v, uncached %+v", first.Stores, want.Stores)
	}
	if n := sf.after(); n != 0 {
		t.Errorf("a cold count stat'ed %d files by their name after their open, want 0 (each checked from its open)", n)
	}
	var entries keptCounts
	entries, _ = diskcache.Load[keptCounts](cache, countsKind, diskcache.Name(countsKind, h.Dir))
	kept := 0
	for name := range entries {
		if strings.HasPrefix(name, model.PasteCacheDir+"/") {
			kept++
		}
	}
	if kept != len(pastes) {
		t.Errorf("the cold count kept %d of %d pastes", kept, len(pastes))
	}
	if again := Counts(Options{Home: &ch}, cache); !reflect.DeepEqual(again.Stores, want.Stores) {
		t.Errorf("warm counts %+v, uncached %+v", again.Stores, want.Stores)
	}
}

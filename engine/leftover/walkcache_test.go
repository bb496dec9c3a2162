package leftover

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testroot"
)

// countFS counts the opens of each name in the home (a folder listed is
// opened), and its lstats, by its path relative to the home ("" the home
// itself).
type countFS struct {
	fs.FS
	prefix string
	mu     sync.Mutex
	opens  map[string]int
	lstats map[string]int
}

func newCountFS(t *testing.T, home string) *countFS {
	return &countFS{FS: testroot.New(t), prefix: strings.TrimPrefix(filepath.ToSlash(home), "/"), opens: map[string]int{}, lstats: map[string]int{}}
}

func (c *countFS) Open(name string) (fs.File, error) {
	if rel, ok := strings.CutPrefix(name, c.prefix); ok {
		c.mu.Lock()
		c.opens[strings.TrimPrefix(rel, "/")]++
		c.mu.Unlock()
	}
	return c.FS.Open(name)
}

// n is how many times rel was opened.
func (c *countFS) n(rel string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opens[rel]
}

func (c *countFS) Lstat(name string) (fs.FileInfo, error) {
	if rel, ok := strings.CutPrefix(name, c.prefix); ok {
		c.mu.Lock()
		c.lstats[strings.TrimPrefix(rel, "/")]++
		c.mu.Unlock()
	}
	return fs.Lstat(c.FS, name)
}

func (c *countFS) ReadLink(name string) (string, error) { return fs.ReadLink(c.FS, name) }

// walkTestHome is the home the walk tests start from: a project with a
// transcript and a memory folder, a hidden copy in the paste cache, and
// extra.
func walkTestHome(t *testing.T, extra map[string]string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	files := map[string]string{
		"projects/-p/s.jsonl":                       "{}\n",
		"projects/-p/memory/MEMORY.md":              "- [a](a.md)\n",
		"paste-cache/.abc.txt.memscope-99-remove-1": "a paste",
	}
	for k, v := range extra {
		files[k] = v
	}
	enginetest.WriteTree(t, home, files)
	return home
}

// With a WalkCache, Find walks the home again only after a change that
// can matter to the walk: a memory write and a transcript appended do
// not; a new hidden copy, a new folder and Invalidate do. Every Find
// finds what a Find without the cache finds.
func TestWalkCacheWalksOnlyWhenItMatters(t *testing.T) {
	t.Parallel()
	home := walkTestHome(t, nil)
	root := newCountFS(t, home)
	in := Input{Root: root, HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
	cached := in
	cached.Walk = NewWalkCache()
	step := func(what string, walks int, names ...string) {
		t.Helper()
		set := map[string]bool{}
		for _, n := range names {
			set[n] = true
		}
		cached.Walk.Changed(set, false)
		before := root.n("projects/-p")
		got := Find(cached)
		if n := root.n("projects/-p") - before; n != walks {
			t.Errorf("%s: the home's project folder was read %d times, want %d", what, n, walks)
		}
		if want := Find(in); !slices.Equal(itemPaths(got), itemPaths(want)) {
			t.Errorf("%s: found %v, without the cache %v", what, itemPaths(got), itemPaths(want))
		}
	}
	step("first Find", 1)
	writeHome(t, home, "projects/-p/memory/a.md", "a memory")
	writeHome(t, home, "projects/-p/memory/.a.md.memscope-99-3", "a write's temporary file")
	step("a memory write", 0, "projects/-p/memory/a.md", "projects/-p/memory/.a.md.memscope-99-3")
	if got := Find(cached); !slices.Contains(itemPaths(got), filepath.Join(home, "projects/-p/memory/.a.md.memscope-99-3")) {
		t.Errorf("the copy the memory write left is not found with the cache: %v", itemPaths(got))
	}
	writeHome(t, home, "projects/-p/s.jsonl", "{}\n{}\n")
	step("a transcript appended", 0, "projects/-p/s.jsonl")
	writeHome(t, home, "projects/-p/.s.jsonl.memscope-99-stage-2", "a scrub's copy")
	step("a new hidden copy", 1, "projects/-p/.s.jsonl.memscope-99-stage-2")
	writeHome(t, home, "projects/-q/t.jsonl", "{}\n")
	step("a new project folder", 1, "projects/-q")
	step("nothing changed", 0)
	cached.Walk.Invalidate()
	step("Invalidate", 1)
	cached.Walk.Changed(nil, true)
	step("events that could not be named", 1)
}

// itemPaths are the paths of what a Find found.
func itemPaths(r Report) []string {
	var out []string
	for _, it := range r.Items {
		out = append(out, it.Path)
	}
	return out
}

// writeHome writes s at rel in home, making its folders.
func writeHome(t *testing.T, home, rel, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, rel), []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

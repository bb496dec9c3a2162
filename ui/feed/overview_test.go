package feed

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	engov "github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// listingFS counts the listings of each folder of a home.
type listingFS struct {
	fs.FS
	mu   sync.Mutex
	dirs map[string]int
}

func (c *listingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.dirs[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

func (c *listingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *listingFS) OpenRegular(name string) (fs.File, error) { return model.OpenRegular(c.FS, name) }

// projectsListings are how many times projects/ and each projects/<slug>
// were listed, at most.
func (c *listingFS) projectsListings(t *testing.T) int {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	most, folders := 0, 0
	for d, n := range c.dirs {
		if d == "projects" || strings.HasPrefix(d, "projects/") && strings.Count(d, "/") == 1 {
			folders++
			most = max(most, n)
		}
	}
	if folders < 3 {
		t.Fatalf("%d projects folders listed: %v", folders, c.dirs)
	}
	return most
}

// TestOverviewStartListsEachProjectsFolderOnce: the Overview's start
// counts its lines from three Loads (those that wait for nothing, then
// the project's and the pass's once the project is known, then those
// reading history.jsonl once the History feed read it), each from its own
// Source; between them they list projects/ and each project folder
// once (each line walked them on its own: secrets, stat, the forecast,
// the pass, the .replaced copies). A change drops the listing: the lines
// it recounts list the home as it is then.
func TestOverviewStartListsEachProjectsFolderOnce(t *testing.T) {
	dir := homeWithProjects(t)
	home := testHome(t, dir)
	c := &listingFS{FS: home.FS, dirs: map[string]int{}}
	home.FS = c
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	root := model.MountFS(testroot.New(t, dir), filepath.ToSlash(dir), home.FS)
	var srcs []*engov.Source
	src := func(project string) *engov.Source {
		env := projectmem.Env{Root: root, Home: home, UserHome: t.TempDir(), Getenv: func(string) string { return "" }, Now: testNow}
		s := &engov.Source{Env: env, Project: project, Cache: cache, Alive: func(int) bool { return false }}
		return s
	}
	o := NewOverview()
	counted := map[engov.ID]bool{}
	load := func() {
		t.Helper()
		cmd, ids := o.Load(func(project string) *engov.Source {
			s := src(project)
			srcs = append(srcs, s)
			return s
		})
		if len(ids) == 0 {
			t.Fatal("a Load counted no line")
		}
		for _, msg := range runAll(cmd) {
			if l, ok := o.Loaded(msg.(OverviewLine)); ok {
				counted[l.Line.ID] = true
			}
		}
	}
	load()
	o.SetProject("/w/b", true)
	// The project load's check (none linted: the lines lint for
	// themselves) lets the Lint and Prompt lines count.
	o.ProjectChecked(&engov.Checked{Project: "/w/b"})
	load()
	o.HistoryRead(nil, true)
	load()
	if o.Counting() {
		t.Fatal("lines still counting after the three Loads")
	}
	for _, sp := range engov.Specs {
		if !counted[sp.ID] && sp.ID != engov.Autocompact {
			t.Errorf("%s was not counted", sp.ID)
		}
	}
	if n := c.projectsListings(t); n != 1 {
		t.Errorf("the start listed a projects folder %d times, want once: %v", n, c.dirs)
	}
	// The three Sources read one listing.
	if len(srcs) != 3 || srcs[0].Env.Home != srcs[1].Env.Home || srcs[1].Env.Home != srcs[2].Env.Home || srcs[0].Env.Home.FS == c {
		t.Errorf("the Loads' Sources %v: want one listing of the home, three times", srcs)
	}
	o.Changed(false, true, false)
	load()
	if n := c.projectsListings(t); n != 2 {
		t.Errorf("after a change the home was listed %d times in all, want twice", n)
	}
}

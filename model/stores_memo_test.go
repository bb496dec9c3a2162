package model

import (
	"io/fs"
	"reflect"
	"sync"
	"testing"
	"testing/fstest"
)

// askCountFS counts the Stat and Open calls of each name.
type askCountFS struct {
	fstest.MapFS
	mu   sync.Mutex
	asks map[string]int
}

func (c *askCountFS) ask(name string) {
	c.mu.Lock()
	c.asks[name]++
	c.mu.Unlock()
}

func (c *askCountFS) Open(name string) (fs.File, error) {
	c.ask(name)
	return c.MapFS.Open(name)
}

func (c *askCountFS) Stat(name string) (fs.FileInfo, error) {
	c.ask(name)
	return c.MapFS.Stat(name)
}

// storesHome is a machine ("/") with a home at /home/me/.claude and
// projects under /home/me/work: plain folders, one git repository (two
// projects in it), one worktree of it, and a malformed managed settings
// file (a problem each project reports).
func storesHome() (fstest.MapFS, []Project) {
	dir := &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	m := fstest.MapFS{
		"home/me/.claude/settings.json":                     {Data: []byte(`{"cleanupPeriodDays": 10}`)},
		"etc/claude-code/managed-settings.json":             {Data: []byte(`{"cleanupPeriodDays": `)},
		"home/me/work/repo/.git":                            dir,
		"home/me/work/repo/.git/worktrees/wt/gitdir":        {Data: []byte("/home/me/work/wt/.git\n")},
		"home/me/work/repo/.git/worktrees/wt/commondir":     {Data: []byte("../..\n")},
		"home/me/work/wt/.git":                              {Data: []byte("gitdir: /home/me/work/repo/.git/worktrees/wt\n")},
		"home/me/work/repo/sub/.claude/settings.local.json": {Data: []byte(`{"autoMemoryEnabled": false}`)},
		"home/me/work/p1/.claude/agent-memory/helper":       dir,
	}
	var ps []Project
	for _, p := range []string{"/home/me/work/p1", "/home/me/work/p2", "/home/me/work/p3", "/home/me/work/repo", "/home/me/work/repo/sub", "/home/me/work/wt"} {
		slug := Slug(p)
		m["home/me/.claude/projects/"+slug+"/memory"] = dir
		ps = append(ps, Project{Slug: slug, Dir: "projects/" + slug, Path: p})
	}
	return m, ps
}

// HomeMemoryStores asks the checks its projects share once a call: the
// git-root walk's folders above the projects, $H/settings.json and the
// managed settings file. It asked them once per project (W's 24
// projects, read by four readers: each stat'ed 97 times a start).
func TestHomeMemoryStoresAsksSharedChecksOnce(t *testing.T) {
	m, ps := storesHome()
	c := &askCountFS{MapFS: m, asks: map[string]int{}}
	if _, probs := HomeMemoryStores(HomeStoresOptions{Root: c, HomeDir: "/home/me/.claude", UserHome: "/home/me", Projects: ps}); len(probs) != len(ps) {
		t.Fatalf("want the managed file's problem once per project (%d), got %d: %v", len(ps), len(probs), probs)
	}
	// A stat for each folder's .git; a read (its stat and open) for
	// each settings file.
	for name, want := range map[string]int{"home/me/work/.git": 1, "home/me/.git": 1, "home/.git": 1, ".git": 1, "home/me/work/repo/.git": 1,
		"home/me/.claude/settings.json": 2, "etc/claude-code/managed-settings.json": 2} {
		if n := c.asks[name]; n != want {
			t.Errorf("%s asked %d times, want %d", name, n, want)
		}
	}
}

// The answers are each project's own: the stores and problems of one
// call over every project are those of one call per project, in order,
// each folder listed once.
func TestHomeMemoryStoresSharedChecksSameAnswers(t *testing.T) {
	m, ps := storesHome()
	o := HomeStoresOptions{Root: m, HomeDir: "/home/me/.claude", UserHome: "/home/me", Projects: ps}
	got, gotProbs := HomeMemoryStores(o)
	var want []HomeStore
	var wantProbs []Problem
	seen := map[string]bool{}
	for _, p := range ps {
		o.Projects = []Project{p}
		one, probs := HomeMemoryStores(o)
		for _, s := range one {
			if !seen[s.Dir] {
				seen[s.Dir] = true
				want = append(want, s)
			}
		}
		wantProbs = append(wantProbs, probs...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stores differ:\n got %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(gotProbs, wantProbs) {
		t.Errorf("problems differ:\n got %+v\nwant %+v", gotProbs, wantProbs)
	}
	var kinds []GitRootKind
	for _, p := range ps {
		kinds = append(kinds, FindGitRoot(m, p.Path).Kind)
	}
	if want := []GitRootKind{GitRootNone, GitRootNone, GitRootNone, GitRootRepo, GitRootRepo, GitRootWorktree}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("the home's git roots are %v, want %v", kinds, want)
	}
}

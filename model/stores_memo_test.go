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

// The user's agent definitions ($H/agents) and agent memory
// ($H/agent-memory) are the same for every project: a call over six
// projects asks them as often as a call over one (W's start read each
// folder about 98 times, once per project by each of its readers).
func TestHomeMemoryStoresAsksAgentFoldersOnce(t *testing.T) {
	m, ps := storesHome()
	m["home/me/.claude/agents/helper.md"] = &fstest.MapFile{Data: []byte("---\nname: helper\ndescription: helps\nmemory: user\n---\nHelp.\n")}
	m["home/me/.claude/agent-memory/helper/MEMORY.md"] = &fstest.MapFile{Data: []byte("- a note\n")}
	m["home/me/.claude/agent-memory/other"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	asks := func(projects []Project) (map[string]int, []HomeStore) {
		c := listCountFS{&askCountFS{MapFS: m, asks: map[string]int{}}}
		stores, _ := HomeMemoryStores(HomeStoresOptions{Root: c, HomeDir: "/home/me/.claude", UserHome: "/home/me", Projects: projects, User: true})
		return c.asks, stores
	}
	one, _ := asks(ps[:1])
	all, stores := asks(ps)
	for _, name := range []string{"home/me/.claude/agents", "home/me/.claude/agent-memory", "home/me/.claude/agent-memory/helper", "home/me/.claude/agent-memory/other"} {
		if one[name] == 0 {
			t.Fatalf("%s never asked: the test does not reach the agent folders", name)
		}
		if all[name] != one[name] {
			t.Errorf("%s asked %d times over %d projects, %d over one", name, all[name], len(ps), one[name])
		}
	}
	// The user's agent stores are listed, each once: the one a
	// definition declares and the folder no definition declares.
	var users []string
	for _, s := range stores {
		if s.Kind == StoreAgent && s.Scope == AgentScopeUser {
			users = append(users, s.Agent+" "+s.Definition)
		}
	}
	if want := []string{"helper /home/me/.claude/agents/helper.md", "other "}; !reflect.DeepEqual(users, want) {
		t.Errorf("user agent stores %q, want %q", users, want)
	}
}

// listCountFS is askCountFS counting ReadDir too (fs.ReadDir takes
// MapFS's own, which opens nothing).
type listCountFS struct{ *askCountFS }

func (c listCountFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.ask(name)
	return c.MapFS.ReadDir(name)
}

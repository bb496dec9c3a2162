package feed

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A project load keeps lint's per-file work in the app's cache: the
// first start writes lint's cache file, the next start (a new feed on a
// new Store) gets the same report from it without writing it again, and
// a start after a memory changed gets the report of the changed folder.
func TestProjectLoadKeepsLintInTheCache(t *testing.T) {
	dir := homeWithProjects(t)
	cacheDir := filepath.Join(t.TempDir(), "cache")
	lintOf := func(cache *diskcache.Store) string {
		t.Helper()
		home := testHome(t, dir)
		h := NewHome(home, nil)
		h.Listed(h.Init()().(HomeListed), "", "", testNow)
		p := NewProject(ProjectEnv{Home: home, Cache: cache, Getenv: func(string) string { return "" }, Now: func() time.Time { return testNow }}, h)
		b, _ := json.Marshal(p.Request("-w-a")().(ProjectLoaded).Lint)
		return string(b)
	}
	newCache := func() *diskcache.Store { return diskcache.New(cacheDir, testroot.New(t), model.OSWriteFS{}) }
	plain := lintOf(nil)
	if cold := lintOf(newCache()); cold != plain {
		t.Fatalf("cold with the cache:\n%s\nwithout:\n%s", cold, plain)
	}
	kept := filepath.Join(cacheDir, diskcache.Name("lint.1", dir))
	before, err := os.ReadFile(kept)
	if err != nil {
		t.Fatalf("lint's work was not kept: %v", err)
	}
	if warm := lintOf(newCache()); warm != plain {
		t.Fatalf("warm:\n%s\nwithout the cache:\n%s", warm, plain)
	}
	if after, _ := os.ReadFile(kept); string(after) != string(before) {
		t.Error("a start where nothing changed wrote lint's cache again")
	}
	note := filepath.Join(dir, "projects", "-w-a", "memory", "note.md")
	if err := os.WriteFile(note, []byte("---\nname: n\ndescription: d\ntype: project\n---\nkey AKIAQZ4XB7WJ2RTLMN5K\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	edited := lintOf(nil)
	if edited == plain {
		t.Fatal("the edit does not change the report")
	}
	if warm := lintOf(newCache()); warm != edited {
		t.Errorf("after an edit, with the cache:\n%s\nwithout:\n%s", warm, edited)
	}
}

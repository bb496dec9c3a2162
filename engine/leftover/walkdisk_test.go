package leftover

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// TestWalkCacheOnDiskSkipsTheWalkOfAnUnchangedHome: with the walk kept on
// disk (NewWalkCacheOn), a new process's first Find (a new WalkCache and
// Store on the same cache folder) lists no folder of the home when none
// changed, and finds what a Find without a cache finds; a hidden copy
// added in a folder, one removed, a new folder holding one, and a folder
// replaced make it walk again. Before, every process's first Find walked
// the whole home.
func TestWalkCacheOnDiskSkipsTheWalkOfAnUnchangedHome(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	enginetest.WriteTree(t, home, map[string]string{
		"projects/-p/s.jsonl":                       "{}\n",
		"projects/-p/memory/MEMORY.md":              "- [a](a.md)\n",
		"paste-cache/.abc.txt.memscope-99-remove-1": "a paste",
		"file-history/s1/f@v1":                      "x",
	})
	root := &countFS{FS: testroot.New(t), dir: strings.TrimPrefix(filepath.ToSlash(filepath.Join(home, "projects", "-p")), "/")}
	in := Input{Root: root, HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	paths := func(r Report) []string {
		var out []string
		for _, it := range r.Items {
			out = append(out, it.Path)
		}
		return out
	}
	// start is a new process's first Find.
	start := func(what string, walks int32) {
		t.Helper()
		cached := in
		cached.Walk = NewWalkCacheOn(diskcache.New(cacheDir, testroot.New(t), model.OSWriteFS{}))
		// Every folder written by the test is settled for the cache.
		cached.Walk.wall = func() time.Time { return time.Now().Add(time.Hour) }
		before := root.opens.Load()
		got := Find(cached)
		if n := root.opens.Load() - before; n != walks {
			t.Errorf("%s: the home's project folder was read %d times, want %d", what, n, walks)
		}
		if want := Find(in); !slices.Equal(paths(got), paths(want)) || len(want.Items) == 0 {
			t.Errorf("%s: found %v, without the cache %v", what, paths(got), paths(want))
		}
	}
	write := func(rel, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, rel), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	start("cold", 1)
	start("warm", 0)
	start("warm again", 0)
	write("projects/-p/.s.jsonl.memscope-98-remove-1", "a copy")
	start("a copy added", 1)
	start("warm after the copy", 0)
	if err := os.Remove(filepath.Join(home, "paste-cache/.abc.txt.memscope-99-remove-1")); err != nil {
		t.Fatal(err)
	}
	start("a copy removed", 1)
	write("file-history/s2/.g.memscope-97-remove-1", "a copy in a new folder")
	start("a new folder", 1)
	start("warm after the new folder", 0)
	// file-history/s1 replaced by another folder of the same name.
	fh := filepath.Join(home, "file-history")
	if err := os.Rename(filepath.Join(fh, "s1"), filepath.Join(t.TempDir(), "s1")); err != nil {
		t.Fatal(err)
	}
	write("file-history/s1/.f.memscope-96-remove-1", "a copy")
	start("a folder replaced", 1)
	start("warm at the end", 0)
}

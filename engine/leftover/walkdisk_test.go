package leftover

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// TestWalkCacheOnDiskListsOnlyChangedFolders: with the walk kept on disk
// (NewWalkCacheOn), a new process's first Find (a new WalkCache and Store
// on the same cache folder) lists none of the home's folders when none
// changed, and only the folders that did otherwise: a hidden copy added,
// one removed, a new folder holding one, a folder replaced by another of
// the same name, a probe written and removed in the home (what the app
// does at every start). Every Find finds what a Find without a cache
// finds. Before, every process's first Find walked the whole home.
func TestWalkCacheOnDiskListsOnlyChangedFolders(t *testing.T) {
	t.Parallel()
	home := walkTestHome(t, map[string]string{"file-history/s1/f@v1": "x"})
	root := newCountFS(t, home)
	in := Input{Root: root, HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	// folders are the home's folders the walk lists (projects/ is also
	// listed apart for its memory folders, each searched apart).
	folders := []string{"", "file-history", "file-history/s1", "paste-cache", "projects/-p"}
	// start is a new process's first Find; listed are the folders it
	// must list (the others it must not).
	start := func(what string, listed ...string) {
		t.Helper()
		cached := in
		cached.Walk = NewWalkCacheOn(diskcache.New(cacheDir, testroot.New(t), model.OSWriteFS{}))
		// Every folder the test wrote is settled for the cache.
		cached.Walk.wall = func() time.Time { return time.Now().Add(time.Hour) }
		before := map[string]int{}
		for _, d := range append(slices.Clone(folders), "file-history/s2") {
			before[d] = root.n(d)
		}
		got := Find(cached)
		for d, b := range before {
			if n, want := root.n(d)-b, slices.Contains(listed, d); (n > 0) != want {
				t.Errorf("%s: folder %q listed %d times, want listed: %v", what, d, n, want)
			}
		}
		if want := Find(in); !slices.Equal(itemPaths(got), itemPaths(want)) || len(want.Items) == 0 {
			t.Errorf("%s: found %v, without the cache %v", what, itemPaths(got), itemPaths(want))
		}
	}
	remove := func(rel string) {
		t.Helper()
		if err := os.Remove(filepath.Join(home, rel)); err != nil {
			t.Fatal(err)
		}
	}
	start("cold", folders...)
	start("warm")
	start("warm again")
	writeHome(t, home, ".memscope-1-probe-1", "")
	remove(".memscope-1-probe-1")
	start("a probe in the home", "")
	writeHome(t, home, "projects/-p/.s.jsonl.memscope-98-remove-1", "a copy")
	start("a copy added", "projects/-p")
	start("warm after the copy")
	remove("paste-cache/.abc.txt.memscope-99-remove-1")
	start("a copy removed", "paste-cache")
	writeHome(t, home, "file-history/s2/.g.memscope-97-remove-1", "a copy in a new folder")
	start("a new folder", "file-history", "file-history/s2")
	start("warm after the new folder")
	if err := os.Rename(filepath.Join(home, "file-history", "s1"), filepath.Join(t.TempDir(), "s1")); err != nil {
		t.Fatal(err)
	}
	writeHome(t, home, "file-history/s1/.f.memscope-96-remove-1", "a copy")
	start("a folder replaced", "file-history", "file-history/s1")
	start("warm at the end")
}

// TestWalkOnDiskLooksAtEachFolderOnce: a walk that lists folders (a
// cold start's, or one after a change) looks at each folder once, for
// the stamp it keeps with the listing; it looked at every folder of the
// home again at the walk's end (W: 648 lstats more a cold start), which
// the next start's comparison of stamps already covers: a folder changed
// after its stamp has another stamp then (a change inside the stamp's
// clock tick is not kept at all: settled). The walk kept still lists
// only what changed.
func TestWalkOnDiskLooksAtEachFolderOnce(t *testing.T) {
	t.Parallel()
	home := walkTestHome(t, map[string]string{"file-history/s1/f@v1": "x"})
	root := newCountFS(t, home)
	cacheDir := filepath.Join(t.TempDir(), "cache")
	find := func() Report {
		in := Input{Root: root, HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
		in.Walk = NewWalkCacheOn(diskcache.New(cacheDir, testroot.New(t), model.OSWriteFS{}))
		in.Walk.wall = func() time.Time { return time.Now().Add(time.Hour) }
		return Find(in)
	}
	folders := []string{"file-history", "file-history/s1", "paste-cache"}
	cold := find()
	for _, d := range folders {
		if n := root.lstats[d]; n != 1 {
			t.Errorf("cold walk: folder %q looked at %d times, want 1", d, n)
		}
	}
	// A copy added after: the next walk lists its folder again and finds it.
	writeHome(t, home, "file-history/s1/.g.memscope-97-remove-1", "a copy")
	os.Chtimes(filepath.Join(home, "file-history", "s1"), time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	before := root.n("file-history/s1")
	again := find()
	if root.n("file-history/s1") == before {
		t.Error("the folder changed after the cold walk was not listed again")
	}
	if len(again.Items) != len(cold.Items)+1 {
		t.Errorf("after a copy came: %v, before %v", itemPaths(again), itemPaths(cold))
	}
}

// TestWalkTakesTheListedHomesFolders: given the home listed once
// (Input.Listed, the app's listing of the moment), the walk kept on disk
// takes each folder the listing has, as it was when listed, from it
// instead of listing it again (on the old code it listed every folder of
// the home itself); a folder changed since it was listed there is listed
// again, and what Find finds is what a Find without either finds.
func TestWalkTakesTheListedHomesFolders(t *testing.T) {
	t.Parallel()
	home := walkTestHome(t, map[string]string{"file-history/s1/f@v1": "x", "file-history/s2/g@v1": "y"})
	root := newCountFS(t, home)
	listed := model.ListOnce(model.HomeFS(home))
	for _, d := range []string{".", "file-history", "file-history/s1", "file-history/s2", "paste-cache", "projects"} {
		if _, err := fs.ReadDir(listed, d); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, ok := model.ListedFolder(listed, "paste-cache"); !ok {
		t.Skip("no folder stamp from a held listing here (no openat2?)")
	}
	// s2 changes after it was listed: a copy comes, and its time moves.
	writeHome(t, home, "file-history/s2/.g.memscope-97-remove-1", "a copy")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(home, "file-history", "s2"), later, later); err != nil {
		t.Fatal(err)
	}
	in := Input{Root: root, HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }, Listed: listed}
	in.Walk = NewWalkCacheOn(diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{}))
	in.Walk.wall = func() time.Time { return time.Now().Add(time.Hour) }
	got := Find(in)
	for _, d := range []string{"file-history", "file-history/s1", "paste-cache"} {
		if n := root.n(d); n != 0 {
			t.Errorf("folder %q listed %d times beside the listed home's listing", d, n)
		}
	}
	if root.n("file-history/s2") == 0 {
		t.Error("the folder changed since its listing was not listed again")
	}
	plain := Input{Root: newCountFS(t, home), HomeDir: home, Now: in.Now, Alive: alive, Busy: in.Busy}
	if want := Find(plain); !slices.Equal(itemPaths(got), itemPaths(want)) || len(want.Items) != 2 {
		t.Errorf("found %v, without the listing %v", itemPaths(got), itemPaths(want))
	}
}

package vault

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// listFS counts the folders a walk lists.
type listFS struct {
	fs.FS
	mu    sync.Mutex
	lists map[string]int
}

func (l *listFS) ReadDir(name string) ([]fs.DirEntry, error) {
	l.mu.Lock()
	l.lists[name]++
	l.mu.Unlock()
	return fs.ReadDir(l.FS, name)
}

// A write-once folder (the pastes, a session's file history and tool
// results) whose identity and time are those of the last sync is not
// listed again: its files are taken as the vault has them. A paste added
// changes the folder's time, and the next sync lists it and keeps the
// new paste; a file changed in place in a trusted folder (the rule's
// documented risk) is seen by a full walk (--full, or once a day); a
// folder changed less than foldersSettle before a sync is not trusted
// next time.
func TestWriteOnceFoldersAreNotListedAgain(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	lf := &listFS{FS: os.DirFS(home), lists: map[string]int{}}
	h := &model.Home{Dir: home, FS: lf, Source: model.HomeFromFlag}
	// The folders were written just now; syncs run a minute on, so
	// their times have settled.
	now := time.Now().Add(time.Minute)
	sync := func(o SyncOptions) SyncReport {
		t.Helper()
		clear(lf.lists)
		o.Home = h
		rep, err := v.Sync(o)
		if err != nil || len(rep.Problems) > 0 {
			t.Fatalf("sync: %v %v", err, rep.Problems)
		}
		return rep
	}
	first := sync(SyncOptions{Now: now})
	once := []string{"paste-cache", "file-history/" + sidA, "projects/" + proj + "/" + sidA + "/tool-results"}
	for _, d := range once {
		if lf.lists[d] != 1 {
			t.Fatalf("the first sync listed %s %d times, want once", d, lf.lists[d])
		}
	}
	second := sync(SyncOptions{Now: now.Add(time.Minute)})
	for _, d := range once {
		if lf.lists[d] != 0 {
			t.Errorf("the second sync listed the unchanged write-once folder %s", d)
		}
	}
	if lf.lists["projects/"+proj+"/"+sidA+"/subagents"] != 1 {
		t.Error("the second sync did not list the subagents' folder (its transcripts grow)")
	}
	if second.Files != first.Files || second.Unchanged != first.Files || second.Gone != 0 {
		t.Errorf("second sync: %d files, %d unchanged, %d gone; want %d, %d, 0", second.Files, second.Unchanged, second.Gone, first.Files, first.Files)
	}

	// A new paste: the folder's time moves, it is listed, the paste kept.
	write(t, home, "paste-cache/0123456789abcdef.txt", "another paste\n", t0)
	third := sync(SyncOptions{Now: now.Add(2 * time.Minute)})
	if lf.lists["paste-cache"] != 1 || third.New != 1 {
		t.Errorf("after a paste was added: paste-cache listed %d times, %d new files; want 1 and 1", lf.lists["paste-cache"], third.New)
	}
	// The paste-cache changed within foldersSettle of that sync's time:
	// it is not trusted at the next.
	p := filepath.Join(home, "paste-cache")
	os.Chtimes(p, now.Add(2*time.Minute), now.Add(2*time.Minute))
	sync(SyncOptions{Now: now.Add(2 * time.Minute)})
	sync(SyncOptions{Now: now.Add(3 * time.Minute)})
	if lf.lists["paste-cache"] != 1 {
		t.Errorf("a folder changed at the time of the sync that listed it was trusted at the next (listed %d times)", lf.lists["paste-cache"])
	}

	// A backup changed in place (its folder's time kept): not seen while
	// the folder is trusted, seen by a full walk.
	fh := "file-history/" + sidA + "/4cc29875db509bba@v1"
	dir := filepath.Join(home, "file-history", sidA)
	st, _ := os.Stat(dir)
	write(t, home, fh, "package main // edited in place\n", t0.Add(time.Hour))
	os.Chtimes(dir, st.ModTime(), st.ModTime())
	if rep := sync(SyncOptions{Now: now.Add(4 * time.Minute)}); rep.Changed != 0 {
		t.Errorf("the trusted folder's file was read (%d changed): the test no longer tests the rule", rep.Changed)
	}
	if rep := sync(SyncOptions{Now: now.Add(5 * time.Minute), Full: true}); rep.Changed != 1 || lf.lists["file-history/"+sidA] != 1 {
		t.Errorf("a full walk: %d changed, file history listed %d times; want 1 and 1", rep.Changed, lf.lists["file-history/"+sidA])
	}
	// A day after the last full walk, a sync walks everything.
	sync(SyncOptions{Now: now.Add(6 * time.Minute)})
	if lf.lists["paste-cache"] != 0 {
		t.Fatal("paste-cache listed right after a full walk")
	}
	sync(SyncOptions{Now: now.Add(5*time.Minute + foldersFull)})
	for _, d := range once {
		if lf.lists[d] != 1 {
			t.Errorf("a sync a day after the last full walk did not list %s", d)
		}
	}

	// Files removed: the folder's time moves and they are counted gone.
	os.RemoveAll(filepath.Join(home, "file-history", sidA))
	if rep := sync(SyncOptions{Now: now.Add(6*time.Minute + foldersFull)}); rep.Gone != 1 {
		t.Errorf("a removed file history: %d gone, want 1", rep.Gone)
	}
	if r, err := v.Verify(); err != nil || !r.OK() {
		t.Fatalf("verify: %v %v", err, r.Problems)
	}
}

// The walk trusts a folder by its stamp before the state is read; a
// stamp counting other files than the vault's state holds in the folder
// (a state line lost) makes the sync list that folder after all, and
// keep its file again.
func TestTrustedFolderCheckedAgainstTheState(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	lf := &listFS{FS: os.DirFS(home), lists: map[string]int{}}
	h := &model.Home{Dir: home, FS: lf, Source: model.HomeFromFlag}
	now := time.Now().Add(time.Minute)
	if _, err := v.Sync(SyncOptions{Home: h, Now: now}); err != nil {
		t.Fatal(err)
	}
	// Drop the file history's record from the state.
	fh := "file-history/" + sidA
	files, _ := filepath.Glob(filepath.Join(v.Dir, "state", "*.jsonl"))
	dropped := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var kept []string
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if strings.Contains(l, `"path":"`+fh+`/`) {
				dropped++
				continue
			}
			kept = append(kept, l)
		}
		os.WriteFile(f, []byte(strings.Join(kept, "")), 0o600)
	}
	if dropped == 0 {
		t.Fatal("no state line of the file history: the test tests nothing")
	}
	clear(lf.lists)
	rep, err := v.Sync(SyncOptions{Home: h, Now: now.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if lf.lists[fh] != 1 || rep.New != 1 {
		t.Errorf("a stamped folder the state lost a file of: listed %d times, %d new files; want 1 and 1", lf.lists[fh], rep.New)
	}
	if lf.lists["paste-cache"] != 0 {
		t.Error("the paste-cache, stamped and whole in the state, was listed")
	}
	if r, err := v.Verify(); err != nil || !r.OK() {
		t.Fatalf("verify: %v %v", err, r.Problems)
	}
}

// openFS counts the files opened whose names end with suffix (through
// model.OpenRegular, as the vault opens its files).
type openFS struct {
	fs.FS
	suffix string
	mu     sync.Mutex
	opens  int
}

func (o *openFS) OpenRegular(name string) (fs.File, error) {
	if strings.HasSuffix(name, o.suffix) {
		o.mu.Lock()
		o.opens++
		o.mu.Unlock()
	}
	return model.OpenRegular(o.FS, name)
}

// A sync that finds nothing changed reads no pack index; one that cuts
// a grown file reads each index once (its prefetch, started when the
// file is found changed, and the chunks' look-ups share one read).
func TestPackIndexReadOnlyWhenAFileChanged(t *testing.T) {
	home := testHome(t, 100)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	syncHome(t, v, home, t0.Add(time.Minute)) // a second pack
	idx, _ := filepath.Glob(filepath.Join(v.Dir, "packs", "*.idx"))
	if len(idx) == 0 {
		t.Fatal("no pack index written")
	}
	of := &openFS{FS: v.root, suffix: ".idx"}
	v.root = of
	if rep := syncHome(t, v, home, t0.Add(2*time.Minute)); rep.New+rep.Changed != 0 {
		t.Fatalf("a sync of the unchanged home found %d new and %d changed files", rep.New, rep.Changed)
	}
	if of.opens != 0 {
		t.Errorf("a sync with nothing changed opened %d pack index files, want none", of.opens)
	}
	grow(t, home)
	if rep := syncHome(t, v, home, t0.Add(3*time.Minute)); rep.Chunks == 0 {
		t.Fatal("the grown home stored no chunk: the test tests nothing")
	}
	if of.opens != len(idx) {
		t.Errorf("a sync that stored chunks opened %d index files, want each of the %d once", of.opens, len(idx))
	}
}

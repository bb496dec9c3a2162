package vault

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// askFS is a home's file system that counts, by name, the times a
// regular file's information is asked before it is opened (an entry's
// Info, a Stat or Lstat of its name) and the files opened.
type askFS struct {
	fs.FS
	mu     sync.Mutex
	asked  map[string]int
	opened map[string]bool
}

func (a *askFS) note(name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.opened[name] {
		a.asked[name]++
	}
}

func (a *askFS) OpenRegular(name string) (fs.File, error) {
	a.mu.Lock()
	a.opened[name] = true
	a.mu.Unlock()
	return model.OpenRegular(a.FS, name)
}

func (a *askFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(a.FS, name)
	for i, e := range ents {
		if e.Type().IsRegular() {
			ents[i] = askEntry{e, a, filepath.ToSlash(filepath.Join(name, e.Name()))}
		}
	}
	return ents, err
}

func (a *askFS) Stat(name string) (fs.FileInfo, error) {
	info, err := fs.Stat(a.FS, name)
	if err == nil && info.Mode().IsRegular() {
		a.note(name)
	}
	return info, err
}

func (a *askFS) Lstat(name string) (fs.FileInfo, error) {
	info, err := fs.Lstat(a.FS, name)
	if err == nil && info.Mode().IsRegular() {
		a.note(name)
	}
	return info, err
}

func (a *askFS) ReadLink(name string) (string, error) { return fs.ReadLink(a.FS, name) }

type askEntry struct {
	fs.DirEntry
	a    *askFS
	name string
}

func (e askEntry) Info() (fs.FileInfo, error) {
	e.a.note(e.name)
	return e.DirEntry.Info()
}

// A first sync asks no file's information before it opens it: the walk
// lists the files by their names and types, and each file's information
// is its open's (before, the walk asked each file's lstat, on one core
// while the workers waited for files, and each open an fstat again). A
// sync after it asks each file the vault knows once (an unchanged file
// is not opened), and the vault is as a sync of the plain home makes it.
func TestFirstSyncAsksNoInformationBeforeTheOpen(t *testing.T) {
	home := testHome(t, 300)
	h := homeOf(t, home)
	a := &askFS{FS: h.FS, asked: map[string]int{}, opened: map[string]bool{}}
	v := openVault(t, nil)
	rep, err := v.Sync(SyncOptions{Home: &model.Home{Dir: h.Dir, FS: a, Source: h.Source}, Now: t0.Add(time.Hour)})
	if err != nil || len(rep.Problems) > 0 {
		t.Fatalf("sync: %v %v", err, rep.Problems)
	}
	if rep.New == 0 || rep.New != len(a.opened) {
		t.Fatalf("%d new files, %d opened", rep.New, len(a.opened))
	}
	for name, n := range a.asked {
		if name != model.HistoryPath { // history.jsonl is looked at by name
			t.Errorf("%s: its information asked %d times before its open", name, n)
		}
	}
	// Again, nothing changed: each known file is looked at, none opened.
	a2 := &askFS{FS: h.FS, asked: map[string]int{}, opened: map[string]bool{}}
	rep2, err := v.Sync(SyncOptions{Home: &model.Home{Dir: h.Dir, FS: a2, Source: h.Source}, Now: t0.Add(2 * time.Hour), Full: true})
	if err != nil || len(rep2.Problems) > 0 || rep2.Unchanged != rep.New || len(a2.opened) != 0 {
		t.Fatalf("second sync: %+v, opened %v, %v", rep2, a2.opened, err)
	}
	if len(a2.asked) != rep.New {
		t.Errorf("second sync looked at %d files, want the %d the vault has", len(a2.asked), rep.New)
	}
	// The vault is a plain sync's.
	v2 := openVault(t, nil)
	syncHome(t, v2, home, t0.Add(time.Hour))
	last := func(v *Vault) string {
		names, err := v.stateFiles()
		if err != nil || len(names) == 0 {
			t.Fatalf("state files %v %v", names, err)
		}
		data, err := os.ReadFile(filepath.Join(v.Dir, filepath.FromSlash(stateDir), names[len(names)-1]))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if got, want := last(v), last(v2); got == "" || got != want {
		t.Errorf("the state differs from a plain sync's:\n%s\nwant\n%s", got, want)
	}
	if r, err := v.Verify(); err != nil || !r.OK() {
		t.Fatalf("verify: %+v %v", r, err)
	}
}

// ghostFS lists the file ghost in its folder after it was removed (a
// listing taken just before the client removed it).
type ghostFS struct {
	fs.FS
	ghost fs.DirEntry
	dir   string
}

func (g ghostFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(g.FS, name)
	if name == g.dir {
		ents = append(ents, g.ghost)
		slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	return ents, err
}

func (g ghostFS) Lstat(name string) (fs.FileInfo, error)   { return fs.Lstat(g.FS, name) }
func (g ghostFS) ReadLink(name string) (string, error)     { return fs.ReadLink(g.FS, name) }
func (g ghostFS) OpenRegular(name string) (fs.File, error) { return model.OpenRegular(g.FS, name) }

// A file the vault keeps that is listed and then removed before its
// worker looks at it is gone in this sync (as when the walk looked at
// each file itself), not a file of the home that could not be read:
// the walk no longer asks a file's information, its worker does.
func TestFileRemovedAfterItsListingIsGone(t *testing.T) {
	home := testHome(t, 300)
	h := homeOf(t, home)
	v := openVault(t, nil)
	first, err := v.Sync(SyncOptions{Home: h, Now: t0.Add(time.Hour)})
	if err != nil || first.New == 0 {
		t.Fatalf("first sync: %+v %v", first, err)
	}
	var rel string
	fs.WalkDir(h.FS, "projects", func(p string, d fs.DirEntry, err error) error {
		if err == nil && rel == "" && strings.HasSuffix(p, ".jsonl") && d.Type().IsRegular() {
			rel = p
		}
		return nil
	})
	if rel == "" {
		t.Fatal("no transcript in the test home")
	}
	ents, err := fs.ReadDir(h.FS, path.Dir(rel))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ents, func(e fs.DirEntry) bool { return e.Name() == path.Base(rel) })
	if err := os.Remove(filepath.Join(home, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
	g := ghostFS{FS: h.FS, ghost: ents[i], dir: path.Dir(rel)}
	rep, err := v.Sync(SyncOptions{Home: &model.Home{Dir: h.Dir, FS: g, Source: h.Source}, Now: t0.Add(2 * time.Hour), Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Gone != 1 || rep.Files != first.Files-1 {
		t.Errorf("after %s was removed: %d gone, %d files (want 1 gone, %d files)", rel, rep.Gone, rep.Files, first.Files-1)
	}
	st, err := v.loadState()
	if err != nil {
		t.Fatal(err)
	}
	if r := st.get(rel); r == nil || r.Gone.IsZero() {
		t.Errorf("%s is not marked gone: %+v", rel, r)
	}
}

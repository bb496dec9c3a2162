package model

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testenv"
)

// pasteLooks is a home fsys that counts what is asked of each paste
// file: opens, stats and the Info of its folder entry (an lstat).
type pasteLooks struct {
	fs.FS
	n atomic.Int64
}

func isPasteFile(name string) bool {
	return strings.HasPrefix(name, PasteCacheDir+"/") || strings.HasPrefix(name, PasteStoreDir+"/")
}

func (c *pasteLooks) Open(name string) (fs.File, error) {
	if isPasteFile(name) {
		c.n.Add(1)
	}
	return c.FS.Open(name)
}

func (c *pasteLooks) Stat(name string) (fs.FileInfo, error) {
	if isPasteFile(name) {
		c.n.Add(1)
	}
	return fs.Stat(c.FS, name)
}

func (c *pasteLooks) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(c.FS, name)
	for i, e := range ents {
		if isPasteFile(name + "/" + e.Name()) {
			ents[i] = testenv.InfoLooked(e, func() { c.n.Add(1) })
		}
	}
	return ents, err
}

// writeTestPaste writes content as the client does: a file named by the
// 16-hex prefix of its hash. It returns the hash.
func writeTestPaste(t *testing.T, dir, content string) PasteHash {
	t.Helper()
	sum := sha256.Sum256([]byte(content))
	h := hex.EncodeToString(sum[:8])
	if err := os.WriteFile(filepath.Join(dir, PasteCacheDir, h+pasteCacheExt), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return PasteHash(h)
}

// A warm run on an unchanged paste-cache looks at none of its files
// (InventoryPasteRefs lstat'ed each: the counting part fails on it), and
// answers as a run that looks at every file; a paste added, removed or
// replaced, a folder whose stamp changed, one not yet settled and a
// full pass are each seen.
func TestInventoryPasteFolderLooksAtNoPasteOfAnUnchangedFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, PasteCacheDir), 0o700); err != nil {
		t.Fatal(err)
	}
	a := writeTestPaste(t, dir, "first paste\n")
	b := writeTestPaste(t, dir, "second paste\n")
	orphan := writeTestPaste(t, dir, "nobody refers to me\n")
	refs := PasteRefs{Counts: map[PasteHash]int{a: 2, b: 1, "0123456789abcdef": 1}, Inline: 3}
	home := DirFS(dir)
	look := &pasteLooks{FS: home}
	folder := filepath.Join(dir, PasteCacheDir)
	setFolderTime := func(at time.Time) {
		t.Helper()
		if err := os.Chtimes(folder, at, at); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	t0 := now.Add(-time.Hour)
	setFolderTime(t0)

	// run is a warm run: the verdicts and the folder the last run kept.
	var saved []PasteVerdict
	var kept *PasteFolder
	run := func(what string, at time.Time) *PasteInventory {
		t.Helper()
		v := NewPasteVerdicts()
		v.Restore(saved)
		look.n.Store(0)
		inv, keep := InventoryPasteFolder(look, refs, v, kept, at)
		want := InventoryPasteRefs(home, refs, nil)
		if !reflect.DeepEqual(inv, want) {
			t.Fatalf("%s: inventory\n%+v\nwant (every file looked at)\n%+v", what, inv, want)
		}
		saved, kept = v.Saved(), keep
		return inv
	}

	first := run("cold", now)
	if first.Summary.Files != 3 || first.Summary.Orphans != 1 || first.Summary.Missing != 1 || first.Orphans[0].Hash != orphan {
		t.Fatalf("cold summary %+v", first.Summary)
	}
	if kept == nil || len(kept.Files) != 3 {
		t.Fatalf("a settled folder of paste files is kept: %+v", kept)
	}
	run("warm", now)
	if n := look.n.Load(); n != 0 {
		t.Errorf("a warm run on an unchanged paste-cache looked at its files %d times, want 0", n)
	}

	// A new paste: the folder's time moves.
	c := writeTestPaste(t, dir, "a new paste\n")
	refs.Counts[c] = 1
	t1 := now.Add(-30 * time.Minute)
	setFolderTime(t1)
	if inv := run("new paste", now); inv.Summary.Files != 4 || inv.Summary.Resolved != 3 {
		t.Errorf("after a new paste: %+v", inv.Summary)
	}
	if look.n.Load() == 0 {
		t.Error("a folder whose stamp changed was not listed again")
	}
	run("warm again", now)
	if n := look.n.Load(); n != 0 {
		t.Errorf("warm after the new paste: %d looks, want 0", n)
	}

	// A paste removed, the folder's time put back as it was: the
	// listing's names tell.
	if err := os.Remove(filepath.Join(folder, string(b)+pasteCacheExt)); err != nil {
		t.Fatal(err)
	}
	setFolderTime(t1)
	if inv := run("removed paste", now); inv.Summary.Files != 3 || inv.Summary.Missing != 2 {
		t.Errorf("after a paste was removed: %+v", inv.Summary)
	}

	// A paste replaced by another file of the same name (renamed over
	// it), the folder's time put back: its new stamp is read (rename
	// changes the inode), and its wrong content found.
	tmp := filepath.Join(dir, "tmp")
	if err := os.WriteFile(tmp, []byte("not what the name says\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(folder, string(a)+pasteCacheExt)); err != nil {
		t.Fatal(err)
	}
	t2 := now.Add(-20 * time.Minute)
	setFolderTime(t2)
	if inv := run("replaced paste", now); inv.Summary.HashMismatch != 1 {
		t.Errorf("after a paste was replaced: %+v", inv.Summary)
	}

	// A folder written just now is listed each run, and not kept.
	setFolderTime(now)
	run("unsettled", now)
	if look.n.Load() == 0 || kept != nil {
		t.Errorf("an unsettled folder: %d looks, kept %v", look.n.Load(), kept)
	}
	setFolderTime(t2)
	run("settled", now)
	run("warm on the settled folder", now)
	if n := look.n.Load(); n != 0 {
		t.Errorf("warm on the settled folder: %d looks, want 0", n)
	}
	// A day later every file is looked at again.
	run("full pass", now.Add(WriteOnceFull))
	if look.n.Load() == 0 {
		t.Error("no file looked at on the full pass")
	}
}

// A listing that is not whole (a folder entry that is not a paste file,
// a name in upper case) is not kept, and the hashes it has no file for
// are looked up as Check does: the answer is the full run's.
func TestInventoryPasteFolderNotWholeIsChecked(t *testing.T) {
	t.Parallel()
	for _, odd := range []string{"sub", "ABCDEF0123456789.txt"} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, PasteCacheDir, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		if odd != "sub" {
			if err := os.Remove(filepath.Join(dir, PasteCacheDir, "sub")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, PasteCacheDir, odd), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		a := writeTestPaste(t, dir, "a paste\n")
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(filepath.Join(dir, PasteCacheDir), old, old); err != nil {
			t.Fatal(err)
		}
		refs := PasteRefs{Counts: map[PasteHash]int{a: 1, "abcdef0123456789": 1, "0123456789abcdef": 1}}
		home := DirFS(dir)
		look := &pasteLooks{FS: home}
		inv, keep := InventoryPasteFolder(look, refs, nil, nil, time.Now())
		if want := InventoryPasteRefs(home, refs, nil); !reflect.DeepEqual(inv, want) {
			t.Errorf("%s: inventory\n%+v\nwant\n%+v", odd, inv, want)
		}
		if odd == "sub" && keep != nil {
			t.Errorf("%s: a folder with an entry that is no paste was kept", odd)
		}
	}
}

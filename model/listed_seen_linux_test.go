//go:build linux

package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A file a listed home's reader opened from its held folder (HeldRead)
// gives its listed entry the information of that open, when no reader
// had asked it: the entry's Info is then the open's fstat, not another
// look at the name (the paste inventory looked at each paste the
// secrets count had opened). An entry whose Info was asked before keeps
// that answer, and a file system not listed is looked at as before.
func TestListedEntryTakesTheOpensInformation(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"p/a.txt", "p/b.txt"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(n)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), []byte("abc"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	l := ListOnce(HomeFS(dir))
	ents, err := fs.ReadDir(l, "p")
	if err != nil || len(ents) != 2 {
		t.Fatalf("listing: %v, %v", ents, err)
	}
	// b's Info is asked before its open; a's is not.
	if info, err := ents[1].Info(); err != nil || info.Size() != 3 {
		t.Fatalf("b: %v, %v", info, err)
	}
	var r HeldRead
	for _, n := range []string{"p/a.txt", "p/b.txt"} {
		if !r.Open(l, n) {
			t.Skipf("%s not opened from a held folder (no openat2 here?)", n)
		}
		r.Close()
		// Written after the open: a look at the name now sees 5 bytes.
		if err := os.WriteFile(filepath.Join(dir, n), []byte("abcde"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if info, err := ents[0].Info(); err != nil || info.Size() != 3 || info.Name() != "a.txt" || !info.Mode().IsRegular() {
		t.Errorf("a's entry after its open: %v, %v (want the open's 3 bytes, no look more)", info, err)
	}
	if info, ok := ListedInfo(l, "p/a.txt"); !ok || info.Size() != 3 {
		t.Errorf("ListedInfo of a: %v, %v", info, ok)
	}
	if info, err := ents[1].Info(); err != nil || info.Size() != 3 {
		t.Errorf("b's entry: %v, %v (its first answer)", info, err)
	}
	// A fresh listing asks the system.
	if info, err := fs.Stat(HomeFS(dir), "p/a.txt"); err != nil || info.Size() != 5 {
		t.Errorf("the home itself: %v, %v", info, err)
	}
}

// ListedFolder lists a folder not listed yet only when its listing can
// have its stamp (its folder held): past the process's hold of folders
// it answers nothing and lists nothing, and its caller lists the folder
// once itself instead of twice (a listing without a stamp, then its
// own).
func TestListedFolderListsOnlyWhatItCanStamp(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o700); err != nil {
		t.Fatal(err)
	}
	l := ListOnce(HomeFS(dir)).(*listedFS)
	if l.held == nil {
		t.Skip("no held folders here (no openat2?)")
	}
	was := heldFolderCap
	heldFolderCap = heldFolders.Load()
	_, _, ok := ListedFolder(l, "p")
	heldFolderCap = was
	l.mu.Lock()
	_, listed := l.dirs["p"]
	l.mu.Unlock()
	if ok || listed {
		t.Fatalf("past the hold: answered %v, listed %v", ok, listed)
	}
	if _, st, ok := ListedFolder(l, "p"); !ok || !st.Known() {
		t.Errorf("with room to hold: %v, %v", st, ok)
	}
}

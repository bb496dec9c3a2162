package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// ListedInfo answers only from a listing already made, for a regular
// file in it: not for a folder not listed, a link, a folder entry, a
// name not there, or a file system that is not a ListOnce.
func TestListedInfoOnlyFromTheListing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "b"), []byte("b"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	plain := DirFS(dir)
	if _, ok := ListedInfo(plain, "a"); ok {
		t.Error("answered for a file system that is not a ListOnce")
	}
	l := ListOnce(plain)
	if _, ok := ListedInfo(l, "a"); ok {
		t.Error("answered before its folder was listed")
	}
	if _, err := fs.ReadDir(l, "."); err != nil {
		t.Fatal(err)
	}
	if info, ok := ListedInfo(l, "a"); !ok || info.Size() != 1 || !info.Mode().IsRegular() {
		t.Errorf("a: %v, %v", info, ok)
	}
	for _, n := range []string{"link", "d", "d/b", "missing"} {
		if _, ok := ListedInfo(l, n); ok {
			t.Errorf("%s: answered", n)
		}
	}
	if _, err := fs.ReadDir(l, "d"); err != nil {
		t.Fatal(err)
	}
	if _, ok := ListedInfo(l, "d/b"); !ok {
		t.Error("d/b: not answered once d was listed")
	}
}

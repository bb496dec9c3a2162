package model

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A memory folder inside the home is read with the home's link rule: a
// link to another folder of the home is followed, one out of the home
// (a file, or the folder itself) is refused naming the folder's own
// path; outside any home the folder is its own boundary.
func TestMemoryFSFollowsTheHomesLinkRule(t *testing.T) {
	home, out := t.TempDir(), t.TempDir()
	mem := filepath.Join(home, "projects", "-p", "memory")
	other := filepath.Join(home, "projects", "-q", "memory")
	for _, d := range []string{mem, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(other, "shared.md"), "shared inside the home")
	write(filepath.Join(out, "secret.md"), "outside")
	link := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	link("../../-q/memory/shared.md", filepath.Join(mem, "shared.md"))
	link(filepath.Join(out, "secret.md"), filepath.Join(mem, "secret.md"))
	linked := filepath.Join(home, "projects", "-r", "memory")
	if err := os.MkdirAll(filepath.Dir(linked), 0o755); err != nil {
		t.Fatal(err)
	}
	link(out, linked)

	fsys := MemoryFS(home, mem)
	if data, err := fs.ReadFile(fsys, "shared.md"); err != nil || string(data) != "shared inside the home" {
		t.Errorf("a link inside the home: %q, %v", data, err)
	}
	_, err := fs.ReadFile(fsys, "secret.md")
	var pe *fs.PathError
	if !IsLinkNotFollowed(err) || !errors.As(err, &pe) || pe.Path != "secret.md" {
		t.Errorf("a link out of the home: err %v, want a not-followed link naming secret.md", err)
	}
	if entries, err := fs.ReadDir(fsys, "."); err != nil || len(entries) != 2 {
		t.Errorf("listing the folder: %d entries, %v", len(entries), err)
	}
	if _, err := fs.ReadDir(MemoryFS(home, linked), "."); !IsLinkNotFollowed(err) {
		t.Errorf("a memory folder linked out of the home was listed: %v", err)
	}
	// On its own (no home, or a folder outside the home) the folder is
	// the boundary: the file link out of it is still refused, the
	// folder's own content read.
	if _, err := fs.ReadFile(MemoryFS("", mem), "secret.md"); !IsLinkNotFollowed(err) {
		t.Errorf("no home: a link out of the folder read: %v", err)
	}
	if data, err := fs.ReadFile(MemoryFS(home, out), "secret.md"); err != nil || string(data) != "outside" {
		t.Errorf("a folder outside the home: %q, %v", data, err)
	}
}

//go:build linux

package model

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// pasteDirectHome is a home with pastes of every kind an inventory
// meets: plain files (good and with a wrong name), a link inside the
// home, a link out of it, a named pipe, and a hash with no file. It
// returns the home and what history refers to.
func pasteDirectHome(t *testing.T) (string, PasteRefs) {
	t.Helper()
	home := t.TempDir()
	cache := filepath.Join(home, PasteCacheDir)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	refs := PasteRefs{Counts: map[PasteHash]int{}}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(cache, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range []string{"one", "two", "three", "four"} {
		h := HashPaste([]byte(text))
		write(string(h)+pasteCacheExt, text)
		refs.Counts[h] = 1
	}
	refs.Counts["0123456789abcdef"] = 2
	write("0123456789abcdef.txt", "not what the name says")
	if err := os.WriteFile(filepath.Join(home, "elsewhere.txt"), []byte("linked"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := HashPaste([]byte("linked"))
	if err := os.Symlink("../elsewhere.txt", filepath.Join(cache, string(linked)+pasteCacheExt)); err != nil {
		t.Fatal(err)
	}
	refs.Counts[linked] = 1
	out := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(out, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(cache, "1111111111111111.txt")); err != nil {
		t.Fatal(err)
	}
	refs.Counts["1111111111111111"] = 1
	if err := syscall.Mkfifo(filepath.Join(cache, "2222222222222222.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	refs.Counts["2222222222222222"] = 1
	refs.Counts["3333333333333333"] = 1 // no file
	return home, refs
}

// With the home held (stat), the inventory opens each paste it listed
// by its bare name from the paste folder's descriptor, not
// by the home's name with a reopen through /proc: the same inventory, a reopen
// only for the folder listed and the paste reached through a link. On the old code
// every paste read was reopened too (7 here, not 2). Without openat2
// nothing is opened by name or reopened, and the inventory is the same.
func TestInventoryOpensHeldPastesByName(t *testing.T) {
	eachKernel(t, inventoryOpensHeldPastesByName)
}

func inventoryOpensHeldPastesByName(t *testing.T, byName bool) {
	home, refs := pasteDirectHome(t)
	fsys := HomeFS(home)
	want := InventoryPasteRefs(fsys, refs, NewPasteVerdicts())
	release := HoldHome(home)
	defer release()
	r0, d0 := reopens.Load(), heldFolderOpens.Load()
	got := InventoryPasteRefs(fsys, refs, NewPasteVerdicts())
	wantR, wantD := int64(0), int64(0)
	if byName {
		wantR, wantD = 2, 5 // the paste folder, listed, and the paste reached through a link inside the home
	}
	if r, d := reopens.Load()-r0, heldFolderOpens.Load()-d0; r != wantR || d != wantD {
		t.Errorf("held inventory: %d reopens, %d pastes opened by name; want %d and %d", r, d, wantR, wantD)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("held inventory\n%+v\nnot held\n%+v", got, want)
	}
	s := got.Summary
	if s.Resolved != 5 || s.HashMismatch != 1 || s.Missing != 1 || s.Unreadable != 2 {
		t.Errorf("summary %+v: want 5 resolved, 1 mismatch, 1 missing, 2 unreadable (the pipe, the link out)", s)
	}
}

// A paste listed as a plain file that became something else before it
// is opened (a named pipe, a link out of the home, gone) is not read by
// its bare name: O_NOFOLLOW refuses the link, the descriptor's fstat the
// pipe (opened without blocking, never read), and the usual way says
// why, as it does for a home not held.
func TestInventoryHeldPasteSwappedAfterListing(t *testing.T) {
	eachKernel(t, inventoryHeldPasteSwappedAfterListing)
}

func inventoryHeldPasteSwappedAfterListing(t *testing.T, byName bool) {
	home, refs := pasteDirectHome(t)
	fsys := HomeFS(home)
	one, two, three := HashPaste([]byte("one")), HashPaste([]byte("two")), HashPaste([]byte("three"))
	name := func(h PasteHash) string { return filepath.Join(home, PasteCacheDir, string(h)+pasteCacheExt) }
	out := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(out, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	inventory := func(held bool) *PasteInventory {
		if err := os.WriteFile(name(one), []byte("one"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name(two), []byte("two"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name(three), []byte("three"), 0o644); err != nil {
			t.Fatal(err)
		}
		if held {
			defer HoldHome(home)()
		}
		v := NewPasteVerdicts()
		v.NextRound()
		c := NewPasteCacheWith(fsys, v)
		files, probs := c.List()
		for _, n := range []string{name(one), name(two), name(three)} {
			if err := os.Remove(n); err != nil {
				t.Fatal(err)
			}
		}
		if err := syscall.Mkfifo(name(one), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(out, name(two)); err != nil {
			t.Fatal(err)
		}
		inv := inventoryOf(c, v, refs, files, probs)
		for _, n := range []string{name(one), name(two)} {
			if err := os.Remove(n); err != nil {
				t.Fatal(err)
			}
		}
		return inv
	}
	want := inventory(false)
	d0 := heldFolderOpens.Load()
	got := inventory(true)
	// The files are written anew for each run (their stamps differ):
	// what they resolved to is compared.
	if !reflect.DeepEqual(got.Resolutions, want.Resolutions) || got.Summary != want.Summary || !reflect.DeepEqual(got.Problems, want.Problems) {
		t.Errorf("held inventory\n%+v\nnot held\n%+v", got, want)
	}
	for _, r := range got.Resolutions {
		if (r.Hash == one || r.Hash == two) && r.Status != PasteUnreadable || r.Hash == three && r.Status != PasteMissing {
			t.Errorf("%s: %s (%s)", r.Hash, r.Status, r.Reason)
		}
	}
	wantD := int64(0)
	if byName {
		wantD = 2 // the two still regular files (four, the mismatch)
	}
	if d := heldFolderOpens.Load() - d0; d != wantD {
		t.Errorf("%d pastes opened by name, want %d", d, wantD)
	}
}

package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// UpdatePasteInventory, told which paste files changed, gives what a full
// InventoryPasteRefs gives, through pastes added, removed, rewritten,
// misnamed files, folders in the way and paste-store files; a change to a
// folder itself asks for the full inventory.
func TestUpdatePasteInventoryMatchesFull(t *testing.T) {
	dir := t.TempDir()
	fsys := DirFS(dir)
	r := rand.New(rand.NewPCG(3, 4))
	put := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.RemoveAll(p)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hashOf := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])[:16]
	}
	refs := PasteRefs{Counts: map[PasteHash]int{}}
	var names []string
	for i := range 20 {
		c := fmt.Sprintf("paste %d", i)
		h := hashOf(c)
		put(PasteCacheDir+"/"+h+".txt", c)
		names = append(names, PasteCacheDir+"/"+h+".txt")
		refs.Counts[PasteHash(h)] = 1 + i%3
	}
	refs.Counts["ffffffffffffffff"] = 1 // missing
	v := NewPasteVerdicts()
	inv := InventoryPasteRefs(fsys, refs, v)
	for step := range 80 {
		var changed []string
		switch op := r.IntN(7); op {
		case 0: // a new paste, referenced or not
			c := fmt.Sprintf("new paste %d", step)
			h := hashOf(c)
			p := PasteCacheDir + "/" + h + ".txt"
			put(p, c)
			names = append(names, p)
			if r.IntN(2) == 0 {
				refs.Counts[PasteHash(h)]++
			}
			changed = append(changed, p)
		case 1: // removed
			p := names[r.IntN(len(names))]
			os.RemoveAll(filepath.Join(dir, filepath.FromSlash(p)))
			changed = append(changed, p)
		case 2: // rewritten: a hash mismatch
			p := names[r.IntN(len(names))]
			put(p, fmt.Sprintf("tampered %d", step))
			changed = append(changed, p)
		case 3: // not a paste file
			p := PasteCacheDir + fmt.Sprintf("/notes-%d.md", step)
			put(p, "x")
			changed = append(changed, p)
		case 4: // a folder where a paste was
			p := names[r.IntN(len(names))]
			full := filepath.Join(dir, filepath.FromSlash(p))
			os.RemoveAll(full)
			os.MkdirAll(full, 0o700)
			changed = append(changed, p)
		case 5: // paste-store
			c := fmt.Sprintf("stored %d", step)
			h := hashOf(c)
			p := PasteStoreDir + "/" + h
			put(p, c)
			refs.Counts[PasteHash(h)]++
			changed = append(changed, p)
		case 6: // nothing changed, history did
			refs.Counts[PasteHash(hashOf("paste 1"))]++
		}
		want := InventoryPasteRefs(fsys, refs, NewPasteVerdicts())
		got, ok := UpdatePasteInventory(fsys, refs, v, inv, changed)
		if !ok {
			t.Fatalf("step %d: the update gave up on %v", step, changed)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d (%v):\n%+v\nwant\n%+v", step, changed, got, want)
		}
		inv = got
	}
	for _, changed := range [][]string{{PasteCacheDir}, {PasteStoreDir + "/"}, {"history.jsonl"}} {
		if _, ok := UpdatePasteInventory(fsys, refs, v, inv, changed); ok {
			t.Errorf("%v: the update went on; a folder change needs the full inventory", changed)
		}
	}
}

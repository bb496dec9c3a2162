package model

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The verdicts PasteVerdictOf makes from each paste file's sha256 (as
// the secrets scan reads it) give the inventory the check's own answer
// (good pastes, a mismatch, seed paste-store names of both kinds) with
// no paste hashed again.
func TestPasteVerdictOfIsTheChecks(t *testing.T) {
	dir := t.TempDir()
	for name, f := range pasteHome(5) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seed := []byte("a seed paste\n")
	full := strings.Repeat("ab", 32)
	hist, _ := os.ReadFile(filepath.Join(dir, HistoryPath))
	for _, h := range []string{full, "seed-of-no-known-form"} {
		if err := os.MkdirAll(filepath.Join(dir, PasteStoreDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, PasteStoreDir, h), seed, 0o644); err != nil {
			t.Fatal(err)
		}
		hist = append(hist, `{"display":"p","pastedContents":{"1":{"id":1,"type":"text","contentHash":"`+h+`"}},"timestamp":1795340000000,"project":"/p"}`+"\n"...)
	}
	if err := os.WriteFile(filepath.Join(dir, HistoryPath), hist, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	h, err := ReadHistory(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	refs := PasteRefsOf(h)
	want := InventoryPasteRefs(fsys, refs, NewPasteVerdicts())
	if want.Summary.HashMismatch != 2 || want.Summary.Resolved != 6 {
		t.Fatalf("the home is not what the test meant: %+v", want.Summary)
	}
	var vs []PasteVerdict
	for _, d := range []string{PasteCacheDir, PasteStoreDir} {
		ents, _ := fs.ReadDir(fsys, d)
		for _, e := range ents {
			name := d + "/" + e.Name()
			data, _ := fs.ReadFile(fsys, name)
			info, _ := e.Info()
			sum := sha256.New()
			sum.Write(data)
			v, ok := PasteVerdictOf(name, StampOf(info), sum)
			if !ok {
				t.Fatalf("no verdict on %s", name)
			}
			vs = append(vs, v)
		}
	}
	if _, ok := PasteVerdictOf("projects/x.txt", FileStamp{}, sha256.New()); ok {
		t.Error("a verdict on a file outside the paste folders")
	}
	v := NewPasteVerdicts()
	v.Restore(vs)
	got := InventoryPasteRefs(fsys, refs, v)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("inventory from the verdicts:\n%+v\nthe check's own:\n%+v", got.Resolutions, want.Resolutions)
	}
	if n := v.Hashed(); n != 0 {
		t.Errorf("%d pastes hashed again, want none", n)
	}
}

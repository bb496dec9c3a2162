package model

import (
	"fmt"
	"reflect"
	"testing"
	"testing/fstest"
	"time"
)

// pasteHome has n good pastes, one whose content does not match its name
// and a history line referring to each and to one missing hash.
func pasteHome(n int) fstest.MapFS {
	mt := time.Unix(1_800_000_000, 0)
	fsys := fstest.MapFS{}
	var hist []byte
	add := func(h PasteHash) {
		hist = fmt.Appendf(hist, `{"display":"p","pastedContents":{"1":{"id":1,"type":"text","contentHash":%q}},"timestamp":1795340000000,"project":"/p"}`+"\n", h)
	}
	for i := range n {
		body := []byte(fmt.Sprintf("paste number %d\n", i))
		h := HashPaste(body)
		fsys[PasteCacheDir+"/"+string(h)+".txt"] = &fstest.MapFile{Data: body, ModTime: mt}
		add(h)
	}
	fsys[PasteCacheDir+"/00000000000000aa.txt"] = &fstest.MapFile{Data: []byte("not what the name says"), ModTime: mt}
	add("00000000000000aa")
	add("00000000000000bb")
	fsys[HistoryPath] = &fstest.MapFile{Data: hist, ModTime: mt}
	return fsys
}

// With remembered verdicts, a second inventory reads no paste file and
// gives the same answer; a file that changed (size or mtime) is read
// again and its new verdict shows.
func TestPasteVerdictsReadEachVersionOnce(t *testing.T) {
	fsys := pasteHome(20)
	h, err := ReadHistory(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	want := InventoryPastes(fsys, h)
	if want.Summary.Resolved != 20 || want.Summary.HashMismatch != 1 || want.Summary.Missing != 1 {
		t.Fatalf("the home is not what the test meant: %+v", want.Summary)
	}
	v := NewPasteVerdicts()
	refs := PasteRefsOf(h)
	for round := 0; round < 3; round++ {
		got := InventoryPasteRefs(fsys, refs, v)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: inventory with verdicts differs:\n%+v\nwant\n%+v", round, got.Summary, want.Summary)
		}
		if n := v.Hashed(); n != 21 {
			t.Fatalf("round %d: %d files hashed in all, want each of the 21 once", round, n)
		}
	}
	// The mismatched file is fixed: same name, new content and mtime.
	fixed := []byte("fixed")
	name := HashPaste(fixed)
	fsys[PasteCacheDir+"/00000000000000aa.txt"] = &fstest.MapFile{Data: []byte("still wrong, longer now"), ModTime: time.Unix(1_800_000_100, 0)}
	fsys[PasteCacheDir+"/"+string(name)+".txt"] = &fstest.MapFile{Data: fixed, ModTime: time.Unix(1_800_000_100, 0)}
	refs.Add([]HistoryEntry{{PastedContents: map[PasteID]PastedContent{1: {ID: 1, Hash: name}}}})
	got := InventoryPasteRefs(fsys, refs, v)
	if n := v.Hashed(); n != 23 {
		t.Fatalf("%d files hashed in all after two changed, want 23", n)
	}
	if got.Summary.Resolved != 21 || got.Summary.HashMismatch != 1 {
		t.Fatalf("after the change: %+v", got.Summary)
	}
	for _, r := range got.Resolutions {
		if r.Hash == "00000000000000aa" && r.Size != int64(len("still wrong, longer now")) {
			t.Fatalf("the changed file's verdict is the old one: %+v", r)
		}
	}
}

// Verdicts of files that are gone are dropped after two rounds.
func TestPasteVerdictsForgetGoneFiles(t *testing.T) {
	fsys := pasteHome(5)
	h, _ := ReadHistory(fsys, HistoryPath)
	v := NewPasteVerdicts()
	InventoryPasteRefs(fsys, PasteRefsOf(h), v)
	for p := range fsys {
		if p != HistoryPath {
			delete(fsys, p)
		}
	}
	InventoryPasteRefs(fsys, PasteRefsOf(h), v)
	InventoryPasteRefs(fsys, PasteRefsOf(h), v)
	if n := len(v.m); n != 0 {
		t.Fatalf("%d verdicts kept for files that are gone", n)
	}
}

// TestPasteVerdictsNextRoundAllocatesNothing: a round over verdicts
// restored from the cache (a warm start: 8 631 on W) makes no second map
// of them. Two maps, one a round, made a new one at each NextRound as
// large as the last round's.
func TestPasteVerdictsNextRoundAllocatesNothing(t *testing.T) {
	v := NewPasteVerdicts()
	saved := make([]PasteVerdict, 2000)
	for i := range saved {
		saved[i] = PasteVerdict{Path: fmt.Sprintf("paste-cache/%016x.txt", i), Stamp: FileStamp{Size: int64(i), ModTime: 1, ChangeTime: 2, ID: FileID{Dev: 1, Ino: uint64(i), Known: true}},
			Status: PasteOK, Verified: true, Actual: PasteHash(fmt.Sprintf("%016x", i))}
	}
	v.Restore(saved)
	files := make([]PasteFile, len(saved))
	for i, s := range saved {
		files[i] = PasteFile{Hash: s.Actual, Path: s.Path, Source: PasteSourceCache, stamp: s.Stamp}
	}
	allocs := testing.AllocsPerRun(5, func() {
		v.NextRound()
		for _, f := range files {
			if _, ok := v.listed(f.Hash, f); !ok {
				t.Fatal("a restored verdict was forgotten")
			}
		}
	})
	if allocs != 0 {
		t.Errorf("a round over %d verdicts allocated %.0f times, want none", len(saved), allocs)
	}
	if n := len(v.Saved()); n != len(saved) {
		t.Errorf("%d verdicts saved, want %d", n, len(saved))
	}
	// Not used for two rounds: forgotten, as before.
	v.NextRound()
	v.NextRound()
	if n := v.Kept(); n != 0 {
		t.Errorf("%d verdicts kept after two rounds unused", n)
	}
}

// TestPasteInventoryDoesNotCopyItsFiles: taking the listed files'
// verdicts allocates what the inventory holds (the resolutions, the
// hashes in order) and a map of the files' places, not a copy of each
// file (a map of 8 631 PasteFiles: 2 MB of a warm start on W).
func TestPasteInventoryDoesNotCopyItsFiles(t *testing.T) {
	const n = 4000
	v := NewPasteVerdicts()
	files := make([]PasteFile, n)
	saved := make([]PasteVerdict, n)
	refs := PasteRefs{Counts: map[PasteHash]int{}}
	for i := range files {
		h := PasteHash(fmt.Sprintf("%016x", i))
		st := FileStamp{Size: int64(i), ModTime: 1, ChangeTime: 2, ID: FileID{Dev: 1, Ino: uint64(i), Known: true}}
		files[i] = PasteFile{Hash: h, Path: PasteCacheDir + "/" + string(h) + pasteCacheExt, Source: PasteSourceCache, Size: st.Size, stamp: st}
		saved[i] = PasteVerdict{Path: files[i].Path, Stamp: st, Status: PasteOK, Verified: true, Actual: h}
		refs.Counts[h] = 1
	}
	v.Restore(saved)
	c := NewPasteCacheWith(fstest.MapFS{}, v)
	var inv *PasteInventory
	got := allocBytes(func() { inv = inventoryOf(c, v, refs, files, nil) })
	if inv.Summary.Resolved != n {
		t.Fatalf("%d resolved, want %d", inv.Summary.Resolved, n)
	}
	held := uint64(n) * uint64(reflect.TypeFor[PasteResolution]().Size()+reflect.TypeFor[PasteHash]().Size())
	if got > held*3/2 {
		t.Errorf("the inventory of %d listed pastes allocated %d bytes; it holds %d", n, got, held)
	}
}

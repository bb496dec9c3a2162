package inventory

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// A run of Stat on an unchanged home, history.jsonl given as a reader
// holds it (the app's History feed, at every start), answers from its
// cache and writes nothing back: the app's warm start wrote the whole
// stat cache again at every start (the cache's history entry, never set
// by a run given the held read, made every run look changed).
func TestStatFromHeldHistoryWritesNoUnchangedCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/home")); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, dir)
	var tail model.HistoryTail
	held, err := tail.Read(h.FS, model.HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	c := newCache(t)
	want := Stat(Options{Home: h, Cache: c, History: &held})
	file := filepath.Join(c.Dir(), diskcache.Name(cacheKind, h.Dir))
	before, err := os.Stat(file)
	if err != nil {
		t.Fatalf("the first run wrote no cache: %v", err)
	}
	// A second run, the same held read (the app holds history.jsonl).
	got := Stat(Options{Home: h, Cache: c, History: &held})
	if got.HistoryEntries != want.HistoryEntries || len(got.Malformed) != len(want.Malformed) {
		t.Fatalf("second run: %d entries, %d problems; first %d, %d", got.HistoryEntries, len(got.Malformed), want.HistoryEntries, len(want.Malformed))
	}
	after, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a run on an unchanged home wrote the stat cache again")
	}
}

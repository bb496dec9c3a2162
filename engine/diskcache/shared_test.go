package diskcache

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// same says a and b are one map (the value handed over, not a decode).
func same(a, b payload) bool {
	return reflect.ValueOf(a.Names).UnsafePointer() == reflect.ValueOf(b.Names).UnsafePointer()
}

// TestLoadSharedHandsOverOnce: the second LoadShared of an unchanged file
// takes the value the first decoded (one map, not a second decode), once;
// a file rewritten by another process (another Store), appended to,
// truncated, replaced, removed or saved through the Store is read again;
// a reader of another kind or type never takes it.
func TestLoadSharedHandsOverOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	s := New(dir, testroot.New(t), model.OSWriteFS{})
	other := New(dir, testroot.New(t), model.OSWriteFS{})
	v1 := payload{Names: map[string]int{"a": 1}}
	if err := Save(other, "k.1", "a.cache", v1); err != nil {
		t.Fatal(err)
	}
	load := func() payload {
		t.Helper()
		v, ok := LoadShared[payload](s, "k.1", "a.cache")
		if !ok {
			t.Fatal("LoadShared: not loaded")
		}
		return v
	}
	a := load()
	b := load()
	if !same(a, b) || !reflect.DeepEqual(b, v1) {
		t.Errorf("second LoadShared: %v (handed over: %v), want the first's %v", b, same(a, b), a)
	}
	c := load()
	if same(b, c) || !reflect.DeepEqual(c, v1) {
		t.Errorf("third LoadShared: %v (handed over again: %v), want a decode of %v", c, same(b, c), v1)
	}
	// c's value is left for the next reader: each change below must be
	// read instead.
	full := filepath.Join(dir, "a.cache")
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	v2 := payload{Names: map[string]int{"b": 2}}
	if err := Save(other, "k.1", "a.cache", v2); err != nil {
		t.Fatal(err)
	}
	if got := load(); !reflect.DeepEqual(got, v2) {
		t.Errorf("after another process's Save: %v, want %v", got, v2)
	}
	load() // takes it
	load() // leaves it
	if err := os.WriteFile(full, append(append([]byte{}, data...), 'x'), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadShared[payload](s, "k.1", "a.cache"); ok {
		t.Error("a file appended to (failing its length) loaded: the value left was handed over")
	}
	if err := os.WriteFile(full, data[:len(data)-1], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadShared[payload](s, "k.1", "a.cache"); ok {
		t.Error("a truncated file loaded")
	}
	// Written back in place, then replaced (another inode) by a file of
	// the same size holding another value.
	if err := os.WriteFile(full, data, 0o600); err != nil {
		t.Fatal(err)
	}
	load() // leaves v1
	v3 := payload{Names: map[string]int{"c": 3}}
	if err := Save(other, "k.1", "b.cache", v3); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "b.cache"), full); err != nil {
		t.Fatal(err)
	}
	if got := load(); !reflect.DeepEqual(got, v3) {
		t.Errorf("after the file was replaced: %v, want %v", got, v3)
	}
	load() // leaves it
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadShared[payload](s, "k.1", "a.cache"); ok {
		t.Error("a removed file loaded from the value left")
	}
	// A Save through s drops what it left (no stale value held).
	if err := Save(s, "k.1", "a.cache", v1); err != nil {
		t.Fatal(err)
	}
	load()
	if err := Save(s, "k.1", "a.cache", v2); err != nil {
		t.Fatal(err)
	}
	if _, left := s.takeHandOver("a.cache"); left {
		t.Error("Save kept the value left for the old file")
	}
	// Another kind or type does not take it.
	load()
	if _, ok := LoadShared[payload](s, "k.2", "a.cache"); ok {
		t.Error("a cache of kind k.1 handed over as k.2")
	}
	load()
	if _, ok := LoadShared[map[string]int](s, "k.1", "a.cache"); ok {
		t.Error("a payload handed over as a map")
	}
}

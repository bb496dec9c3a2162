package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// MapFile maps a file's bytes from any offset (not only a page's start)
// read-only, for an *os.File and for a file a listed home opened from a
// held folder; any other file, or nothing to map, is refused.
func TestMapFile(t *testing.T) {
	dir := t.TempDir()
	content := strings.Repeat("0123456789abcdef", 3000) // 48 000 bytes, 12 pages
	if err := os.WriteFile(filepath.Join(dir, "f.jsonl"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "f.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, off := range []int64{0, 1, 4095, 4096, 9999} {
		data, ok := MapFile(f, off, int64(len(content))-off)
		if !ok || string(data) != content[off:] {
			t.Fatalf("mapped from %d: ok %v, %d bytes", off, ok, len(data))
		}
		UnmapFile(data)
	}
	if _, ok := MapFile(f, 0, 0); ok {
		t.Error("nothing to map, mapped")
	}
	mf, err := fstest.MapFS{"a": {Data: []byte("x")}}.Open("a")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := MapFile(mf, 0, 1); ok {
		t.Error("a file of no descriptor mapped")
	}
	held := &heldFile{fdReader: fdReader{fd: int(f.Fd()), name: f.Name()}}
	data, ok := MapFile(held, 100, 50)
	if !ok || string(data) != content[100:150] {
		t.Fatalf("a held file mapped: ok %v, %q", ok, data)
	}
	UnmapFile(data)
}
